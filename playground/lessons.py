"""Workshop lessons: presets/lessons/<name>.yaml sets the text and both panels of the compare tab.

    title:       {en: ..., zh: ...}
    kind:        antipattern | batching | editing
    antipattern: <id in presets/antipatterns.yaml>   (kind antipattern)
    text:        the input sentence(s)
    correct:     {speed, pitch, variability, use_emotion, edits: {word: [ARPAbet, ...]}}
    naive:       switches and parameters, as in the /compare endpoint's `switches`
    notice:      {en: ..., zh: ...}   what to notice

Only names matching [a-z0-9_-]+ are looked up, and only in presets/lessons/: a lesson name from a
request can never reach another file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from playground.naive import NaiveConfig, catalogue, parse_switches
from playground.phonemes import ARPABET_INVENTORY, Word, validate_words
from playground.pipeline import InputError, VoiceSettings

LESSONS_DIR = Path(__file__).resolve().parent.parent / "presets" / "lessons"
_NAME = re.compile(r"^[a-z0-9_-]+$")
KINDS = ("antipattern", "batching", "editing")
LANGS = ("en", "zh")
_CORRECT_KEYS = {"speed", "pitch", "variability", "use_emotion", "edits"}


class LessonError(InputError):
    """An unknown lesson name or a malformed lesson file; the message says which and why."""


@dataclass(frozen=True)
class CorrectConfig:
    """The correct panel: the voice's real knobs, plus the user's phoneme edits (editing lesson)."""

    speed: float = 1.0
    pitch: float = 0.0
    variability: float = 1.0
    use_emotion: bool = True
    edits: dict[str, list[str]] = field(default_factory=dict)

    def settings(self) -> VoiceSettings:
        return VoiceSettings(
            speed=self.speed, pitch_semitones=self.pitch, variability=self.variability, use_emotion=self.use_emotion
        )


@dataclass(frozen=True)
class Lesson:
    name: str
    title: dict[str, str]
    kind: str
    antipattern: str | None
    text: str
    correct: CorrectConfig
    naive: NaiveConfig
    notice: dict[str, str]


def lesson_names() -> list[str]:
    return sorted(p.stem for p in LESSONS_DIR.glob("*.yaml") if _NAME.match(p.stem))


def load_lesson(name: str) -> Lesson:
    if not isinstance(name, str) or not _NAME.match(name):
        raise LessonError(f"lesson names are lowercase letters, digits, '-' and '_'; got {name!r}")
    path = LESSONS_DIR / f"{name}.yaml"
    if not path.is_file():
        raise LessonError(f"unknown lesson {name!r}; available: {', '.join(lesson_names())}")
    return _load(path, path.stat().st_mtime_ns)


@lru_cache(maxsize=64)
def _load(path: Path, _mtime: int) -> Lesson:
    name = path.stem
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise LessonError(f"lesson {name!r} ({path.name}) is not valid YAML: {exc}") from None
    try:
        return _parse(name, data)
    except LessonError:
        raise
    except (InputError, TypeError, ValueError, KeyError) as exc:
        raise LessonError(f"lesson {name!r} ({path.name}) is malformed: {exc}") from None


def _bilingual(name: str, data: dict, key: str) -> dict[str, str]:
    value = data.get(key)
    if not isinstance(value, dict) or any(not str(value.get(lang) or "").strip() for lang in LANGS):
        raise LessonError(f"lesson {name!r}: '{key}' needs non-empty 'en' and 'zh' texts")
    return {lang: value[lang].strip() for lang in LANGS}


def _parse(name: str, data: Any) -> Lesson:
    if not isinstance(data, dict):
        raise LessonError(f"lesson {name!r}: the file must be a YAML mapping")
    kind = data.get("kind")
    if kind not in KINDS:
        raise LessonError(f"lesson {name!r}: kind must be one of {', '.join(KINDS)}; got {kind!r}")
    ap = data.get("antipattern")
    if ap is not None and ap not in catalogue():
        raise LessonError(f"lesson {name!r}: unknown antipattern {ap!r}")
    text = data.get("text")
    if not isinstance(text, str) or not text.strip():
        raise LessonError(f"lesson {name!r}: 'text' must be a non-empty string")
    correct = data.get("correct") or {}
    if not isinstance(correct, dict) or set(correct) - _CORRECT_KEYS:
        raise LessonError(f"lesson {name!r}: 'correct' accepts only {', '.join(sorted(_CORRECT_KEYS))}")
    edits = {str(k).lower(): [str(p) for p in v] for k, v in (correct.get("edits") or {}).items()}
    errors = validate_words([Word(text=k, phonemes=v) for k, v in edits.items()], ARPABET_INVENTORY)
    if errors:
        raise LessonError(f"lesson {name!r}: bad edits: " + "; ".join(errors))
    cc = CorrectConfig(
        speed=float(correct.get("speed", 1.0)),
        pitch=float(correct.get("pitch", 0.0)),
        variability=float(correct.get("variability", 1.0)),
        use_emotion=bool(correct.get("use_emotion", True)),
        edits=edits,
    )
    naive = data.get("naive") or {}
    if not isinstance(naive, dict):
        raise LessonError(f"lesson {name!r}: 'naive' must be a mapping of switches")
    return Lesson(
        name=name,
        title=_bilingual(name, data, "title"),
        kind=kind,
        antipattern=ap,
        text=text.strip(),
        correct=cc,
        naive=parse_switches(naive),
        notice=_bilingual(name, data, "notice"),
    )


def all_lessons() -> list[Lesson]:
    return [load_lesson(n) for n in lesson_names()]
