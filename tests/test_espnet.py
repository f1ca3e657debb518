"""The ESPnet code path, end to end through Text2Speech, on a tiny VITS built by tests/espnet_tiny.py;
and the LJSpeech download path failing fast and clearly offline."""

from __future__ import annotations

import time
import zipfile

import numpy as np
import pytest

from playground.phonemes import ARPABET_INVENTORY, Word
from playground.prosody import Knobs
from playground.voices import Voice, VoiceUnavailable, load_voice, load_voice_with_fallback
from playground.voices.espnet_vits import LJSPEECH_TAG, EspnetVoice, resolve_token_ids

# ESPnet notes its optional Cython build of monotonic_align (training only) is missing.
pytestmark = pytest.mark.filterwarnings("ignore:Cython version is not available")

WORDS = [
    Word("hello", ["HH", "AH0", "L", "OW1"], ","),
    Word("world", ["W", "ER1", "L", "D"], "."),
]
STILL = Knobs(noise_w=0.0)  # no duration noise: lengths depend on the knobs only


def test_tiny_model_loads_through_text2speech(tiny_espnet_voice):
    v = tiny_espnet_voice
    assert isinstance(v, Voice)
    assert type(v.tts).__name__ == "Text2Speech" and type(v.tts.tts).__name__ == "VITS"
    assert v.sample_rate == 22050 and v.inventory == ARPABET_INVENTORY
    token_list = v.tts.train_args.token_list
    ids = v.phoneme_ids(WORDS)
    assert [token_list[i] for i in ids] == ["HH", "AH0", "L", "OW1", ",", "W", "ER1", "L", "D", "."]


def test_alpha_scales_duration(tiny_espnet_voice):
    t0 = time.perf_counter()
    base = tiny_espnet_voice.synthesize(WORDS, STILL)
    rtf = (time.perf_counter() - t0) / base.duration_s
    slow = tiny_espnet_voice.synthesize(WORDS, Knobs(length_scale=2.0, noise_w=0.0))
    ratio = slow.duration_s / base.duration_s
    print(f"tiny ESPnet VITS: {base.duration_s:.2f} s, RTF {rtf:.3f}; alpha 2.0/1.0 duration ratio {ratio:.3f}")
    assert base.sample_rate == 22050 and base.duration_s > 0.2
    assert np.all(np.isfinite(base.samples)) and np.abs(base.samples).max() <= 1.0
    assert ratio == pytest.approx(2.0, rel=0.15)
    # With duration noise on, lengths vary but stay in the same range.
    noisy = tiny_espnet_voice.synthesize(WORDS, Knobs())
    assert 0.3 * base.duration_s < noisy.duration_s < 4 * base.duration_s


def test_zip_loads_the_same_model(espnet_tiny, tiny_espnet_voice, tmp_path):
    model_dir, zip_path = espnet_tiny
    zv = load_voice(str(zip_path))
    assert zv is not tiny_espnet_voice and zv.sample_rate == 22050
    assert zv.synthesize(WORDS, STILL).duration_s == tiny_espnet_voice.synthesize(WORDS, STILL).duration_s
    # A plain zip of the files (no meta.yaml, as a user might make one) works too.
    plain = tmp_path / "plain.zip"
    with zipfile.ZipFile(plain, "w") as z:
        for f in (model_dir / "exp").rglob("*"):
            z.write(f, f.relative_to(model_dir))
    assert EspnetVoice.from_zip(plain).phoneme_ids(WORDS) == tiny_espnet_voice.phoneme_ids(WORDS)


def test_bad_model_paths_are_clear(tmp_path):
    with pytest.raises(VoiceUnavailable, match="not an ESPnet TTS model dir"):
        EspnetVoice.from_dir(tmp_path)
    bad = tmp_path / "bad.zip"
    bad.write_bytes(b"not a zip")
    with pytest.raises(VoiceUnavailable, match="cannot unpack"):
        EspnetVoice.from_zip(bad)
    with pytest.raises(VoiceUnavailable, match="unknown voice"):
        load_voice(str(tmp_path / "missing"))


def test_missing_stress_variant_uses_the_nearest():
    ids = resolve_token_ids(["<blank>", "<unk>", "OY1", "OY2", "K", "<sos/eos>"])
    assert ids["OY0"] == ids["OY2"] == 3 and ids["OY1"] == 2 and ids["K"] == 4
    assert "AA1" not in ids


def test_ljspeech_offline_fails_fast_and_falls_back(monkeypatch, bundled_voice):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    t0 = time.perf_counter()
    with pytest.raises(VoiceUnavailable) as info:
        EspnetVoice.from_pretrained(LJSPEECH_TAG)
    elapsed = time.perf_counter() - t0
    assert elapsed < 5, elapsed
    assert LJSPEECH_TAG in str(info.value) and "local ESPnet model dir" in str(info.value)
    t0 = time.perf_counter()
    voice, message = load_voice_with_fallback("espnet:ljspeech")
    assert time.perf_counter() - t0 < 10
    assert voice is bundled_voice and "espnet:ljspeech" in message and "unavailable" in message
