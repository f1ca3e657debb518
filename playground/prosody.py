"""Emotion tags -> the voice's real prosody knobs (the table lives in presets/emotions.yaml).

Speed, variability and pitch are controlled by the TTS model's own parameters and by signal
processing after it, never by the front-end LLM's sampling parameters: those change *which
tokens* the LLM picks, not how fast or how high the voice speaks.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

EMOTIONS_YAML = Path(__file__).resolve().parent.parent / "presets" / "emotions.yaml"
DEFAULT_TAG = "neutral"


@dataclass(frozen=True)
class Knobs:
    """Per-sentence synthesis settings.

    length_scale, noise_scale and noise_w are applied natively by a VITS voice; pitch_semitones
    (post-synthesis pitch shift) and pause_s (silence after the sentence) by the pipeline.
    """

    length_scale: float = 1.0  # >1 slower (ESPnet alpha, Piper length_scale)
    noise_scale: float = 0.667  # flow noise: timbre/intonation variability
    noise_w: float = 0.8  # duration noise (ESPnet noise_scale_dur): rhythm variability
    pitch_semitones: float = 0.0
    pause_s: float = 0.25


KNOB_NAMES: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Knobs))


@dataclass(frozen=True)
class EmotionRow:
    tag: str
    knobs: Knobs
    description: dict[str, str]  # language code ("en", "zh") -> one line


@dataclass(frozen=True)
class EmotionTable:
    rows: dict[str, EmotionRow]
    ranges: dict[str, tuple[float, float]]  # knob name -> (min, max)
    modifiers: dict[str, tuple[float, float, str]]  # name -> (min, max, doc)

    @property
    def tags(self) -> list[str]:
        return list(self.rows)


def _range(spec: dict[str, Any], name: str) -> tuple[float, float]:
    lo, hi = float(spec["min"]), float(spec["max"])
    if not lo <= hi:
        raise ValueError(f"emotions.yaml: range of {name} has min > max")
    return lo, hi


@lru_cache(maxsize=4)
def _load(path: str) -> EmotionTable:
    with open(path, encoding="utf-8") as f:
        data = yaml.safe_load(f)
    ranges = {k: _range(v, k) for k, v in data["ranges"].items()}
    missing = set(KNOB_NAMES) - set(ranges)
    if missing:
        raise ValueError(f"{path}: ranges lack {sorted(missing)}")
    modifiers = {k: (*_range(v, k), str(v.get("doc", ""))) for k, v in data["modifiers"].items()}
    rows = {}
    for tag, row in data["emotions"].items():
        unknown = set(row["knobs"]) - set(KNOB_NAMES)
        if unknown:
            raise ValueError(f"{path}: emotion {tag!r} has unknown knobs {sorted(unknown)}")
        knobs = Knobs(**{k: float(v) for k, v in row["knobs"].items()})
        rows[tag] = EmotionRow(tag, knobs, dict(row.get("description", {})))
    table = EmotionTable(rows, ranges, modifiers)
    for row in rows.values():  # the shipped table must itself be valid
        validate_knobs(row.knobs, table)
    return table


def load_emotion_table(path: str | Path | None = None) -> EmotionTable:
    """The emotion table (cached per path); defaults to presets/emotions.yaml."""
    return _load(str(Path(path or EMOTIONS_YAML).resolve()))


def _check_number(name: str, value: Any, lo: float, hi: float) -> float:
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a number in [{lo:g}, {hi:g}], got {value!r}") from None
    if not math.isfinite(x):
        raise ValueError(f"{name} must be a finite number in [{lo:g}, {hi:g}], got {value!r}")
    if not lo <= x <= hi:
        raise ValueError(f"{name}={x:g} is out of range; allowed [{lo:g}, {hi:g}]")
    return x


def validate_knobs(knobs: Knobs, table: EmotionTable | None = None) -> Knobs:
    """Return ``knobs`` unchanged if every value is finite and within the table's ranges.

    Raises ValueError naming the knob, its value and the allowed range (NaN, inf, negative
    durations, absurd speeds are all rejected).
    """
    table = table or load_emotion_table()
    for name in KNOB_NAMES:
        lo, hi = table.ranges[name]
        _check_number(name, getattr(knobs, name), lo, hi)
    return knobs


def knobs_for(tag: str, overrides: dict[str, Any] | None = None, table: EmotionTable | None = None) -> Knobs:
    """The tag's row of the emotion table combined with user slider overrides.

    ``overrides`` may set any knob by name (absolute value) and these modifiers, applied after:
    ``speed`` (multiplier: length_scale /= speed), ``pitch_offset`` (semitones added) and
    ``pause_scale`` (multiplier on pause_s). ``None`` values are ignored (slider untouched).
    Raises ValueError for an unknown tag, an unknown override or an out-of-range result.
    """
    table = table or load_emotion_table()
    key = (tag or "").strip().lower()
    if key not in table.rows:
        raise ValueError(f"unknown emotion tag {tag!r}; known tags: {', '.join(table.tags)}")
    knobs = table.rows[key].knobs
    given = {k: v for k, v in (overrides or {}).items() if v is not None}
    unknown = set(given) - set(KNOB_NAMES) - set(table.modifiers)
    if unknown:
        allowed = ", ".join([*KNOB_NAMES, *table.modifiers])
        raise ValueError(f"unknown override(s) {sorted(unknown)}; allowed: {allowed}")
    absolute = {}
    for k in KNOB_NAMES:
        if k in given:
            absolute[k] = _check_number(k, given[k], *table.ranges[k])
    knobs = dataclasses.replace(knobs, **absolute)
    mods = {k: _check_number(k, v, *table.modifiers[k][:2]) for k, v in given.items()
            if k in table.modifiers}  # fmt: skip
    if "speed" in mods:
        if mods["speed"] <= 0:
            raise ValueError("speed must be > 0")
        knobs = dataclasses.replace(knobs, length_scale=knobs.length_scale / mods["speed"])
    if "pitch_offset" in mods:
        knobs = dataclasses.replace(knobs, pitch_semitones=knobs.pitch_semitones + mods["pitch_offset"])
    if "pause_scale" in mods:
        knobs = dataclasses.replace(knobs, pause_s=knobs.pause_s * mods["pause_scale"])
    return validate_knobs(knobs, table)
