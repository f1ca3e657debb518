"""The small protocol every synthesizer implements, and its errors."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from playground.audio import AudioChunk
from playground.phonemes import Word, validate_words
from playground.prosody import Knobs, validate_knobs

# The VITS knobs a voice can apply natively (pitch and pauses are applied by the pipeline).
NATIVE_KNOBS: frozenset[str] = frozenset({"length_scale", "noise_scale", "noise_w"})


class VoiceUnavailable(RuntimeError):
    """A voice cannot be loaded here (not downloaded, no network, bad model dir...).

    The message says why and what to do; callers may fall back to the bundled voice.
    """


class InvalidPhonemes(ValueError):
    """The words contain symbols the voice cannot speak; ``errors`` lists one line per problem."""

    def __init__(self, errors: list[str]):
        self.errors = errors
        super().__init__("; ".join(errors))


@runtime_checkable
class Voice(Protocol):
    """A synthesizer: one call per sentence, ARPAbet words in, audio at its own rate out."""

    name: str  # the spec that loads it, e.g. "bundled"
    label: str  # for the UI
    sample_rate: int
    inventory: frozenset[str]  # ARPAbet symbols it accepts
    knob_names: frozenset[str]  # which Knobs fields it applies natively

    def synthesize(self, words: list[Word], knobs: Knobs) -> AudioChunk:
        """Speak one sentence; applies length_scale / noise_scale / noise_w natively."""
        ...


def check_inputs(voice: Voice, words: list[Word], knobs: Knobs) -> None:
    """Raise InvalidPhonemes / ValueError before any model runs (shared by the voices)."""
    errors = validate_words(words, voice.inventory)
    if errors:
        raise InvalidPhonemes(errors)
    validate_knobs(knobs)
