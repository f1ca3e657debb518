"""Process environment for offline, CPU-only use; call before importing vLLM or ESPnet."""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
from pathlib import Path

_M_MMAP_THRESHOLD = -3  # glibc mallopt() parameter


def fix_mmap_threshold(nbytes: int | None = None) -> bool:
    """Serve every allocation >= nbytes with its own mmap, returned to the OS when freed.

    glibc raises this threshold after the first large free, so the voice's per-sentence buffers
    (tens of MB, many threads at once under load) then come from thread heaps that fragment and keep
    their pages: server RSS grew x1.5 from 20 to 200 requests. A fixed threshold keeps it flat.
    PLAYGROUND_MMAP_THRESHOLD sets nbytes (default 128 KiB; 0 leaves glibc's dynamic threshold).
    Returns False where there is no glibc, MALLOC_MMAP_THRESHOLD_ already decides, or it is off.
    """
    if nbytes is None:
        nbytes = int(os.environ.get("PLAYGROUND_MMAP_THRESHOLD", 128 * 1024))
    if nbytes <= 0 or "MALLOC_MMAP_THRESHOLD_" in os.environ or not sys.platform.startswith("linux"):
        return False
    name = ctypes.util.find_library("c")
    try:
        return bool(ctypes.CDLL(name).mallopt(_M_MMAP_THRESHOLD, nbytes)) if name else False
    except (OSError, AttributeError):  # musl and others have no mallopt
        return False


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
    fix_mmap_threshold()
