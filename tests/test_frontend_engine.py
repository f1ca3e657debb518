"""The vLLM front end as the app uses it: one shared in-process engine, streamed, constrained,
and the same prompts through a remote vLLM OpenAI-compatible server."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from conftest import free_port, wait_for_http

from playground.constraints import TAGS
from playground.engine import EngineError
from playground.frontend import FrontEnd, RemoteBackend
from playground.lexicon import load_cmudict

REPO = Path(__file__).resolve().parent.parent


def test_tokens_stream_and_constraint_holds(frontend):
    events = list(frontend.stream_sentence("The wind was cold, so we read a book."))
    phn_updates = [e for e in events if e.stage == "phn"]
    norm_updates = [e for e in events if e.stage == "norm"]
    assert len(phn_updates) >= 5 and len(norm_updates) >= 5, "tokens must arrive one by one, not at the end"
    analysis = events[-1].analysis
    assert analysis is not None and analysis.tag in TAGS
    lex = load_cmudict()
    assert [w.text for w in analysis.words] == "the wind was cold so we read a book".split()
    for w in analysis.words:
        assert w.phonemes in lex[w.text], f"{w.text}: {w.phonemes} is not a dictionary pronunciation"
    assert analysis.words[3].punct == "," and analysis.words[-1].punct == "."


def test_normalization_is_chosen_among_verbalizations(frontend):
    a = frontend.analyze("Dr. Smith paid $5.30.")
    assert "five dollars and thirty cents" in a.normalized
    assert "$" not in a.normalized and "5" not in a.normalized


def test_concurrent_requests_share_the_running_batch(frontend):
    from playground.engine import get_engine

    engine = get_engine(frontend.backend.config)
    before = engine.stats.steps
    results: list = [None] * 8
    texts = [f"Sentence number {n} is here." for n in range(1, 9)]

    def work(i):
        results[i] = frontend.analyze(texts[i])

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert all(r is not None for r in results)
    assert engine.stats.steps > before
    assert engine.stats.max_running >= 4, "continuous batching: several requests must share engine steps"
    # each answer belongs to its own request (no cross-talk)
    for text, r in zip(texts, results):
        assert r.raw == text


@pytest.fixture(scope="module")
def remote_server():
    port = free_port()
    env = dict(os.environ, VLLM_CPU_KVCACHE_SPACE="1")
    cmd = [
        sys.executable, "-m", "vllm.entrypoints.openai.api_server",
        "--model", str(REPO / "models" / "frontend"), "--host", "127.0.0.1", "--port", str(port),
        "--dtype", "float32", "--enforce-eager", "--max-model-len", "512",
        "--kv-cache-memory-bytes", str(256 * 2**20),
        "--structured-outputs-config", '{"backend": "xgrammar"}',
    ]  # fmt: skip
    log = open(REPO / "artifacts" / "remote_vllm.log", "w") if (REPO / "artifacts").is_dir() else subprocess.DEVNULL
    proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    wait_for_http(proc, url + "/v1/models", 240, "the vLLM OpenAI-compatible server")
    yield url
    proc.terminate()
    proc.wait(timeout=30)


def test_remote_server_gives_the_same_phonemes(frontend, remote_server):
    remote = FrontEnd(RemoteBackend(remote_server))
    text = "My friend will record a new song in March."
    events = list(remote.stream_sentence(text))
    assert sum(e.stage == "phn" for e in events) >= 3, "the remote path streams too"
    local_a, remote_a = frontend.analyze(text), events[-1].analysis
    assert remote_a.normalized == local_a.normalized
    assert [w.phonemes for w in remote_a.words] == [w.phonemes for w in local_a.words]


def test_remote_down_fails_fast_with_a_clear_message():
    fe = FrontEnd(RemoteBackend(f"http://127.0.0.1:{free_port()}", model="x"))
    t0 = time.perf_counter()
    with pytest.raises(EngineError, match="unreachable"):
        fe.analyze("Hello.")
    assert time.perf_counter() - t0 < 5
