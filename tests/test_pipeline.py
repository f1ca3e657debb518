"""The layered pipeline on the real engine and voices: streaming order, real prosody knobs,
correct resampling, edits spoken without the front end, and the ESPnet voice behind the same API."""

from __future__ import annotations

import pytest

from playground import audio
from playground.editing import format_document, parse_document
from playground.pipeline import Pipeline, VoiceSettings
from playground.service import last

THREE = "The sun rose over the hills. Birds began to sing in the trees. We walked down to the river."


@pytest.fixture(scope="module")
def pipeline(frontend, bundled_voice):
    return Pipeline(frontend, bundled_voice)


@pytest.fixture(scope="module")
def analyses(pipeline):
    return last(pipeline.run(THREE)).analyses


def test_first_sentence_is_audible_before_the_last_is_spoken(pipeline):
    first_audio_at = None
    for state in pipeline.run(THREE):
        if state.new_chunk is not None and first_audio_at is None:
            first_audio_at = [s.audio is not None for s in state.sentences]
            spans_then = [(s.stage, s.sentence) for s in state.spans]
    assert first_audio_at == [True, False, False]
    assert ("voice", 2) not in spans_then
    assert state.ttfa_s < state.total_s
    assert len(state.analyses) == 3 and state.audio.duration_s > 3


def test_not_streaming_releases_nothing_before_the_end(pipeline):
    states = list(pipeline.run(THREE, stream=False))
    assert all(s.new_chunk is None for s in states)
    assert states[-1].ttfa_s == pytest.approx(states[-1].total_s, abs=0.05)


def test_speed_slider_drives_the_voice_length_scale(pipeline, analyses):
    a = analyses[:1]
    normal = last(pipeline.resynthesize(a, VoiceSettings(use_emotion=False))).audio
    slow = last(pipeline.resynthesize(a, VoiceSettings(use_emotion=False, speed=0.5))).audio
    ratio = audio.active_duration_s(slow) / audio.active_duration_s(normal)
    assert 1.6 < ratio < 2.4, ratio


def test_pitch_slider_shifts_median_f0_by_the_asked_semitones(pipeline, analyses):
    a = analyses[:1]
    # variability 0: no VITS noise, so the two syntheses differ only by the pitch shift
    base = last(pipeline.resynthesize(a, VoiceSettings(use_emotion=False, variability=0))).audio
    up = last(pipeline.resynthesize(a, VoiceSettings(use_emotion=False, variability=0, pitch_semitones=4))).audio
    shift = audio.f0_shift_semitones(base, up)
    assert abs(shift - 4) <= 1, shift


def test_emotion_tags_select_voice_knobs_and_the_checkbox_turns_them_off(pipeline):
    sad = pipeline.sentence_knobs("sad", VoiceSettings())
    neutral = pipeline.sentence_knobs("neutral", VoiceSettings())
    assert sad.length_scale > neutral.length_scale and sad.pitch_semitones < neutral.pitch_semitones
    assert pipeline.sentence_knobs("sad", VoiceSettings(use_emotion=False)) == neutral


def test_output_rate_is_resampled_not_relabelled(pipeline, analyses):
    fixed = dict(use_emotion=False, variability=0)  # no VITS noise: identical syntheses
    native = last(pipeline.resynthesize(analyses[:1], VoiceSettings(**fixed))).audio
    at16k = last(pipeline.resynthesize(analyses[:1], VoiceSettings(**fixed, output_rate=16000))).audio
    assert native.sample_rate == 22050 and at16k.sample_rate == 16000
    assert at16k.duration_s == pytest.approx(native.duration_s, rel=0.01)
    assert abs(audio.f0_shift_semitones(native, at16k)) < 0.2  # relabelling would shift it by -5.6


def test_edited_document_round_trips_and_is_spoken(pipeline, analyses, bundled_voice):
    parsed = parse_document(format_document(analyses), bundled_voice.inventory)
    assert [w.phonemes for a in parsed for w in a.words] == [w.phonemes for a in analyses for w in a.words]
    state = last(pipeline.resynthesize(parsed))
    assert len([s for s in state.spans if s.stage == "front end"]) == 0
    assert state.audio.duration_s > 3


def test_espnet_voice_speaks_the_front_end_phonemes(frontend, tiny_espnet_voice, analyses):
    """The same layered pipeline with an ESPnet VITS (tiny, untrained: only its durations mean anything)."""
    p = Pipeline(frontend, tiny_espnet_voice)
    fixed = dict(use_emotion=False, variability=0)  # noise_scale_dur 0: deterministic durations
    state = last(p.resynthesize(analyses[:1], VoiceSettings(**fixed)))
    slow = last(p.resynthesize(analyses[:1], VoiceSettings(**fixed, speed=0.5)))
    assert state.audio.sample_rate == tiny_espnet_voice.sample_rate
    assert slow.audio.duration_s > 1.5 * state.audio.duration_s
