"""Process environment for offline, CPU-only use; call before importing vLLM or ESPnet."""

from __future__ import annotations

import os
import sys
from pathlib import Path


def configure_environment() -> None:
    venv = Path(sys.prefix)
    # The venv's bin/ holds the ffmpeg Gradio streams audio with (linked by scripts/install.sh).
    bin_dir = str(venv / "bin")
    if bin_dir not in os.environ.get("PATH", "").split(os.pathsep):
        os.environ["PATH"] = bin_dir + os.pathsep + os.environ.get("PATH", "")
    # g2p_en (imported by ESPnet) calls nltk.download at import time: point it at the stub corpus
    # scripts/install.sh made, so nothing is attempted offline.
    if (venv / "nltk_data").is_dir():
        os.environ.setdefault("NLTK_DATA", str(venv / "nltk_data"))
    # vLLM's CPU kernels spin in an OpenMP barrier: with 2 threads on 2 cores, any other busy thread
    # (the voice synthesizing the previous sentence, a second user) made a sentence 30x slower here
    # (48 s vs 1.6 s with one core busy). One thread keeps it steady; set OMP_NUM_THREADS to override.
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    # In-process vLLM engine: starts in seconds instead of ~50 s, half the memory.
    os.environ.setdefault("VLLM_ENABLE_V1_MULTIPROCESSING", "0")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    # Offline by default (no model hub here); set PLAYGROUND_ONLINE=1 on a networked host (HF Spaces)
    # to let ESPnet download its LJSpeech voice.
    if os.environ.get("PLAYGROUND_ONLINE", "0") != "1":
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
