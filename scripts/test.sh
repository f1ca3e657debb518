#!/usr/bin/env bash
# Install what is missing, then run the whole test suite (real vLLM, ESPnet, voice, ASR, Chromium).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh
# The browser tests drive Debian's Chromium (no browser download is possible here).
if ! command -v chromium >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "[test] installing Debian chromium for the browser tests" >&2
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
    || echo "[test] could not install chromium; browser tests will be skipped" >&2
fi
exec .venv/bin/python -m pytest "$@"
