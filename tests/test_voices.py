"""The bundled voice (Piper VITS on onnxruntime) speaking CMUdict phonemes, checked by the bundled ASR."""

from __future__ import annotations

import math
import time

import pytest

from playground import asr, audio
from playground.phonemes import ARPABET_INVENTORY, Word
from playground.prosody import Knobs
from playground.voices import InvalidPhonemes, Voice, list_voices, load_voice, load_voice_with_fallback
from playground.voices.piper_vits import symbols_to_ids, words_to_symbols

SENTENCES = [
    "The quick brown fox jumps over the lazy dog.",
    "Please call Stella and ask her to bring these things with her from the store.",
    "I would like a cup of coffee, with milk and no sugar.",
]


def test_bundled_voice_shape(bundled_voice):
    assert isinstance(bundled_voice, Voice)
    assert bundled_voice.name == "bundled" and bundled_voice.sample_rate == 22050
    assert bundled_voice.inventory == ARPABET_INVENTORY
    assert bundled_voice.knob_names == {"length_scale", "noise_scale", "noise_w"}
    assert load_voice("bundled") is bundled_voice  # one instance per process
    assert load_voice_with_fallback("bundled") == (bundled_voice, "")


def test_phoneme_id_layout_follows_piper(bundled_voice):
    id_map = bundled_voice.id_map
    words = [Word("hi", ["HH", "AY1"], ","), Word("you", ["Y", "UW1"], "?")]
    symbols = words_to_symbols(words, id_map)
    assert symbols == ["h", "ˈ", "a", "ɪ", ",", " ", "j", "ˈ", "u", "ː", "?"]
    ids = symbols_to_ids(symbols, id_map)
    pad = id_map["_"][0]
    assert ids[:2] == [id_map["^"][0], pad] and ids[-1] == id_map["$"][0]
    assert ids[3:-1:2] == [pad] * len(symbols)  # PAD after every symbol
    assert ids[2:-1:2] == [id_map[s][0] for s in symbols]


def test_round_trip_through_asr(bundled_voice, cmu_words):
    refs, hyps, synth_s, audio_s = [], [], 0.0, 0.0
    for sentence in SENTENCES:
        t0 = time.perf_counter()
        chunk = bundled_voice.synthesize(cmu_words(sentence), Knobs())
        synth_s += time.perf_counter() - t0
        audio_s += chunk.duration_s
        assert chunk.sample_rate == 22050 and 0.05 < abs(chunk.samples).max() <= 1.0
        refs.append(sentence)
        hyps.append(asr.transcribe(chunk))
    total = asr.wer(" ".join(refs), " ".join(hyps))
    print(f"bundled voice: WER {total:.3f}, RTF {synth_s / audio_s:.3f}; {hyps}")
    assert total <= 0.15, hyps


def test_length_scale_slows_speech(bundled_voice, cmu_words):
    words = cmu_words(SENTENCES[0])
    # noise_w=0: deterministic durations, so the ratio measures the knob, not the noise.
    base = bundled_voice.synthesize(words, Knobs(noise_w=0.0))
    slow = bundled_voice.synthesize(words, Knobs(length_scale=1.5, noise_w=0.0))
    ratio = slow.duration_s / base.duration_s
    print(f"length_scale 1.5 / 1.0 duration ratio: {ratio:.3f}")
    # Durations are ceil(w * scale) frames per id, and the pads between phonemes are short, so the
    # ratio sits a little under 1.5.
    assert ratio == pytest.approx(1.5, rel=0.15)
    rate = audio.speech_rate(sum(len(w.phonemes) for w in words), base)
    assert 6 < rate < 20  # phonemes per second of ordinary speech


def test_pitch_shift_on_speech(bundled_voice, cmu_words):
    chunk = bundled_voice.synthesize(cmu_words(SENTENCES[0]), Knobs(noise_w=0.0))
    f0 = audio.median_f0(chunk)
    shifted = audio.median_f0(audio.pitch_shift(chunk, 4.0))
    moved = audio.semitones_between(f0, shifted)
    print(f"median F0 {f0:.1f} Hz -> {shifted:.1f} Hz: {moved:+.2f} semitones")
    assert 60 < f0 < 300 and moved == pytest.approx(4.0, abs=1.0)


def test_bad_input_is_refused_before_synthesis(bundled_voice):
    with pytest.raises(InvalidPhonemes) as info:
        bundled_voice.synthesize([Word("hello", ["HH", "AH", "L", "OW1"])], Knobs())
    assert 'word 1 "hello"' in str(info.value) and "AH0 / AH1 / AH2" in str(info.value)
    with pytest.raises(ValueError, match="length_scale"):
        bundled_voice.synthesize([Word("hi", ["HH", "AY1"])], Knobs(length_scale=math.nan))
    assert len(bundled_voice.synthesize([], Knobs())) == 0


def test_list_voices_reports_availability():
    statuses = {s.name: s for s in list_voices(extra_specs=("/nonexistent/model",))}
    assert statuses["bundled"].available and statuses["bundled"].sample_rate == 22050
    assert "espnet:ljspeech" in statuses
    assert not statuses["/nonexistent/model"].available
