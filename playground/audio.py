"""Audio chunks that carry their own sample rate, plus the measurements the playground shows.

Every chunk knows its rate, so mixing rates (the classic "22.05 kHz audio played at 16 kHz"
chipmunk bug) is an explicit error in :func:`concat` instead of a silent mistake.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import librosa
import numpy as np
import soundfile as sf
import torch
import torchaudio.functional as AF
import torchaudio.transforms as T


@dataclass(frozen=True)
class AudioChunk:
    """Mono float32 samples in [-1, 1] and the rate they were produced at."""

    samples: np.ndarray
    sample_rate: int

    def __post_init__(self) -> None:
        samples = np.asarray(self.samples, dtype=np.float32)
        if samples.ndim != 1:
            raise ValueError(f"AudioChunk needs mono 1-D samples, got shape {samples.shape}")
        if int(self.sample_rate) <= 0:
            raise ValueError(f"sample_rate must be a positive int, got {self.sample_rate!r}")
        # Frozen: normalise the fields once, here.
        object.__setattr__(self, "samples", samples)
        object.__setattr__(self, "sample_rate", int(self.sample_rate))

    @property
    def duration_s(self) -> float:
        return len(self.samples) / self.sample_rate

    def __len__(self) -> int:
        return len(self.samples)


def duration_s(chunk: AudioChunk) -> float:
    """Duration in seconds (samples / sample_rate)."""
    return chunk.duration_s


def _tensor(chunk: AudioChunk) -> torch.Tensor:
    return torch.from_numpy(chunk.samples.copy())


def _chunk(samples: torch.Tensor | np.ndarray, sample_rate: int) -> AudioChunk:
    if isinstance(samples, torch.Tensor):
        samples = samples.detach().cpu().numpy()
    return AudioChunk(np.clip(samples, -1.0, 1.0).astype(np.float32), sample_rate)


# --- transforms ------------------------------------------------------------------------------
def resample(chunk: AudioChunk, sample_rate: int) -> AudioChunk:
    """Band-limited resampling (torchaudio's windowed sinc); duration is preserved."""
    if sample_rate == chunk.sample_rate:
        return chunk
    if len(chunk) == 0:
        return AudioChunk(chunk.samples, sample_rate)
    out = AF.resample(_tensor(chunk), chunk.sample_rate, int(sample_rate))
    return _chunk(out, sample_rate)


def silence(seconds: float, sample_rate: int) -> AudioChunk:
    """Digital silence of the given length (rounded to whole samples)."""
    if not math.isfinite(seconds) or seconds < 0:
        raise ValueError(f"silence length must be a finite number >= 0 s, got {seconds!r}")
    return AudioChunk(np.zeros(round(seconds * sample_rate), dtype=np.float32), sample_rate)


def concat(chunks: Sequence[AudioChunk], gap_s: float = 0.0) -> AudioChunk:
    """Join chunks with ``gap_s`` seconds of silence between them.

    Raises ValueError when the chunks do not share one sample rate: resample first.
    """
    if not chunks:
        raise ValueError("concat needs at least one chunk (it takes the sample rate from them)")
    rates = sorted({c.sample_rate for c in chunks})
    if len(rates) > 1:
        raise ValueError(
            f"concat refuses mixed sample rates {rates} Hz: resample every chunk to one rate "
            "first (joining them as-is would play some at the wrong speed and pitch)"
        )
    sr = rates[0]
    gap = silence(gap_s, sr).samples
    parts: list[np.ndarray] = []
    for i, c in enumerate(chunks):
        if i and len(gap):
            parts.append(gap)
        parts.append(c.samples)
    return AudioChunk(np.concatenate(parts), sr)


def pitch_shift(chunk: AudioChunk, semitones: float) -> AudioChunk:
    """Shift pitch by ``semitones`` (fractional allowed), keeping the duration.

    librosa's phase-vocoder time stretch + soxr resampling. Not torchaudio.functional.pitch_shift:
    it resamples between coprime rates (e.g. 27 781 -> 22 050 Hz) with a 22 050-phase sinc
    kernel, ~60 s for 2 s of audio on a CPU. Formants move with the pitch, so large shifts sound
    cartoonish: the honest cost of a post-synthesis pitch knob on a voice without a pitch input.
    """
    if not math.isfinite(semitones):
        raise ValueError(f"pitch shift must be a finite number of semitones, got {semitones!r}")
    if abs(semitones) < 1e-3 or len(chunk) == 0:
        return chunk
    n_fft = 1024 if chunk.sample_rate > 16000 else 512
    out = librosa.effects.pitch_shift(chunk.samples, sr=chunk.sample_rate, n_steps=float(semitones), n_fft=n_fft)
    return _chunk(out, chunk.sample_rate)


def normalize_peak(chunk: AudioChunk, peak: float = 0.95) -> AudioChunk:
    """Scale so the largest |sample| equals ``peak``; silence stays silence."""
    m = float(np.max(np.abs(chunk.samples))) if len(chunk) else 0.0
    if m < 1e-8:
        return chunk
    return AudioChunk(chunk.samples * (peak / m), chunk.sample_rate)


# --- WAV I/O ---------------------------------------------------------------------------------
def to_wav_bytes(chunk: AudioChunk) -> bytes:
    """16-bit PCM WAV bytes (the rate is written in the header, so players get it right)."""
    buf = io.BytesIO()
    sf.write(buf, chunk.samples, chunk.sample_rate, format="WAV", subtype="PCM_16")
    return buf.getvalue()


def write_wav(chunk: AudioChunk, path: str | Path) -> Path:
    path = Path(path)
    sf.write(str(path), chunk.samples, chunk.sample_rate, format="WAV", subtype="PCM_16")
    return path


def read_wav(path: str | Path) -> AudioChunk:
    """Read any soundfile-supported file; multi-channel audio is averaged to mono."""
    data, sr = sf.read(str(path), dtype="float32", always_2d=True)
    return AudioChunk(data.mean(axis=1), sr)


# --- measurements ----------------------------------------------------------------------------
F0_MIN_HZ = 50.0  # a low male voice played too slowly (rate mislabel) still tracks
F0_MAX_HZ = 500.0


def f0_contour(chunk: AudioChunk, fmin: float = F0_MIN_HZ, fmax: float = F0_MAX_HZ) -> tuple[np.ndarray, np.ndarray]:
    """(times_s, f0_hz) from librosa's pYIN; unvoiced frames are NaN."""
    if chunk.duration_s < 0.1:
        return np.zeros(0), np.zeros(0)
    # pYIN cost grows with the rate; 16 kHz keeps speech F0 (<500 Hz) intact and is ~2x faster.
    c = resample(chunk, 16000) if chunk.sample_rate > 16000 else chunk
    frame_length, hop = 1024, 256
    f0, _voiced, _prob = librosa.pyin(
        c.samples, fmin=fmin, fmax=fmax, sr=c.sample_rate,
        frame_length=frame_length, hop_length=hop,
    )  # fmt: skip
    times = librosa.times_like(f0, sr=c.sample_rate, hop_length=hop)
    return times, f0


def median_f0(chunk: AudioChunk, fmin: float = F0_MIN_HZ, fmax: float = F0_MAX_HZ) -> float:
    """Median F0 (Hz) over voiced frames; NaN when nothing is voiced (e.g. noise, silence)."""
    _, f0 = f0_contour(chunk, fmin, fmax)
    voiced = f0[np.isfinite(f0)]
    return float(np.median(voiced)) if len(voiced) else float("nan")


def f0_shift_semitones(before: AudioChunk, after: AudioChunk) -> float:
    """How far `after` is pitched from `before` (same timing, e.g. a pitch shift): the median of
    frame-by-frame F0 ratios over frames voiced in both, in semitones. Comparing two medians would
    mix in the frames whose voicing decision flips, which skews the answer by a semitone or more."""
    _, f0_a = f0_contour(before)
    _, f0_b = f0_contour(after)
    n = min(len(f0_a), len(f0_b))
    ratio = f0_b[:n] / f0_a[:n]
    ratio = ratio[np.isfinite(ratio)]
    return float(12 * np.log2(np.median(ratio))) if ratio.size else float("nan")


def semitones_between(f0_from: float, f0_to: float) -> float:
    """Interval in semitones from one frequency to another (NaN-propagating)."""
    return 12.0 * math.log2(f0_to / f0_from) if f0_from > 0 and f0_to > 0 else float("nan")


@lru_cache(maxsize=8)
def _mel(sample_rate: int, n_fft: int, hop: int, n_mels: int) -> T.MelSpectrogram:
    return T.MelSpectrogram(sample_rate, n_fft=n_fft, hop_length=hop, n_mels=n_mels)


def mel_spectrogram_db(chunk: AudioChunk, n_fft: int = 1024, hop_length: int = 256, n_mels: int = 80) -> np.ndarray:
    """Log-mel spectrogram in dB, shape (n_mels, frames), floor 80 dB below the peak."""
    mel = _mel(chunk.sample_rate, n_fft, hop_length, n_mels)(_tensor(chunk))
    db = T.AmplitudeToDB(stype="power", top_db=80.0)(mel)
    return db.numpy()


def _active_frames(chunk: AudioChunk, frame: int, hop: int, top_db: float) -> np.ndarray:
    rms = librosa.feature.rms(y=chunk.samples, frame_length=frame, hop_length=hop)[0]
    if not len(rms) or rms.max() <= 1e-8:
        return np.zeros(len(rms), dtype=bool)
    return librosa.amplitude_to_db(rms, ref=np.max) > -top_db


def spectral_flatness(chunk: AudioChunk, top_db: float = 60.0) -> float:
    """Mean spectral flatness over non-silent frames (white noise ~0.5+, speech ~0.01-0.1).

    Frames more than ``top_db`` below the loudest frame are skipped: digital silence is
    "perfectly flat" by definition and would otherwise pull speech with pauses towards noise.
    NaN for an all-silent chunk.
    """
    n_fft, hop = 1024, 256
    if len(chunk) < n_fft:
        return float("nan")
    flat = librosa.feature.spectral_flatness(y=chunk.samples, n_fft=n_fft, hop_length=hop)[0]
    active = _active_frames(chunk, n_fft, hop, top_db)[: len(flat)]
    return float(flat[active].mean()) if active.any() else float("nan")


def active_duration_s(chunk: AudioChunk, top_db: float = 40.0) -> float:
    """Seconds of non-silent audio (librosa.effects.split, ``top_db`` below the peak)."""
    if len(chunk) == 0 or np.max(np.abs(chunk.samples)) <= 1e-8:
        return 0.0
    intervals = librosa.effects.split(chunk.samples, top_db=top_db)
    return float(sum(int(e - s) for s, e in intervals)) / chunk.sample_rate


def speech_rate(n_phonemes: int, chunk: AudioChunk) -> float:
    """Phonemes per second over the *non-silent* duration (see :func:`active_duration_s`).

    Leading/trailing silence and sentence pauses are excluded so the number tracks how fast
    the voice speaks, not the pause knob. NaN when the chunk is silent.
    """
    active = active_duration_s(chunk)
    return n_phonemes / active if active > 0 else float("nan")
