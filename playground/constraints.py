"""Prompts, structured-output regexes and output parsers for the front-end LM.

The regexes make vLLM (xgrammar backend) choose only among legal outputs: for NORM, one of the
verbalizer's candidates per token plus one emotion tag; for PHN, a dictionary pronunciation for
every in-dictionary word and 1..30 inventory phonemes for any other word.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from playground.normalize import verbalize

TAGS: tuple[str, ...] = ("neutral", "happy", "sad", "angry", "surprised", "calm")
WORD_SEP = " |"
MAX_OOV_PHONES = 30
_META = set(r".^$*+?()[]{}|\/-")


def escape(text: str) -> str:
    """Backslash-escape regex metacharacters only (xgrammar rejects Python's escaped spaces)."""
    return "".join("\\" + c if c in _META else c for c in text)


def _alt(options: Iterable[str]) -> str:
    opts = list(dict.fromkeys(options))
    return escape(opts[0]) if len(opts) == 1 else "(" + "|".join(escape(o) for o in opts) + ")"


def norm_prompt(raw_sentence: str) -> str:
    return "<s><norm>" + " ".join(raw_sentence.split()) + "<sep>"


def phn_prompt(words: Sequence[str]) -> str:
    return "<s><phn>" + " ".join(words) + "<sep>"


def tag_regex(tags: Sequence[str] = TAGS) -> str:
    return r" \[" + _alt(tags) + r"\]"


def normalization_regex(raw_sentence: str, tags: Sequence[str] = TAGS) -> str:
    """Exactly: one candidate per verbalizer segment, joined by single spaces, then ' [tag]'."""
    segs = verbalize(raw_sentence)
    return " ".join(_alt(seg) for seg in segs) + tag_regex(tags)


def words_for_phonemes(normalized: str) -> list[str]:
    """The words the PHN task reads: lowercase, no punctuation, no trailing ' [tag]'."""
    text = re.sub(r"\s*\[[a-z]+\]\s*$", "", normalized.lower())
    text = re.sub(r"[^a-z' ]+", " ", text)
    return [w for w in (t.strip("'") for t in text.split()) if w]


def phoneme_regex(
    normalized_sentence: str, lexicon: Mapping[str, list[list[str]]], inventory: Sequence[str]
) -> str:
    """Per word: its dictionary pronunciations, else 1..30 phonemes of the inventory; ' |' between."""
    any_phone = "( " + _alt(inventory) + ")"
    groups = []
    for w in words_for_phonemes(normalized_sentence):
        prons = lexicon.get(w)
        if prons:
            groups.append(_alt(" " + " ".join(p) for p in prons))
        else:
            groups.append(any_phone + "{1," + str(MAX_OOV_PHONES) + "}")
    return escape(WORD_SEP).join(groups)


def parse_norm_output(text: str) -> tuple[str, str]:
    """'doctor smith paid five dollars. [happy]' -> ('doctor smith paid five dollars.', 'happy')."""
    m = re.match(r"^\s*(.*?)\s*\[([a-z]*)\]?\s*$", text, re.S)
    if not m:
        return " ".join(text.split()), "neutral"
    tag = m.group(2) if m.group(2) in TAGS else "neutral"
    return " ".join(m.group(1).split()), tag


def parse_phn_output(text: str) -> list[list[str]]:
    """' HH AH0 L OW1 | W ER1 L D' -> [['HH', 'AH0', 'L', 'OW1'], ['W', 'ER1', 'L', 'D']]."""
    return [g.split() for g in text.split("|")]
