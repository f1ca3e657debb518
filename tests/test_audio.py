"""Audio utilities, phoneme editing/validation, prosody table, WER: no models needed."""

from __future__ import annotations

import math

import numpy as np
import pytest

from playground import audio
from playground.asr import normalize_for_wer, wer
from playground.audio import AudioChunk
from playground.phonemes import (
    ARPABET_INVENTORY,
    PUNCTUATION,
    Word,
    arpabet_to_ipa,
    format_phonemes,
    parse_phoneme_edit,
    parse_words_edit,
    split_sentences,
    validate_words,
)
from playground.prosody import Knobs, knobs_for, load_emotion_table, validate_knobs

SR = 22050


def tone(freq: float, seconds: float = 1.0, sr: int = SR, harmonics: int = 5) -> AudioChunk:
    t = np.arange(int(seconds * sr)) / sr
    x = sum(np.sin(2 * np.pi * freq * k * t) / k for k in range(1, harmonics + 1))
    return AudioChunk(0.3 * x / np.max(np.abs(x)), sr)


def peak_hz(chunk: AudioChunk) -> float:
    spec = np.abs(np.fft.rfft(chunk.samples))
    return float(np.fft.rfftfreq(len(chunk.samples), 1 / chunk.sample_rate)[spec.argmax()])


# --- AudioChunk and transforms ---------------------------------------------------------------
def test_chunk_is_mono_float32_with_its_rate():
    c = AudioChunk(np.zeros(2205, dtype=np.float64), SR)
    assert c.samples.dtype == np.float32 and c.duration_s == pytest.approx(0.1)
    with pytest.raises(ValueError, match="mono"):
        AudioChunk(np.zeros((2, 100)), SR)
    with pytest.raises(ValueError, match="sample_rate"):
        AudioChunk(np.zeros(10), 0)


def test_resample_keeps_duration_and_pitch():
    c = tone(440.0, 1.0, harmonics=1)
    r = audio.resample(c, 16000)
    assert r.sample_rate == 16000
    assert r.duration_s == pytest.approx(c.duration_s, abs=1 / 16000)
    # Resampling (unlike relabelling the rate) keeps a 440 Hz tone at 440 Hz.
    assert peak_hz(r) == pytest.approx(440.0, abs=2.0)
    relabelled = AudioChunk(c.samples, 16000)
    assert peak_hz(relabelled) == pytest.approx(440.0 * 16000 / SR, abs=2.0)


def test_concat_refuses_mixed_rates_and_inserts_gaps():
    a, b = tone(200, 0.5), audio.resample(tone(200, 0.5), 16000)
    with pytest.raises(ValueError, match=r"mixed sample rates \[16000, 22050\]"):
        audio.concat([a, b])
    joined = audio.concat([a, a, a], gap_s=0.25)
    assert joined.duration_s == pytest.approx(1.5 + 0.5, abs=2 / SR)
    with pytest.raises(ValueError):
        audio.concat([])


def test_silence_rejects_bad_lengths():
    assert audio.silence(0.5, SR).duration_s == pytest.approx(0.5)
    for bad in (-0.1, math.nan, math.inf):
        with pytest.raises(ValueError):
            audio.silence(bad, SR)


def test_pitch_shift_moves_f0_and_keeps_duration():
    c = tone(150.0, 1.5)
    up = audio.pitch_shift(c, 4.0)
    assert len(up) == len(c)
    shift = audio.semitones_between(audio.median_f0(c), audio.median_f0(up))
    assert shift == pytest.approx(4.0, abs=0.3)
    down = audio.pitch_shift(c, -2.5)  # fractional semitones
    assert audio.semitones_between(audio.median_f0(c), audio.median_f0(down)) == pytest.approx(-2.5, abs=0.3)
    with pytest.raises(ValueError):
        audio.pitch_shift(c, math.nan)


def test_wav_roundtrip_keeps_rate_and_samples(tmp_path):
    c = tone(300.0, 0.5)
    data = audio.to_wav_bytes(c)
    assert data[:4] == b"RIFF" and int.from_bytes(data[24:28], "little") == SR
    back = audio.read_wav(audio.write_wav(c, tmp_path / "x.wav"))
    assert back.sample_rate == SR and len(back) == len(c)
    assert np.max(np.abs(back.samples - c.samples)) < 2 / 32768


def test_measurements_tell_noise_from_tone():
    rng = np.random.default_rng(0)
    noise = AudioChunk(np.clip(rng.normal(0, 0.2, SR), -1, 1), SR)
    c = tone(150.0, 1.0)
    assert audio.spectral_flatness(noise) > 0.4
    assert audio.spectral_flatness(c) < 0.05
    # Trailing silence does not make a tone look flat, and does not count as speaking time.
    padded = audio.concat([c, audio.silence(1.0, SR)])
    assert audio.spectral_flatness(padded) < 0.05
    assert audio.speech_rate(12, padded) == pytest.approx(12.0, rel=0.1)
    assert math.isnan(audio.spectral_flatness(audio.silence(1.0, SR)))
    assert math.isnan(audio.median_f0(audio.silence(1.0, SR)))
    assert math.isnan(audio.median_f0(noise)) or audio.median_f0(noise) > 0  # never raises
    mel = audio.mel_spectrogram_db(c)
    assert mel.shape[0] == 80 and mel.shape[1] == pytest.approx(SR / 256, abs=2)
    times, f0 = audio.f0_contour(c)
    assert len(times) == len(f0) and np.nanmedian(f0) == pytest.approx(150.0, rel=0.02)


# --- phonemes --------------------------------------------------------------------------------
def test_inventory_and_ipa():
    assert len(ARPABET_INVENTORY) == 69 and PUNCTUATION == (",", ".", "?", "!")
    assert arpabet_to_ipa("HH AH0 L OW1".split()) == "həlˈoʊ"
    assert arpabet_to_ipa("B ER1 D".split()) == "bˈɜːd"
    assert arpabet_to_ipa("B AH1 T ER0".split()) == "bˈʌtɚ"
    assert arpabet_to_ipa("AH2 B AW1 T".split()) == "ˌʌbˈaʊt"
    with pytest.raises(KeyError):
        arpabet_to_ipa(["T1"])


def test_edit_form_roundtrip():
    words = [Word("hello", ["HH", "AH0", "L", "OW1"], ","), Word("world", ["W", "ER1", "L", "D"], ".")]
    text = format_phonemes(words)
    assert text == "hello: HH AH0 L OW1 ,\nworld: W ER1 L D ."
    assert parse_words_edit(text) == words
    # Lenient: lowercase, glued punctuation, blank lines, no "word:" prefix.
    assert parse_words_edit("hello: hh ah0 l ow1,\n\n W ER1 L D? ") == [
        Word("hello", ["HH", "AH0", "L", "OW1"], ","),
        Word("", ["W", "ER1", "L", "D"], "?"),
    ]
    assert parse_phoneme_edit(text) == [w.phonemes for w in words]
    assert [len(s) for s in split_sentences(words + [Word("hi", ["HH", "AY1"], "!")])] == [2, 1]


def test_validation_names_word_symbol_and_fix():
    words = parse_words_edit("hello: HH AH L OW1\nworld: W ER1 L T1 QX\nthe:")
    errors = validate_words(words, ARPABET_INVENTORY)
    assert len(errors) == 4, errors
    assert 'word 1 "hello"' in errors[0] and '"AH"' in errors[0] and "AH0 / AH1 / AH2" in errors[0]
    assert 'word 2 "world"' in errors[1] and '"T1"' in errors[1] and "did you mean T?" in errors[1]
    assert '"QX"' in errors[2]
    assert 'word 3 "the"' in errors[3] and "no phonemes" in errors[3]
    bad_punct = [Word("hi", ["HH", "AY1"], ";")]
    assert "use one of , . ? !" in validate_words(bad_punct, ARPABET_INVENTORY)[0]
    assert validate_words([Word("hi", ["HH", "AY1"], "!")], ARPABET_INVENTORY) == []


# --- prosody ---------------------------------------------------------------------------------
def test_emotion_table_is_complete():
    table = load_emotion_table()
    assert set(table.tags) == {"neutral", "happy", "sad", "angry", "surprised", "calm"}
    for row in table.rows.values():
        assert row.description["en"] and row.description["zh"]
        validate_knobs(row.knobs)
    assert knobs_for("neutral") == Knobs()
    assert knobs_for("sad").length_scale > 1.0 > knobs_for("happy").length_scale
    assert knobs_for("sad").pitch_semitones < 0 < knobs_for("surprised").pitch_semitones


def test_overrides_combine_with_the_tag_row():
    sad = knobs_for("sad")
    k = knobs_for("Sad", {"speed": 2.0, "pitch_offset": 1.5, "pause_s": 0.0, "noise_w": None})
    assert k.length_scale == pytest.approx(sad.length_scale / 2.0)
    assert k.pitch_semitones == pytest.approx(sad.pitch_semitones + 1.5)
    assert k.pause_s == 0.0 and k.noise_w == sad.noise_w


@pytest.mark.parametrize(
    "overrides, match",
    [
        ({"speed": math.nan}, r"speed must be a finite number in \[0.25, 4\]"),
        ({"speed": -1.0}, r"speed=-1 is out of range; allowed \[0.25, 4\]"),
        ({"pause_s": -0.5}, r"pause_s=-0.5 is out of range; allowed \[0, 3\]"),
        ({"noise_scale": math.inf}, "noise_scale must be a finite number"),
        ({"length_scale": 50}, r"length_scale=50 is out of range; allowed \[0.3, 3\]"),
        ({"pitch_offset": "high"}, "pitch_offset must be a number"),
        ({"volume": 2}, "unknown override"),
    ],
)
def test_bad_knobs_are_rejected_with_the_allowed_range(overrides, match):
    with pytest.raises(ValueError, match=match):
        knobs_for("neutral", overrides)


def test_validate_knobs_and_unknown_tag():
    with pytest.raises(ValueError, match="noise_w"):
        validate_knobs(Knobs(noise_w=math.nan))
    with pytest.raises(ValueError, match="length_scale"):
        validate_knobs(Knobs(length_scale=-1.0))
    with pytest.raises(ValueError, match="known tags: neutral"):
        knobs_for("ecstatic")


# --- WER -------------------------------------------------------------------------------------
def test_wer_normalization():
    assert normalize_for_wer("Hello, World! It's 5 o'clock on the 2nd.") == "hello world its five oclock on the second"
    assert wer("I have 5 cats.", "i have five cats") == 0.0
    assert wer("the cat sat down", "the cat sat") == pytest.approx(0.25)
    assert wer("", "") == 0.0 and wer("", "noise") == 1.0
