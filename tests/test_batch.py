"""The batch CLI: one WAV per sentence, a JSONL manifest, resumes without redoing finished work."""

from __future__ import annotations

import json

from playground import audio
from playground.batch import main

TEXT = "The first sentence is short. Here is the second one!\n\nA new paragraph starts here."


def test_batch_writes_wavs_and_manifest_and_resumes(tmp_path, frontend):
    src = tmp_path / "book.txt"
    src.write_text(TEXT, encoding="utf-8")
    out = tmp_path / "out"
    assert main([str(src), "--out", str(out), "--batch", "3"]) == 0

    rows = [json.loads(line) for line in (out / "manifest.jsonl").read_text().splitlines()]
    assert [r["index"] for r in rows] == [0, 1, 2]
    assert rows[1]["text"] == "Here is the second one!"
    for r in rows:
        chunk = audio.read_wav(out / r["wav"])
        assert chunk.sample_rate == r["sample_rate"] == 22050
        assert abs(chunk.duration_s - r["duration_s"]) < 0.01
        assert r["normalized"] and r["tag"] and all(w["phonemes"] for w in r["phonemes"])
        assert {"frontend_s", "voice_s"} <= set(r["timings"])

    # an interruption: the last WAV never got written and its manifest line was cut in half
    (out / rows[2]["wav"]).unlink()
    lines = (out / "manifest.jsonl").read_text().splitlines()
    (out / "manifest.jsonl").write_text("\n".join(lines[:2]) + "\n" + lines[2][:20])
    kept = {r["wav"]: (out / r["wav"]).stat().st_mtime_ns for r in rows[:2]}

    assert main([str(src), "--out", str(out)]) == 0
    for wav, mtime in kept.items():
        assert (out / wav).stat().st_mtime_ns == mtime, "finished sentences must not be redone"
    assert (out / rows[2]["wav"]).is_file()
    valid = []
    for line in (out / "manifest.jsonl").read_text().splitlines():
        try:
            valid.append(json.loads(line)["index"])
        except json.JSONDecodeError:
            pass
    assert sorted(valid) == [0, 1, 2]
