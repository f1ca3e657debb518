"""Front-end throughput: vLLM with N concurrent requests vs HF transformers generate(), one at a time.

Same model, same prompts (held-out NORM sentences, then PHN of their words), greedy, no constraint
(HF has none). Prints tokens/s and first-token latency of each; the last line is the ratio.

    python bench/frontend.py [--n 32]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
from playground.env import configure_environment  # noqa: E402

configure_environment()

from eval_frontend import MODEL_DIR, heldout_norm_cases, load_llm  # noqa: E402

from playground.constraints import norm_prompt, phn_prompt, words_for_phonemes  # noqa: E402

MAX_TOKENS = 160


def bench_prompts(n: int) -> list[str]:
    cases = heldout_norm_cases()
    half = [norm_prompt(c["raw"]) for c in cases[: (n + 1) // 2]]
    return half + [phn_prompt(words_for_phonemes(c["norm"])) for c in cases[: n // 2]]


def run_vllm(llm, prompts: list[str]) -> dict:
    """All prompts submitted at once to the engine; first-token time per request from engine steps."""
    from vllm import SamplingParams

    sp = SamplingParams(temperature=0, max_tokens=MAX_TOKENS)
    engine = llm.llm_engine
    t0 = time.perf_counter()
    for i, p in enumerate(prompts):
        engine.add_request(str(i), p, sp)
    first: dict[str, float] = {}
    tokens: dict[str, int] = {}
    while engine.has_unfinished_requests():
        for out in engine.step():
            n = len(out.outputs[0].token_ids) if out.outputs else 0
            if n and out.request_id not in first:
                first[out.request_id] = time.perf_counter() - t0
            tokens[out.request_id] = max(tokens.get(out.request_id, 0), n)
    wall = time.perf_counter() - t0
    total = sum(tokens.values())
    return {"tok_s": total / wall, "tokens": total, "wall": wall, "ttft": statistics.median(first.values())}


def run_hf(model_dir: Path, prompts: list[str]) -> dict:
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tok = AutoTokenizer.from_pretrained(model_dir)
    model = AutoModelForCausalLM.from_pretrained(model_dir, dtype=torch.float32).eval()
    total, ttfts = 0, []
    with torch.no_grad():  # warm-up, as for vLLM
        model.generate(tok(prompts[0], return_tensors="pt").input_ids, max_new_tokens=4, do_sample=False)
    t0 = time.perf_counter()
    with torch.no_grad():
        for p in prompts:
            ids = tok(p, return_tensors="pt", add_special_tokens=False).input_ids
            out = model.generate(ids, max_new_tokens=MAX_TOKENS, do_sample=False, eos_token_id=2, pad_token_id=0)
            total += out.shape[1] - ids.shape[1]
    wall = time.perf_counter() - t0
    with torch.no_grad():  # first-token latency: a one-token generate, a few prompts
        for p in prompts[:8]:
            ids = tok(p, return_tensors="pt", add_special_tokens=False).input_ids
            t = time.perf_counter()
            model.generate(ids, max_new_tokens=1, do_sample=False, eos_token_id=2, pad_token_id=0)
            ttfts.append(time.perf_counter() - t)
    return {"tok_s": total / wall, "tokens": total, "wall": wall, "ttft": statistics.median(ttfts)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=32, help="concurrent requests (= prompts)")
    ap.add_argument("--hf-every", type=int, default=2, help="HF runs every k-th prompt (it is the slow side)")
    ap.add_argument("--model", default=str(MODEL_DIR))
    args = ap.parse_args()
    prompts = bench_prompts(args.n)
    llm = load_llm(args.model)
    run_vllm(llm, prompts[:4])  # warm-up
    runs = [run_vllm(llm, prompts) for _ in range(3)]  # a sub-second run alone is too noisy
    v = {"tokens": sum(r["tokens"] for r in runs), "wall": sum(r["wall"] for r in runs),
         "ttft": statistics.median(r["ttft"] for r in runs)}
    v["tok_s"] = v["tokens"] / v["wall"]
    print(f"vLLM, {len(prompts)} concurrent (3 rounds): {v['tokens']} tokens in {v['wall']:.2f}s = "
          f"{v['tok_s']:.0f} tok/s, "
          f"median first-token latency {v['ttft'] * 1000:.0f} ms")
    hf_prompts = prompts[:: args.hf_every]
    h = run_hf(Path(args.model), hf_prompts)
    print(f"HF generate(), one at a time ({len(hf_prompts)} of the prompts): {h['tokens']} tokens in"
          f" {h['wall']:.2f}s = {h['tok_s']:.0f} tok/s, "
          f"median first-token latency {h['ttft'] * 1000:.0f} ms")
    print(f"RATIO={v['tok_s'] / h['tok_s']:.1f} (vLLM {args.n} concurrent / HF one at a time, tokens/s)")


if __name__ == "__main__":
    main()
