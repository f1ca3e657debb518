"""Faults: the front-end engine cannot start or dies; the voice keeps working and the engine comes
back on the next request."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

import pytest

from playground import service
from playground.engine import EngineError, get_engine
from playground.frontend import FrontEnd, InProcessBackend
from playground.pipeline import InputError

REPO = Path(__file__).resolve().parent.parent
DOC = "# 1 [calm] Still speaking.\nstill  S T IH1 L\nspeaking.  S P IY1 K IH0 NG"


def test_engine_that_cannot_start_gives_a_clear_message(tmp_path):
    broken = tmp_path / "model"
    broken.mkdir()
    for name in ("tokenizer.json", "tokenizer_config.json"):  # a tokenizer but no weights/config
        (broken / name).write_bytes((REPO / "models" / "frontend" / name).read_bytes())
    fe = FrontEnd(InProcessBackend(broken))
    t0 = time.perf_counter()
    with pytest.raises(EngineError, match="failed to start"):
        fe.analyze("Hello.")
    assert time.perf_counter() - t0 < 60


def test_typed_phonemes_are_spoken_without_the_engine(monkeypatch):
    """Synthesis of an edited document never touches the front end, so it works while vLLM is down."""
    monkeypatch.setenv("PLAYGROUND_FRONTEND_MODEL", "/nonexistent/model")
    out = service.synthesize(DOC, "bundled")
    assert out.state.audio.duration_s > 0.5
    with pytest.raises(InputError, match="front end is unavailable"):
        service.last(service.run("Hello there.", "bundled"))


def test_dead_engine_restarts_on_the_next_request(frontend):
    config = replace(frontend.backend.config, kv_cache_bytes=frontend.backend.config.kv_cache_bytes // 2)
    backend = InProcessBackend(config.model_dir)
    backend.config = config  # a second engine of its own, so the shared one is not disturbed
    fe = FrontEnd(backend)
    first = fe.analyze("The dog barked.")
    engine = get_engine(config)
    engine.shutdown()  # the engine thread is gone, as after a crash
    assert not engine.alive
    again = fe.analyze("The dog barked.")
    assert get_engine(config) is not engine
    assert [w.phonemes for w in again.words] == [w.phonemes for w in first.words]
    get_engine(config).shutdown()
