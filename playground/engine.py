"""One vLLM engine per process, shared by every user: continuous batching is the point.

vLLM's in-process `LLMEngine` (VLLM_ENABLE_V1_MULTIPROCESSING=0: starts in seconds, ~1 GB RSS) is
stepped by one background thread. Requests from any thread or event loop join the running batch
at the next step and receive their tokens as they are generated (RequestOutputKind.DELTA), so the
UI shows phonemes appearing token by token while other users' requests share the same forward
passes. `AsyncLLM` would do the same in a separate engine process (≈50 s start, 2.5 GB); the remote
OpenAI-compatible server (playground.frontend.RemoteBackend) is the way to scale beyond one box.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
import queue
import sys
import threading
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

os.environ.setdefault("VLLM_ENABLE_V1_MULTIPROCESSING", "0")

log = logging.getLogger(__name__)

_DONE = object()


class EngineError(RuntimeError):
    """The front-end engine could not start or died; the message is shown to the user."""


@dataclass(frozen=True)
class EngineConfig:
    model_dir: str
    kv_cache_bytes: int = 256 * 2**20
    max_model_len: int = 512
    max_num_seqs: int = 64
    structured_backend: str = "xgrammar"


@dataclass
class BatchStats:
    """What the engine loop saw: shown in the continuous-batching lesson."""

    steps: int = 0
    max_running: int = 0
    running_history: list[int] = field(default_factory=list)  # running requests per step (last 2000)

    def record(self, running: int) -> None:
        self.steps += 1
        self.max_running = max(self.max_running, running)
        self.running_history.append(running)
        del self.running_history[:-2000]


@dataclass
class Delta:
    text: str
    token_ids: list[int]
    finished: bool
    finish_reason: str | None = None


def _unwrap(item) -> Delta | None:
    """A stream queue item: a delta, the end (None), or the engine's failure (raised)."""
    if item is _DONE:
        return None
    if isinstance(item, BaseException):
        raise EngineError(f"vLLM engine failed: {item}") from item
    return item


class EngineLoop:
    """Owns a vLLM LLMEngine and steps it on a daemon thread."""

    def __init__(self, config: EngineConfig):
        self.config = config
        self.stats = BatchStats()
        self._pending: queue.SimpleQueue = queue.SimpleQueue()
        self._streams: dict[str, queue.SimpleQueue] = {}
        self._ids = itertools.count()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._error: BaseException | None = None
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="vllm-engine", daemon=True)
        self._thread.start()
        self._ready.wait()
        if self._error is not None:
            raise EngineError(f"vLLM engine failed to start: {self._error}") from self._error

    # -- public -------------------------------------------------------------------------------
    @property
    def alive(self) -> bool:
        return self._thread.is_alive() and self._error is None

    @property
    def tokenizer(self):
        return self._engine.get_tokenizer()

    def submit(self, prompt_token_ids: list[int], params) -> tuple[str, queue.SimpleQueue]:
        """Queue a request; returns its id and the queue its deltas arrive on."""
        if not self.alive:
            raise EngineError(f"vLLM engine is not running: {self._error or 'stopped'}")
        request_id = f"req-{next(self._ids)}"
        out: queue.SimpleQueue = queue.SimpleQueue()
        self._streams[request_id] = out
        self._pending.put((request_id, prompt_token_ids, params))
        self._wake.set()
        return request_id, out

    def abort(self, request_id: str) -> None:
        self._pending.put((request_id, None, None))
        self._wake.set()

    def stream(self, prompt_token_ids: list[int], params) -> Iterator[Delta]:
        """Blocking iterator of deltas (for threads: Gradio sync handlers, CLI, tests)."""
        request_id, out = self.submit(prompt_token_ids, params)
        try:
            while (delta := _unwrap(out.get())) is not None:
                yield delta
        finally:
            if request_id in self._streams:
                self.abort(request_id)

    def generate(self, prompts_token_ids: list[list[int]], params: list) -> list[str]:
        """Batch helper: submit every request at once (one continuous batch) and return the texts.
        Pass params with output_kind=RequestOutputKind.FINAL_ONLY for one message per request."""
        queues = [self.submit(ids, p)[1] for ids, p in zip(prompts_token_ids, params)]
        texts = []
        for out in queues:
            text = ""
            while (delta := _unwrap(out.get())) is not None:
                text = delta.text if delta.finished else text + delta.text
            texts.append(text)
        return texts

    async def astream(self, prompt_token_ids: list[int], params) -> AsyncIterator[Delta]:
        """The same stream as an async generator, for any event loop."""
        request_id, out = self.submit(prompt_token_ids, params)
        loop = asyncio.get_running_loop()
        try:
            while True:
                try:
                    item = out.get_nowait()
                except queue.Empty:
                    item = await loop.run_in_executor(None, out.get)
                if (delta := _unwrap(item)) is None:
                    return
                yield delta
        finally:
            if request_id in self._streams:
                self.abort(request_id)

    def shutdown(self) -> None:
        self._stop.set()
        self._wake.set()
        self._thread.join(timeout=10)

    # -- engine thread ------------------------------------------------------------------------
    def _build(self):
        with _kernel_scan_guard():
            return self._build_engine()

    def _build_engine(self):
        from vllm.engine.arg_utils import EngineArgs
        from vllm.v1.engine.llm_engine import LLMEngine

        c = self.config
        args = EngineArgs(
            model=c.model_dir,
            tokenizer=c.model_dir,
            dtype="float32",  # bf16 is ~4x slower on AVX2 CPUs
            enforce_eager=True,  # graph compilation costs minutes for ~10 %
            kv_cache_memory_bytes=c.kv_cache_bytes,  # else vLLM asks for 92 % of RAM
            max_model_len=c.max_model_len,
            max_num_seqs=c.max_num_seqs,
            structured_outputs_config={"backend": c.structured_backend},
            disable_log_stats=True,
            seed=0,
        )
        return LLMEngine.from_engine_args(args)

    def _run(self) -> None:
        try:
            self._engine = self._build()
        except BaseException as exc:  # noqa: BLE001 - reported to the caller of __init__
            self._error = exc
            self._ready.set()
            return
        self._ready.set()
        engine = self._engine
        try:
            while not self._stop.is_set():
                self._drain_pending(engine)
                if not engine.has_unfinished_requests():
                    self._wake.wait(timeout=0.5)
                    self._wake.clear()
                    continue
                self.stats.record(engine.get_num_unfinished_requests())
                for output in engine.step():
                    self._dispatch(output)
        except BaseException as exc:  # noqa: BLE001 - the engine died: fail every open stream
            log.exception("vLLM engine loop died")
            self._error = exc
            for out in list(self._streams.values()):
                out.put(exc)
            self._streams.clear()

    def _drain_pending(self, engine) -> None:
        while True:
            try:
                request_id, prompt_ids, params = self._pending.get_nowait()
            except queue.Empty:
                return
            if prompt_ids is None:  # an abort
                out = self._streams.pop(request_id, None)
                if out is not None:
                    engine.abort_request([request_id])
                    out.put(_DONE)  # wakes a consumer blocked on the queue
                continue
            try:
                engine.add_request(request_id, {"prompt_token_ids": prompt_ids}, params)
            except Exception as exc:  # noqa: BLE001 - a bad request fails alone
                out = self._streams.pop(request_id, None)
                if out is not None:
                    out.put(exc)

    def _dispatch(self, output) -> None:
        out = self._streams.get(output.request_id)
        if out is None:
            return
        completion = output.outputs[0]
        out.put(
            Delta(
                text=completion.text,
                token_ids=list(completion.token_ids),
                finished=output.finished,
                finish_reason=completion.finish_reason,
            )
        )
        if output.finished:
            self._streams.pop(output.request_id, None)
            out.put(_DONE)


class _AttrProxy:
    """Forwards attribute access; has a real __dict__ (see _kernel_scan_guard)."""

    def __init__(self, target):
        self._target = target

    def __getattr__(self, name):
        return getattr(self._target, name)


@contextmanager
def _kernel_scan_guard():
    """vLLM 0.32's CPU start-up rebinds kernels by scanning every module attribute with
    `vars(value).get(...)`. llvmlite's `ffi.lib` (loaded once librosa has used numba) answers *any*
    attribute, `__dict__` included, with a function wrapper, and the scan crashes. While the engine
    starts, such values are swapped for a transparent proxy, then restored."""
    swapped = []
    for module in list(sys.modules.values()):
        namespace = getattr(module, "__dict__", None)
        if not isinstance(namespace, dict):
            continue
        for name, value in list(namespace.items()):
            try:
                inner = vars(value) if hasattr(value, "__dict__") else {}
            except TypeError:
                continue
            if not hasattr(inner, "get"):
                swapped.append((namespace, name, value))
                namespace[name] = _AttrProxy(value)
    try:
        yield
    finally:
        for namespace, name, value in swapped:
            namespace[name] = value


_lock = threading.Lock()
_engines: dict[EngineConfig, EngineLoop] = {}


def get_engine(config: EngineConfig) -> EngineLoop:
    """The process-wide engine for this config; restarted on the next request if it died."""
    with _lock:
        engine = _engines.get(config)
        if engine is not None and engine.alive:
            return engine
        if engine is not None:
            log.warning("vLLM engine died; restarting")
        t0 = time.perf_counter()
        engine = EngineLoop(config)
        log.info("vLLM engine ready in %.1f s", time.perf_counter() - t0)
        _engines[config] = engine
        return engine
