"""The editable phoneme document: what the front end predicted, in a form a person can fix.

    # 1 [happy] Dr. Smith paid $5.30.
    doctor      D AA1 K T ER0
    smith       S M IH1 TH
    ...
    cents.      S EH1 N T S

One header per sentence (`# N [tag] original text`), then one line per word: the word (with its
trailing punctuation, which becomes a pause) and its ARPAbet phonemes. Parsing never alters the
user's text; problems come back as messages naming the line, the word and the symbol.
"""

from __future__ import annotations

import re

from playground.constraints import TAGS
from playground.frontend import SentenceAnalysis, split_words
from playground.phonemes import Word, validate_words

_HEADER = re.compile(r"^#\s*(\d+)?\s*(?:\[([^\]]*)\])?\s*(.*)$")


class EditError(ValueError):
    """The document has problems; `.messages` lists each one."""

    def __init__(self, messages: list[str]):
        super().__init__("\n".join(messages))
        self.messages = messages


def format_document(analyses: list[SentenceAnalysis]) -> str:
    lines = []
    for i, a in enumerate(analyses, 1):
        lines.append(f"# {i} [{a.tag}] {a.raw}")
        width = max((len(w.text + w.punct) for w in a.words), default=0) + 2
        for w in a.words:
            lines.append(f"{(w.text + w.punct).ljust(width)}{' '.join(w.phonemes)}".rstrip())
    return "\n".join(lines)


def is_document(text: str) -> bool:
    """A phoneme document (vs plain text to analyze) starts its first non-empty line with '#'."""
    first = next((ln for ln in text.splitlines() if ln.strip()), "")
    return first.lstrip().startswith("#")


def parse_document(text: str, inventory: frozenset[str] | set[str]) -> list[SentenceAnalysis]:
    """Document -> analyses for the voice, or EditError with every problem found."""
    analyses: list[SentenceAnalysis] = []
    errors: list[str] = []
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        if line.lstrip().startswith("#"):
            m = _HEADER.match(line.strip())
            tag = (m.group(2) or "neutral").strip().lower()
            if tag not in TAGS:
                errors.append(f"line {lineno}: unknown emotion tag [{tag}]; allowed: {', '.join(TAGS)}")
                tag = "neutral"
            analyses.append(SentenceAnalysis(raw=m.group(3).strip(), normalized="", tag=tag, words=[]))
            continue
        if not analyses:
            errors.append(f"line {lineno}: a word line comes before any '# N [tag] sentence' header")
            continue
        token, *phonemes = line.split()
        pairs = split_words(token)
        if not pairs:
            errors.append(f"line {lineno}: '{token}' is not a word")
            continue
        word, punct = pairs[0]
        if not phonemes:
            errors.append(f"line {lineno}: the word '{word}' has no phonemes")
        analyses[-1].words.append(Word(text=word, phonemes=phonemes, punct=punct))
    for i, a in enumerate(analyses, 1):
        a.normalized = " ".join(w.text + w.punct for w in a.words)
        if not a.words:
            errors.append(f"sentence {i} has no words")
        errors.extend(f"sentence {i}: {msg}" for msg in validate_words(a.words, inventory))
    if not analyses:
        errors.append("the document has no '# N [tag] sentence' header")
    if errors:
        raise EditError(errors)
    return analyses
