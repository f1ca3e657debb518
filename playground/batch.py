"""Offline batch synthesis (audiobook-style): one WAV per sentence plus a JSONL manifest.

    python -m playground.batch INPUT.txt --out DIR [--voice bundled] [--batch 32]

The front end is batched through vLLM: a window of sentences is in flight at once and the engine
runs them in one continuous batch. Re-running after an interruption skips every sentence already in
the manifest whose WAV exists, so nothing finished is redone.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from playground.env import configure_environment

configure_environment()

from tqdm import tqdm  # noqa: E402

from playground import audio, service  # noqa: E402
from playground.frontend import get_frontend  # noqa: E402
from playground.normalize import split_sentences  # noqa: E402
from playground.pipeline import Pipeline, VoiceSettings  # noqa: E402


def sentence_id(index: int, text: str) -> str:
    """Stable per position and text, so an edited input file re-synthesizes only what changed."""
    return f"{index:05d}-{hashlib.sha1(text.encode()).hexdigest()[:8]}"


def load_done(manifest: Path, out: Path) -> set[str]:
    done = set()
    if manifest.exists():
        for line in manifest.read_text(encoding="utf-8").splitlines():
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                continue  # a line cut by the interruption: that sentence is redone
            if (out / row.get("wav", "")).is_file():
                done.add(row["id"])
    return done


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("input", type=Path)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--voice", default="bundled")
    ap.add_argument("--batch", type=int, default=32, help="sentences in flight in the vLLM batch")
    args = ap.parse_args(argv)

    text = args.input.read_text(encoding="utf-8")
    sentences = [s for para in text.split("\n\n") for s in split_sentences(" ".join(para.split()))]
    args.out.mkdir(parents=True, exist_ok=True)
    manifest = args.out / "manifest.jsonl"
    done = load_done(manifest, args.out)
    todo = [(i, s) for i, s in enumerate(sentences) if sentence_id(i, s) not in done]
    print(f"{len(sentences)} sentences, {len(sentences) - len(todo)} already done", file=sys.stderr)

    voice, note = service.get_voice(args.voice)
    if note:
        print(note, file=sys.stderr)
    frontend = get_frontend()
    pipeline = Pipeline(frontend, voice)
    settings = VoiceSettings()

    def analyze(item):
        t0 = time.perf_counter()
        return item, frontend.analyze(item[1]), time.perf_counter() - t0

    if manifest.exists() and not manifest.read_bytes().endswith(b"\n") and manifest.stat().st_size:
        with manifest.open("a", encoding="utf-8") as mf:
            mf.write("\n")  # close a line cut by the interruption; load_done skipped it
    with ThreadPoolExecutor(max_workers=max(1, args.batch)) as pool, manifest.open("a", encoding="utf-8") as mf:
        for (i, raw), analysis, fe_s in tqdm(pool.map(analyze, todo), total=len(todo), unit="sentence"):
            knobs = pipeline.sentence_knobs(analysis.tag, settings)
            t0 = time.perf_counter()
            chunk, _ = pipeline.speak(analysis, knobs, None)
            voice_s = time.perf_counter() - t0
            sid = sentence_id(i, raw)
            audio.write_wav(chunk, args.out / f"{sid}.wav")
            row = {
                "id": sid,
                "index": i,
                "text": raw,
                "normalized": analysis.normalized,
                "tag": analysis.tag,
                "phonemes": [{"word": w.text, "phonemes": w.phonemes, "punct": w.punct} for w in analysis.words],
                "wav": f"{sid}.wav",
                "sample_rate": chunk.sample_rate,
                "duration_s": round(chunk.duration_s, 3),
                "timings": {"frontend_s": round(fe_s, 3), "voice_s": round(voice_s, 3)},
            }
            mf.write(json.dumps(row, ensure_ascii=False) + "\n")
            mf.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
