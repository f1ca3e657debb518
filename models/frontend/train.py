"""Train the front-end Llama (G2P + normalization + emotion tag) under a wall-clock budget.

Seeded; CUDA if present, else CPU with one thread (2.5x faster per step than two on shared cores).
Length-bucketed batches with a token budget, loss on completion tokens only, AdamW with warmup and
a cosine schedule over the *time* budget. Every --eval-every seconds it greedy-decodes a sample of
held-out words and saves the best checkpoint (by PER) into models/frontend/, so the folder always
holds the best model so far.

    python models/frontend/build_data.py && python models/frontend/train.py --minutes 60
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
import shutil
import sys
import time
from pathlib import Path

import torch
import torch.nn.functional as F

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))
from build_tokenizer import build_tokenizer, model_config, save_tokenizer, vocab_list  # noqa: E402

from playground.lexicon import load_cmudict, per_wer  # noqa: E402

DATA = ROOT / "artifacts" / "frontend_data" / "train.jsonl"
_PHN_TOKEN = re.compile(r" \||(?: [A-Z]+[0-2]?)")


def encode_target(task: str, target: str, vocab: dict[str, int]) -> list[int]:
    if task == "phn":
        toks = _PHN_TOKEN.findall(target)
        assert "".join(toks) == target, target
        ids = [vocab[t] for t in toks]
    else:
        ids = [vocab.get(c, vocab["<unk>"]) for c in target]
    return ids + [vocab["</s>"]]


def load_rows(vocab: dict[str, int]) -> list[tuple[list[int], int, str]]:
    """(ids, prompt_len, kind) per example; kind: word | sent (multi-word PHN) | norm."""
    tok = build_tokenizer()
    rows = [json.loads(line) for line in DATA.open()]
    prompts = tok.encode_batch([r["prompt"] for r in rows])
    out = []
    for r, p in zip(rows, prompts):
        kind = "norm" if r["task"] == "norm" else ("sent" if " " in r["prompt"] else "word")
        out.append((p.ids + encode_target(r["task"], r["target"], vocab), len(p.ids), kind))
    return out


def make_batches(rows, max_tokens: int, rng: random.Random, keep: dict[str, float]) -> list[list[int]]:
    """Indices grouped by similar length so padding stays small; batch = <= max_tokens tokens.

    Long NORM/sentence rows are subsampled per epoch (`keep`): they cost 5-7x a word in tokens and
    are learnt fast, while G2P of unseen words needs the most passes."""
    pick = [i for i in range(len(rows)) if rng.random() < keep.get(rows[i][2], 1.0)]
    order = sorted(pick, key=lambda i: (len(rows[i][0]), rng.random()))
    batches, cur, cur_len = [], [], 0
    for i in order:
        n = len(rows[i][0])
        if cur and max(cur_len, n) * (len(cur) + 1) > max_tokens:
            batches.append(cur)
            cur, cur_len = [], 0
        cur.append(i)
        cur_len = max(cur_len, n)
    if cur:
        batches.append(cur)
    rng.shuffle(batches)
    return batches


def collate(rows, idx: list[int], pad: int, device):
    width = max(len(rows[i][0]) for i in idx)
    ids = torch.full((len(idx), width), pad, dtype=torch.long)
    labels = torch.full((len(idx), width), -100, dtype=torch.long)
    for b, i in enumerate(idx):
        seq, plen, _ = rows[i]
        ids[b, : len(seq)] = torch.tensor(seq)
        labels[b, plen : len(seq)] = torch.tensor(seq[plen:])
    return ids.to(device), labels.to(device)


@torch.no_grad()
def greedy_words(model, words: list[str], vocab: dict[str, int], device, max_new: int = 32) -> list[list[str]]:
    """Batch greedy G2P with the HF model (left padding): the training-time eval."""
    inv = {i: t for t, i in vocab.items()}
    tok = build_tokenizer()
    enc = [tok.encode(f"<s><phn>{w}<sep>").ids for w in words]
    width = max(map(len, enc))
    ids = torch.tensor([[0] * (width - len(e)) + e for e in enc], device=device)
    starts = torch.tensor([width - len(e) for e in enc], device=device)
    mask = (torch.arange(width, device=device)[None] >= starts[:, None]).long()
    out = model.generate(
        input_ids=ids,
        attention_mask=mask,
        max_new_tokens=max_new,
        do_sample=False,
        eos_token_id=vocab["</s>"],
        pad_token_id=0,
    )
    res = []
    for row in out[:, width:].tolist():
        text = "".join(inv[t] for t in row if t > 6)
        res.append([p for p in text.replace("|", " ").split()])
    return res


def save(model, out: Path) -> None:
    tmp = out / ".tmp_ckpt"
    tmp.mkdir(exist_ok=True)
    model.save_pretrained(tmp, safe_serialization=True)
    for name in ("model.safetensors", "config.json"):
        (tmp / name).replace(out / name)  # atomic per file: readers never see half a checkpoint
    shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--minutes", type=float, default=60)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--max-tokens", type=int, default=6144, help="tokens per batch (padded)")
    # ~2M params: on one CPU thread the budget buys ~1.5 epochs; smaller models win in that regime
    ap.add_argument("--hidden", type=int, default=192)
    ap.add_argument("--layers", type=int, default=4)
    ap.add_argument("--inter", type=int, default=576)
    ap.add_argument("--keep-norm", type=float, default=0.3, help="share of NORM rows per epoch")
    ap.add_argument("--keep-sent", type=float, default=0.6, help="share of multi-word PHN rows per epoch")
    ap.add_argument("--keep-word", type=float, default=1.0, help="share of single-word rows per epoch")
    ap.add_argument(
        "--per-slack",
        type=float,
        default=0.0,
        help="save the final model if its sample PER is within this of the best (a NORM/EMO-focused run)",
    )
    ap.add_argument(
        "--save-final",
        action="store_true",
        help="always save the final model (a run that adds a task may trade a little PER for it)",
    )
    ap.add_argument("--eval-every", type=float, default=300, help="seconds")
    ap.add_argument("--eval-words", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--init", type=Path, default=None, help="continue from this checkpoint folder")
    ap.add_argument("--warmup", type=int, default=200, help="steps")
    ap.add_argument("--out", type=Path, default=HERE)
    args = ap.parse_args()

    from transformers import GenerationConfig, LlamaForCausalLM

    random.seed(args.seed)
    torch.manual_seed(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if device.type == "cpu":
        torch.set_num_threads(1)
    vocab = {t: i for i, t in enumerate(vocab_list())}
    save_tokenizer(args.out)
    GenerationConfig(
        bos_token_id=1, eos_token_id=2, pad_token_id=0, do_sample=False, max_new_tokens=256
    ).save_pretrained(args.out)
    rows = load_rows(vocab)
    lex = load_cmudict()
    heldout = (HERE / "heldout_words.txt").read_text().split()
    eval_words = random.Random(7).sample(heldout, min(args.eval_words, len(heldout)))
    if args.init:  # a continuation run: same shapes, fresh optimizer and schedule
        model = LlamaForCausalLM.from_pretrained(args.init, dtype=torch.float32).to(device)
    else:
        model = LlamaForCausalLM(model_config(len(vocab), args.hidden, args.layers, 4, args.inter)).to(device)
    n_params = sum(p.numel() for p in model.parameters())
    print(f"params {n_params / 1e6:.2f}M, examples {len(rows)}, device {device}", flush=True)
    decay = [p for n, p in model.named_parameters() if p.dim() >= 2]
    no_decay = [p for n, p in model.named_parameters() if p.dim() < 2]
    opt = torch.optim.AdamW(
        [{"params": decay, "weight_decay": 0.01}, {"params": no_decay, "weight_decay": 0.0}],
        lr=args.lr,
        betas=(0.9, 0.98),
    )
    rng = random.Random(args.seed + (1 if args.init else 0))
    best = float("inf")
    if args.init:  # only a better model may replace the one we continue from
        model.eval()
        best = per_wer(greedy_words(model, eval_words, vocab, device), eval_words, lex)[0]
        print(f"start PER={best:.4f}", flush=True)
    budget, warmup = args.minutes * 60, args.warmup
    t0 = last_eval = time.time()
    step, epoch, history = 0, 0, []
    loss_ema = None
    done = False
    while not done:
        epoch += 1
        keep = {"norm": args.keep_norm, "sent": args.keep_sent, "word": args.keep_word}
        for idx in make_batches(rows, args.max_tokens, rng, keep):
            frac = (time.time() - t0) / budget
            if frac >= 1:
                done = True
                break
            lr = args.lr * min(1.0, (step + 1) / warmup) * (0.05 + 0.95 * 0.5 * (1 + math.cos(math.pi * frac)))
            for g in opt.param_groups:
                g["lr"] = lr
            model.train()
            ids, labels = collate(rows, idx, 0, device)
            logits = model(input_ids=ids).logits[:, :-1]
            loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), labels[:, 1:].reshape(-1), ignore_index=-100)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            step += 1
            loss_ema = loss.item() if loss_ema is None else 0.98 * loss_ema + 0.02 * loss.item()
            if step % 100 == 0:
                t = time.time() - t0
                print(f"step {step} epoch {epoch} t={t:.0f}s lr={lr:.2e} loss={loss_ema:.4f}", flush=True)
            if time.time() - last_eval > args.eval_every:
                last_eval = time.time()
                model.eval()
                per, wer = per_wer(greedy_words(model, eval_words, vocab, device), eval_words, lex)
                history.append(
                    {
                        "step": step,
                        "epoch": epoch,
                        "seconds": round(time.time() - t0),
                        "loss": loss_ema,
                        "per": per,
                        "wer": wer,
                    }
                )
                print(f"EVAL step {step} PER={per:.4f} WER={wer:.4f} (eval {time.time() - last_eval:.0f}s)", flush=True)
                if per < best:
                    best = per
                    save(model, args.out)
                    print(f"saved best PER={per:.4f}", flush=True)
    model.eval()
    per, wer = per_wer(greedy_words(model, eval_words, vocab, device), eval_words, lex)
    history.append(
        {"step": step, "epoch": epoch, "seconds": round(time.time() - t0), "loss": loss_ema, "per": per, "wer": wer}
    )
    print(f"FINAL step {step} PER={per:.4f} WER={wer:.4f}", flush=True)
    if args.save_final or per <= best + args.per_slack:
        save(model, args.out)
        print(f"saved final PER={per:.4f}", flush=True)
    run = {
        "params": n_params,
        "device": str(device),
        "minutes": args.minutes,
        "steps": step,
        "epochs": epoch,
        "args": {k: str(v) for k, v in vars(args).items()},
        "history": history,
    }
    log_path = args.out / "train_log.json"
    prior = json.loads(log_path.read_text()) if args.init and log_path.exists() else {"runs": []}
    runs = prior.get("runs", [prior])
    log_path.write_text(json.dumps({"runs": [*runs, run]}, indent=1) + "\n")


if __name__ == "__main__":
    main()
