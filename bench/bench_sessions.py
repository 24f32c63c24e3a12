"""Concurrent sessions in real browsers: N Chromium tabs each upload a large file and open Data, Metrics and Curves.

Starts the app as `make run` does (on a free port), drives headless Chromium through Playwright, and prints for
each session the seconds from upload to the Curves page drawn, as a ratio to one session alone (goal: at most 2×),
the server's peak resident memory (the whole process tree, sampled every 0.2 s) and its memory once the sessions
have closed and their disconnect TTL has passed. ``--same`` gives every session the same bytes (the work is shared
by content hash, ui/store.py); without it each session gets its own file.

    flock /work/bench.lock env PYTHONPATH=. .venv/bin/python bench/bench_sessions.py --sessions 8 --pin --same
    PYTHONPATH=. .venv/bin/python bench/bench_sessions.py --sessions 8 --rows 1000000 --same
    PYTHONPATH=. .venv/bin/python bench/bench_sessions.py --sessions 8 --rows 1000000          # eight different files
    PYTHONPATH=. .venv/bin/python bench/bench_sessions.py --sessions 1 --no-alone --profile /tmp/server.txt

A 1,000-row session first warms the server up (every page's modules imported): its memory after that is the
floor the server returns to. The server logs each result it computes (ASSESS_SHARED_LOG, ui/store.py), and the
bench prints how many of each kind every phase computed — with ``--same``, one bootstrap for all sessions. The
memory after the last session closed is given at 30, 60 and 120 s (with the TTL of .streamlit/config.toml, 60 s, a
closed tab's session is kept — it may come back — and let go at about 50 s).

Each step (Data, Metrics, Curves) gives its seconds, the CPU seconds of that session's browser (Chromium and the
Playwright driver) and the megabytes the server sent it over the websocket; a step ends when the script is idle and
no loading skeleton is left (Plotly's bundle and charts load lazily). The server's CPU is given for each phase: on a
2-core machine eight Chromiums use more CPU than the server does. Each step also gives its "served" seconds (from the
click to the server's last message of the step: the server's part), and the run prints the CPU floor of the
concurrent phase (all browsers' and the server's CPU over the cores); ``--nice 19`` runs the browsers at the lowest
priority, closer to browsers on their own computers. Any traceback in the server's log is counted and the first shown. ``--profile`` records the server with py-spy (collapsed
stacks); ``--log`` keeps its output; BENCH_TIMEOUT_S bounds every wait (a failed session is screenshotted to the
temporary directory and reported, not waited for).

``--client protocol`` drives the same journeys without a browser (bench/protocol_client.py: Streamlit's own
websocket messages and upload, everything the server sends read and nothing drawn), as people whose browsers run on
their own computers load the server: each step's seconds are then the server's part alone — on this 2-core machine
eight Chromiums otherwise take most of the CPU the server needs (the "CPU floor" line).

    PYTHONPATH=. .venv/bin/python bench/bench_sessions.py --sessions 8 --same --client protocol

``--pin`` puts the server on CPU 0 and every browser on the others (on a 2-core box, as near as it gets to browsers
on their own computers) and prints the server's CPU per session: its CPU in a phase minus the CPU of the shared
store's computations (logged by ui/store.py), over the sessions. Eight sessions stay within 2× of one when
that per-session CPU p and the shared work W satisfy W + 8p <= 2(W + p).

Not a test: timings belong here.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from tests.browser.conftest import upload_predictions

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


def tree_pids(pid: int) -> list[int]:
    """``pid`` and its descendants (Linux /proc)."""
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        try:
            children = Path(f"/proc/{p}/task/{p}/children").read_text().split()
        except OSError:
            continue
        found.append(p)
        todo += [int(c) for c in children]
    return found


def tree_cpu_s(pid: int) -> float:
    """CPU seconds (user + system) used so far by ``pid`` and its live descendants."""
    total = 0
    for p in tree_pids(pid):
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])     # utime, stime (fields 14 and 15 of stat)
        except (OSError, IndexError, ValueError):
            continue
    return total / os.sysconf("SC_CLK_TCK")


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


def start_app(port: int, ttl: int, profile: str | None = None, log: str | None = None,
              idle: int = 600, cpus: set[int] | None = None) -> subprocess.Popen:
    """The app as `make run` starts it, with this Python; ``profile``: under py-spy, which writes the server's
    sampled stacks to that file in collapsed format when the server stops — only the thread holding the GIL, as
    without ``--gil`` a thread waiting for the GIL (after a sleep, in a queue) was counted as busy, which in one
    profile charged the tidy-up thread 23 s;
    ``cpus``: the server (and py-spy) runs on these CPUs only (`--pin`)."""
    # MALLOC_ARENA_MAX as `make run` sets it (an operator's own value wins): the memory after the sessions closed
    # depends on it (docs/deployment.md, "Sessions and memory")
    env = {"MALLOC_ARENA_MAX": "2", **os.environ, "BROWSER": "none",
           "STREAMLIT_SERVER_DISCONNECTED_SESSION_TTL": str(ttl), "ASSESS_RESULTS_IDLE_S": str(idle)}
    command = [sys.executable, "-m", "streamlit", "run", "serve.py", "--server.port", str(port)]
    if profile:
        command = [str(Path(sys.executable).with_name("py-spy")), "record", "--format", "raw", "--rate", "50",
                   "--threads", "--gil", "-o", profile, "--", *command]
    out = open(log, "w") if log else subprocess.DEVNULL    # noqa: SIM115 (the server's lifetime)
    proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT if log else out,
                            start_new_session=True,
                            preexec_fn=(lambda: os.sched_setaffinity(0, cpus)) if cpus else None)
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


def wait_drawn(page, last: tuple[str, str]) -> None:
    """Until the page is drawn: its last element, ``last`` (ARIA role, name), is there (the script reached its end — the
    status widget alone can be hidden between two reruns, and under load the Curves step ended with 6 of its 11
    charts), the script has finished (`wait_idle`), and every lazily loaded element (Plotly's 4.7 MB bundle, the
    charts, the tables) has replaced its loading skeleton and every chart has drawn its SVG — seconds after the
    script finished on the Curves page, where a fresh browser first fetches and compiles Plotly."""
    page.get_by_role(last[0], name=last[1]).wait_for()
    wait_idle(page)
    page.wait_for_function("() => !document.querySelector('[data-testid=\"stSkeleton\"]') && "
                           "[...document.querySelectorAll('[data-testid=\"stPlotlyChart\"]')]"
                           ".every(chart => chart.querySelector('.main-svg'))", timeout=600_000, polling=200)


def session(url: str, path: str, key: int, start, results, nice: int = 0, cpus: set[int] | None = None) -> None:
    """One person in their own Chromium (Playwright's sync API belongs to one thread, so each session is a process);
    ``nice`` lowers the priority of the browser and its driver, ``cpus`` keeps them on those CPUs (they inherit both)."""
    from playwright.sync_api import sync_playwright

    os.nice(nice)
    if cpus:
        os.sched_setaffinity(0, cpus)

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.set_default_timeout(float(os.environ.get('BENCH_TIMEOUT_S', 600)) * 1000)
        received = [0, 0.0]  # bytes the server sent over the websocket (its deltas: pages, tables, figures), and when
                             # its last frame arrived

        def frame_received(frame) -> None:
            received[0] += len(frame)
            received[1] = time.perf_counter()

        def count_frames(ws) -> None:
            ws.on("framereceived", frame_received)

        page.on("websocket", count_frames)
        try:
            page.goto(url)
            page.get_by_role("heading", name="Task and roles").wait_for()
            start.wait(timeout=float(os.environ.get('BENCH_TIMEOUT_S', 600)))
            t0 = time.perf_counter()
            steps = journey(page, path, received)
            results.put((key, (time.perf_counter() - t0, steps)))
        except Exception as exc:
            shot = Path(tempfile.gettempdir()) / f"bench_sessions_failed_{key}.png"
            page.screenshot(path=str(shot), full_page=True)
            # the page scrolls inside its main block, which the screenshot cuts: its whole text beside it
            shot.with_suffix(".txt").write_text(page.locator("body").inner_text())
            results.put((key, (float("nan"), {f"failed, see {shot}": Step(0.0, 0.0, 0.0, 0.0)})))
            print(f"session {key}: {exc}", file=sys.stderr)
        browser.close()


def protocol_session(url: str, path: str, key: int, start, results, nice: int = 0,
                     cpus: set[int] | None = None) -> None:
    """One person whose browser is on their own computer: `bench.protocol_client` asks the server for the same runs
    and the same upload as the browser journey (`journey`), reads every message, and draws nothing."""
    from bench.protocol_client import journey as protocol_journey

    os.nice(nice)
    if cpus:
        os.sched_setaffinity(0, cpus)
    timeout = float(os.environ.get('BENCH_TIMEOUT_S', 600))
    pages = [("Data", f"{Path(path).name}"), ("Metrics", "All models"), ("Curves", "Threshold explorer")]
    try:
        t0 = [0.0]

        def ready() -> None:
            start.wait(timeout=timeout)
            t0[0] = time.perf_counter()
        raw = protocol_journey(url, Path(path), pages, "Predictions file", "Upload a file", timeout, ready)
        steps = {name: Step(seconds, seconds, cpu, received / 2**20, charts, cpu_of="client")
                 for name, (seconds, received, charts, cpu) in raw.items()}
        results.put((key, (time.perf_counter() - t0[0], steps)))
    except Exception as exc:
        results.put((key, (float("nan"), {f"failed: {exc}": Step(0.0, 0.0, 0.0, 0.0)})))
        print(f"session {key}: {exc}", file=sys.stderr)


def journey(page, path: str, received: list) -> dict:
    """Upload → Data → Metrics → Curves: for each step its seconds, the seconds until the server's last message of the
    step arrived (the server's part: reading, computing, sending), the CPU seconds this session's browser (Chromium and
    the Playwright driver) spent on it, and the megabytes the server sent it over the websocket."""
    steps = {}
    sidebar = page.locator('[data-testid="stSidebar"]')
    # each page's heading, and the element that ends it
    for name, ready, last in (("Data", "Task and roles", ("heading", "Preview")),
                              ("Metrics", "All models", ("button", "Metrics CSV")),
                              ("Curves", "Threshold explorer", ("button", "Gain/lift table CSV"))):
        t, cpu, sent = time.perf_counter(), tree_cpu_s(os.getpid()), received[0]
        if name == "Data":
            upload_predictions(page, path)   # the journeys' way (the Data page has a second uploader, for settings)
            # read when the sidebar names it ("Active: …"): the uploader shows the name while the bytes still travel,
            # and a page already showing a file has its "Task and roles" heading before the new one is read
            sidebar.get_by_text(Path(path).name).wait_for()
        else:
            sidebar.get_by_role("link", name=name).click()
        page.get_by_role("heading", name=ready).wait_for()
        wait_drawn(page, last)
        # Still this session's file ("Active: load_3.csv"): a session reset under load (seen: a tab that came back as a
        # new session on the default sample, whose Curves page then counted as a fast step) fails instead.
        if not sidebar.get_by_text(f"Active: {Path(path).name}").count():
            raise RuntimeError(f"{name}: the page no longer shows {Path(path).name} (the session was reset)")
        steps[name] = Step(time.perf_counter() - t, max(received[1] - t, 0.0), tree_cpu_s(os.getpid()) - cpu,
                           (received[0] - sent) / 2**20, page.locator(".js-plotly-plot").count())
    return steps


@dataclass
class Step:
    seconds: float
    served_s: float     # from the click to the server's last message of the step
    browser_cpu_s: float
    received_mb: float
    charts: int = 0     # Plotly charts drawn when the step ended (a Curves step without its 12 is suspect)
    cpu_of: str = "browser"     # or "client": the protocol client's, which draws nothing

    def __str__(self) -> str:
        served = f"served {self.served_s:4.1f} s, " if self.cpu_of == "browser" else ""
        return (f"{self.seconds:5.1f} s ({served}{self.cpu_of} CPU {self.browser_cpu_s:4.1f} s, {self.received_mb:5.2f} MB sent"
                + (f", {self.charts} charts)" if self.charts else ")"))


def run(url: str, files: list[Path], nice: int = 0, cpus: set[int] | None = None,
        client: str = "chromium") -> list[tuple[float, dict]]:
    ctx = multiprocessing.get_context("spawn")
    start, results = ctx.Barrier(len(files)), ctx.Queue()
    target = protocol_session if client == "protocol" else session
    procs = [ctx.Process(target=target, args=(url, str(f), i, start, results, nice, cpus))
             for i, f in enumerate(files)]
    for proc in procs:
        proc.start()
    out = dict(results.get(timeout=3600) for _ in procs)
    for proc in procs:
        proc.join()
    return [out[i] for i in range(len(files))]


def served(steps: dict) -> float:
    return sum(step.served_s for step in steps.values())


def steps_text(steps: dict) -> str:
    return " · ".join(f"{name} {step}" for name, step in steps.items())


def computed(log: Path, since: int) -> tuple[Counter, float, int]:
    """How many results of each kind the server computed since byte ``since`` of its log (ui/store.py writes a
    line per computation when ASSESS_SHARED_LOG is set), the CPU seconds of the outermost ones (the work done once
    for every session holding the file: a nested computation's CPU is inside its caller's), and the log's size now."""
    text = log.read_bytes()
    lines = [line for line in text[since:].decode(errors="replace").splitlines()
             if line.startswith("assess.shared computed ")]
    kinds = Counter(line.split()[2] for line in lines)
    shared_cpu = sum(float(line.split(", cpu ")[1].split()[0]) for line in lines
                     if ", cpu " in line and not line.endswith(" nested"))
    return kinds, shared_cpu, len(text)


def counts_text(kinds: Counter) -> str:
    return ", ".join(f"{kind} ×{n}" for kind, n in sorted(kinds.items())) or "nothing"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=8)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--same", action="store_true", help="every session uploads the same bytes")
    parser.add_argument("--ttl", type=int, default=60,
                        help="the server's disconnected-session TTL, seconds (as in .streamlit/config.toml)")
    parser.add_argument("--idle", type=int, default=600,
                        help="seconds an unused result is kept (ASSESS_RESULTS_IDLE_S; its default)")
    parser.add_argument("--after", type=int, default=125,
                        help="seconds to watch the server's memory after the last session closed")
    parser.add_argument("--nice", type=int, default=0,
                        help="run the browsers at this niceness (19: the server goes first, as when every browser is "
                             "on its own computer; the alone session gets the same)")
    parser.add_argument("--pin", action="store_true",
                        help="the server on CPU 0 and every browser (Chromium, the Playwright driver) on the other "
                             "CPUs, in every phase: the server's own speed, as when the browsers are on their own "
                             "computers")
    parser.add_argument("--client", choices=["chromium", "protocol"], default="chromium",
                        help="chromium: real browsers on this machine; protocol: Streamlit's protocol without drawing "
                             "(browsers on their own computers; bench/protocol_client.py)")
    parser.add_argument("--no-alone", action="store_true", help="skip the single session before the concurrent ones")
    parser.add_argument("--profile", metavar="FILE", help="run the server under py-spy, stacks to FILE (collapsed)")
    parser.add_argument("--log", metavar="FILE", help="the server's output to FILE")
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
        warm_file = Path(tmp) / "warm_up.csv"            # 1,000 rows: every page's modules imported, no big data
        make_file(warm_file, 1_000, seed=20_000)
        mb = first_alone.stat().st_size / 2**20
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        log = Path(args.log or Path(tmp) / "server.log")
        os.environ["ASSESS_SHARED_LOG"] = "1"           # the server counts its computations (ui/store.py)
        server_cpus, browser_cpus = ({0}, set(range(1, os.cpu_count() or 2))) if args.pin else (None, None)
        if args.pin:
            os.sched_setaffinity(0, browser_cpus)    # this script (the sessions' parent) beside the browsers
        proc = start_app(port, args.ttl, args.profile, str(log), args.idle, server_cpus)
        url = f"http://localhost:{port}"
        time.sleep(2)
        idle = tree_rss_mb(proc.pid)
        phase = ["warm-up"]
        peaks = {phase[0]: idle}
        sampling = threading.Event()

        def sample() -> None:
            while not sampling.is_set():
                peaks[phase[0]] = max(peaks.get(phase[0], 0.0), tree_rss_mb(proc.pid))
                time.sleep(0.2)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        loads, kinds, shared_cpu = [], {}, {}
        try:
            run(url, [warm_file], cpus=browser_cpus, client=args.client)
            warm = tree_rss_mb(proc.pid)
            _, _, offset = computed(log, 0)
            alone = None
            server_cpu = []
            if not args.no_alone:
                phase[0] = "alone"
                cpu = tree_cpu_s(proc.pid)
                alone = run(url, [first_alone], args.nice, browser_cpus, args.client)[0]
                server_cpu.append(tree_cpu_s(proc.pid) - cpu)
                loads.append(os.getloadavg()[0])
                kinds["alone"], shared_cpu["alone"], offset = computed(log, offset)
            phase[0] = "together"
            cpu = tree_cpu_s(proc.pid)
            together = run(url, files, args.nice, browser_cpus, args.client)
            server_cpu.append(tree_cpu_s(proc.pid) - cpu)
            loads.append(os.getloadavg()[0])
            kinds["together"], shared_cpu["together"], offset = computed(log, offset)
            sampling.set()
            closed = time.perf_counter()
            timeline = []
            while time.perf_counter() - closed < args.after:
                time.sleep(5)
                timeline.append((time.perf_counter() - closed, tree_rss_mb(proc.pid)))
        finally:
            os.killpg(proc.pid, signal.SIGINT if args.profile else signal.SIGTERM)   # py-spy writes on SIGINT
            if args.profile:
                proc.wait(timeout=120)
            proc.wait(timeout=60)
        # a page that ended on Streamlit's error screen logs its traceback (a session then fails to finish its step)
        server_log = log.read_text(errors="replace")
        tracebacks = server_log.count("Traceback (most recent call last)")
        first_traceback = server_log[server_log.find("Traceback"):][:3000] if tracebacks else ""
    print(f"{args.sessions} sessions, {args.rows:,} rows × 3 models ({'same file' if args.same else 'own files'}, "
          f"{mb:,.0f} MB each when written{'; server on CPU 0, browsers on the others' if args.pin else ''}"
          f"{'; sessions by the protocol client, no browser' if args.client == 'protocol' else ''}); "
          f"load average (1 min) after each phase: "
          + ", ".join(f"{x:.1f}" for x in loads) + f" on {os.cpu_count()} CPUs")
    if alone is not None:
        print(f"one session alone: {alone[0]:6.1f} s (upload → Data → Metrics → Curves drawn: {steps_text(alone[1])})")
    for i, (total, steps) in enumerate(together):
        ratio = f" = {total / alone[0]:4.2f} × alone" if alone else ""
        print(f"session {i + 1}: {total:6.1f} s{ratio}  ({steps_text(steps)})")
    if alone is not None:
        served_alone = served(alone[1])
        print(f"served (the server's part: each step from the click to its last message, summed): alone "
              f"{served_alone:.1f} s; together " + ", ".join(f"{served(steps):.1f}" for _, steps in together)
              + " s = " + ", ".join(f"{served(steps) / served_alone:.2f}" for _, steps in together) + " × alone")
    browser_cpu = sum(step.browser_cpu_s for _, steps in together for step in steps.values())
    floor = (browser_cpu + server_cpu[-1]) / (os.cpu_count() or 1)
    print(f"CPU floor of the together phase: ({'browsers' if args.client == 'chromium' else 'clients'} {browser_cpu:,.1f} s + server {server_cpu[-1]:,.1f} s) / "
          f"{os.cpu_count()} cores = {floor:,.1f} s" + (f" = {floor / alone[0]:.2f} × alone" if alone else "")
          + (f" (browsers at niceness {args.nice})" if args.nice else ""))
    print("server CPU: " + " and ".join(f"{c:,.1f} s" for c in server_cpu) + " (alone, then all sessions together; "
          f"each session's {'browser' if args.client == 'chromium' else 'client'} CPU is in its line)")
    for name, kind in kinds.items():
        print(f"server computed ({name}): {counts_text(kind)}")
    # The server's CPU outside the shared store's computations is each session's own work (its page scripts, tables
    # and figures): with W the shared work and p a session's own, N sessions stay within 2× of one when
    # W + N·p <= 2·(W + p).
    phases = (["alone"] if alone is not None else []) + ["together"]
    for name, cpu_s, sessions in zip(phases, server_cpu, [1] * (alone is not None) + [args.sessions]):
        own = (cpu_s - shared_cpu[name]) / sessions
        print(f"server CPU ({name}): {cpu_s:,.1f} s = shared computations {shared_cpu[name]:,.1f} s + "
              f"{sessions} × {own:,.2f} s per session")
    print(f"server RSS: idle {idle:,.0f} MB, warm (after a 1,000-row session: every page's modules loaded) "
          f"{warm:,.0f} MB; peak " + ", ".join(f"{name} {mb_:,.0f} MB" for name, mb_ in peaks.items()))
    marks = [next(((t, m) for t, m in timeline if t >= mark), None) for mark in (30, 60, 120)]
    print("server RSS after the last session closed (its tab; Streamlit keeps a session for its TTL, "
          f"{args.ttl} s here): " + ", ".join(f"{t:.0f} s {m:,.0f} MB" for t, m in filter(None, marks)))
    print("  every 5 s: " + ", ".join(f"{m:,.0f}" for _, m in timeline))
    print(f"server tracebacks: {tracebacks}" + (f"; the first:\n{first_traceback}" if tracebacks else ""))


if __name__ == "__main__":
    main()
