"""One input, two panels: the layered pipeline and the same stages with the naive switches.

The correct panel runs first, then the naive one (never at once: each panel's timings and the
engine's running batch must be its own). Both are measured by playground.measure against the
correct panel's normalized text; `highlights` names the metrics that differ.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field

from playground import measure, service
from playground.audio import AudioChunk
from playground.frontend import FrontEnd, SentenceAnalysis, get_frontend
from playground.lessons import CorrectConfig, Lesson, load_lesson
from playground.naive import EditingFrontEnd, NaiveConfig, NaiveFrontEnd, catalogue, llm_as_audio, parse_switches
from playground.pipeline import InputError, Pipeline, check_text

# A metric "differs" beyond this relative change (or absolute, for rates in [0, 1]).
REL_TOLERANCE = 0.10
ABS_TOLERANCE = {"per": 0.05, "asr_wer": 0.10, "spectral_flatness": 0.05}


@dataclass
class Panel:
    name: str  # "correct" | "naive"
    chunk: AudioChunk | None  # the samples at the rate they were made
    declared_rate: int | None  # the rate they are labelled with (what a player uses)
    metrics: dict
    analyses: list[SentenceAnalysis] = field(default_factory=list)
    spans: list = field(default_factory=list)
    running: list[int] = field(default_factory=list)  # engine's running requests per step
    notes: list[str] = field(default_factory=list)

    @property
    def heard(self) -> AudioChunk | None:
        return None if self.chunk is None else measure.as_heard(self.chunk, self.declared_rate)

    @property
    def phonemes(self) -> str:
        return " | ".join(" ".join(w.phonemes) for a in self.analyses for w in a.words)


@dataclass
class Comparison:
    text: str
    lesson: str | None
    naive_config: NaiveConfig
    correct_config: CorrectConfig
    correct: Panel | None = None
    naive: Panel | None = None

    @property
    def highlights(self) -> list[str]:
        if self.correct is None or self.naive is None:
            return []
        return [k for k in measure.KEYS if differs(k, self.correct.metrics.get(k), self.naive.metrics.get(k))]

    def to_json(self) -> dict:
        def panel(p: Panel | None) -> dict | None:
            if p is None:
                return None
            return {**p.metrics, "max_running": max(p.running, default=0), "phonemes": p.phonemes, "notes": p.notes}

        return {
            "text": self.text,
            "lesson": self.lesson,
            "switches": self.naive_config.active(),
            "naive_config": self.naive_config.to_dict(),
            "correct": panel(self.correct),
            "naive": panel(self.naive),
            "highlights": self.highlights,
        }


def _last(it: Iterator):
    last = None
    for last in it:  # noqa: B007 - only the final state is wanted
        pass
    return last


def differs(key: str, a, b) -> bool:
    if a is None or b is None:
        return (a is None) != (b is None)
    if isinstance(a, str) or isinstance(b, str):
        return a != b
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) != math.isnan(b)
    if key in ABS_TOLERANCE:
        return abs(a - b) > ABS_TOLERANCE[key]
    return abs(a - b) > REL_TOLERANCE * max(abs(a), abs(b), 1e-9)


def _engine_stats(fe: FrontEnd):
    config = getattr(fe.backend, "config", None)
    if config is None:  # a remote server: its batch is not visible from here
        return None
    from playground.engine import get_engine

    return get_engine(config).stats


class _BatchWatch:
    """The running-requests history recorded by the engine while one panel ran."""

    def __init__(self, fe: FrontEnd):
        self.stats = _engine_stats(fe)
        self.start = self.stats.steps if self.stats else 0

    def history(self) -> list[int]:
        if self.stats is None:
            return []
        n = self.stats.steps - self.start
        return list(self.stats.running_history[-n:]) if n > 0 else []


def _words_and_per(analyses: list[SentenceAnalysis]) -> tuple[int, float | None]:
    spoken = [w for a in analyses for w in a.words]
    expected = measure.expected_words([a.normalized for a in analyses])
    return sum(len(w.phonemes) for w in spoken), measure.per(expected, spoken)


def run_correct(text: str, cfg: CorrectConfig, voice, fe: FrontEnd, with_asr: bool = True) -> Panel:
    frontend = EditingFrontEnd(fe, cfg.edits) if cfg.edits else fe
    watch = _BatchWatch(fe)
    last = _last(Pipeline(frontend, voice).run(text, cfg.settings(), stream=True))
    analyses = last.analyses
    reference = " ".join(a.normalized for a in analyses)
    n, per = _words_and_per(analyses)
    chunk = last.audio
    metrics = measure.panel_metrics(
        chunk, declared_rate=None, n_phonemes=n, per_value=per, reference_text=reference,
        ttfa_s=last.ttfa_s, total_s=last.total_s, with_asr=with_asr,
    )  # fmt: skip
    notes = [f"edited: {', '.join(cfg.edits)}"] if cfg.edits else []
    rate = chunk.sample_rate if chunk else None
    return Panel("correct", chunk, rate, metrics, analyses, last.spans, watch.history(), notes)


def run_naive(text: str, cfg: NaiveConfig, voice, fe: FrontEnd, reference: str, with_asr: bool = True) -> Panel:
    watch = _BatchWatch(fe)
    if cfg.llm_as_audio:
        out = llm_as_audio(fe, text, requests=cfg.audio_requests, rate=voice.sample_rate)
        metrics = measure.panel_metrics(
            out.chunk, declared_rate=cfg.label_rate(out.chunk.sample_rate), n_phonemes=None, per_value=None,
            reference_text=reference, ttfa_s=out.seconds, total_s=out.seconds, with_asr=with_asr,
        )  # fmt: skip
        ms = out.chunk.duration_s * 1000
        notes = [f"{len(out.token_ids)} token ids → {ms:.0f} ms of samples in {out.seconds:.1f} s"]
        return Panel("naive", out.chunk, cfg.label_rate(out.chunk.sample_rate), metrics, [], [], watch.history(), notes)
    naive_fe = NaiveFrontEnd(fe, voice.inventory, serialize=cfg.one_at_a_time)
    last = _last(Pipeline(naive_fe, voice).run(text, decode=cfg.decode_options(), stream=not cfg.no_streaming))
    analyses = last.analyses
    n, per = _words_and_per(analyses)
    chunk = last.audio
    declared = cfg.label_rate(chunk.sample_rate) if chunk is not None else None
    metrics = measure.panel_metrics(
        chunk, declared_rate=declared, n_phonemes=n, per_value=per, reference_text=reference,
        ttfa_s=last.ttfa_s, total_s=last.total_s, with_asr=with_asr,
    )  # fmt: skip
    notes = []
    if naive_fe.dropped:
        notes.append(f"{naive_fe.dropped} symbols the voice does not know were skipped")
    if any(a.truncated for a in analyses):
        notes.append("the phoneme stream was cut by max_tokens")
    return Panel("naive", chunk, declared, metrics, analyses, last.spans, watch.history(), notes)


_warm: set[int] = set()


def _warm_up(fe: FrontEnd, voice) -> None:
    """Start the engine and load the voice once, so the first panel's timings are not start-up costs."""
    if id(fe) in _warm:
        return
    fe.warmup()
    Pipeline(fe, voice).speak(fe.analyze("Hello."), _neutral_knobs(), None)
    _warm.add(id(fe))


def _neutral_knobs():
    from playground.prosody import knobs_for

    return knobs_for("neutral")


def resolve(
    text: str | None, lesson: str | None, switches=None
) -> tuple[str, Lesson | None, NaiveConfig, CorrectConfig]:
    """(text, lesson, naive config, correct config) from an API/UI request; InputError if bad."""
    chosen = load_lesson(lesson.strip()) if lesson and lesson.strip() else None
    text = (text or "").strip() or (chosen.text if chosen else "")
    naive = parse_switches(switches, chosen.naive if chosen else NaiveConfig())
    correct = chosen.correct if chosen else CorrectConfig()
    check_text(text)
    return text, chosen, naive, correct


def run_compare(
    text: str,
    naive: NaiveConfig = NaiveConfig(),
    correct: CorrectConfig = CorrectConfig(),
    lesson: str | None = None,
    voice_spec: str | None = None,
    with_asr: bool = True,
) -> Iterator[Comparison]:
    """Yields after the correct panel, then after the naive one."""
    check_text(text)
    voice, _note = service.get_voice(voice_spec)
    fe = get_frontend()
    result = Comparison(text, lesson, naive, correct)
    from playground.engine import EngineError

    try:
        _warm_up(fe, voice)
        result.correct = run_correct(text, correct, voice, fe, with_asr)
        yield result
        reference = " ".join(a.normalized for a in result.correct.analyses)
        result.naive = run_naive(text, naive, voice, fe, reference, with_asr)
    except EngineError as exc:
        raise InputError(f"The vLLM front end is unavailable: {exc}") from exc
    yield result


def compare(text: str | None, lesson: str | None = None, switches=None, with_asr: bool = True) -> Comparison:
    """The whole comparison at once (the /compare endpoint, benches and tests)."""
    text, chosen, naive, correct = resolve(text, lesson, switches)
    return _last(run_compare(text, naive, correct, chosen.name if chosen else None, with_asr=with_asr))


def active_measures(cfg: NaiveConfig) -> set[str]:
    """The metrics the active switches are expected to move (shown emphasized)."""
    return {m for ap in cfg.active() for m in catalogue()[ap].measure}
