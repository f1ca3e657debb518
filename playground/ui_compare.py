"""The "Right vs naive" and "Why layered?" tabs (layout and wiring; the work is in playground.compare).

Call `build_compare_tab()` and `build_why_tab()` inside the app's gr.Blocks. The compare tab also
registers the API endpoint `compare`: (text, lesson, switches JSON) -> (layered audio, naive audio,
metrics JSON).
"""

from __future__ import annotations

import html
import json

import gradio as gr
from matplotlib.figure import Figure

from playground import measure, plots, service
from playground.compare import Comparison, Panel, active_measures, compare, run_compare
from playground.i18n import LANG_JS, PROBE_CLASS, both, key, marker, strings
from playground.lessons import CorrectConfig, all_lessons, load_lesson
from playground.naive import NaiveConfig, Param, catalogue, parse_switches
from playground.pipeline import InputError

ROW_KEYS = (*measure.KEYS, "max_running")
DIFF_STYLE = "background:#fde2e1"
# A plain <audio> element (as in the Playground tab): the plots below show the waveform.
PLAIN_PLAYER = gr.WaveformOptions(show_recording_waveform=False)


def _player(side: str) -> gr.Audio:
    """One panel's output player (side: "correct" | "naive")."""
    return gr.Audio(
        label=key(f"pg.compare.{side}_audio"),
        type="numpy",
        interactive=False,
        elem_id=f"{side}-audio",
        waveform_options=PLAIN_PLAYER,
    )


def _error(exc: Exception) -> gr.Error:
    return gr.Error(str(exc), duration=None)


# -- rendering -----------------------------------------------------------------------------------
def _fmt(v) -> str:
    if v is None:
        return "–"
    if isinstance(v, float):
        return f"{v:.3g}" if abs(v) < 1000 else f"{v:.0f}"
    return html.escape(str(v))


def _ratio(a, b) -> str:
    if isinstance(a, int | float) and isinstance(b, int | float) and a:
        return f"× {b / a:.2f}"
    return ""


def metrics_html(c: Comparison) -> str:
    """Both panels' metrics side by side; rows that differ are highlighted."""
    if c.correct is None:
        return ""
    cm, nm = _panel_row_values(c.correct), _panel_row_values(c.naive)
    diff = set(c.highlights) | ({"max_running"} if nm and cm["max_running"] != nm["max_running"] else set())
    watch = active_measures(c.naive_config)
    head = "".join(
        f"<th>{both(k)}</th>" for k in ("pg.metric.header", "pg.metric.correct", "pg.metric.naive", "pg.metric.ratio")
    )
    rows = []
    for k in ROW_KEYS:
        a, b = cm.get(k), nm.get(k) if nm else None
        label = both(f"pg.metric.{k}")
        label = f"<b>{label}</b>" if k in watch else label
        style = f' style="{DIFF_STYLE}"' if k in diff else ""
        cells = f"<td>{label}</td><td>{_fmt(a)}</td><td>{_fmt(b)}</td><td>{_ratio(a, b)}</td>"
        rows.append(f"<tr{style} data-metric='{k}'>{cells}</tr>")
    for k in ("asr_text", "phonemes", "notes"):
        a, b = cm.get(k), nm.get(k) if nm else None
        cells = f"<td>{both(f'pg.metric.{k}')}</td><td>{_text(a)}</td><td>{_text(b)}</td><td></td>"
        rows.append(f"<tr data-metric='{k}'>{cells}</tr>")
    return (
        f"<table id='pg-metrics-table'><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
        f"<p><small>{both('pg.metric.legend')}</small></p>"
    )


def _text(v) -> str:
    if isinstance(v, list):
        v = "; ".join(v)
    return f"<small>{html.escape(v)}</small>" if v else "–"


def _panel_row_values(p: Panel | None) -> dict | None:
    if p is None:
        return None
    return {**p.metrics, "max_running": max(p.running, default=0), "phonemes": p.phonemes, "notes": p.notes}


def panel_figure(p: Panel | None):
    heard = p.heard if p is not None else None
    if heard is None or len(heard) == 0:
        return None
    title = f"{heard.duration_s:.2f} s played at {heard.sample_rate} Hz (made at {p.chunk.sample_rate} Hz)"
    return plots.audio_figure(heard, title)


def batch_figure(c: Comparison):
    """Running requests per engine step while each panel ran (the continuous-batching lesson)."""
    panels = [p for p in (c.correct, c.naive) if p is not None and p.running]
    if not panels:
        return None
    fig = Figure(figsize=(9, 2.6), constrained_layout=True)
    ax = fig.subplots()
    for p, color in zip(panels, ("#4C78A8", "#E45756")):
        ax.step(range(len(p.running)), p.running, where="post", color=color, label=f"{p.name}: max {max(p.running)}")
    ax.set_xlabel("engine step")
    ax.set_ylabel("running requests")
    ax.legend(loc="upper right")
    return fig


def audio_value(p: Panel | None):
    """(declared rate, int16 samples): the naive panel's audio is played at the rate it is labelled."""
    if p is None or p.chunk is None:
        return None
    return service.audio_tuple(p.heard)


def notice_html(lesson_name: str | None) -> str:
    if not lesson_name:
        return ""
    lesson = load_lesson(lesson_name)
    parts = [f"<h4>{both(f'pg.lesson.{lesson.name}.title')}</h4>", f"<p>{both(f'pg.lesson.{lesson.name}.notice')}</p>"]
    if lesson.correct.edits:
        edits = ", ".join(f"{w} → {' '.join(p)}" for w, p in lesson.correct.edits.items())
        parts.append(f"<p><code>{html.escape(edits)}</code></p>")
    return "<div class='pg-notice'>" + "".join(parts) + "</div>"


# -- handlers ------------------------------------------------------------------------------------
def _switch_ids() -> list[str]:
    return list(catalogue())


def _params() -> list[Param]:
    return [p for ap in catalogue().values() for p in ap.params]


def _naive_from_widgets(values: list) -> NaiveConfig:
    ids, params = _switch_ids(), _params()
    switches = {i: bool(v) for i, v in zip(ids, values[: len(ids)])}
    for p, v in zip(params, values[len(ids) :]):
        switches[p.name] = int(v) if isinstance(p.default, int) else float(v)
    return parse_switches(switches, NaiveConfig())


def on_lesson(name: str | None):
    """Set the text and both panels from a lesson preset."""
    try:
        lesson = load_lesson(name) if name else None
    except InputError as exc:
        raise _error(exc) from exc
    cfg = lesson.naive if lesson else NaiveConfig()
    cc = lesson.correct if lesson else CorrectConfig()
    text = lesson.text if lesson else gr.skip()
    return (
        text, cc.speed, cc.pitch, cc.variability, cc.use_emotion,
        *[getattr(cfg, i) for i in _switch_ids()], *[getattr(cfg, p.name) for p in _params()],
        notice_html(name), dict(cc.edits),
    )  # fmt: skip


def on_compare(text, lesson_name, edits, speed, pitch, variability, use_emotion, *switch_values):
    try:
        settings = service.make_settings(speed, pitch, variability, use_emotion)
        correct = CorrectConfig(
            settings.speed, settings.pitch_semitones, settings.variability, settings.use_emotion, dict(edits or {})
        )
        naive = _naive_from_widgets(list(switch_values))
        for c in run_compare(text, naive, correct, lesson=lesson_name or None):
            done = c.naive is not None
            yield (
                audio_value(c.correct), audio_value(c.naive), panel_figure(c.correct),
                panel_figure(c.naive) if done else None, metrics_html(c), batch_figure(c),
                c.to_json(), both("pg.compare.status_done" if done else "pg.compare.status_correct"),
            )  # fmt: skip
    except InputError as exc:
        raise _error(exc) from exc


def api_compare(text: str, lesson: str, switches: str):
    """(text, lesson name or "", switches JSON or "") -> (layered audio, naive audio, metrics JSON)."""
    try:
        c = compare(text, lesson or None, switches or None)
    except InputError as exc:
        raise _error(exc) from exc
    return audio_value(c.correct), audio_value(c.naive), json.dumps(c.to_json())


def lesson_choices() -> list[tuple[str, str]]:
    """Dropdown choices are not translated by Gradio, so they carry both languages."""
    choices = [(f"{strings()['pg.compare.no_lesson']['en']} · {strings()['pg.compare.no_lesson']['zh']}", "")]
    for lesson in all_lessons():
        choices.append((f"{lesson.title['en']} · {lesson.title['zh']}", lesson.name))
    return choices


# -- layout --------------------------------------------------------------------------------------
def _param_widget(p: Param):
    if p.choices is not None:
        return gr.Radio(list(p.choices), value=p.default, label=key(f"pg.param.{p.name}"), elem_id=f"param-{p.name}")
    return gr.Slider(
        p.min, p.max, value=p.default, step=p.step, label=key(f"pg.param.{p.name}"), elem_id=f"param-{p.name}"
    )


def _switch_widgets(section: str, defaults: NaiveConfig) -> tuple[dict, dict]:
    boxes, params = {}, {}
    for ap in catalogue().values():
        if ap.section != section:
            continue
        boxes[ap.id] = gr.Checkbox(
            value=getattr(defaults, ap.id), label=key(f"pg.ap.{ap.id}.label"), info=key(f"pg.ap.{ap.id}.why"),
            elem_id=f"switch-{ap.id}",
        )  # fmt: skip
        for p in ap.params:
            params[p.name] = _param_widget(p)
    return boxes, params


def lang_probe() -> None:
    """A hidden element Gradio translates to "en"/"zh", and the script that follows it."""
    gr.Markdown(marker("pg.lang"), elem_classes=[PROBE_CLASS], visible="hidden")
    gr.HTML("", js_on_load=LANG_JS)


def build_compare_tab(default_lesson: str = "05-sample-rate-16k") -> None:
    with gr.Tab(key("pg.compare.tab"), id="compare-tab", elem_id="compare-tab"):
        lang_probe()
        gr.Markdown(marker("pg.compare.intro"))
        gr.Markdown(marker("pg.language_hint"))
        first = load_lesson(default_lesson)
        with gr.Row():
            text = gr.Textbox(value=first.text, label=key("pg.compare.text"), lines=3, scale=3, elem_id="compare-text")
            with gr.Column(scale=2):
                lesson = gr.Dropdown(
                    lesson_choices(),
                    value=first.name,
                    label=key("pg.compare.lesson"),
                    info=key("pg.compare.lesson_info"),
                    elem_id="lesson-picker",
                )
                run_btn = gr.Button(key("pg.compare.run"), variant="primary", elem_id="compare-run")
        notice = gr.HTML(notice_html(first.name), elem_id="lesson-notice")
        edits = gr.State(dict(first.correct.edits))
        with gr.Row(equal_height=False):
            with gr.Column(variant="panel"):
                gr.Markdown(marker("pg.compare.correct_title"))
                gr.Markdown(marker("pg.compare.correct_knobs"))
                cc = first.correct
                speed = gr.Slider(
                    0.5, 2.0, value=cc.speed, step=0.05, label=key("pg.compare.speed"), elem_id="correct-speed"
                )
                pitch = gr.Slider(
                    -12, 12, value=cc.pitch, step=0.5, label=key("pg.compare.pitch"), elem_id="correct-pitch"
                )
                variability = gr.Slider(0.0, 2.0, value=cc.variability, step=0.05, label=key("pg.compare.variability"))
                use_emotion = gr.Checkbox(value=cc.use_emotion, label=key("pg.compare.use_emotion"))
                correct_audio = _player("correct")
                correct_plot = gr.Plot(label=key("pg.compare.correct_plot"))
            with gr.Column(variant="panel"):
                gr.Markdown(marker("pg.compare.naive_title"))
                gr.Markdown(marker("pg.compare.switches_title"))
                boxes, params = _switch_widgets("antipattern", first.naive)
                gr.Markdown(marker("pg.compare.setup_title"))
                setup_boxes, setup_params = _switch_widgets("setup", first.naive)
                boxes.update(setup_boxes)
                params.update(setup_params)
                naive_audio = _player("naive")
                naive_plot = gr.Plot(label=key("pg.compare.naive_plot"))
        status = gr.HTML(elem_id="compare-status")
        gr.Markdown(marker("pg.compare.metrics_title"))
        metrics = gr.HTML(elem_id="compare-metrics")
        batch_plot = gr.Plot(label=key("pg.compare.batch_plot"))
        with gr.Accordion(key("pg.compare.json"), open=False):
            metrics_json = gr.JSON(elem_id="compare-json")

        switch_inputs = [boxes[i] for i in _switch_ids()] + [params[p.name] for p in _params()]
        lesson.change(
            on_lesson, lesson, [text, speed, pitch, variability, use_emotion, *switch_inputs, notice, edits],
            api_visibility="private",
        )  # fmt: skip
        run_btn.click(
            on_compare,
            [text, lesson, edits, speed, pitch, variability, use_emotion, *switch_inputs],
            [correct_audio, naive_audio, correct_plot, naive_plot, metrics, batch_plot, metrics_json, status],
            api_visibility="private",
        )

        # API: the same comparison with plain values for gradio_client.
        with gr.Row(visible=False):
            api_text, api_lesson, api_switches = gr.Textbox(), gr.Textbox(), gr.Textbox()
            api_correct, api_naive = gr.Audio(type="numpy"), gr.Audio(type="numpy")
            api_json = gr.Textbox()
            api_btn = gr.Button()
        api_btn.click(
            api_compare, [api_text, api_lesson, api_switches], [api_correct, api_naive, api_json], api_name="compare"
        )


def catalogue_html() -> str:
    rows = []
    for ap in catalogue().values():
        watch = ", ".join(ap.measure)
        rows.append(
            f"<tr><td>{both(f'pg.ap.{ap.id}.label')}</td><td>{both(f'pg.ap.{ap.id}.why')}</td>"
            f"<td><code>{html.escape(watch)}</code></td></tr>"
        )
    return f"<table id='pg-catalogue'><tbody>{''.join(rows)}</tbody></table>"


def build_why_tab() -> None:
    with gr.Tab(key("pg.why.tab"), id="why-tab", elem_id="why-tab"):
        lang_probe()
        gr.Markdown(marker("pg.why.body"), elem_id="why-body")
        gr.Markdown(marker("pg.why.catalogue_title"))
        gr.HTML(catalogue_html(), elem_id="why-catalogue")


__all__ = ["build_compare_tab", "build_why_tab", "api_compare"]
