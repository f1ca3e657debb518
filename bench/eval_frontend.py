"""Evaluate the shipped front-end LM through vLLM (offline batch, greedy).

  * held-out CMUdict words (never trained on), unconstrained: PER / WER (stress digits count),
    next to g2p_en's GRU predict() on the same words;
  * held-out sentences with the phoneme constraint: share of in-dictionary words that got a
    dictionary pronunciation (must be 1.0), and unseen homograph contexts;
  * held-out normalization cases: exact match, constrained and unconstrained;
  * emotion tag agreement + confusion matrix.
Last line: `PER=0.xxx WER=0.xxx NORM=0.xxx EMO=0.xxx` (NORM/EMO under the constraint).

    python bench/eval_frontend.py [--limit N] [--model models/frontend]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from playground.env import configure_environment  # noqa: E402

configure_environment()

from playground.constraints import (  # noqa: E402
    TAGS,
    norm_prompt,
    normalization_regex,
    parse_norm_output,
    parse_phn_output,
    phn_prompt,
    phoneme_regex,
    words_for_phonemes,
)
from playground.lexicon import ARPABET_INVENTORY, load_cmudict, per_wer  # noqa: E402

MODEL_DIR = ROOT / "models" / "frontend"
# Homograph contexts written for evaluation only (none of these sentences is in the training data).
HOMOGRAPH_CASES = [
    ("the wind blew the leaves away", "wind", "W IH1 N D"),
    ("you must wind the old watch", "wind", "W AY1 N D"),
    ("she read the letter last night", "read", "R EH1 D"),
    ("i want to read that novel", "read", "R IY1 D"),
    ("we saw a live concert", "live", "L AY1 V"),
    ("my parents live in town", "live", "L IH1 V"),
    ("the captain will lead the ship", "lead", "L IY1 D"),
    ("the box was lined with lead", "lead", "L EH1 D"),
    ("a tear rolled down his face", "tear", "T IH1 R"),
    ("please do not tear my shirt", "tear", "T EH1 R"),
    ("they will record the album", "record", "R IH0 K AO1 R D"),
    ("the old record was scratched", "record", "R EH1 K ER0 D"),
    ("he bought a present for her", "present", "P R EH1 Z AH0 N T"),
    ("please close the gate", "close", "K L OW1 Z"),
    ("the store is close to the park", "close", "K L OW1 S"),
    ("give me one minute", "minute", "M IH1 N AH0 T"),
]


def load_llm(model_dir: Path | str = MODEL_DIR):
    from vllm import LLM

    return LLM(
        model=str(model_dir),
        dtype="float32",
        enforce_eager=True,
        kv_cache_memory_bytes=256 * 2**20,
        structured_outputs_config={"backend": "xgrammar", "disable_any_whitespace": True},
        seed=0,
        disable_log_stats=True,
    )


def generate(
    llm, prompts: Sequence[str], regexes: Sequence[str | None] | None = None, max_tokens: Sequence[int] | int = 64
) -> list[str]:
    """Greedy completions; `regexes[i]` constrains prompt i (None: unconstrained)."""
    from vllm import SamplingParams
    from vllm.sampling_params import StructuredOutputsParams

    regexes = regexes or [None] * len(prompts)
    mts = [max_tokens] * len(prompts) if isinstance(max_tokens, int) else list(max_tokens)
    params = [
        SamplingParams(
            temperature=0, max_tokens=mt, structured_outputs=StructuredOutputsParams(regex=rx) if rx else None
        )
        for rx, mt in zip(regexes, mts)
    ]
    if hasattr(llm, "submit"):  # the app's shared EngineLoop (tests: one vLLM engine per process)
        from vllm.sampling_params import RequestOutputKind

        for p in params:
            p.output_kind = RequestOutputKind.FINAL_ONLY
        tok = llm.tokenizer
        return llm.generate([tok.encode(p, add_special_tokens=False) for p in prompts], params)
    outs = llm.generate(list(prompts), params, use_tqdm=False)
    return [o.outputs[0].text for o in outs]


def heldout_words(limit: int | None = None) -> list[str]:
    words = (MODEL_DIR / "heldout_words.txt").read_text().split()
    return words[:: max(1, len(words) // limit)][:limit] if limit else words


def heldout_norm_cases(limit: int | None = None) -> list[dict]:
    cases = [json.loads(line) for line in (MODEL_DIR / "heldout_norm.jsonl").open()]
    return cases[:limit] if limit else cases


def eval_words(llm, words: Sequence[str], lex) -> dict:
    texts = generate(llm, [phn_prompt([w]) for w in words], max_tokens=32)
    preds = [sum(parse_phn_output(t), []) for t in texts]
    per, wer = per_wer(preds, words, lex)
    return {"per": per, "wer": wer, "preds": preds}


def g2p_en_scores(words: Sequence[str], lex) -> tuple[float, float] | None:
    """g2p_en's GRU predict() (its own dictionary lookup is bypassed), or None if unavailable."""
    try:
        import g2p_en.g2p as g2p_mod
    except Exception:  # noqa: BLE001 - the comparison is optional
        return None

    class _NoDict:  # G2p.__init__ reads NLTK's cmudict corpus; predict() never needs it
        @staticmethod
        def dict() -> dict:
            return {}

    g2p_mod.cmudict = _NoDict()
    g = g2p_mod.G2p()
    return per_wer([g.predict(w) for w in words], words, lex)


def eval_constrained_phonemes(llm, sentences: Sequence[str], lex) -> dict:
    """Sentences under phoneme_regex: every in-dictionary word must get a dictionary pronunciation."""
    prompts, rxs, mts, wordlists = [], [], [], []
    for s in sentences:
        ws = words_for_phonemes(s)
        prompts.append(phn_prompt(ws))
        rxs.append(phoneme_regex(s, lex, ARPABET_INVENTORY))
        mts.append(min(400, 16 * len(ws) + 8))
        wordlists.append(ws)
    texts = generate(llm, prompts, rxs, mts)
    in_dict = ok = aligned = 0
    for ws, t in zip(wordlists, texts):
        groups = parse_phn_output(t)
        aligned += len(groups) == len(ws)
        for w, g in zip(ws, groups):
            if w in lex:
                in_dict += 1
                ok += g in lex[w]
    return {"dict_rate": ok / max(in_dict, 1), "aligned": aligned / max(len(sentences), 1)}


def eval_homographs(llm, lex) -> float:
    sents = [s for s, _, _ in HOMOGRAPH_CASES]
    rxs = [phoneme_regex(s, lex, ARPABET_INVENTORY) for s in sents]
    texts = generate(llm, [phn_prompt(s.split()) for s in sents], rxs, 128)
    right = 0
    for (s, w, pron), t in zip(HOMOGRAPH_CASES, texts):
        groups = parse_phn_output(t)
        i = s.split().index(w)
        right += i < len(groups) and groups[i] == pron.split()
    return right / len(HOMOGRAPH_CASES)


def eval_norm(llm, cases: Sequence[dict], constrained: bool) -> dict:
    prompts = [norm_prompt(c["raw"]) for c in cases]
    rxs = [normalization_regex(c["raw"]) for c in cases] if constrained else None
    mts = [min(440, 3 * len(c["raw"]) + 40) for c in cases]
    texts = generate(llm, prompts, rxs, mts)
    exact = emo = 0
    confusion = {g: dict.fromkeys(TAGS, 0) for g in TAGS}
    errors = []
    for c, t in zip(cases, texts):
        norm, tag = parse_norm_output(t)
        exact += norm == c["norm"]
        emo += tag == c["tag"]
        confusion[c["tag"]][tag] += 1
        if norm != c["norm"] and len(errors) < 5:
            errors.append((c["raw"], norm, c["norm"]))
    n = max(len(cases), 1)
    return {"norm": exact / n, "emo": emo / n, "confusion": confusion, "errors": errors}


def format_confusion(conf: dict) -> str:
    head = "gold\\pred  " + " ".join(f"{t[:5]:>6}" for t in TAGS)
    rows = [f"{g:<10} " + " ".join(f"{conf[g][p]:>6}" for p in TAGS) for g in TAGS]
    return "\n".join([head, *rows])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--limit", type=int, default=None, help="held-out words / cases to use (default: all)")
    ap.add_argument("--model", default=str(MODEL_DIR))
    ap.add_argument("--no-g2p-en", action="store_true")
    args = ap.parse_args()
    lex = load_cmudict()
    t0 = time.time()
    llm = load_llm(args.model)
    print(f"engine ready in {time.time() - t0:.1f}s")
    words = heldout_words(args.limit)
    cases = heldout_norm_cases(args.limit)

    t = time.time()
    w = eval_words(llm, words, lex)
    print(
        f"held-out words ({len(words)}), unconstrained: PER {w['per']:.3f}  WER {w['wer']:.3f}  "
        f"[{time.time() - t:.1f}s]"
    )
    if not args.no_g2p_en:
        g = g2p_en_scores(words, lex)
        if g:
            print(f"g2p_en predict() on the same words:  PER {g[0]:.3f}  WER {g[1]:.3f}")
    c = eval_constrained_phonemes(llm, [x["norm"] for x in cases], lex)
    print(
        f"constrained sentences ({len(cases)}): dictionary pronunciations {c['dict_rate']:.3f}, "
        f"word groups aligned {c['aligned']:.3f}"
    )
    print(f"homographs in unseen contexts (constrained): {eval_homographs(llm, lex):.3f}")
    free = eval_norm(llm, cases, constrained=False)
    con = eval_norm(llm, cases, constrained=True)
    print(f"normalization exact ({len(cases)}): constrained {con['norm']:.3f}  unconstrained {free['norm']:.3f}")
    print(f"emotion agreement: constrained {con['emo']:.3f}  unconstrained {free['emo']:.3f}")
    for raw, got, gold in con["errors"]:
        print(f"  NORM miss: {raw!r}\n     got  {got!r}\n     gold {gold!r}")
    print("emotion confusion (constrained):\n" + format_confusion(con["confusion"]))
    print(f"total {time.time() - t0:.0f}s")
    print(f"PER={w['per']:.3f} WER={w['wer']:.3f} NORM={con['norm']:.3f} EMO={con['emo']:.3f}")


if __name__ == "__main__":
    main()
