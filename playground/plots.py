"""Figures for one output: waveform, mel spectrogram, F0 contour and the per-stage timeline."""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure  # not pyplot: its global registry would keep every figure alive

from playground import audio
from playground.audio import AudioChunk

STAGE_COLORS = {"front end": "#4C78A8", "voice": "#F58518", "post": "#54A24B"}


def audio_figure(chunk: AudioChunk, title: str = ""):
    """Waveform, mel spectrogram (dB) and F0 contour on one time axis."""
    fig = Figure(figsize=(9, 6), layout="constrained")
    axes = fig.subplots(3, 1, sharex=True)
    t = np.arange(len(chunk.samples)) / chunk.sample_rate
    axes[0].plot(t, chunk.samples, linewidth=0.5, color="#333")
    axes[0].set_ylabel("amplitude")
    axes[0].set_title(title or f"{chunk.duration_s:.2f} s at {chunk.sample_rate} Hz")
    mel = audio.mel_spectrogram_db(chunk)
    axes[1].imshow(mel, origin="lower", aspect="auto", extent=(0, chunk.duration_s, 0, mel.shape[0]), cmap="magma")
    axes[1].set_ylabel("mel bin")
    times, f0 = audio.f0_contour(chunk)
    axes[2].plot(times, f0, ".", markersize=2, color="#E45756")
    axes[2].set_ylabel("F0 (Hz)")
    axes[2].set_xlabel("time (s)")
    return fig


def timeline_figure(spans, ttfa_s: float | None, total_s: float | None):
    """One bar per stage and sentence: the front end runs ahead, the voice follows."""
    rows = sorted({(s.sentence, s.stage) for s in spans})
    fig = Figure(figsize=(9, 0.45 * max(len(rows), 2) + 1), layout="constrained")
    ax = fig.subplots()
    for y, (sentence, stage) in enumerate(rows):
        for s in spans:
            if (s.sentence, s.stage) == (sentence, stage):
                ax.barh(y, s.end_s - s.start_s, left=s.start_s, color=STAGE_COLORS.get(stage, "#999"))
    ax.set_yticks(range(len(rows)), [f"sentence {n + 1}: {st}" for n, st in rows])
    ax.invert_yaxis()
    if ttfa_s is not None:
        ax.axvline(ttfa_s, color="#E45756", linestyle="--", label=f"first audio {ttfa_s:.2f} s")
    if total_s is not None:
        ax.axvline(total_s, color="#333", linestyle=":", label=f"total {total_s:.2f} s")
    ax.set_xlabel("seconds since Run")
    if ttfa_s is not None or total_s is not None:
        ax.legend(loc="lower right")
    return fig
