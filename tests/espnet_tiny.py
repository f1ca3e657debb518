"""Build a tiny, untrained ESPnet VITS as a real ESPnet model dir (and a packed .zip).

It exercises the whole ESPnet code path of playground.voices.espnet_vits (config parsing,
token list, Text2Speech loading, id input, decode_conf knobs) in seconds, with no download.
The config comes from GANTTSTask's own argument parser, i.e. it has every field a training run
writes to config.yaml; only the network sizes are shrunk. Its audio is noise (untrained), but
durations are meaningful: the duration predictor is set to a fixed ~``frames_per_token`` frames
per token (exact when noise_scale_dur = 0), so speed control (alpha) is measurable.

    python tests/espnet_tiny.py OUT_DIR   # writes OUT_DIR/tiny_vits/ and OUT_DIR/tiny_vits.zip
"""

from __future__ import annotations

import contextlib
import math
import sys
from pathlib import Path

import torch
import yaml

from playground.phonemes import ARPABET_CONSONANTS, ARPABET_VOWELS

# Like the LJSpeech recipe's list: <blank>, <unk>, ARPAbet with stress, punctuation, <sos/eos>.
TOKEN_LIST = ["<blank>", "<unk>", *ARPABET_VOWELS, *ARPABET_CONSONANTS,
              ",", ".", "?", "!", "'", "<sos/eos>"]  # fmt: skip

TINY_GENERATOR = {
    "hidden_channels": 16,
    "spks": -1,
    "global_channels": -1,
    "segment_size": 8,
    "text_encoder_attention_heads": 2,
    "text_encoder_ffn_expand": 2,
    "text_encoder_blocks": 1,
    "text_encoder_positionwise_layer_type": "conv1d",
    "text_encoder_positionwise_conv_kernel_size": 3,
    "text_encoder_positional_encoding_layer_type": "rel_pos",
    "text_encoder_self_attention_layer_type": "rel_selfattn",
    "text_encoder_activation_type": "swish",
    "use_macaron_style_in_text_encoder": True,
    "use_conformer_conv_in_text_encoder": False,
    "decoder_kernel_size": 7,
    "decoder_channels": 32,
    "decoder_upsample_scales": [8, 8, 4],  # product = hop length 256 (as LJSpeech's 8,8,2,2)
    "decoder_upsample_kernel_sizes": [16, 16, 8],
    "decoder_resblock_kernel_sizes": [3],
    "decoder_resblock_dilations": [[1, 3]],
    "posterior_encoder_layers": 2,
    "flow_flows": 1,
    "flow_layers": 1,
    "stochastic_duration_predictor_flows": 1,
    "stochastic_duration_predictor_dds_conv_layers": 1,
}
TINY_DISCRIMINATOR = {
    "scales": 1,
    "scale_discriminator_params": {"channels": 4, "max_downsample_channels": 16,
                                   "max_groups": 4, "downsample_scales": [2, 2]},
    "periods": [2],
    "period_discriminator_params": {"channels": 4, "max_downsample_channels": 16,
                                    "downsample_scales": [3, 1]},
}  # fmt: skip


class _NoAliasDumper(yaml.SafeDumper):
    # Shared lists in the parser defaults would otherwise become YAML anchors (&id001).
    def ignore_aliases(self, data: object) -> bool:
        return True


def tiny_config(out_dir: Path, fs: int = 22050) -> dict:
    """A complete ESPnet GAN-TTS train config (parser defaults + tiny VITS sizes)."""
    from espnet2.tasks.gan_tts import GANTTSTask

    tts_conf = {
        "generator_type": "vits_generator",
        "generator_params": TINY_GENERATOR,
        "discriminator_type": "hifigan_multi_scale_multi_period_discriminator",
        "discriminator_params": TINY_DISCRIMINATOR,
        "mel_loss_params": {"fs": fs, "n_fft": 1024, "hop_length": 256, "n_mels": 80},
        "sampling_rate": fs,
    }
    argv = [
        "--output_dir", str(out_dir),
        "--token_type", "phn",
        "--g2p", "g2p_en_no_space",
        "--cleaner", "tacotron",
        "--feats_extract", "linear_spectrogram",
        "--feats_extract_conf", yaml.safe_dump({"n_fft": 1024, "hop_length": 256}),
        "--tts", "vits",
        "--tts_conf", yaml.safe_dump(tts_conf),
        "--token_list", "dummy",
    ]  # fmt: skip
    args = GANTTSTask.get_parser().parse_args(argv)
    args.token_list = list(TOKEN_LIST)
    return vars(args)


def build_tiny_vits(out_dir: str | Path, frames_per_token: float = 6.0, seed: int = 0
                    ) -> tuple[Path, Path]:  # fmt: skip
    """Write ``out_dir/tiny_vits`` (model-zoo layout: meta.yaml, exp/.../config.yaml, .pth)
    and ``out_dir/tiny_vits.zip`` (ESPnet's packed format). Returns (model_dir, zip_path)."""
    import argparse

    from espnet2.main_funcs.pack_funcs import pack
    from espnet2.tasks.gan_tts import GANTTSTask

    out_dir = Path(out_dir).resolve()
    model_dir = out_dir / "tiny_vits"
    exp = model_dir / "exp" / "tts_tiny_vits"
    exp.mkdir(parents=True, exist_ok=True)
    cfg = tiny_config(exp)
    torch.manual_seed(seed)
    model = GANTTSTask.build_model(argparse.Namespace(**cfg))
    # The stochastic duration predictor's last inverse step is an affine flow (x - m) * e^-logs
    # and the conv flows start as (near-)identities, so m[0] = -log(d) makes log-duration ~log d.
    dp = model.tts.generator.duration_predictor
    with torch.no_grad():
        dp.flows[0].m[0] = -math.log(frames_per_token)
    (exp / "config.yaml").write_text(yaml.dump(cfg, Dumper=_NoAliasDumper, allow_unicode=True), encoding="utf-8")
    torch.save(model.state_dict(), exp / "train.total_count.ave.pth")
    meta = {
        "files": {"model_file": "exp/tts_tiny_vits/train.total_count.ave.pth"},
        "yaml_files": {"train_config": "exp/tts_tiny_vits/config.yaml"},
    }
    (model_dir / "meta.yaml").write_text(yaml.safe_dump(meta), encoding="utf-8")
    zip_path = out_dir / "tiny_vits.zip"
    # pack() stores paths relative to the working directory, as `espnet2 pack` is run in a recipe.
    with contextlib.chdir(model_dir), contextlib.redirect_stdout(sys.stderr):
        pack(files=meta["files"], yaml_files=meta["yaml_files"], outpath=str(zip_path))
    return model_dir, zip_path


if __name__ == "__main__":
    d, z = build_tiny_vits(sys.argv[1] if len(sys.argv) > 1 else "artifacts/espnet_tiny")
    print(d, z)
