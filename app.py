"""Start the playground: `python app.py` (port: $GRADIO_SERVER_PORT, default 7860)."""

from __future__ import annotations

import logging
import os

from playground.env import configure_environment

configure_environment()

from playground.ui import build_demo  # noqa: E402


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    demo = build_demo()
    # Many users share one vLLM engine: let their requests run together so it can batch them.
    demo.queue(default_concurrency_limit=int(os.environ.get("PLAYGROUND_CONCURRENCY", "16")))
    demo.launch(
        server_name=os.environ.get("GRADIO_SERVER_NAME", "127.0.0.1"),
        server_port=int(os.environ.get("GRADIO_SERVER_PORT", "7860")),
    )


if __name__ == "__main__":
    main()
