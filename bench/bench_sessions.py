"""Concurrent sessions in real browsers: N Chromium tabs each upload a large file and open Data, Metrics and Curves.

Starts the app as `make run` does (on a free port), drives headless Chromium through Playwright, and prints for
each session the seconds from upload to the Curves page drawn, as a ratio to one session alone (goal: at most 2×),
the server's peak resident memory (the whole process tree, sampled every 0.2 s) and its memory once the sessions
have closed and their disconnect TTL has passed. ``--same`` gives every session the same bytes (the work is shared
by content hash, pages/shared.py); without it each session gets its own file.

    PYTHONPATH=. .venv/bin/python bench/bench_sessions.py --sessions 8 --rows 1000000 --same

Not a test: timings belong here.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import signal
import socket
import subprocess
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM_ARGS = ["--no-sandbox", "--headless=new", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-component-update", "--no-first-run"]


def make_file(path: Path, rows: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    y = rng.random(rows) < 0.3
    frame = pd.DataFrame({"id": np.arange(rows), "y_true": np.where(y, "yes", "no")})
    for model, gap in (("alpha", 0.4), ("beta", 0.3), ("gamma", 0.2)):
        frame[f"score_{model}"] = np.clip(rng.normal(0.3 + gap * y, 0.2), 0, 1).round(5)
    frame.to_csv(path, index=False)


def tree_rss_mb(pid: int) -> float:
    """Resident memory of ``pid`` and its children (Linux /proc)."""
    total, todo = 0, [pid]
    page = os.sysconf("SC_PAGE_SIZE")
    while todo:
        p = todo.pop()
        try:
            total += int(Path(f"/proc/{p}/statm").read_text().split()[1]) * page
            children = Path(f"/proc/{p}/task/{p}/children").read_text().split()
        except (OSError, ValueError, IndexError):
            continue
        todo += [int(c) for c in children]
    return total / 2**20


def start_app(port: int, ttl: int) -> subprocess.Popen:
    env = {**os.environ, "BROWSER": "none", "STREAMLIT_SERVER_DISCONNECTED_SESSION_TTL": str(ttl),
           "ASSESS_RESULTS_IDLE_S": str(ttl)}
    proc = subprocess.Popen([str(ROOT / ".venv/bin/python"), "-m", "streamlit", "run", "app.py", "--server.port",
                             str(port)], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    for _ in range(240):
        try:
            with urllib.request.urlopen(f"http://localhost:{port}/_stcore/health", timeout=2) as r:
                if r.read() == b"ok":
                    return proc
        except OSError:
            time.sleep(0.5)
    raise RuntimeError("the app did not start")


def wait_idle(page) -> None:
    page.wait_for_timeout(300)
    page.locator('[data-testid="stStatusWidget"]').wait_for(state="hidden", timeout=600_000)


def session(url: str, path: str, key: int, start, results) -> None:
    """One person in their own Chromium (Playwright's sync API belongs to one thread, so each session is a process)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.set_default_timeout(600_000)
        page.goto(url)
        page.get_by_role("heading", name="Task and roles").wait_for()
        start.wait()
        t0 = time.perf_counter()
        page.get_by_text("Upload a file", exact=True).click()
        page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(path)
        page.get_by_text(Path(path).name).first.wait_for()
        page.get_by_role("heading", name="Task and roles").wait_for()
        wait_idle(page)
        sidebar = page.locator('[data-testid="stSidebar"]')
        for name, ready in (("Metrics", "All models"), ("Curves", "Threshold explorer")):
            sidebar.get_by_role("link", name=name).click()
            page.get_by_role("heading", name=ready).wait_for()
            wait_idle(page)
        results.put((key, time.perf_counter() - t0))
        browser.close()


def run(url: str, files: list[Path]) -> list[float]:
    ctx = multiprocessing.get_context("spawn")
    start, results = ctx.Barrier(len(files)), ctx.Queue()
    procs = [ctx.Process(target=session, args=(url, str(f), i, start, results)) for i, f in enumerate(files)]
    for proc in procs:
        proc.start()
    out = dict(results.get(timeout=3600) for _ in procs)
    for proc in procs:
        proc.join()
    return [out[i] for i in range(len(files))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=8)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--same", action="store_true", help="every session uploads the same bytes")
    parser.add_argument("--ttl", type=int, default=20,
                        help="disconnected-session TTL and result idle time of the server, seconds")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        files = []
        for i in range(args.sessions):
            path = Path(tmp) / f"load_{0 if args.same else i}.csv"
            if not path.exists():
                make_file(path, args.rows, seed=0 if args.same else i)
            files.append(path)
        first_alone = Path(tmp) / "load_alone.csv"      # its own bytes, so the shared runs start cold too
        make_file(first_alone, args.rows, seed=10_000)
        mb = first_alone.stat().st_size / 2**20
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        proc = start_app(port, args.ttl)
        url = f"http://localhost:{port}"
        idle = tree_rss_mb(proc.pid)
        peak = [idle]
        sampling = threading.Event()

        def sample() -> None:
            while not sampling.is_set():
                peak[0] = max(peak[0], tree_rss_mb(proc.pid))
                time.sleep(0.2)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        try:
            alone = run(url, [first_alone])[0]
            together = run(url, files)
            sampling.set()
            time.sleep(args.ttl + 45)    # the TTL, then a tidy-up round (every 30 s) of pages/shared.py
            after = tree_rss_mb(proc.pid)
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
    print(f"{args.sessions} sessions, {args.rows:,} rows × 3 models ({'same file' if args.same else 'own files'}, "
          f"{mb:,.0f} MB each when written)")
    print(f"one session alone: {alone:6.1f} s (upload → Data → Metrics → Curves drawn)")
    for i, s in enumerate(together):
        print(f"session {i + 1}: {s:6.1f} s  = {s / alone:4.2f} × alone")
    print(f"server RSS: idle {idle:,.0f} MB, peak {peak[0]:,.0f} MB, {args.ttl + 45} s after the sessions closed "
          f"{after:,.0f} MB")


if __name__ == "__main__":
    main()
