#!/usr/bin/env bash
# Install what is missing into .venv/, then start the playground on http://127.0.0.1:7860
# (override the Gradio way: GRADIO_SERVER_PORT=8080 GRADIO_SERVER_NAME=0.0.0.0).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh
exec .venv/bin/python app.py "$@"
