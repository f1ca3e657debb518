"""One panel's measurements, taken the way a listener meets the audio.

The audio is measured *as labelled*: samples played at the declared rate, so a 22 050 Hz chunk
labelled 16 000 Hz lasts 22050/16000 × longer and its F0 drops by the same ratio — exactly what a
player does with it. The ASR hears it the same way: resampled to 16 kHz *from the declared rate*;
its transcript is verbalized before WER against the correct panel's normalized text.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import editdistance

from playground import asr, audio
from playground.audio import AudioChunk
from playground.frontend import split_words
from playground.lexicon import load_cmudict
from playground.phonemes import Word

# The keys of every panel's metrics (README and the /compare endpoint use these names).
KEYS: tuple[str, ...] = (
    "ttfa_s",
    "total_s",
    "duration_s",
    "speech_rate",
    "f0_median_hz",
    "sample_rate_declared",
    "sample_rate_true",
    "per",
    "asr_wer",
    "spectral_flatness",
)


def as_heard(chunk: AudioChunk, declared_rate: int | None) -> AudioChunk:
    """The same samples with the rate a player would use."""
    if not declared_rate or declared_rate == chunk.sample_rate:
        return chunk
    return AudioChunk(chunk.samples, declared_rate)


def per(expected: Sequence[str], spoken: Sequence[Word]) -> float | None:
    """Phoneme error rate of the spoken words against the dictionary.

    For every expected word that is in CMUdict: the edit distance from what was spoken for it to
    its *closest* dictionary pronunciation, over the length of that pronunciation. An expected word
    that was never spoken (truncated, dropped) counts as all deletions. None without any
    in-dictionary word.
    """
    lex = load_cmudict()
    spoken_by_word = _align(expected, spoken)
    errors = total = 0
    for word, phones in zip(expected, spoken_by_word):
        prons = lex.get(word.lower())
        if not prons:
            continue
        best = min(prons, key=lambda p: (editdistance.eval(p, phones) / len(p), len(p)))
        errors += editdistance.eval(best, phones)
        total += len(best)
    return errors / total if total else None


def _align(expected: Sequence[str], spoken: Sequence[Word]) -> list[list[str]]:
    """Spoken words are the expected ones in order, possibly with some missing (dropped or cut)."""
    out: list[list[str]] = []
    j = 0
    for word in expected:
        if j < len(spoken) and spoken[j].text == word:
            out.append(list(spoken[j].phonemes))
            j += 1
        else:
            out.append([])
    return out


def expected_words(normalized_sentences: Sequence[str]) -> list[str]:
    return [w for s in normalized_sentences for w, _ in split_words(s)]


def spoken_form(transcript: str) -> str:
    """The ASR writes "Dr.", "$5.30", "3/4"; the reference is spoken words. Verbalize the transcript
    with the project's own normalizer, so WER compares words with words, not spelling conventions."""
    from playground.normalize import default_normalization

    try:
        return default_normalization(transcript)
    except Exception:  # noqa: BLE001 - a transcript the rules cannot read is scored as written
        return transcript


def _num(x: float | None, digits: int = 4) -> float | None:
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else round(float(x), digits)


def panel_metrics(
    chunk: AudioChunk | None,
    *,
    declared_rate: int | None,
    n_phonemes: int | None,
    per_value: float | None,
    reference_text: str,
    ttfa_s: float | None,
    total_s: float | None,
    with_asr: bool = True,
) -> dict:
    """The metrics table of one panel: KEYS plus `asr_text` (what the ASR heard)."""
    m: dict = dict.fromkeys(KEYS)
    m.update(ttfa_s=_num(ttfa_s, 3), total_s=_num(total_s, 3), per=_num(per_value))
    if chunk is None or len(chunk) == 0:
        m.update(duration_s=0.0, asr_wer=1.0, asr_text="")
        return m
    heard = as_heard(chunk, declared_rate)
    m.update(
        duration_s=_num(heard.duration_s, 4),
        sample_rate_declared=heard.sample_rate,
        sample_rate_true=chunk.sample_rate,
        # pYIN's search range is fixed (60-500 Hz), so measure F0 on the samples as made and scale it
        # by declared/true: exactly what a player does to every frequency.
        f0_median_hz=_num(audio.median_f0(chunk) * heard.sample_rate / chunk.sample_rate, 1),
        spectral_flatness=_num(audio.spectral_flatness(heard)),
        speech_rate=_num(audio.speech_rate(n_phonemes, heard), 3) if n_phonemes else None,
    )
    if with_asr:
        # asr.transcribe resamples from heard.sample_rate (the declared one) to 16 kHz.
        text = asr.transcribe(heard)
        m.update(asr_text=text, asr_wer=_num(asr.wer(reference_text, spoken_form(text))))
    return m
