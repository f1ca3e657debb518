"""What a user may type, and the message they get when the voice cannot say it.

The voices speak English from ARPAbet phonemes: Latin letters (accents are transliterated), digits,
currency and punctuation. Everything else is refused with a message naming the character, rather
than silently dropped. HTML needs no special case: it is read as plain characters, never rendered.
"""

from __future__ import annotations

import os
import unicodedata

from playground.normalize import split_sentences

DEFAULT_MAX_CHARS = 1000


class InputError(ValueError):
    """Bad user input: the message is shown as is, in the UI and through the API."""


def max_chars() -> int:
    """The length limit, configurable for a workshop room or a public Space."""
    try:
        return max(1, int(os.environ.get("PLAYGROUND_MAX_CHARS", DEFAULT_MAX_CHARS)))
    except ValueError:
        return DEFAULT_MAX_CHARS


def _describe(ch: str) -> str:
    if unicodedata.category(ch).startswith("C"):  # invisible: show only its code point and name
        return f"U+{ord(ch):04X} ({unicodedata.name(ch, 'a control character')})"
    return f"'{ch}' (U+{ord(ch):04X} {unicodedata.name(ch, 'unnamed')})"


_SCRIPTS = {
    "CJK": "Chinese/Japanese (CJK)",
    "HIRAGANA": "Japanese",
    "KATAKANA": "Japanese",
    "HANGUL": "Korean",
}


def _script(ch: str) -> str:
    first = unicodedata.name(ch, "UNKNOWN").split()[0]
    return _SCRIPTS.get(first, first.capitalize())


def check_text(text: str | None, limit: int | None = None) -> list[str]:
    """Split into sentences or raise InputError with a message a user can act on."""
    limit = limit or max_chars()
    if text is None or not str(text).strip():
        raise InputError("Please type some English text first.")
    text = str(text)
    if len(text) > limit:
        raise InputError(f"The text is {len(text)} characters long; the limit is {limit} characters.")
    for i, ch in enumerate(text):
        cat = unicodedata.category(ch)
        if ch in "\n\r\t":
            continue
        if cat in ("Cc", "Cf", "Co", "Cs", "Cn"):
            raise InputError(
                f"The text contains an invisible control or formatting character {_describe(ch)} at position "
                f"{i + 1}; please remove it."
            )
        if cat == "So" or 0x1F000 <= ord(ch) <= 0x1FAFF:
            raise InputError(
                f"The voice cannot say emoji or symbols such as {_describe(ch)}; please write it in words."
            )
        if cat.startswith("L") and not unicodedata.name(ch, "").startswith("LATIN"):
            sample = "".join(c for c in text if c.isalpha() and not unicodedata.name(c, "").startswith("LATIN"))[:12]
            raise InputError(
                f"This voice speaks English, but the text contains {_script(ch)} characters ({sample}). "
                "Please type English text."
            )
    if not any(ch.isalnum() for ch in text):
        raise InputError("There is nothing to say: please type some English words.")
    sentences = split_sentences(text)
    if not sentences:
        raise InputError("Please type some English text first.")
    return sentences
