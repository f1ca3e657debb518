"""The layered pipeline: vLLM front end (tokens) -> edits -> VITS voice (waveform) -> audio out.

The front end runs ahead on every sentence at once (one shared engine batches them); the voice
follows in sentence order, so the first sentence is audible while later ones are still being
analyzed. Emotion tags select the voice's real knobs (presets/emotions.yaml), never LLM sampling.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

from playground import audio
from playground.audio import AudioChunk
from playground.frontend import DecodeOptions, FrontEnd, FrontEndEvent, SentenceAnalysis
from playground.inputs import InputError, check_text
from playground.phonemes import validate_words
from playground.prosody import Knobs, knobs_for


@dataclass(frozen=True)
class VoiceSettings:
    """The user's sliders on top of each sentence's emotion row."""

    speed: float = 1.0  # >1 faster: divides the VITS length scale
    pitch_semitones: float = 0.0
    variability: float = 1.0  # multiplies noise_scale / noise_w
    use_emotion: bool = True
    output_rate: int | None = None  # None: the voice's own rate


@dataclass
class Span:
    """One stage's work on one sentence, relative to the run's start (for the timeline)."""

    stage: str
    sentence: int
    start_s: float
    end_s: float


@dataclass
class SentenceState:
    raw: str
    norm_text: str = ""
    phn_text: str = ""
    analysis: SentenceAnalysis | None = None
    audio: AudioChunk | None = None
    knobs: Knobs | None = None

    def apply(self, event: FrontEndEvent) -> None:
        """Take one streamed front-end update."""
        if event.stage == "norm":
            self.norm_text = event.text
        elif event.stage == "phn":
            self.phn_text = event.text
        else:
            self.analysis = event.analysis


@dataclass
class RunState:
    """Everything the UI shows, updated in place and yielded after each change."""

    sentences: list[SentenceState]
    spans: list[Span] = field(default_factory=list)
    new_chunk: AudioChunk | None = None  # the chunk that became ready in this update
    ttfa_s: float | None = None
    total_s: float | None = None
    done: bool = False

    @property
    def audio(self) -> AudioChunk | None:
        chunks = [s.audio for s in self.sentences if s.audio is not None]
        return audio.concat(chunks) if chunks else None

    @property
    def analyses(self) -> list[SentenceAnalysis]:
        return [s.analysis for s in self.sentences if s.analysis is not None]

    def metrics(self) -> dict[str, float | None]:
        voice_s = sum(s.end_s - s.start_s for s in self.spans if s.stage == "voice")
        out = self.audio
        dur = out.duration_s if out is not None else 0.0
        return {
            "ttfa_s": self.ttfa_s,
            "total_s": self.total_s,
            "audio_s": dur,
            "voice_s": voice_s,
            "rtf": voice_s / dur if dur else None,
        }


class Pipeline:
    def __init__(self, frontend: FrontEnd, voice):
        self.frontend = frontend
        self.voice = voice

    def sentence_knobs(self, tag: str, settings: VoiceSettings) -> Knobs:
        """The tag's row of presets/emotions.yaml, adjusted by the user's sliders."""
        tag = tag if settings.use_emotion else "neutral"
        row = knobs_for(tag)
        return knobs_for(
            tag,
            {
                "speed": settings.speed,
                "pitch_offset": settings.pitch_semitones,
                "noise_scale": row.noise_scale * settings.variability,
                "noise_w": row.noise_w * settings.variability,
            },
        )

    def speak(self, analysis: SentenceAnalysis, knobs: Knobs, output_rate: int | None) -> tuple[AudioChunk, float]:
        """Voice + post-processing for one sentence; returns the chunk and the voice's own time."""
        errors = validate_words(analysis.words, self.voice.inventory)
        if errors:
            raise InputError("\n".join(errors))
        t0 = time.perf_counter()
        chunk = self.voice.synthesize(analysis.words, knobs)
        voice_s = time.perf_counter() - t0
        if knobs.pitch_semitones:
            chunk = audio.pitch_shift(chunk, knobs.pitch_semitones)
        if output_rate and output_rate != chunk.sample_rate:
            chunk = audio.resample(chunk, output_rate)
        if knobs.pause_s > 0:
            chunk = audio.concat([chunk, audio.silence(knobs.pause_s, chunk.sample_rate)])
        return chunk, voice_s

    def run(
        self,
        text: str,
        settings: VoiceSettings = VoiceSettings(),
        decode: DecodeOptions = DecodeOptions(),
        stream: bool = True,
    ) -> Iterator[RunState]:
        """Text -> audio, yielding the state after each change.

        With `stream=False` (the naive panel's switch) sentences are analyzed one after another and no
        audio is released before all of them are done.
        """
        raws = check_text(text)
        state = RunState([SentenceState(raw) for raw in raws])
        t0 = time.perf_counter()
        events: queue.Queue = queue.Queue()

        def analyze(indices: list[int]) -> None:
            for i in indices:
                start = time.perf_counter() - t0
                try:
                    for ev in self.frontend.stream_sentence(raws[i], decode):
                        events.put((i, ev, None))
                except Exception as exc:  # noqa: BLE001 - surfaced to the UI below
                    events.put((i, None, exc))
                finally:
                    events.put((i, "span", start))

        # Streaming: every sentence is in the engine's batch at once and audio follows per sentence.
        # Not streaming (the naive way): one sentence after another, no audio until all are done.
        workers = [[i] for i in range(len(raws))] if stream else [list(range(len(raws)))]
        for indices in workers:
            threading.Thread(target=analyze, args=(indices,), daemon=True).start()

        next_to_speak = 0
        finished = 0
        while finished < len(raws) or next_to_speak < len(raws):
            if finished < len(raws):
                i, ev, extra = events.get()
                if ev == "span":
                    state.spans.append(Span("front end", i, extra, time.perf_counter() - t0))
                    finished += 1
                    continue
                if extra is not None:
                    raise extra
                state.sentences[i].apply(ev)
                state.new_chunk = None
                if ev.stage != "done" and not events.empty():
                    continue  # coalesce bursts of tokens into one UI update
                yield state
            # speak every sentence whose turn has come
            while next_to_speak < len(raws):
                s = state.sentences[next_to_speak]
                if s.analysis is None or (not stream and finished < len(raws)):
                    if finished == len(raws) and s.analysis is None:
                        raise RuntimeError(f"sentence {next_to_speak + 1} has no analysis")
                    break
                if stream:
                    yield from self._speak_into(state, next_to_speak, settings, t0)
                else:  # nothing is released until the whole text is spoken
                    for _ in self._speak_into(state, next_to_speak, settings, t0, stream=False):
                        pass
                next_to_speak += 1
        if not stream:
            state.ttfa_s = time.perf_counter() - t0
        state.total_s = time.perf_counter() - t0
        state.new_chunk = None
        state.done = True
        yield state

    def _speak_into(
        self, state: RunState, i: int, settings: VoiceSettings, t0: float, stream: bool = True
    ) -> Iterator[RunState]:
        s = state.sentences[i]
        s.knobs = self.sentence_knobs(s.analysis.tag, settings)
        start = time.perf_counter() - t0
        chunk, _ = self.speak(s.analysis, s.knobs, settings.output_rate)
        end = time.perf_counter() - t0
        state.spans.append(Span("voice", i, start, end))
        s.audio = chunk
        state.new_chunk = chunk
        if state.ttfa_s is None and stream:
            state.ttfa_s = end
        yield state

    def resynthesize(
        self, analyses: list[SentenceAnalysis], settings: VoiceSettings = VoiceSettings()
    ) -> Iterator[RunState]:
        """Speak (edited) analyses again without re-running the front end."""
        state = RunState([SentenceState(a.raw, analysis=a) for a in analyses])
        t0 = time.perf_counter()
        for i in range(len(analyses)):
            yield from self._speak_into(state, i, settings, t0)
        state.total_s = time.perf_counter() - t0
        state.new_chunk = None
        state.done = True
        yield state
