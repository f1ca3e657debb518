"""Each anti-pattern's measured effect: the layered panel and the naive one, side by side.

Runs the compare tab's own path (playground.compare) for every lesson preset that switches an
anti-pattern on (or the lessons named), and prints, per lesson, the metrics that switch should move
plus the rest of the table. `--json FILE` also writes every number.

    python bench/naive_effects.py [LESSON ...] [--all-metrics] [--json artifacts/naive_effects.json]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

# Timings compare two panels: on shared cores a 2-thread OpenMP pool that loses a core to another
# process spins (measured here: 17 s instead of 0.6 s per sentence). Override with OMP_NUM_THREADS.
os.environ.setdefault("OMP_NUM_THREADS", "1")

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from playground.env import configure_environment  # noqa: E402

configure_environment()

from playground import compare, measure  # noqa: E402
from playground.lessons import all_lessons  # noqa: E402

ROWS = (*measure.KEYS, "max_running")


def fmt(v) -> str:
    if v is None:
        return "–"
    if isinstance(v, float):
        return f"{v:.3g}"
    return str(v)


def ratio(a, b) -> str:
    return f"×{b / a:.2f}" if isinstance(a, int | float) and isinstance(b, int | float) and a else ""


def table(c: compare.Comparison, all_metrics: bool) -> list[str]:
    j = c.to_json()
    watch = compare.active_measures(c.naive_config)
    lines = [f"{'metric':<22}{'layered':>12}{'naive':>12}{'naive/layered':>15}  "]
    for k in ROWS:
        if not all_metrics and k not in watch and k not in ("ttfa_s", "asr_wer"):
            continue
        a, b = j["correct"].get(k), j["naive"].get(k)
        mark = "*" if k in c.highlights or (k == "max_running" and a != b) else " "
        lines.append(f"{mark}{k:<21}{fmt(a):>12}{fmt(b):>12}{ratio(a, b):>15}")
    lines.append(f"  asr (layered): {j['correct']['asr_text']!r}")
    lines.append(f"  asr (naive):   {j['naive']['asr_text']!r}")
    for note in j["naive"]["notes"]:
        lines.append(f"  note: {note}")
    return lines


SWEEP_TEXT = "The quick brown fox jumps over the lazy dog near the quiet river bank."


def sweep() -> list[str]:
    """The naive "speed" slider (temperature, unconstrained) next to the voice's real speed knob."""
    from playground import service
    from playground.frontend import get_frontend
    from playground.lessons import CorrectConfig
    from playground.naive import parse_switches

    fe = get_frontend()
    voice, _ = service.get_voice("bundled")
    compare._warm_up(fe, voice)
    lines = [f"{'control':<34}{'speech rate':>12}{'F0 (Hz)':>10}{'PER':>8}"]

    def row(label: str, m: dict) -> str:
        return f"{label:<34}{fmt(m['speech_rate']):>12}{fmt(m['f0_median_hz']):>10}{fmt(m['per']):>8}"

    for speed in (0.75, 1.0, 1.5):
        p = compare.run_correct(SWEEP_TEXT, CorrectConfig(speed=speed), voice, fe, with_asr=False)
        lines.append(row(f"layered: speed {speed} (length scale)", p.metrics))
    for t in (0.0, 0.5, 1.0, 1.5, 2.0):
        sw = {"free_decoding": True, "sampling_as_voice": t > 0, "temperature": t}
        p = compare.run_naive(SWEEP_TEXT, parse_switches(sw), voice, fe, "", with_asr=False)
        lines.append(row(f'naive: "speed" {t} (temperature)', p.metrics))
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("lessons", nargs="*", help="lesson names (default: every lesson with a naive switch)")
    ap.add_argument("--all-metrics", action="store_true", help="print every metric, not only the watched ones")
    ap.add_argument("--json", type=Path, help="write all numbers to this file")
    ap.add_argument("--no-sweep", action="store_true", help="skip the temperature-vs-speed sweep")
    args = ap.parse_args(argv)
    lessons = [lesson for lesson in all_lessons() if lesson.naive.active()]
    if args.lessons:
        lessons = [lesson for lesson in all_lessons() if lesson.name in args.lessons]
    out = {}
    for lesson in lessons:
        t0 = time.perf_counter()
        c = compare.compare(None, lesson.name)
        print(f"\n## {lesson.name}: {', '.join(c.naive_config.active())}  ({time.perf_counter() - t0:.0f} s)")
        print("\n".join(table(c, args.all_metrics)), flush=True)
        out[lesson.name] = c.to_json()
    if not args.no_sweep:
        print(f"\n## sampling params vs the real speed knob ({SWEEP_TEXT!r})")
        print("\n".join(sweep()), flush=True)
    print("\n* the two panels differ (>10 %, PER/WER by >0.05/0.10); rows shown: what the switch should move")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(out, indent=1, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
