"""The running app, driven as users drive it: gradio_client against the API, Chromium on the page."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from playground import asr, audio

REPO = Path(__file__).resolve().parent.parent
ARTIFACTS = REPO / "artifacts"


def test_synthesize_text_is_intelligible(client):
    wav_path, document, metrics = client.predict("The weather is lovely today.", api_name="/synthesize")
    chunk = audio.read_wav(wav_path)
    assert chunk.sample_rate == 22050 and chunk.duration_s > 0.8
    assert document.startswith("# 1 [")
    hyp = asr.transcribe(chunk)
    assert asr.wer("the weather is lovely today", hyp) <= 0.15, hyp


def test_frontend_then_edited_synthesis(client):
    document = client.predict("Hello world.", api_name="/frontend")
    assert document.splitlines()[0].startswith("# 1 [")
    assert "world." in document
    # an invalid symbol is refused with a message naming the word and the symbol
    broken = document.replace("W ER1 L D", "W ER9 L D")
    with pytest.raises(Exception, match=r"(?s)world.*ER9"):
        client.predict(broken, api_name="/synthesize")
    # a valid edit is spoken without re-running the front end: "world" -> "word"
    edited = document.replace("W ER1 L D", "W ER1 D")
    wav_path, doc_back, _ = client.predict(edited, api_name="/synthesize")
    assert doc_back == edited
    assert audio.read_wav(wav_path).duration_s > 0.3


def test_bad_input_gets_a_message_and_the_server_keeps_serving(client):
    with pytest.raises(Exception, match="type some English text"):
        client.predict("   ", api_name="/run")
    with pytest.raises(Exception, match="Speed must be between|less than minimum value 0.5"):
        client.predict("Hi there.", "bundled", -3, api_name="/run")
    wav_path, _, _ = client.predict("Still here.", api_name="/run")
    assert audio.read_wav(wav_path).duration_s > 0.3


def test_run_reports_stage_metrics(client):
    import json

    _, document, metrics = client.predict("One sentence here. And a second one!", api_name="/run")
    m = json.loads(metrics)
    assert document.count("\n# ") == 1  # two sentence headers
    assert 0 < m["ttfa_s"] <= m["total_s"]
    assert m["audio_s"] > 1.0 and m["rtf"] > 0


def _chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(
    _chromium() is None, reason="Debian chromium is not installed (scripts/test.sh installs it as root)"
)
def test_browser_run_edit_synthesize(app_url):
    from conftest import chromium_args
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=_chromium(), args=chromium_args())
        page = browser.new_page(viewport={"width": 1280, "height": 1800})
        page.goto(app_url)
        box = page.locator("#input-text textarea")
        box.fill("The cat sat on the mat.")
        page.locator("#run-btn").click()
        doc = page.locator("#phoneme-doc textarea")
        page.wait_for_function(
            "() => document.querySelector('#phoneme-doc textarea').value.includes('mat.')", timeout=120_000
        )
        live = page.locator("#live-frontend").inner_text()
        assert "cat" in live
        # the run's own audio first, then the edit
        run_src = page.wait_for_function(
            """() => { const a = document.querySelector('#full-audio audio');
                       return a && a.src && a.duration > 0 && a.src; }""",
            timeout=120_000,
        ).json_value()
        # edit one phoneme: "cat" K AE1 T -> "cap" K AE1 P
        value = doc.input_value()
        assert "K AE1 T" in value
        doc.fill(value.replace("K AE1 T", "K AE1 P"))
        page.locator("#synth-btn").click()
        duration = page.wait_for_function(
            """(runSrc) => { const a = document.querySelector('#full-audio audio');
                       return a && a.src && a.src !== runSrc && a.duration > 0 && a.duration; }""",
            arg=run_src,
            timeout=120_000,
        ).json_value()
        assert duration > 0.5
        assert "K AE1 P" in doc.input_value(), "the user's edit must survive synthesis"
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "playground.png"), full_page=True)
        browser.close()


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -1, 1e9, "fast", None])
def test_slider_values_are_validated(bad):
    from playground.pipeline import InputError
    from playground.service import make_settings

    with pytest.raises(InputError, match="Speed must be"):
        make_settings(speed=bad)
