"""Gradio layout and wiring only; the work is in playground.service."""

from __future__ import annotations

import json

import gradio as gr

from playground import audio, plots, service, voices
from playground.i18n import key, marker
from playground.pipeline import InputError
from playground.prosody import load_emotion_table
from playground.ui_compare import build_compare_tab, build_why_tab

EXAMPLE = "Dr. Smith paid $5.30 on March 4th. What a wonderful surprise! Sadly, the shop closed at 10:30 pm."
OUTPUT_RATES = ["voice", "16000", "22050", "24000", "44100", "48000"]


def _error(exc: Exception) -> gr.Error:
    return gr.Error(str(exc), duration=None)


def _voice_choices() -> list[tuple[str, str]]:
    return [(v.label, v.name) for v in voices.list_voices()]


def voice_status(spec: str | None) -> str:
    lines = []
    for v in voices.list_voices():
        mark = "available" if v.available else "unavailable"
        why = "" if v.available else f" — {v.reason}"
        lines.append(f"- **{v.label}** ({v.sample_rate or '?'} Hz): {mark}{why}")
    try:
        voice, note = service.get_voice(spec)
        head = f"**Active voice:** {voice.label}, {voice.sample_rate} Hz."
        if note:
            head += f"  \n**Note:** {note}"
    except Exception as exc:  # noqa: BLE001 - shown, never fatal
        head = f"**Voice error:** {exc}"
    return head + "\n\n" + "\n".join(lines)


def emotion_rows() -> list[list]:
    rows = []
    for tag, row in load_emotion_table().rows.items():
        k = row.knobs
        rows.append(
            [tag, k.length_scale, k.noise_scale, k.noise_w, k.pitch_semitones, k.pause_s, row.description["en"]]
        )
    return rows


# -- handlers ----------------------------------------------------------------------------------
def on_run(text, voice, speed, pitch, variability, use_emotion, output_rate):
    try:
        settings = service.make_settings(speed, pitch, variability, use_emotion, output_rate)
        last = None
        doc_sent = False
        for out in service.run(text, voice, settings):
            last = out
            state = out.state
            stream_chunk = audio.to_wav_bytes(state.new_chunk) if state.new_chunk is not None else None
            # the document is sent once, when complete: the user may be editing it while audio follows
            send_doc = out.document is not None and not doc_sent
            doc_sent = doc_sent or send_doc
            yield (
                service.live_view(state),
                out.document if send_doc else gr.skip(),
                stream_chunk,
                gr.skip(),
                service.metrics_markdown(state),
                gr.skip(),
                gr.skip(),
                "Running…" if not state.done else "Done.",
            )
    except InputError as exc:
        raise _error(exc) from exc
    state = last.state
    yield (
        service.live_view(state),
        gr.skip(),
        None,
        service.audio_tuple(state.audio),
        service.metrics_markdown(state),
        plots.timeline_figure(state.spans, state.ttfa_s, state.total_s),
        plots.audio_figure(state.audio) if state.audio is not None else None,
        f"Done. {last.voice_note}".strip(),
    )


def on_frontend(text):
    try:
        for live, doc in service.frontend_only(text):
            yield live, doc if doc is not None else gr.skip()
    except InputError as exc:
        raise _error(exc) from exc


def on_synthesize(document, voice, speed, pitch, variability, use_emotion, output_rate):
    try:
        settings = service.make_settings(speed, pitch, variability, use_emotion, output_rate)
        out = service.synthesize(document, voice, settings)
    except InputError as exc:
        raise _error(exc) from exc
    state = out.state
    return (
        service.audio_tuple(state.audio),
        service.metrics_markdown(state),
        plots.timeline_figure(state.spans, state.ttfa_s, state.total_s),
        plots.audio_figure(state.audio),
        f"Synthesized your edited phonemes (front end not re-run). {out.voice_note}".strip(),
    )


# -- API-only endpoints (plain values, for gradio_client) ---------------------------------------
def api_frontend(text):
    try:
        _, doc = service.last(service.frontend_only(text))
    except InputError as exc:
        raise _error(exc) from exc
    return doc


def api_synthesize(text_or_document, voice, speed, pitch, variability, use_emotion, output_rate):
    try:
        settings = service.make_settings(speed, pitch, variability, use_emotion, output_rate)
        out = service.synthesize(text_or_document, voice, settings)
    except InputError as exc:
        raise _error(exc) from exc
    return service.audio_tuple(out.state.audio), out.document, json.dumps(out.state.metrics())


def api_run(text, voice, speed, pitch, variability, use_emotion, output_rate):
    try:
        settings = service.make_settings(speed, pitch, variability, use_emotion, output_rate)
        out = service.last(service.run(text, voice, settings))
    except InputError as exc:
        raise _error(exc) from exc
    return service.audio_tuple(out.state.audio), out.document, json.dumps(out.state.metrics())


def build_demo() -> gr.Blocks:
    with gr.Blocks(title="vLLM × TTS playground") as demo:
        gr.Markdown(marker("pg.ui.header"))
        with gr.Tab(key("pg.ui.tab_playground")):
            with gr.Row():
                with gr.Column(scale=3):
                    text = gr.Textbox(label=key("pg.ui.text"), value=EXAMPLE, lines=3, elem_id="input-text")
                    with gr.Row():
                        run_btn = gr.Button(key("pg.ui.run"), variant="primary", elem_id="run-btn")
                        fe_btn = gr.Button(key("pg.ui.frontend_only"), elem_id="frontend-btn")
                with gr.Column(scale=2):
                    voice = gr.Dropdown(
                        _voice_choices(),
                        value=service.DEFAULT_VOICE,
                        label=key("pg.ui.voice"),
                        allow_custom_value=True,
                        elem_id="voice",
                    )
                    voice_md = gr.Markdown(voice_status(service.DEFAULT_VOICE))
                    speed = gr.Slider(0.5, 2.0, value=1.0, step=0.05, label=key("pg.ui.speed"))
                    pitch = gr.Slider(-12, 12, value=0, step=0.5, label=key("pg.ui.pitch"))
                    variability = gr.Slider(
                        0.0, 2.0, value=1.0, step=0.05, label=key("pg.ui.variability")
                    )
                    use_emotion = gr.Checkbox(value=True, label=key("pg.ui.use_emotion"))
                    output_rate = gr.Dropdown(
                        OUTPUT_RATES, value="voice", label=key("pg.ui.output_rate")
                    )
            status = gr.Markdown(elem_id="status")
            gr.Markdown(marker("pg.ui.stage1"))
            live = gr.Markdown(elem_id="live-frontend")
            gr.Markdown(marker("pg.ui.stage2"))
            document = gr.Textbox(label=key("pg.ui.document"), lines=10, elem_id="phoneme-doc")
            synth_btn = gr.Button(key("pg.ui.synthesize"), elem_id="synth-btn")
            gr.Markdown(marker("pg.ui.stage3"))
            with gr.Row():
                stream_audio = gr.Audio(
                    label=key("pg.ui.stream_audio"), streaming=True, autoplay=True, elem_id="stream-audio"
                )
                full_audio = gr.Audio(
                    label=key("pg.ui.full_audio"),
                    type="numpy",
                    elem_id="full-audio",
                    # a plain <audio> player: our own plots below show the waveform
                    waveform_options=gr.WaveformOptions(show_recording_waveform=False),
                )
            metrics = gr.Markdown(elem_id="metrics")
            timeline = gr.Plot(label=key("pg.ui.timeline"))
            figure = gr.Plot(label=key("pg.ui.figure"))
            with gr.Accordion(key("pg.ui.emotion_table"), open=False):
                gr.Dataframe(
                    value=emotion_rows(),
                    headers=["tag", "length_scale", "noise_scale", "noise_w", "pitch (st)", "pause (s)", "meaning"],
                    interactive=False,
                )

        build_compare_tab()  # the naive panel beside the correct one (playground.ui_compare)
        build_why_tab()

        inputs = [voice, speed, pitch, variability, use_emotion, output_rate]
        voice.change(voice_status, voice, voice_md, api_visibility="private")
        run_event = run_btn.click(
            on_run,
            [text, *inputs],
            [live, document, stream_audio, full_audio, metrics, timeline, figure, status],
            api_visibility="private",
        )
        fe_btn.click(on_frontend, text, [live, document], api_visibility="private")
        synth_btn.click(
            on_synthesize,
            [document, *inputs],
            [full_audio, metrics, timeline, figure, status],
            api_visibility="private",
            cancels=[run_event],  # a run still finishing must not replace the edited audio
        )

        # API endpoints: the same functions with plain outputs for gradio_client.
        with gr.Row(visible=False):
            api_audio = gr.Audio(type="numpy")
            api_doc = gr.Textbox()
            api_json = gr.Textbox()
            api_in = gr.Textbox()
            api_btn = gr.Button()
        api_btn.click(api_frontend, [api_in], [api_doc], api_name="frontend")
        api_btn.click(api_synthesize, [api_in, *inputs], [api_audio, api_doc, api_json], api_name="synthesize")
        api_btn.click(api_run, [api_in, *inputs], [api_audio, api_doc, api_json], api_name="run")
    return demo
