"""Load benchmark: 30 concurrent gradio_client sessions against `python app.py`, side by side with
a single user, on this machine.

  - every request completes without error, 3 rounds of 30 distinct texts;
  - no cross-talk: each response's ASR transcript matches its own text better than any other's;
  - p95 latency under load vs a single user's median (goal <= 3x);
  - server RSS after 200 requests vs after 20 (goal within 10 %), and after every round;
  - the server's CPU-seconds per request, and from them the p95 no scheduler can beat on this
    machine's cores: 30 requests that each need c CPU-seconds cannot all finish before 30*c/cores.

Usage: .venv/bin/python bench/load.py [--users 30] [--rounds 3] [--url URL]
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from playground.env import configure_environment  # noqa: E402

configure_environment()

import psutil  # noqa: E402
from gradio_client import Client  # noqa: E402

from playground import asr, audio  # noqa: E402

TEXTS = [
    "The red fox jumped over a fence.",
    "My sister plays the violin at night.",
    "Seven ships sailed across the ocean.",
    "Please close the kitchen window.",
    "Our teacher loves green apples.",
    "A tiny mouse hid under the bed.",
    "The train leaves from platform four.",
    "He painted the garage door blue.",
    "Bright stars filled the winter sky.",
    "We bought fresh bread this morning.",
    "The old clock stopped at midnight.",
    "Children laughed in the sunny park.",
    "She wrote a letter to her grandmother.",
    "Heavy rain flooded the narrow street.",
    "The doctor checked my sore throat.",
    "A golden eagle circled the mountain.",
    "Turn left after the big church.",
    "The museum was full of dinosaurs.",
    "They planted tomatoes in the garden.",
    "My phone battery died again.",
    "The baker sells warm cinnamon rolls.",
    "Lions sleep most of the day.",
    "He forgot his umbrella on the bus.",
    "The river freezes every January.",
    "Grandpa told us a funny story.",
    "Our team won the football match.",
    "The library opens early on Monday.",
    "Snow covered the quiet village.",
    "She fixed the broken bicycle chain.",
    "Pilots check the weather before flying.",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_app() -> tuple[subprocess.Popen, str]:
    port = free_port()
    env = dict(os.environ, GRADIO_SERVER_PORT=str(port))
    proc = subprocess.Popen(
        [sys.executable, "app.py"], cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    url = f"http://127.0.0.1:{port}/"
    import httpx

    for _ in range(180):
        try:
            if httpx.get(url, timeout=2).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            time.sleep(1)
    proc.kill()
    raise SystemExit("app.py did not start")


def rss_mb(pid: int) -> float:
    p = psutil.Process(pid)
    return sum(q.memory_info().rss for q in [p, *p.children(recursive=True)]) / 2**20


def cpu_s(pid: int) -> float:
    t = psutil.Process(pid).cpu_times()
    return t.user + t.system + t.children_user + t.children_system


def one_request(url: str, text: str) -> tuple[float, str]:
    client = Client(url, verbose=False)  # one session per user
    t0 = time.perf_counter()
    wav, _, _ = client.predict(text, api_name="/run")
    return time.perf_counter() - t0, wav


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--users", type=int, default=30)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--url", help="an already running app (RSS is then not measured)")
    ap.add_argument("--requests", type=int, default=200, help="total requests (RSS is compared at 20 and here)")
    args = ap.parse_args()
    proc, url = (None, args.url) if args.url else start_app()
    texts = TEXTS[: args.users]
    done = 0
    try:
        # single user, one request at a time: the baseline (also warms the engine and the voice)
        single = []
        for k, text in enumerate(texts[:20]):
            if k == 2:  # the first two warm up (grammar compile, voice load); not counted
                cpu_single0 = cpu_s(proc.pid) if proc else float("nan")
            single.append(one_request(url, text)[0])
            done += 1
        rss20 = rss_mb(proc.pid) if proc else float("nan")
        single_cpu = (cpu_s(proc.pid) - cpu_single0) / (len(single) - 2) if proc else float("nan")
        base = statistics.median(single[2:])
        rss_trace = [(done, rss20)]

        latencies, errors, crossed = [], 0, 0
        transcripts_checked = 0
        load_cpu = load_n = 0.0
        while done < args.requests:
            checking = len(latencies) < args.rounds * len(texts)
            cpu0 = cpu_s(proc.pid) if proc else float("nan")
            with ThreadPoolExecutor(max_workers=len(texts)) as pool:
                futures = [pool.submit(one_request, url, t) for t in texts]
                results = []
                for f in futures:
                    try:
                        results.append(f.result())
                    except Exception as exc:  # noqa: BLE001 - counted and shown
                        errors += 1
                        results.append(None)
                        print("error:", exc, file=sys.stderr)
            done += len(texts)
            if proc:
                load_cpu += cpu_s(proc.pid) - cpu0
                load_n += len(texts)
                rss_trace.append((done, rss_mb(proc.pid)))
            if not checking:
                continue
            for i, r in enumerate(results):
                if r is None:
                    continue
                latencies.append(r[0])
                hyp = asr.transcribe(audio.read_wav(r[1]))
                scores = [asr.wer(t, hyp) for t in texts]
                transcripts_checked += 1
                if min(range(len(texts)), key=scores.__getitem__) != i:
                    crossed += 1
                    print(f"cross-talk? #{i} {texts[i]!r} heard {hyp!r}", file=sys.stderr)
    finally:
        if proc:
            proc.terminate()
            proc.wait(timeout=30)

    p95 = statistics.quantiles(latencies, n=20)[-1]
    rss_end = rss_trace[-1][1]  # measured after the last round
    cores = len(os.sched_getaffinity(0))
    per_req = load_cpu / load_n if load_n else float("nan")
    # The 95th-percentile request cannot finish before 95 % of the round's CPU work is done; the work
    # per request is at least the smaller of the two measured costs (batching makes load cheaper).
    bound = 0.95 * len(texts) * min(per_req, single_cpu) / cores
    print(f"users={len(texts)} rounds={args.rounds} requests={done} errors={errors}")
    print(f"single user median latency: {base:.2f} s")
    print(f"under load: median {statistics.median(latencies):.2f} s, p95 {p95:.2f} s, max {max(latencies):.2f} s")
    print(f"responses checked by ASR: {transcripts_checked}, matched another request's text: {crossed}")
    print(f"server RSS: after {rss_trace[0][0]} requests {rss20:.0f} MB, after {done} requests {rss_end:.0f} MB")
    print("server RSS by requests done: " + ", ".join(f"{n}: {r:.0f} MB" for n, r in rss_trace))
    print(
        f"server CPU per request: single user {single_cpu:.3f} s, under load {per_req:.3f} s, {cores} cores "
        f"-> no schedule gets p95 below "
        f"{bound:.2f} s = {bound / base:.1f}x the single-user median"
    )
    print(
        f"p95_load/single={p95 / base:.2f} (goal <= 3)  "
        f"rss{done}/rss{rss_trace[0][0]}={rss_end / rss20:.3f} (goal <= 1.10)  "
        f"errors={errors} crosstalk={crossed}"
    )


if __name__ == "__main__":
    main()
