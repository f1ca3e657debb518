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


def run_vllm(llm, prompts: list[str], in_flight: int | None = None) -> dict:
    """Prompts through the engine, `in_flight` at a time (all at once when None); first-token time
    per request from engine steps. With `in_flight`, a finished request is replaced at once by the
    next prompt (a closed loop of that many clients), so the batch stays full until the pool runs out.
    """
    from vllm import SamplingParams

    sp = SamplingParams(temperature=0, max_tokens=MAX_TOKENS)
    engine = llm.llm_engine
    pending = list(enumerate(prompts))[::-1]
    t0 = time.perf_counter()
    submitted: dict[str, float] = {}

    def submit() -> None:
        i, p = pending.pop()
        submitted[str(i)] = time.perf_counter() - t0
        engine.add_request(str(i), p, sp)

    for _ in range(in_flight or len(prompts)):
        submit()
    first: dict[str, float] = {}
    tokens: dict[str, int] = {}
    while engine.has_unfinished_requests():
        for out in engine.step():
            n = len(out.outputs[0].token_ids) if out.outputs else 0
            if n and out.request_id not in first:
                first[out.request_id] = time.perf_counter() - t0 - submitted[out.request_id]
            tokens[out.request_id] = max(tokens.get(out.request_id, 0), n)
            if out.finished and pending:
                submit()
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
    ap.add_argument("--hf-every", type=int, default=6, help="HF runs every k-th prompt (it is the slow side)")
    ap.add_argument("--model", default=str(MODEL_DIR))
    args = ap.parse_args()
    prompts = bench_prompts(3 * args.n)  # a pool of 3 prompts per client
    llm = load_llm(args.model)
    run_vllm(llm, prompts[:4])  # warm-up
    # The condition, 32 concurrent requests: a closed loop keeps 32 in flight. The static batch
    # (32 submitted together, waiting for the last) is printed too: its tail runs with few requests.
    static = [run_vllm(llm, prompts[k * args.n : (k + 1) * args.n]) for k in range(3)]
    s_tok, s_wall = sum(r["tokens"] for r in static), sum(r["wall"] for r in static)
    print(f"vLLM, static batches of {args.n} (3, each waits for its longest): {s_tok} tokens in {s_wall:.2f}s = "
          f"{s_tok / s_wall:.0f} tok/s")
    v = run_vllm(llm, prompts, in_flight=args.n)
    print(f"vLLM, {args.n} concurrent ({len(prompts)} requests, {args.n} in flight): {v['tokens']} tokens in "
          f"{v['wall']:.2f}s = {v['tok_s']:.0f} tok/s, "
          f"median first-token latency {v['ttft'] * 1000:.0f} ms")
    hf_prompts = prompts[:: args.hf_every]
    h = run_hf(Path(args.model), hf_prompts)
    print(f"HF generate(), one at a time ({len(hf_prompts)} of the prompts): {h['tokens']} tokens in"
          f" {h['wall']:.2f}s = {h['tok_s']:.0f} tok/s, "
          f"median first-token latency {h['ttft'] * 1000:.0f} ms")
    print(f"static batches / HF: {s_tok / s_wall / h['tok_s']:.1f}")
    print(f"RATIO={v['tok_s'] / h['tok_s']:.1f} (vLLM {args.n} concurrent / HF one at a time, tokens/s)")


if __name__ == "__main__":
    main()
