"""Pipeline benchmark, side by side in one run, on a 3-sentence paragraph.

1. Time to first audio with per-sentence streaming vs the non-streamed total (the time a user of a
   pipeline that waits for the whole text hears nothing). Goal: <= 0.35x.
2. End-to-end time of the streamed pipeline vs the sum of its bare stage calls (front end per
   sentence, voice per sentence, one after another): the orchestration's overhead. Goal: <= 1.15x.

Usage: .venv/bin/python bench/pipeline.py [--repeats 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playground.env import configure_environment  # noqa: E402

configure_environment()

from playground import service  # noqa: E402
from playground.frontend import get_frontend  # noqa: E402
from playground.pipeline import Pipeline, VoiceSettings  # noqa: E402

PARAGRAPH = (
    "The museum opens at nine in the morning on weekdays. "
    "Visitors can see paintings, old maps and a small garden. "
    "Please buy your tickets at the front desk before you enter."
)


def bare_stage_calls(pipeline: Pipeline, sentences: list[str], settings: VoiceSettings) -> float:
    """Front end, then voice (+ its post-processing), one sentence at a time, no orchestration."""
    t0 = time.perf_counter()
    for raw in sentences:
        analysis = pipeline.frontend.analyze(raw)
        pipeline.speak(analysis, pipeline.sentence_knobs(analysis.tag, settings), settings.output_rate)
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()

    voice, note = service.get_voice("bundled")
    frontend = get_frontend()
    pipeline = Pipeline(frontend, voice)
    settings = VoiceSettings()
    sentences = [s.raw for s in service.last(pipeline.run(PARAGRAPH, settings)).sentences]  # warm-up
    assert len(sentences) == 3, sentences

    ttfa, nonstream_total, e2e, bare = [], [], [], []
    for _ in range(args.repeats):
        streamed = service.last(pipeline.run(PARAGRAPH, settings, stream=True))
        ttfa.append(streamed.ttfa_s)
        e2e.append(streamed.total_s)
        nonstream_total.append(service.last(pipeline.run(PARAGRAPH, settings, stream=False)).total_s)
        bare.append(bare_stage_calls(pipeline, sentences, settings))

    med = statistics.median
    print(f"front end: {frontend.name}; voice: {voice.label} ({voice.sample_rate} Hz)")
    print(f"audio: {streamed.audio.duration_s:.2f} s for {len(sentences)} sentences; repeats: {args.repeats}")
    print(f"{'':32}{'median':>10}{'min':>10}{'max':>10}")
    for name, xs in [
        ("TTFA, streamed (s)", ttfa),
        ("total, not streamed (s)", nonstream_total),
        ("end-to-end, streamed (s)", e2e),
        ("sum of bare stage calls (s)", bare),
    ]:
        print(f"{name:32}{med(xs):>10.3f}{min(xs):>10.3f}{max(xs):>10.3f}")
    r1 = med(ttfa) / med(nonstream_total)
    r2 = med(e2e) / med(bare)
    print(f"TTFA_streamed/total_nonstreamed={r1:.3f} (goal <= 0.35)  e2e/bare_stages={r2:.3f} (goal <= 1.15)")


if __name__ == "__main__":
    main()
