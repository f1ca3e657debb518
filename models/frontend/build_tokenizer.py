"""Build the front-end tokenizer (HF `tokenizers` WordLevel) and, optionally, a random placeholder model.

Prompts are encoded one character per token (printable ASCII, else <unk>); phonemes (" AH0") and
the word separator (" |") are output-only tokens: the pre-tokenizer splits text into single
characters, so `encode()` never produces them, but the model can emit them and `decode()`
(a Fuse decoder) concatenates token strings verbatim.

    python models/frontend/build_tokenizer.py [--placeholder]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from playground.lexicon import ARPABET_INVENTORY  # noqa: E402

HERE = Path(__file__).resolve().parent
SPECIALS = ["<pad>", "<s>", "</s>", "<unk>", "<norm>", "<phn>", "<sep>"]
CHARS = [chr(c) for c in range(32, 127)]  # printable ASCII, space included
WORD_SEP = " |"
PHONE_TOKENS = [f" {p}" for p in ARPABET_INVENTORY]


def vocab_list() -> list[str]:
    return SPECIALS + CHARS + PHONE_TOKENS + [WORD_SEP]


def build_tokenizer() -> Tokenizer:
    vocab = {tok: i for i, tok in enumerate(vocab_list())}
    tok = Tokenizer(models.WordLevel(vocab=vocab, unk_token="<unk>"))
    # one pre-token per character (a non-ASCII character becomes <unk> in WordLevel)
    tok.pre_tokenizer = pre_tokenizers.Split(Regex("[\\s\\S]"), behavior="isolated")
    tok.decoder = decoders.Fuse()
    tok.add_special_tokens(SPECIALS)  # ids already in the vocab: they keep them
    return tok


def save_tokenizer(out: Path = HERE) -> None:
    tok = build_tokenizer()
    tok.save(str(out / "tokenizer.json"))
    config = {
        "tokenizer_class": "PreTrainedTokenizerFast",
        "bos_token": "<s>",
        "eos_token": "</s>",
        "unk_token": "<unk>",
        "pad_token": "<pad>",
        "additional_special_tokens": ["<norm>", "<phn>", "<sep>"],
        "add_bos_token": False,  # prompts spell "<s>" themselves
        "add_eos_token": False,
        "clean_up_tokenization_spaces": False,  # " ." must stay as generated
        "model_max_length": 512,
    }
    (out / "tokenizer_config.json").write_text(json.dumps(config, indent=2) + "\n")
    (out / "special_tokens_map.json").write_text(
        json.dumps({k: config[k] for k in ("bos_token", "eos_token", "unk_token", "pad_token")}, indent=2)
        + "\n"
    )


def model_config(vocab_size: int, hidden: int = 256, layers: int = 4, heads: int = 4, inter: int = 768):
    from transformers import LlamaConfig

    return LlamaConfig(
        vocab_size=vocab_size,
        hidden_size=hidden,
        intermediate_size=inter,
        num_hidden_layers=layers,
        num_attention_heads=heads,
        num_key_value_heads=heads,
        max_position_embeddings=512,
        rms_norm_eps=1e-5,
        rope_theta=10000.0,
        tie_word_embeddings=True,
        bos_token_id=SPECIALS.index("<s>"),
        eos_token_id=SPECIALS.index("</s>"),
        pad_token_id=SPECIALS.index("<pad>"),
        torch_dtype="float32",
    )


def save_placeholder(out: Path = HERE) -> None:
    """A random-initialized model with the final shapes, so the engine wrapper can be built early."""
    import torch
    from transformers import GenerationConfig, LlamaForCausalLM

    torch.manual_seed(0)
    model = LlamaForCausalLM(model_config(len(vocab_list())))
    model.save_pretrained(out, safe_serialization=True)
    GenerationConfig(
        bos_token_id=1, eos_token_id=2, pad_token_id=0, do_sample=False, max_new_tokens=256
    ).save_pretrained(out)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--placeholder", action="store_true", help="also write a random model")
    args = ap.parse_args()
    save_tokenizer()
    if args.placeholder:
        save_placeholder()
    print(f"vocab size {len(vocab_list())}")
