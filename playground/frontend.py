"""The text front end: vLLM turns a sentence into normalized text, an emotion tag and phonemes.

Two requests per sentence, both streamed token by token:
  NORM  "<s><norm>{raw}<sep>"   -> "{normalized} [{tag}]"
  PHN   "<s><phn>{words}<sep>"  -> " HH AH0 L OW1 | W ER1 L D"
With `constrained=True`, vLLM's structured outputs (a regex per request, see playground.constraints)
make the model *choose* among the verbalizer's candidates, the emotion tags and, for every
in-dictionary word, its CMUdict pronunciations; every other phoneme is one of the voice's.
The same prompts run on an in-process engine (default) or on a remote vLLM OpenAI-compatible server.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path

from playground import constraints
from playground.engine import EngineConfig, EngineError, get_engine
from playground.lexicon import ARPABET_INVENTORY, load_cmudict
from playground.phonemes import PUNCTUATION, Word

REPO = Path(__file__).resolve().parent.parent
DEFAULT_MODEL_DIR = REPO / "models" / "frontend"


@dataclass(frozen=True)
class DecodeOptions:
    """How the front end samples. The correct panel keeps these fixed (greedy, constrained)."""

    constrained: bool = True
    temperature: float = 0.0
    top_p: float = 1.0
    max_tokens: int | None = None  # None: enough for the task
    seed: int | None = 0
    normalize: bool = True  # the naive "no normalization" switch sends raw words to G2P


@dataclass
class SentenceAnalysis:
    raw: str
    normalized: str
    tag: str
    words: list[Word]
    timings: dict[str, float] = field(default_factory=dict)
    truncated: bool = False

    @property
    def phonemes(self) -> list[str]:
        return [p for w in self.words for p in w.phonemes]


@dataclass
class FrontEndEvent:
    """One streamed update: `stage` is "norm" or "phn" (text so far) or "done" (analysis set)."""

    stage: str
    text: str
    analysis: SentenceAnalysis | None = None


def split_words(normalized: str) -> list[tuple[str, str]]:
    """'hello, world.' -> [('hello', ','), ('world', '.')]: the PHN task's words, each with the
    sentence punctuation that follows it (a pause for the voice)."""
    out: list[tuple[str, str]] = []
    for token in normalized.split():
        trail = token[len(token.rstrip("".join(PUNCTUATION))) :]
        words = constraints.words_for_phonemes(token)
        out.extend((w, "") for w in words)
        if trail and out:
            out[-1] = (out[-1][0], trail[-1])
    return out


class InProcessBackend:
    """The shared in-process vLLM engine."""

    name = "in-process vLLM"

    def __init__(self, model_dir: str | os.PathLike = DEFAULT_MODEL_DIR):
        self.config = EngineConfig(model_dir=str(model_dir))

    @property
    def tokenizer(self):
        return _tokenizer(self.config.model_dir)

    def stream(self, prompt: str, regex: str | None, opts: DecodeOptions, max_tokens: int):
        from vllm import SamplingParams
        from vllm.sampling_params import RequestOutputKind, StructuredOutputsParams

        params = SamplingParams(
            temperature=opts.temperature,
            top_p=opts.top_p,
            max_tokens=max_tokens,
            seed=opts.seed,
            output_kind=RequestOutputKind.DELTA,
            structured_outputs=StructuredOutputsParams(regex=regex) if regex else None,
        )
        ids = self.tokenizer.encode(prompt, add_special_tokens=False)
        for delta in get_engine(self.config).stream(ids, params):
            yield delta.text


class RemoteBackend:
    """A vLLM OpenAI-compatible server (`python -m vllm.entrypoints.openai.api_server`).

    `chat=False`: the project's own front-end model behind /v1/completions, same token ids as
    in-process. `chat=True`: an instruct model (e.g. Qwen2.5-0.5B-Instruct) behind
    /v1/chat/completions, told the task by the prompts in presets/frontend.yaml; the structured
    output regex still guarantees a well-formed answer.
    """

    def __init__(self, url: str, model: str | None = None, chat: bool = False, timeout_s: float = 5.0):
        self.url = url.rstrip("/")
        self.model = model
        self.chat = chat
        self.timeout_s = timeout_s
        self.name = f"remote vLLM at {self.url}"
        self.tokenizer = None if chat else _tokenizer(str(DEFAULT_MODEL_DIR))

    def _model_name(self, client) -> str:
        if self.model is None:
            r = client.get(f"{self.url}/v1/models")
            r.raise_for_status()
            self.model = r.json()["data"][0]["id"]
        return self.model

    def stream(self, prompt: str, regex: str | None, opts: DecodeOptions, max_tokens: int):
        import httpx

        body: dict = {
            "max_tokens": max_tokens,
            "temperature": opts.temperature,
            "top_p": opts.top_p,
            "stream": True,
            "skip_special_tokens": True,
        }
        if opts.seed is not None:
            body["seed"] = opts.seed
        if regex:
            body["structured_outputs"] = {"regex": regex}
        timeout = httpx.Timeout(connect=self.timeout_s, read=120.0, write=self.timeout_s, pool=self.timeout_s)
        try:
            with httpx.Client(timeout=timeout) as client:
                body["model"] = self._model_name(client)
                if self.chat:
                    task, text = _split_prompt(prompt)
                    body["messages"] = [
                        {"role": "system", "content": _chat_prompts()[task]},
                        {"role": "user", "content": text},
                    ]
                    endpoint = "/v1/chat/completions"
                else:
                    body["prompt"] = self.tokenizer.encode(prompt, add_special_tokens=False)
                    endpoint = "/v1/completions"
                with client.stream("POST", self.url + endpoint, json=body) as r:
                    if r.status_code != 200:
                        r.read()
                        raise EngineError(f"remote vLLM answered {r.status_code}: {r.text[:300]}")
                    for line in r.iter_lines():
                        if not line.startswith("data: ") or line == "data: [DONE]":
                            continue
                        choice = json.loads(line[6:])["choices"][0]
                        text = choice.get("text") if not self.chat else choice["delta"].get("content")
                        if text:
                            yield text
        except httpx.HTTPError as exc:
            raise EngineError(f"remote vLLM at {self.url} is unreachable: {exc}") from exc


def _split_prompt(prompt: str) -> tuple[str, str]:
    task = "norm" if prompt.startswith("<s><norm>") else "phn"
    return task, prompt.split(">", 2)[2].removesuffix("<sep>")


@lru_cache(maxsize=1)
def _chat_prompts() -> dict[str, str]:
    import yaml

    return yaml.safe_load((REPO / "presets" / "frontend.yaml").read_text(encoding="utf-8"))["chat_prompts"]


@lru_cache(maxsize=4)
def _tokenizer(model_dir: str):
    from transformers import AutoTokenizer

    try:
        return AutoTokenizer.from_pretrained(model_dir)
    except (OSError, ValueError) as exc:
        raise EngineError(f"the front-end model at {model_dir} cannot be loaded: {exc}") from exc


class FrontEnd:
    def __init__(self, backend: InProcessBackend | RemoteBackend):
        self.backend = backend
        self.inventory = frozenset(ARPABET_INVENTORY)

    @property
    def name(self) -> str:
        return self.backend.name

    def warmup(self) -> None:
        for _ in self.stream_sentence("Hello."):
            pass

    def _generate(self, prompt: str, regex: str | None, opts: DecodeOptions, default_max: int):
        # The regex constrains strings: " DH" may also come out as the tokens " D" + "H". That spells
        # the same phoneme, so parsing is unaffected; a trained model prefers the phoneme token.
        # (vLLM's allowed_token_ids cannot forbid that path: after " D" the grammar needs "H".)
        max_tokens = opts.max_tokens if opts.max_tokens is not None else default_max
        return self.backend.stream(prompt, regex if opts.constrained else None, opts, max_tokens)

    def stream_sentence(self, raw: str, opts: DecodeOptions = DecodeOptions()) -> Iterator[FrontEndEvent]:
        """Analyze one sentence, yielding the text of each stage as its tokens arrive."""
        t0 = time.perf_counter()
        timings: dict[str, float] = {}
        raw = raw.strip()
        if opts.normalize:
            text = ""
            norm_opts = replace(opts, max_tokens=None)  # the max_tokens switch targets phonemes
            for delta in self._generate(
                constraints.norm_prompt(raw), constraints.normalization_regex(raw), norm_opts, 4 * len(raw) + 24
            ):
                if "first_token_s" not in timings:
                    timings["first_token_s"] = time.perf_counter() - t0
                text += delta
                yield FrontEndEvent("norm", text)
            normalized, tag = constraints.parse_norm_output(text)
        else:  # naive: the raw words go straight to G2P
            normalized, tag = raw.lower(), "neutral"
            yield FrontEndEvent("norm", f"{normalized} [{tag}]")
        timings["norm_s"] = time.perf_counter() - t0

        pairs = split_words(normalized)
        words_text = " ".join(w for w, _ in pairs)
        regex = constraints.phoneme_regex(words_text, load_cmudict(), self.inventory) if pairs else None
        text = ""
        t1 = time.perf_counter()
        for delta in self._generate(constraints.phn_prompt([w for w, _ in pairs]), regex, opts, 12 * len(pairs) + 16):
            if "first_token_s" not in timings:
                timings["first_token_s"] = time.perf_counter() - t0
            text += delta
            yield FrontEndEvent("phn", text)
        groups = constraints.parse_phn_output(text)
        timings["phn_s"] = time.perf_counter() - t1
        timings["total_s"] = time.perf_counter() - t0
        words = [Word(text=w, phonemes=list(g), punct=p) for (w, p), g in zip(pairs, groups)]
        truncated = len(groups) < len(pairs)
        analysis = SentenceAnalysis(raw, normalized, tag, words, timings, truncated)
        yield FrontEndEvent("done", text, analysis)

    def analyze(self, raw: str, opts: DecodeOptions = DecodeOptions()) -> SentenceAnalysis:
        for event in self.stream_sentence(raw, opts):
            if event.analysis is not None:
                return event.analysis
        raise EngineError("front end produced no analysis")


_frontends: dict[tuple, FrontEnd] = {}


def get_frontend(remote_url: str | None = None, model_dir: str | None = None, chat: bool = False) -> FrontEnd:
    """The shared front end: remote when `remote_url` (or $PLAYGROUND_VLLM_URL) is set."""
    remote_url = remote_url or os.environ.get("PLAYGROUND_VLLM_URL") or None
    model_dir = model_dir or os.environ.get("PLAYGROUND_FRONTEND_MODEL") or str(DEFAULT_MODEL_DIR)
    key = (remote_url, model_dir, chat)
    if key not in _frontends:
        if remote_url:
            backend = RemoteBackend(remote_url, model=os.environ.get("PLAYGROUND_VLLM_MODEL"), chat=chat)
        else:
            backend = InProcessBackend(model_dir)
        _frontends[key] = FrontEnd(backend)
    return _frontends[key]
