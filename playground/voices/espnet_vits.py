"""ESPnet VITS voices (e.g. the LJSpeech model ``espnet/kan-bayashi_ljspeech_vits``).

The model's train config carries its ``token_list``; for the LJSpeech recipe (token_type phn,
g2p ``g2p_en_no_space``) that is CMUdict ARPAbet with stress digits plus punctuation, no word
separator. We map the front end's ARPAbet straight to those ids and call ``Text2Speech`` with an
id array, so ESPnet's own G2P (g2p_en) never runs: the phonemes the user sees and edits are
exactly the ones spoken.

Importing ``espnet2.bin.tts_inference`` takes ~20 s, so it happens lazily, only when a model is
actually being loaded (after any download step has succeeded).
"""

from __future__ import annotations

import hashlib
import os
import socket
import threading
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from playground.audio import AudioChunk
from playground.phonemes import ARPABET_INVENTORY, ARPABET_VOWELS, Word
from playground.prosody import Knobs
from playground.voices.base import NATIVE_KNOBS, VoiceUnavailable, check_inputs

LJSPEECH_TAG = "espnet/kan-bayashi_ljspeech_vits"
HUB_HOST = "huggingface.co"


def cache_dir() -> Path:
    """Where zips are unpacked: $PLAYGROUND_CACHE or ~/.cache/vllm-tts-playground."""
    root = os.environ.get("PLAYGROUND_CACHE") or Path.home() / ".cache" / "vllm-tts-playground"
    return Path(root) / "espnet"


def _hub_offline() -> bool:
    return os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in {"1", "true", "yes", "on"}


def _hub_reachable(timeout_s: float = 3.0) -> bool:
    # A firewall that drops packets would make huggingface_hub wait for its own (long) timeouts
    # and retries; a short TCP probe turns that into a prompt, clear failure.
    try:
        socket.create_connection((HUB_HOST, 443), timeout=timeout_s).close()
        return True
    except OSError:
        return False


def resolve_token_ids(token_list: Sequence[str]) -> dict[str, int]:
    """ARPAbet symbol / punctuation -> model token id.

    A vowel whose exact stress variant is missing from the model (e.g. some LJSpeech lists lack
    OY0) uses the nearest one present (0 -> 2 -> 1, 1 -> 2 -> 0, 2 -> 1 -> 0), so every symbol of
    the front end stays speakable when the vowel itself is known.
    """
    index = {t: i for i, t in enumerate(token_list)}
    ids = {t: i for t, i in index.items() if t in ARPABET_INVENTORY or t in ",.?!"}
    fallback = {"0": "021", "1": "120", "2": "210"}
    for v in ARPABET_VOWELS:
        if v not in ids:
            for d in fallback[v[-1]]:
                if f"{v[:-1]}{d}" in index:
                    ids[v] = index[f"{v[:-1]}{d}"]
                    break
    return ids


def _find_model_files(root: Path) -> tuple[Path, Path]:
    """(train_config, model_file) of an ESPnet model dir: meta.yaml if present, else a scan."""
    meta = root / "meta.yaml"
    if meta.is_file():
        d = yaml.safe_load(meta.read_text(encoding="utf-8")) or {}
        cfg = (d.get("yaml_files") or {}).get("train_config")
        pth = (d.get("files") or {}).get("model_file")
        if cfg and pth and (root / cfg).is_file() and (root / pth).is_file():
            return root / cfg, root / pth
    configs = [p for p in root.rglob("config.y*ml") if p.suffix in {".yaml", ".yml"}]
    # A recipe dir may also hold e.g. a vocoder config: prefer ones that declare a token_list.
    configs = [p for p in configs if "token_list" in p.read_text(encoding="utf-8", errors="ignore")]
    pths = sorted(root.rglob("*.pth"))
    if len(configs) != 1 or not pths:
        raise VoiceUnavailable(
            f"{root} is not an ESPnet TTS model dir: expected meta.yaml, or one config.yaml "
            f"with a token_list and a .pth (found {len(configs)} config(s), {len(pths)} .pth)"
        )
    # Several checkpoints: prefer ESPnet's averaged/best ones, else the newest.
    best = [p for p in pths if "ave" in p.name or "best" in p.name]
    pth = best[0] if best else max(pths, key=lambda p: p.stat().st_mtime)
    return configs[0], pth


class EspnetVoice:
    """An ESPnet2 VITS through ``Text2Speech``, fed ARPAbet token ids directly."""

    knob_names = NATIVE_KNOBS

    def __init__(
        self,
        train_config: str | Path,
        model_file: str | Path,
        *,
        name: str,
        label: str | None = None,
        device: str = "cpu",
    ):
        train_config, model_file = Path(train_config), Path(model_file)
        args: dict[str, Any] = yaml.safe_load(train_config.read_text(encoding="utf-8"))
        token_list = args.get("token_list")
        if isinstance(token_list, str):  # a path to tokens.txt, as in a recipe's exp dir
            token_list = Path(token_list).read_text(encoding="utf-8").split("\n")
        if not isinstance(token_list, list) or args.get("token_type") != "phn":
            raise VoiceUnavailable(
                f"{train_config}: need an ESPnet TTS model with token_type phn and an ARPAbet "
                f"token_list (got token_type={args.get('token_type')!r})"
            )
        if args.get("tts") != "vits":  # the knobs below are VITS decode options
            raise VoiceUnavailable(f"{train_config}: tts={args.get('tts')!r}; only vits is supported")
        self.token_ids = resolve_token_ids(token_list)
        self.inventory = frozenset(s for s in self.token_ids if s in ARPABET_INVENTORY)
        if not self.inventory:
            raise VoiceUnavailable(f"{train_config}: its token_list has no ARPAbet symbols")
        self.name = name
        self.train_config, self.model_file = train_config, model_file
        self._lock = threading.Lock()

        from espnet2.bin.tts_inference import Text2Speech  # ~20 s import: only here

        self.tts = Text2Speech(train_config=str(train_config), model_file=str(model_file), device=device)
        self.sample_rate = int(self.tts.fs or 22050)
        self.label = label or f"ESPnet {args.get('tts')} — {name} ({self.sample_rate / 1000:g} kHz)"

    # --- loaders -----------------------------------------------------------------------------
    @classmethod
    def from_dir(cls, path: str | Path, *, name: str | None = None, **kw: Any) -> EspnetVoice:
        """A local ESPnet model dir (unpacked model-zoo layout, or config.yaml + .pth)."""
        root = Path(path).expanduser().resolve()
        if not root.is_dir():
            raise VoiceUnavailable(f"ESPnet model dir not found: {root}")
        cfg, pth = _find_model_files(root)
        return cls(cfg, pth, name=name or str(path), **kw)

    @classmethod
    def from_zip(cls, path: str | Path, *, name: str | None = None, **kw: Any) -> EspnetVoice:
        """A packed ESPnet model (.zip as made by ``espnet2 pack`` / the model zoo).

        Unpacked once into :func:`cache_dir`, keyed by the zip's path, size and mtime.
        """
        z = Path(path).expanduser().resolve()
        if not z.is_file():
            raise VoiceUnavailable(f"ESPnet model zip not found: {z}")
        st = z.stat()
        key = hashlib.sha1(f"{z}:{st.st_size}:{st.st_mtime_ns}".encode()).hexdigest()[:16]
        out = cache_dir() / f"{z.stem}-{key}"
        done = out / ".unpacked"
        if not done.exists():
            try:
                with zipfile.ZipFile(z) as zf:
                    has_meta = any(Path(n).name == "meta.yaml" for n in zf.namelist())
                    if has_meta:
                        # ESPnet's own unpacker rewrites the relative paths inside the configs.
                        from espnet2.main_funcs.pack_funcs import unpack

                        unpack(z, out, use_cache=False)
                    else:
                        zf.extractall(out)
            except (zipfile.BadZipFile, KeyError, RuntimeError) as e:
                raise VoiceUnavailable(f"cannot unpack ESPnet model zip {z}: {e}") from e
            done.touch()
        return cls.from_dir(out, name=name or str(path), **kw)

    @classmethod
    def from_pretrained(cls, tag: str = LJSPEECH_TAG, *, name: str | None = None, **kw: Any) -> EspnetVoice:
        """Download (or reuse the cached copy of) a model-zoo / Hugging Face ESPnet model.

        Offline this fails within seconds with VoiceUnavailable: with HF_HUB_OFFLINE=1 only the
        local cache is consulted; otherwise a 3 s TCP probe of huggingface.co decides whether
        to download or to look in the cache only.
        """
        name = name or f"espnet:{tag}"
        try:
            from espnet_model_zoo.downloader import ModelDownloader
        except ImportError as e:
            raise VoiceUnavailable(
                "downloading ESPnet models needs espnet_model_zoo (pip install espnet_model_zoo)"
            ) from e
        offline = _hub_offline() or not _hub_reachable()
        try:
            d = ModelDownloader()
            if offline and "/" in tag and not tag.startswith(("http:", "https:")):
                # Same cache layout as the online path, without touching the network.
                from huggingface_hub import snapshot_download

                snap = snapshot_download(tag, cache_dir=d.cachedir, library_name="espnet", local_files_only=True)
                files = d._unpack_cache_dir_for_huggingfase(snap)
            else:
                files = d.download_and_unpack(tag)
        except Exception as e:  # network, hub and archive errors all mean "not available"
            how = (
                "no network access (HF_HUB_OFFLINE=1 or huggingface.co unreachable) and no cached copy"
                if offline
                else f"download failed: {type(e).__name__}: {e}"
            )
            raise VoiceUnavailable(
                f"ESPnet model {tag!r} is unavailable: {how}. Run once with network access to "
                "cache it, or pass a local ESPnet model dir / .zip instead."
            ) from e
        return cls(files["train_config"], files["model_file"], name=name, **kw)

    # --- synthesis ---------------------------------------------------------------------------
    def phoneme_ids(self, words: Sequence[Word]) -> list[int]:
        """ARPAbet words -> token ids (no word separator, like g2p_en_no_space)."""
        ids = []
        for w in words:
            ids += [self.token_ids[p] for p in w.phonemes]
            if w.punct in self.token_ids:
                ids.append(self.token_ids[w.punct])
        return ids

    def synthesize(self, words: list[Word], knobs: Knobs) -> AudioChunk:
        check_inputs(self, words, knobs)
        ids = self.phoneme_ids(words)
        if not ids:
            return AudioChunk(np.zeros(0, dtype=np.float32), self.sample_rate)
        conf = {
            "alpha": knobs.length_scale,
            "noise_scale": knobs.noise_scale,
            "noise_scale_dur": knobs.noise_w,
        }
        with self._lock:  # one inference at a time per model (torch state, small CPU)
            out = self.tts(np.array(ids, dtype=np.int64), decode_conf=conf)
        wav = out["wav"].detach().cpu().numpy().reshape(-1)
        return AudioChunk(np.clip(wav, -1.0, 1.0).astype(np.float32), self.sample_rate)
