"""English / 中文: one dictionary for every UI string, served two ways.

* Static text (labels, info lines, Markdown) uses Gradio's `gr.I18n`: the browser picks the
  language (its locale by default; the page footer's Settings → Language switches it live).
* Text rendered by handlers (metrics tables, lesson notes) is sent in both languages as
  `<span class="pg-en">…</span><span class="pg-zh">…</span>`; a tiny script watches a translated
  probe element and shows the spans of the language Gradio is showing, so one switch drives both.

Strings come from presets/i18n.yaml, the switch catalogue and the lesson presets.
"""

from __future__ import annotations

import html
from functools import lru_cache
from pathlib import Path

import yaml

LANGS = ("en", "zh")
# Gradio's language menu offers zh-CN / zh-TW; register the Chinese strings under all of them.
LOCALE_ALIASES = {"en": ("en",), "zh": ("zh", "zh-CN", "zh-TW")}
I18N_YAML = Path(__file__).resolve().parent.parent / "presets" / "i18n.yaml"
PROBE_CLASS = "pg-lang-probe"

# Installed once per page (see ui_compare.lang_probe): mirror the language Gradio shows on <html>,
# which a stylesheet uses to show only that language's spans. Polling survives tab re-mounts.
LANG_JS = """
if (!window.__pgLang) {
  window.__pgLang = true;
  const s = document.createElement('style');
  s.textContent = "html:not([data-pg-lang=zh]) .pg-zh{display:none} html[data-pg-lang=zh] .pg-en{display:none}";
  document.head.appendChild(s);
  const apply = () => {
    for (const p of document.querySelectorAll('.__PROBE__')) {
      const t = (p.textContent || '').trim();
      if (t) { document.documentElement.dataset.pgLang = t.startsWith('zh') ? 'zh' : 'en'; return; }
    }
  };
  apply();
  setInterval(apply, 250);
}
""".replace("__PROBE__", PROBE_CLASS)


class I18nDataError(ValueError):
    pass


def _check(key: str, value) -> dict[str, str]:
    if not isinstance(value, dict) or any(not isinstance(value.get(lang), str) for lang in LANGS):
        raise I18nDataError(f"i18n string {key!r} needs both 'en' and 'zh'")
    for lang in LANGS:
        if "{" in value[lang] or "}" in value[lang]:
            raise I18nDataError(f"i18n string {key!r} ({lang}) must not contain curly braces")
    return {lang: value[lang] for lang in LANGS}


@lru_cache(maxsize=1)
def strings() -> dict[str, dict[str, str]]:
    """key -> {"en": ..., "zh": ...} for every UI string, including switches and lessons."""
    from playground.lessons import all_lessons
    from playground.naive import catalogue

    data = yaml.safe_load(I18N_YAML.read_text(encoding="utf-8"))["strings"]
    out = {k: _check(k, v) for k, v in data.items()}
    for ap in catalogue().values():
        out[f"pg.ap.{ap.id}.label"] = _check(ap.id, ap.label)
        out[f"pg.ap.{ap.id}.why"] = _check(ap.id, ap.why)
        for p in ap.params:
            out[f"pg.param.{p.name}"] = _check(p.name, p.label)
    for lesson in all_lessons():
        out[f"pg.lesson.{lesson.name}.title"] = _check(lesson.name, lesson.title)
        out[f"pg.lesson.{lesson.name}.notice"] = _check(lesson.name, lesson.notice)
    return out


def t(key: str, lang: str = "en") -> str:
    """Server-side lookup (falls back to English, then to the key)."""
    entry = strings().get(key)
    return key if entry is None else entry.get(lang) or entry["en"]


@lru_cache(maxsize=1)
def build_i18n():
    """The gr.I18n for `launch(i18n=...)`."""
    import gradio as gr

    table = strings()
    per_lang = {lang: {k: v[lang] for k, v in table.items()} for lang in LANGS}
    locales = {alias: per_lang[lang] for lang, aliases in LOCALE_ALIASES.items() for alias in aliases}
    return gr.I18n(**locales)


def key(k: str):
    """A translatable value for a label/info/Markdown (the key must exist: typos fail at build time)."""
    if k not in strings():
        raise KeyError(f"no i18n string {k!r} in presets/i18n.yaml")
    return build_i18n()(k)


def marker(k: str) -> str:
    """`key(k)` as the string Gradio sends for static Markdown values."""
    return str(key(k))


def both(k: str | dict[str, str], *, escape: bool = True) -> str:
    """HTML with the text in both languages; CSS shows the one the page is in."""
    entry = strings()[k] if isinstance(k, str) else k
    text = {lang: html.escape(entry[lang]) if escape else entry[lang] for lang in LANGS}
    return f'<span class="pg-en" lang="en">{text["en"]}</span><span class="pg-zh" lang="zh">{text["zh"]}</span>'
