"""Start the playground: `python app.py` (port: $GRADIO_SERVER_PORT, default 7860)."""

from __future__ import annotations

import logging
import os
import threading

from playground.env import configure_environment

configure_environment()

from playground.i18n import build_i18n  # noqa: E402
from playground.ui import build_demo  # noqa: E402


def warm_up() -> None:
    """Start the shared vLLM engine and load the default voice while the page is already served,
    so the first user does not wait for them."""
    from playground import service
    from playground.frontend import get_frontend

    try:
        service.get_voice(service.DEFAULT_VOICE)
        get_frontend().warmup()
    except Exception:  # noqa: BLE001 - the UI reports the same error on the next request
        logging.getLogger(__name__).exception("warm-up failed")


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    threading.Thread(target=warm_up, name="warm-up", daemon=True).start()
    demo = build_demo()
    # Many users share one vLLM engine: let their requests run together so it can batch them.
    demo.queue(default_concurrency_limit=int(os.environ.get("PLAYGROUND_CONCURRENCY", "16")))
    demo.launch(
        server_name=os.environ.get("GRADIO_SERVER_NAME", "127.0.0.1"),
        server_port=int(os.environ.get("GRADIO_SERVER_PORT", "7860")),
        i18n=build_i18n(),  # English / 中文: footer → Settings → Language
        # Gradio keeps a copy of every session's component config (~190 KB here, ~0.35 MB of RSS)
        # for up to 10 000 sessions: RSS grew ~11 MB per 30 API sessions without end. Least recently
        # used sessions beyond this (default 100: three times a 30-seat room) are dropped; a dropped page
        # keeps its text, lesson edits reset.
        state_session_capacity=int(os.environ.get("PLAYGROUND_SESSIONS", "100")),
    )


if __name__ == "__main__":
    main()
