"""What the UI and the API call: the layered pipeline with user-facing messages.

Every entry point turns bad input into an `InputError` (shown as is) and keeps the server serving;
the phoneme document the user edited is never overwritten by a failed synthesis.
"""

from __future__ import annotations

import html
import logging
import math
import os
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from playground import voices
from playground.audio import AudioChunk
from playground.editing import EditError, format_document, is_document, parse_document
from playground.engine import EngineError
from playground.frontend import DecodeOptions, get_frontend
from playground.inputs import max_chars
from playground.pipeline import InputError, Pipeline, RunState, VoiceSettings, check_text

log = logging.getLogger(__name__)

DEFAULT_VOICE = "bundled"
T = TypeVar("T")


def last(items: Iterable[T]) -> T:
    """The final item of a stream (e.g. a generator's finished state)."""
    tail = deque(items, maxlen=1)
    if not tail:
        raise InputError("Nothing was produced.")
    return tail[0]


def allowed_voice(spec: str | None) -> str:
    """A voice spec a user may ask for: a listed voice, or an ESPnet model dir / .zip under
    $PLAYGROUND_VOICE_DIR. Anything else (other paths, arbitrary hub tags) is refused, so a public
    Space neither reads arbitrary files nor downloads arbitrary models."""
    spec = (spec or DEFAULT_VOICE).strip()
    names = [v.name for v in voices.list_voices()]
    if spec in names or spec.lower() in ("bundled", "espnet:ljspeech"):
        return spec
    root = os.environ.get("PLAYGROUND_VOICE_DIR")
    if root:
        path = Path(spec) if Path(spec).is_absolute() else Path(root) / spec
        if path.resolve().is_relative_to(Path(root).resolve()) and path.exists():
            return str(path.resolve())
    where = f" or an ESPnet model dir / .zip inside {root}" if root else ""
    raise InputError(f"Unknown voice {spec[:80]!r}. Choose one of: {', '.join(names)}{where}.")


def get_voice(spec: str | None):
    """(voice, note): the requested voice, or the bundled one with the reason it was unavailable."""
    return voices.load_voice_with_fallback(allowed_voice(spec))


def make_settings(speed=1.0, pitch=0.0, variability=1.0, use_emotion=True, output_rate=None) -> VoiceSettings:
    """Validate slider values from the UI or the API (NaN, negative and huge values are refused)."""

    def number(name: str, value, lo: float, hi: float) -> float:
        try:
            v = float(value)
        except (TypeError, ValueError):
            raise InputError(f"{name} must be a number between {lo} and {hi}; got {value!r}.") from None
        if math.isnan(v) or not lo <= v <= hi:
            raise InputError(f"{name} must be between {lo} and {hi}; got {value!r}.")
        return v

    rate = None
    if output_rate not in (None, "", "voice", "native"):
        rate = int(number("Output sample rate", output_rate, 8000, 48000))
    return VoiceSettings(
        speed=number("Speed", speed, 0.5, 2.0),
        pitch_semitones=number("Pitch", pitch, -12, 12),
        variability=number("Variability", variability, 0.0, 2.0),
        use_emotion=bool(use_emotion),
        output_rate=rate,
    )


def live_view(state: RunState) -> str:
    """Markdown table of what the front end has produced so far (user text escaped: inert)."""
    rows = ["| # | emotion | normalized text | phonemes |", "|---|---|---|---|"]
    for i, s in enumerate(state.sentences, 1):
        norm, tag = s.norm_text, ""
        if s.analysis is not None:
            norm, tag = s.analysis.normalized, s.analysis.tag
        elif norm.endswith("]") and " [" in norm:
            norm, tag = norm.rsplit(" [", 1)
            tag = tag.rstrip("]")
        cells = [
            str(i),
            tag or "…",
            html.escape(norm) or "…",
            f"`{html.escape(s.phn_text.strip())}`" if s.phn_text else "…",
        ]
        rows.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(rows)


@dataclass
class Output:
    state: RunState
    document: str | None
    voice_note: str


def run(
    text: str,
    voice_spec: str | None = None,
    settings: VoiceSettings = VoiceSettings(),
    decode: DecodeOptions = DecodeOptions(),
    stream: bool = True,
) -> Iterator[Output]:
    """Text -> front end (streamed) -> voice (per sentence)."""
    check_text(text)
    voice, note = get_voice(voice_spec)
    pipeline = Pipeline(get_frontend(), voice)
    document = None
    try:
        for state in pipeline.run(text, settings, decode, stream=stream):
            if state.analyses and len(state.analyses) == len(state.sentences):
                document = format_document(state.analyses)
            yield Output(state, document, note)
    except EngineError as exc:
        raise InputError(
            f"The vLLM front end is unavailable: {exc}. Edited phonemes can still be synthesized."
        ) from exc


def frontend_only(text: str, decode: DecodeOptions = DecodeOptions()) -> Iterator[tuple[str, str | None]]:
    """Only the vLLM stage: (live view, phoneme document when complete)."""
    from playground.pipeline import SentenceState

    raws = check_text(text)
    fe = get_frontend()
    state = RunState([SentenceState(r) for r in raws])
    try:
        for s in state.sentences:
            for ev in fe.stream_sentence(s.raw, decode):
                s.apply(ev)
                yield live_view(state), None
    except EngineError as exc:
        raise InputError(f"The vLLM front end is unavailable: {exc}") from exc
    yield live_view(state), format_document(state.analyses)


def synthesize(
    document_or_text: str, voice_spec: str | None = None, settings: VoiceSettings = VoiceSettings()
) -> Output:
    """Speak an (edited) phoneme document without re-running the front end; plain text is analyzed first."""
    if document_or_text is None or not document_or_text.strip():
        raise InputError("Nothing to synthesize: type text or run the front end first.")
    if len(document_or_text) > 20 * max_chars():  # a document spends ~15 characters per word
        raise InputError(f"The phoneme document is too long; the limit is {20 * max_chars()} characters.")
    if not is_document(document_or_text):
        return last(run(document_or_text, voice_spec, settings))
    voice, note = get_voice(voice_spec)
    try:
        analyses = parse_document(document_or_text, voice.inventory)
    except EditError as exc:
        raise InputError("Please fix the phonemes:\n" + "\n".join(f"- {m}" for m in exc.messages)) from exc
    pipeline = Pipeline(get_frontend(), voice)  # the front end is not called here
    return Output(last(pipeline.resynthesize(analyses, settings)), document_or_text, note)


def metrics_markdown(state: RunState) -> str:
    m = state.metrics()

    def f(v, unit=""):
        return "–" if v is None else f"{v:.2f}{unit}"

    lines = [
        "| time to first audio | total | audio | voice time | RTF |",
        "|---|---|---|---|---|",
        "| " + " | ".join(f(m[k], " s") for k in ("ttfa_s", "total_s", "audio_s", "voice_s")) + f" | {f(m['rtf'])} |",
        "",
        "| sentence | stage | start (s) | end (s) |",
        "|---|---|---|---|",
    ]
    for s in sorted(state.spans, key=lambda s: (s.start_s, s.sentence)):
        lines.append(f"| {s.sentence + 1} | {s.stage} | {s.start_s:.2f} | {s.end_s:.2f} |")
    return "\n".join(lines)


def audio_tuple(chunk: AudioChunk | None):
    """Gradio's numpy audio value: (rate, int16 samples) — the rate always travels with the samples."""
    if chunk is None:
        return None
    import numpy as np

    return chunk.sample_rate, (np.clip(chunk.samples, -1, 1) * 32767).astype(np.int16)
