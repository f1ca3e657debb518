"""Faults: the front-end engine cannot start or dies; the voice keeps working and the engine comes
back on the next request."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from playground import service
from playground.pipeline import InputError

REPO = Path(__file__).resolve().parent.parent
DOC = "# 1 [calm] Still speaking.\nstill  S T IH1 L\nspeaking.  S P IY1 K IH0 NG"


# vLLM keeps global state (parallel groups) per process: engines that fail or die are exercised in
# their own process, so the session's shared engine is not disturbed.
def run_isolated(code: str) -> str:
    out = subprocess.run(
        [sys.executable, "-c", "from playground.env import configure_environment; configure_environment()\n" + code],
        cwd=REPO, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr[-3000:]
    return out.stdout


def test_engine_that_cannot_start_gives_a_clear_message(tmp_path):
    broken = tmp_path / "model"
    broken.mkdir()
    for name in ("tokenizer.json", "tokenizer_config.json"):  # a tokenizer but no weights/config
        (broken / name).write_bytes((REPO / "models" / "frontend" / name).read_bytes())
    stdout = run_isolated(f"""
import time
from playground.engine import EngineError
from playground.frontend import FrontEnd, InProcessBackend
fe = FrontEnd(InProcessBackend({str(broken)!r}))
t0 = time.perf_counter()
try:
    fe.analyze("Hello.")
except EngineError as exc:
    print("ERROR:", exc)
print("SECONDS:", time.perf_counter() - t0)
""")
    assert "ERROR: vLLM engine failed to start" in stdout
    assert float(stdout.split("SECONDS:")[1]) < 60


def test_typed_phonemes_are_spoken_without_the_engine(monkeypatch):
    """Synthesis of an edited document never touches the front end, so it works while vLLM is down."""
    monkeypatch.setenv("PLAYGROUND_FRONTEND_MODEL", "/nonexistent/model")
    out = service.synthesize(DOC, "bundled")
    assert out.state.audio.duration_s > 0.5
    with pytest.raises(InputError, match="front end is unavailable"):
        service.last(service.run("Hello there.", "bundled"))


def test_dead_engine_restarts_on_the_next_request():
    stdout = run_isolated("""
from playground.engine import get_engine
from playground.frontend import get_frontend
fe = get_frontend()
first = fe.analyze("The dog barked.")
engine = get_engine(fe.backend.config)
engine.shutdown()  # the engine thread is gone, as after a crash
assert not engine.alive
again = fe.analyze("The dog barked.")  # the next request starts a new engine
assert get_engine(fe.backend.config) is not engine
print("SAME:", [w.phonemes for w in again.words] == [w.phonemes for w in first.words])
""")
    assert "SAME: True" in stdout
