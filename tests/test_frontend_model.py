"""The front-end LM's data layer (lexicon, verbalizer, constraints) and the shipped model through vLLM.

Rule tests are instant; the model tests share one in-process vLLM engine (`frontend_llm`) and run the
same functions as bench/eval_frontend.py on a small sample, with thresholds below the full eval."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from playground.constraints import (
    TAGS,
    norm_prompt,
    normalization_regex,
    parse_norm_output,
    parse_phn_output,
    phn_prompt,
    phoneme_regex,
    words_for_phonemes,
)
from playground.lexicon import ARPABET_INVENTORY, load_cmudict
from playground.normalize import default_normalization, split_sentences, verbalize

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))


def candidates(raw: str) -> list[list[str]]:
    return verbalize(raw)


# ------------------------------------------------------------------ lexicon
def test_lexicon_reads_the_data_file_with_all_variants():
    lex = load_cmudict()
    assert len(lex) > 120_000
    assert ["HH", "AH0", "L", "OW1"] in lex["hello"]
    assert {"W IH1 N D", "W AY1 N D"} <= {" ".join(p) for p in lex["wind"]}
    assert len(ARPABET_INVENTORY) == 69
    used = {p for prons in lex.values() for pron in prons for p in pron}
    assert used == set(ARPABET_INVENTORY)


# ------------------------------------------------------------------ sentences and verbalizer
def test_split_sentences_is_abbreviation_aware():
    text = "Dr. Smith paid $5.30. He left at 3 p.m. Then J. K. Rowling read No. 5! Really? Yes."
    assert split_sentences(text) == [
        "Dr. Smith paid $5.30.",
        "He left at 3 p.m.",
        "Then J. K. Rowling read No. 5!",
        "Really?",
        "Yes.",
    ]
    assert split_sentences("Meet me on Main St. at noon.") == ["Meet me on Main St. at noon."]


@pytest.mark.parametrize(
    "raw, gold, also",
    [
        ("$5.30", "five dollars and thirty cents", []),
        ("$12", "twelve dollars", []),
        ("$1", "one dollar", []),
        ("£2.50", "two pounds and fifty pence", []),
        ("€40", "forty euros", []),
        ("1,234", "one thousand two hundred thirty four", []),
        ("In 1990", "in nineteen ninety", ["in one thousand nine hundred ninety"]),
        ("3.14", "three point one four", []),
        ("the 3rd", "the third", []),
        ("21st", "twenty first", []),
        ("at 10:30", "at ten thirty", []),
        ("at 7:05 pm", "at seven oh five p m", []),
        ("at 3 pm", "at three p m", []),
        ("50%", "fifty percent", []),
        ("on 3/4", "on march fourth", ["on three quarters"]),
        ("3/4 cup", "three quarters cup", ["march fourth cup"]),
        ("March 4, 2021", "march fourth, twenty twenty one", []),
        ("Dr. Smith", "doctor smith", ["drive smith"]),
        ("on Elm St.", "on elm street.", ["on elm saint."]),
        ("St. Louis", "saint louis", []),
        ("Mr. and Mrs. Lee vs. Prof. Ito", "mister and missus lee versus professor ito", []),
        ("e.g. apples, etc.", "for example apples, et cetera.", []),
        ("No. 5", "number five", []),
        ("the 1990s", "the nineteen nineties", []),
        ("Wait... what?!", "wait. what?", []),
    ],
)
def test_verbalizer_gold_and_alternatives(raw, gold, also):
    assert default_normalization(raw) == gold
    rx = re.compile(normalization_regex(raw))
    for text in [gold, *also]:
        assert rx.fullmatch(text + " [neutral]"), (raw, text)
    assert not rx.fullmatch(gold)  # the tag is required


def test_candidate_lists():
    assert candidates("1990") == [["one thousand nine hundred ninety", "nineteen ninety"]]
    assert candidates("Baker Dr. is")[1] == ["drive", "doctor"] and candidates("Dr. Who")[0] == ["doctor", "drive"]
    assert candidates("on Elm St.")[-1] == ["street.", "saint."]  # the period is also the full stop
    assert {"march fourth", "three quarters"} <= set(candidates("3/4")[0])
    for seg in candidates("On 3/4, Dr. Smith paid $1,234.56 at 10:30 am (about 12%)!"):
        for alt in seg:
            assert re.fullmatch(r"[a-z' ]+[,.?!]?", alt), alt  # lowercase words, one attached mark


# ------------------------------------------------------------------ constraints
def test_regexes_escape_and_parse():
    rx = normalization_regex("Really? Yes (maybe).")
    assert re.fullmatch(rx, "really? yes maybe. [surprised]")
    assert parse_norm_output("doctor smith paid five dollars. [happy]") == ("doctor smith paid five dollars.", "happy")
    assert parse_norm_output("no tag here") == ("no tag here", "neutral")
    assert parse_phn_output(" HH AH0 L OW1 | W ER1 L D") == [["HH", "AH0", "L", "OW1"], ["W", "ER1", "L", "D"]]
    assert words_for_phonemes("hello, world. [calm]") == ["hello", "world"]
    assert set(TAGS) == {"neutral", "happy", "sad", "angry", "surprised", "calm"}
    lex = load_cmudict()
    prx = re.compile(phoneme_regex("the wind, zorblax.", lex, ARPABET_INVENTORY))
    assert prx.fullmatch(" DH AH0 | W IH1 N D | Z AO1 R B L AE2 K S")
    assert prx.fullmatch(" DH AH0 | W AY1 N D | Z")
    assert not prx.fullmatch(" DH AH0 | W IY1 N D | Z")  # not a dictionary pronunciation of "wind"
    assert not prx.fullmatch(" DH AH0 | W IH1 N D | Q")  # not in the inventory


def test_tokenizer_prompt_chars_and_phoneme_tokens():
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(REPO / "models" / "frontend")
    ids = tok.encode(norm_prompt("Dr. Smith"), add_special_tokens=False)
    assert tok.convert_ids_to_tokens(ids) == ["<s>", "<norm>", *"Dr. Smith", "<sep>"]
    phones = [tok.convert_tokens_to_ids(t) for t in [" HH", " AH0", " |", " L"]]
    assert 3 not in phones and tok.decode(phones + [tok.eos_token_id], skip_special_tokens=True) == " HH AH0 | L"


# ------------------------------------------------------------------ the shipped model through vLLM
def test_constrained_outputs_are_legal(frontend_llm):
    from eval_frontend import generate

    lex = load_cmudict()
    raws = ["Dr. Smith paid $5.30 on 3/4.", "I am so happy, we won 2 games!", "The wind was cold at 7:05 pm."]
    outs = generate(frontend_llm, [norm_prompt(r) for r in raws], [normalization_regex(r) for r in raws], 200)
    for raw, out in zip(raws, outs):
        assert re.fullmatch(normalization_regex(raw), out), out
        norm, tag = parse_norm_output(out)
        assert tag in TAGS and "$" not in norm and not re.search(r"\d", norm)
    norms = [parse_norm_output(o)[0] for o in outs]
    outs = generate(
        frontend_llm,
        [phn_prompt(words_for_phonemes(n)) for n in norms],
        [phoneme_regex(n, lex, ARPABET_INVENTORY) for n in norms],
        300,
    )
    for n, out in zip(norms, outs):
        groups = parse_phn_output(out)
        words = words_for_phonemes(n)
        assert len(groups) == len(words)
        for w, g in zip(words, groups):
            assert g in lex[w], (w, g)


def test_eval_meets_issue_targets(frontend_llm):
    """bench/eval_frontend.py's figures on the full held-out sets (2 500 words, 400 cases; ~30 s)."""
    from eval_frontend import eval_constrained_phonemes, eval_norm, eval_words, heldout_norm_cases, heldout_words

    lex = load_cmudict()
    w = eval_words(frontend_llm, heldout_words(), lex)
    assert w["per"] <= 0.10 and w["wer"] <= 0.45, w  # shipped model: PER 0.085, WER 0.308
    cases = heldout_norm_cases()
    assert len(cases) >= 300
    con = eval_norm(frontend_llm, cases, constrained=True)
    assert con["norm"] >= 0.95 and con["emo"] >= 0.80, con  # shipped model: NORM 0.978, EMO 0.938
    c = eval_constrained_phonemes(frontend_llm, [x["norm"] for x in cases], lex)
    assert c["dict_rate"] == 1.0 and c["aligned"] == 1.0
