"""The naive configuration: the same stages as the layered pipeline, with the anti-pattern switches.

Nothing here is a second code base: a switch changes the front end's `DecodeOptions` (sampling
params from the "speed"/"pitch" sliders, `max_tokens` from the "audio length" slider, no
normalization, no output constraint), the sample rate the audio is *labelled* with, whether audio
is released per sentence, or whether requests are serialized. Only "LLM as audio" adds a stage: it
asks the front-end model for an "audio" completion and plays its token ids as PCM samples.
The catalogue (labels, "why this fails", what to measure) is data: presets/antipatterns.yaml.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, fields, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from playground.audio import AudioChunk
from playground.frontend import DecodeOptions, FrontEnd, FrontEndEvent, SentenceAnalysis
from playground.pipeline import InputError

REPO = Path(__file__).resolve().parent.parent
CATALOGUE_YAML = REPO / "presets" / "antipatterns.yaml"
TRUE_RATE = 22050  # the bundled voice's rate; the label is what the switch changes


@dataclass(frozen=True)
class Param:
    name: str
    label: dict[str, str]
    default: Any
    min: float | None = None
    max: float | None = None
    step: float | None = None
    choices: tuple | None = None


@dataclass(frozen=True)
class AntiPattern:
    id: str
    section: str  # "antipattern" (DESIGN.md §2) or "setup"
    label: dict[str, str]
    why: dict[str, str]
    measure: tuple[str, ...]
    params: tuple[Param, ...] = ()


@lru_cache(maxsize=1)
def catalogue() -> dict[str, AntiPattern]:
    """id -> AntiPattern, in file order."""
    data = yaml.safe_load(CATALOGUE_YAML.read_text(encoding="utf-8"))
    out: dict[str, AntiPattern] = {}
    for row in data["antipatterns"]:
        params = tuple(
            Param(
                name=p["name"],
                label=p["label"],
                default=p["default"],
                min=p.get("min"),
                max=p.get("max"),
                step=p.get("step"),
                choices=tuple(p["choices"]) if "choices" in p else None,
            )
            for p in row.get("params", [])
        )
        out[row["id"]] = AntiPattern(row["id"], row["section"], row["label"], row["why"], tuple(row["measure"]), params)
    return out


@dataclass(frozen=True)
class NaiveConfig:
    """Every switch and its parameters; the defaults are "all off" (but decoding unconstrained)."""

    sampling_as_voice: bool = False
    temperature: float = 1.5
    top_p: float = 1.0
    max_tokens_as_length: bool = False
    max_tokens: int = 12
    llm_as_audio: bool = False
    audio_requests: int = 4
    no_normalization: bool = False
    sample_rate_mismatch: bool = False
    declared_rate: int = 16000
    no_streaming: bool = False
    one_at_a_time: bool = False
    free_decoding: bool = False  # the sampling lessons turn it on: a constrained LLM only picks dictionary entries

    def decode_options(self) -> DecodeOptions:
        return DecodeOptions(
            constrained=not self.free_decoding,
            temperature=self.temperature if self.sampling_as_voice else 0.0,
            top_p=self.top_p if self.sampling_as_voice else 1.0,
            max_tokens=self.max_tokens if self.max_tokens_as_length else None,
            seed=0,
            normalize=not self.no_normalization,
        )

    def label_rate(self, true_rate: int) -> int:
        """The sample rate the naive panel writes on its audio."""
        return self.declared_rate if self.sample_rate_mismatch else true_rate

    def active(self) -> list[str]:
        return [ap for ap in catalogue() if getattr(self, ap)]

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


def _param_specs() -> dict[str, Param]:
    return {p.name: p for ap in catalogue().values() for p in ap.params}


def parse_switches(switches: str | Mapping[str, Any] | None, base: NaiveConfig = NaiveConfig()) -> NaiveConfig:
    """A JSON object / dict of switch ids (bool) and parameters (numbers) on top of `base`.

    Raises InputError naming the bad key or value, so the API caller can fix the request.
    """
    if switches is None or switches == "":
        return base
    if isinstance(switches, str):
        try:
            switches = json.loads(switches)
        except json.JSONDecodeError as exc:
            raise InputError(f'switches must be a JSON object, e.g. {{"no_streaming": true}}: {exc}') from None
    if not isinstance(switches, Mapping):
        raise InputError('switches must be a JSON object, e.g. {"no_streaming": true}')
    ids, params = catalogue(), _param_specs()
    changes: dict[str, Any] = {}
    for key, value in switches.items():
        if key in ids:
            if not isinstance(value, bool):
                raise InputError(f"switch {key!r} must be true or false; got {value!r}")
            changes[key] = value
        elif key in params:
            changes[key] = _check_param(params[key], value)
        else:
            raise InputError(f"unknown switch {key!r}; known: {', '.join([*ids, *params])}")
    return replace(base, **changes)


def _check_param(p: Param, value: Any) -> Any:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InputError(f"{p.name} must be a number; got {value!r}")
    if p.choices is not None:
        if value not in p.choices:
            raise InputError(f"{p.name} must be one of {list(p.choices)}; got {value!r}")
        return int(value)
    if not (p.min <= value <= p.max):  # also refuses NaN
        raise InputError(f"{p.name} must be between {p.min} and {p.max}; got {value!r}")
    return int(value) if isinstance(p.default, int) else float(value)


# -- front-end wrappers: the same FrontEnd, used the naive way ---------------------------------
class NaiveFrontEnd:
    """Wraps the shared FrontEnd for the naive panel.

    `serialize`: one request at a time (a lock around each sentence), as a loop over HF
    `generate()` would run. Unknown symbols from unconstrained decoding are dropped the way a
    naive id lookup skips them (the correct panel refuses them with a message instead); `dropped`
    counts them.
    """

    _serial = threading.Lock()

    def __init__(self, frontend: FrontEnd, inventory: frozenset[str], serialize: bool = False):
        self.frontend = frontend
        self.inventory = inventory
        self.serialize = serialize
        self.dropped = 0

    @property
    def name(self) -> str:
        return self.frontend.name

    def stream_sentence(self, raw: str, opts: DecodeOptions = DecodeOptions()) -> Iterator[FrontEndEvent]:
        if self.serialize:
            with self._serial:
                events = list(self._lenient(raw, opts))  # nothing overlaps, so nothing batches
            yield from events
        else:
            yield from self._lenient(raw, opts)

    def _lenient(self, raw: str, opts: DecodeOptions) -> Iterator[FrontEndEvent]:
        for ev in self.frontend.stream_sentence(raw, opts):
            if ev.analysis is not None:
                ev = FrontEndEvent(ev.stage, ev.text, self._keep_known(ev.analysis))
            yield ev

    def _keep_known(self, a: SentenceAnalysis) -> SentenceAnalysis:
        words = []
        for w in a.words:
            known = [p for p in w.phonemes if p in self.inventory]
            self.dropped += len(w.phonemes) - len(known)
            if known:
                words.append(replace(w, phonemes=known))
        if not words:  # a voice needs something to say; a naive pipeline says a pause
            from playground.phonemes import Word

            words = [Word(text="", phonemes=["HH"], punct=".")]
        return replace(a, words=words)


class EditingFrontEnd:
    """The correct panel with the user's phoneme edits applied (the editing lesson)."""

    def __init__(self, frontend: FrontEnd, edits: Mapping[str, list[str]]):
        self.frontend = frontend
        self.edits = {k.lower(): list(v) for k, v in edits.items()}

    @property
    def name(self) -> str:
        return self.frontend.name

    def stream_sentence(self, raw: str, opts: DecodeOptions = DecodeOptions()) -> Iterator[FrontEndEvent]:
        for ev in self.frontend.stream_sentence(raw, opts):
            if ev.analysis is not None:
                words = [replace(w, phonemes=self.edits.get(w.text, w.phonemes)) for w in ev.analysis.words]
                ev = FrontEndEvent(ev.stage, ev.text, replace(ev.analysis, words=words))
            yield ev


# -- "LLM as audio" ------------------------------------------------------------------------------
AUDIO_PROMPT = "<s>audio: {text}<sep>"


@dataclass
class LlmAudio:
    chunk: AudioChunk
    token_ids: list[int]
    seconds: float  # wall time to generate them


def ids_to_samples(ids: list[int], vocab_size: int) -> np.ndarray:
    """Token ids scaled to [-1, 1], as if each id were one PCM sample (DC removed, as players do)."""
    x = np.asarray(ids, dtype=np.float32) / max(vocab_size - 1, 1) * 2.0 - 1.0
    return np.clip(x - x.mean(), -1.0, 1.0) if len(x) else x


def llm_as_audio(frontend: FrontEnd, text: str, requests: int = 4, rate: int = TRUE_RATE) -> LlmAudio:
    """Ask the front-end LLM for "audio" and play the ids it generates (one sample per token).

    Each request fills the model's context window (max_model_len); `requests` of them run in one
    continuous batch, which is the most this engine can do — and still a fraction of a second.
    """
    from vllm import SamplingParams
    from vllm.sampling_params import RequestOutputKind

    from playground.engine import get_engine

    backend = frontend.backend
    tok = backend.tokenizer
    prompt_ids = tok.encode(AUDIO_PROMPT.format(text=" ".join(text.split())), add_special_tokens=False)
    config = getattr(backend, "config", None)
    max_len = config.max_model_len if config is not None else 512
    prompt_ids = prompt_ids[: max_len // 2]
    budget = max_len - len(prompt_ids) - 1
    vocab = len(tok)
    results: list[list[int]] = [[] for _ in range(requests)]
    t0 = time.perf_counter()

    def work(i: int) -> None:
        params = SamplingParams(
            temperature=1.0, max_tokens=budget, min_tokens=budget, ignore_eos=True, seed=1000 + i,
            output_kind=RequestOutputKind.DELTA,
        )  # fmt: skip
        if config is not None:
            for delta in get_engine(config).stream(prompt_ids, params):
                results[i].extend(delta.token_ids)
        else:  # a remote server returns text: its token ids are what the tokenizer gives back
            opts = DecodeOptions(constrained=False, temperature=1.0, seed=1000 + i)
            text_out = "".join(backend.stream(tok.decode(prompt_ids), None, opts, budget))
            results[i].extend(tok.encode(text_out, add_special_tokens=False))

    threads = [threading.Thread(target=work, args=(i,), daemon=True) for i in range(requests)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    ids = [i for r in results for i in r]
    return LlmAudio(AudioChunk(ids_to_samples(ids, vocab), rate), ids, time.perf_counter() - t0)
