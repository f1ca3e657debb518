"""ARPAbet phonemes: the inventory, the editable text form, validation, and ARPAbet -> IPA.

The front end emits one :class:`Word` per word: its normalized text, its ARPAbet phonemes
(CMUdict symbols, vowels carry a stress digit 0/1/2) and the sentence punctuation that follows
it. Users edit that in a plain text form (see :func:`format_phonemes`), and every edit is
validated against the chosen voice's inventory before it reaches the voice.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

_VOWEL_BASES = (
    "AA", "AE", "AH", "AO", "AW", "AY", "EH", "ER", "EY", "IH", "IY", "OW", "OY", "UH", "UW",
)  # fmt: skip
ARPABET_CONSONANTS: tuple[str, ...] = (
    "B", "CH", "D", "DH", "F", "G", "HH", "JH", "K", "L", "M", "N", "NG", "P", "R", "S", "SH",
    "T", "TH", "V", "W", "Y", "Z", "ZH",
)  # fmt: skip
# CMUdict marks every vowel with a stress digit: 0 unstressed, 1 primary, 2 secondary.
ARPABET_VOWELS: tuple[str, ...] = tuple(f"{v}{s}" for v in _VOWEL_BASES for s in "012")
ARPABET_INVENTORY: frozenset[str] = frozenset(ARPABET_VOWELS + ARPABET_CONSONANTS)
assert len(ARPABET_INVENTORY) == 69

# Sentence punctuation a word may carry; it drives pauses and sentence splitting.
PUNCTUATION: tuple[str, ...] = (",", ".", "?", "!")
SENTENCE_END: tuple[str, ...] = (".", "?", "!")


@dataclass
class Word:
    """One word of the front end's output.

    ``punct`` is the sentence punctuation right after the word ("" when none): "," is a
    phrase break, ".", "?" and "!" end a sentence.
    """

    text: str
    phonemes: list[str] = field(default_factory=list)
    punct: str = ""


# --- ARPAbet -> IPA --------------------------------------------------------------------------
# The IPA flavour is espeak-ng's en-us, i.e. the symbols the bundled Piper voice was trained on
# (its phoneme_id_map has no "ɝ", so stressed ER is written "ɜː" the way espeak writes it; long
# vowels carry "ː"). Unstressed AH is schwa, stressed AH is "ʌ", ER0 is "ɚ", unstressed IY is
# "i". Keys without a digit apply to every stress of that vowel.
ARPABET_TO_IPA: dict[str, str] = {
    "AA": "ɑː", "AE": "æ", "AH": "ʌ", "AH0": "ə", "AO": "ɔː", "AW": "aʊ", "AY": "aɪ",
    "EH": "ɛ", "ER": "ɜː", "ER0": "ɚ", "EY": "eɪ", "IH": "ɪ", "IY": "iː", "IY0": "i",
    "OW": "oʊ", "OY": "ɔɪ", "UH": "ʊ", "UW": "uː",
    "B": "b", "CH": "tʃ", "D": "d", "DH": "ð", "F": "f", "G": "ɡ", "HH": "h", "JH": "dʒ",
    "K": "k", "L": "l", "M": "m", "N": "n", "NG": "ŋ", "P": "p", "R": "ɹ", "S": "s",
    "SH": "ʃ", "T": "t", "TH": "θ", "V": "v", "W": "w", "Y": "j", "Z": "z", "ZH": "ʒ",
}  # fmt: skip
_STRESS_MARK = {"1": "ˈ", "2": "ˌ", "0": ""}


def phoneme_to_ipa(phoneme: str) -> str:
    """One ARPAbet symbol to IPA; a stress mark (ˈ primary, ˌ secondary) precedes the vowel."""
    if phoneme in ARPABET_CONSONANTS:
        return ARPABET_TO_IPA[phoneme]
    if phoneme in ARPABET_VOWELS:
        base, digit = phoneme[:-1], phoneme[-1]
        return _STRESS_MARK[digit] + ARPABET_TO_IPA.get(phoneme, ARPABET_TO_IPA[base])
    raise KeyError(f"not an ARPAbet symbol: {phoneme!r}")


def arpabet_to_ipa(phonemes: Iterable[str]) -> str:
    """A word's ARPAbet phonemes to one IPA string, e.g. HH AH0 L OW1 -> 'həlˈoʊ'."""
    return "".join(phoneme_to_ipa(p) for p in phonemes)


# --- the editable text form ------------------------------------------------------------------
def format_phonemes(words: Sequence[Word]) -> str:
    """Words to the editable form: one word per line, ``text: PHONEMES [punct]``.

    Example::

        hello: HH AH0 L OW1 ,
        world: W ER1 L D .

    The punctuation token, if any, is the last token of the line. :func:`parse_words_edit`
    reads this back exactly.
    """
    lines = []
    for w in words:
        tokens = " ".join([*w.phonemes, *([w.punct] if w.punct else [])])
        lines.append(f"{w.text}: {tokens}")
    return "\n".join(lines)


def _split_tokens(rhs: str) -> tuple[list[str], str]:
    tokens = rhs.split()
    # Punctuation glued to the last phoneme ("D.") is split off.
    if tokens and len(tokens[-1]) > 1 and tokens[-1][-1] in PUNCTUATION:
        tokens[-1:] = [tokens[-1][:-1], tokens[-1][-1]]
    punct = ""
    while tokens and tokens[-1] in PUNCTUATION:
        # Several trailing marks ("?!") keep the last one, which decides the sentence type.
        punct = punct or tokens[-1]
        tokens.pop()
    # Uppercase so "ah0" is accepted; anything else is kept verbatim for validate_words.
    return [t.upper() for t in tokens], punct


def parse_words_edit(text: str) -> list[Word]:
    """Parse the editable form of :func:`format_phonemes` into :class:`Word` objects.

    Each non-blank line is one word: ``text: PHONEMES [punct]``. The ``text:`` prefix is
    optional (a line of bare phonemes gets text ""); phonemes are whitespace separated and
    case-insensitive; a trailing ``, . ? !`` (separate or glued to the last phoneme) is the
    word's punctuation. Unknown symbols are kept so :func:`validate_words` can explain them.
    """
    words = []
    for line in text.splitlines():
        if not line.strip():
            continue
        # Phonemes never contain ":", so the last ":" separates the word's text.
        head, sep, rhs = line.rpartition(":")
        word_text = head.strip() if sep else ""
        phonemes, punct = _split_tokens(rhs if sep else line)
        words.append(Word(text=word_text, phonemes=phonemes, punct=punct))
    return words


def parse_phoneme_edit(text: str) -> list[list[str]]:
    """The phoneme lists of the editable form, one per word (see :func:`parse_words_edit`)."""
    return [w.phonemes for w in parse_words_edit(text)]


def split_sentences(words: Sequence[Word]) -> list[list[Word]]:
    """Group words into sentences: a word whose punct is . ? or ! closes its sentence."""
    sentences: list[list[Word]] = [[]]
    for w in words:
        sentences[-1].append(w)
        if w.punct in SENTENCE_END:
            sentences.append([])
    return [s for s in sentences if s]


# --- validation ------------------------------------------------------------------------------
def suggest(symbol: str, inventory: Iterable[str]) -> list[str]:
    """Valid symbols the user probably meant (e.g. 'AH' -> AH0, AH1, AH2; 'T1' -> T)."""
    inv = sorted(set(inventory))
    s = symbol.upper()
    if s in inv:
        return [s]
    stressed = [p for p in inv if p[:-1] == s and p[-1:] in "012"]
    if stressed:  # a vowel without its stress digit
        return stressed
    if s[-1:].isdigit() and s[:-1] in inv:  # a consonant given a stress digit
        return [s[:-1]]
    if s[-1:].isdigit():  # a vowel with an unknown digit ("AH3")
        same_base = [p for p in inv if p[:-1] == s[:-1] and p[-1:] in "012"]
        if same_base:
            return same_base
    return difflib.get_close_matches(s, inv, n=3, cutoff=0.5)


def validate_words(words: Sequence[Word], inventory: Iterable[str]) -> list[str]:
    """Check every word's phonemes against a voice's inventory; return readable errors.

    An empty list means the words are valid. Each message names the word (position and text),
    the offending symbol, and what would be accepted instead.
    """
    inv = frozenset(inventory)
    errors = []
    for i, w in enumerate(words, start=1):
        where = f'word {i} "{w.text}"' if w.text else f"word {i}"
        if not w.phonemes:
            errors.append(f"{where}: has no phonemes (give at least one ARPAbet symbol)")
        for p in w.phonemes:
            if p in inv:
                continue
            hint = suggest(p, inv)
            if hint:
                tip = f"did you mean {' / '.join(hint)}?"
            else:
                tip = "use ARPAbet symbols as in CMUdict, vowels with a stress digit 0/1/2"
            errors.append(f'{where}: "{p}" is not a phoneme this voice accepts; {tip}')
        if w.punct and w.punct not in PUNCTUATION:
            errors.append(f'{where}: punctuation "{w.punct}" is not allowed; use one of ' + " ".join(PUNCTUATION))
    return errors
