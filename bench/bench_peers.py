"""Our report against Evidently's preset report on the same files (issue 32's goal: ``report`` no slower than the
peer); prints the seconds of each and the ratio ours / peer, measured in one run.

    .venv/bin/python bench/bench_peers.py                         # the three files of issue 32
    .venv/bin/python bench/bench_peers.py --only binary --scale 0.1 --no-pdf
    .venv/bin/python bench/bench_peers.py --profile DIR           # also pyinstrument each of our HTML runs into DIR

The files, written once into ``--dir`` (default /tmp/assess-peers) and reused: a binary and a regression file of
1e6 rows per model and a 5-class file of 1e5 rows per model, two scikit-learn models each, long-format CSV, made by
`bench.bench_ci_speed.binary_file` / `regression_file` and `bench.bench_multiclass_ci.multiclass_file`.

Ours: ``python -m assess report FILE --out r.html`` and ``--out r.pdf`` (defaults: auto intervals, every suited test,
every chart). The peer: `bench/peer_evidently.py` — one Evidently ``ClassificationPreset`` / ``RegressionPreset``
report per model saved as HTML (Evidently computes no intervals and no tests). Every command runs in its own process,
reading the file and importing its libraries included; best of ``--repeats``.

Evidently lives in the benchmark's own virtualenv, ``bench/.peers-venv`` (git-ignored), made on first use with
``python -m venv`` and ``pip install evidently==0.7.23 'pandas<3'`` (Evidently does not yet accept pandas 3, which the
project uses); it is never a requirement of the project. When it cannot be made (no network, say), the comparison is
skipped with a message and our times are still printed. MLflow's ``evaluate`` is not compared: its install (MLflow
with its server, SQLAlchemy, Flask, …) is an order of magnitude larger and was left out.

The machine may be shared: each time is printed as wall seconds and, in brackets, the CPU seconds of the process and
the children it waited for (Chromium's print included), which other people's load does not inflate; each file's line
is printed as soon as it is measured, with the load average then.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_ci_speed import binary_file, regression_file  # noqa: E402
from bench.bench_multiclass_ci import multiclass_file  # noqa: E402

VENV = ROOT / "bench" / ".peers-venv"
PEER = ROOT / "bench" / "peer_evidently.py"
PINS = ["evidently==0.7.23", "pandas<3"]
FILES = {"binary": (binary_file, 1_000_000), "regression": (regression_file, 1_000_000),
         "multiclass": (multiclass_file, 100_000)}


def peer_python() -> Path | None:
    """The peer venv's interpreter, made on first use; None (with the reason printed) when it cannot be made."""
    python = VENV / "bin" / "python"
    if python.exists() and subprocess.run([python, "-c", "import evidently"], capture_output=True).returncode == 0:
        return python
    print(f"making the peer virtualenv {VENV} ({' '.join(PINS)}); this takes a minute or two", flush=True)
    try:
        subprocess.run([sys.executable, "-m", "venv", "--clear", str(VENV)], check=True, capture_output=True)
        subprocess.run([python, "-m", "pip", "install", "-q", *PINS], check=True, capture_output=True, timeout=900)
        return python
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as error:
        detail = getattr(error, "stderr", b"") or b""
        print(f"SKIPPED the Evidently comparison: its virtualenv could not be made ({error}; "
              f"{detail.decode(errors='replace').strip().splitlines()[-1:] or ''})")
        return None


def timed(args: list, env: dict | None = None) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of a command: the CPU time (user + system, of the process and the children it
    waited for — the PDF's Chromium included) does not grow with other people's load on a shared machine."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(args, cwd=ROOT, check=True, stdout=subprocess.DEVNULL, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def ours(path: Path, out: Path, profile: Path | None = None) -> tuple[float, float]:
    """Wall time of ``python -m assess report FILE --out OUT --quiet`` in a fresh process."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    head = [sys.executable, "-m", "assess"]
    if profile:          # pyinstrument installed outside the project's venv (see the brief): PYTHONPATH finds it
        env["PYTHONPATH"] += os.pathsep + os.environ.get("PYINSTRUMENT_PATH", "/work/tools/prof")
        head = [sys.executable, "-m", "pyinstrument", "-r", "text", "-o", str(profile), "-m", "assess"]
    return timed([*head, "report", str(path), "--out", str(out), "--quiet"], env)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", choices=list(FILES), default=list(FILES))
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every file's rows (quick runs)")
    parser.add_argument("--repeats", type=int, default=1, help="runs of each command; the best counts")
    parser.add_argument("--no-pdf", action="store_true", help="skip our PDF report")
    parser.add_argument("--no-peer", action="store_true", help="skip Evidently")
    parser.add_argument("--dir", type=Path, default=Path(tempfile.gettempdir()) / "assess-peers")
    parser.add_argument("--profile", type=Path, help="directory for a pyinstrument text profile of each HTML run")
    options = parser.parse_args()
    options.dir.mkdir(parents=True, exist_ok=True)
    python = None if options.no_peer else peer_python()
    print(f"{os.cpu_count()} cores; best of {options.repeats}; Evidently {'0.7.23' if python else 'not run'}; "
          "each line ends with the load average (1, 5, 15 min) when it was measured")
    print("  seconds: wall (CPU of the process and its children); ratios: ours / Evidently, wall (CPU); goal <= 1")
    print(f"  {'file':<11} {'rows/model':>10} {'ours html':>14} {'ours pdf':>14} {'Evidently':>14} "
          f"{'html/peer':>12} {'pdf/peer':>12}", flush=True)
    for task in options.only:
        make, rows = FILES[task]
        rows = int(rows * options.scale)
        path = options.dir / f"{task}-{rows}.csv"
        if not path.exists():
            make(path, rows)
        html, pdf, peer = [], [], []
        for _ in range(options.repeats):
            html.append(ours(path, options.dir / f"ours-{task}.html"))
            if not options.no_pdf:
                pdf.append(ours(path, options.dir / f"ours-{task}.pdf"))
            if python:
                peer.append(timed([python, PEER, path, task, options.dir]))
        line(task, rows, min(html), min(pdf) if pdf else None, min(peer) if peer else None)
        if options.profile:
            options.profile.mkdir(parents=True, exist_ok=True)
            ours(path, options.dir / f"ours-{task}.html", profile=options.profile / f"{task}-html.txt")


def line(task: str, rows: int, html: tuple, pdf: tuple | None, peer: tuple | None) -> None:
    """One file's figures: each time as wall seconds (CPU seconds), each ratio of wall times (of CPU times)."""
    def cell(x):
        return f"{x[0]:6.1f} ({x[1]:5.1f})" if x is not None else f"{'-':>14}"

    def ratio(x):
        return (f"{x[0] / peer[0]:5.2f} ({x[1] / peer[1]:4.2f})" if x is not None and peer else f"{'-':>12}")
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"  {task:<11} {rows:>10,} {cell(html)} {cell(pdf)} {cell(peer)} {ratio(html)} {ratio(pdf)}   load {load}",
          flush=True)


if __name__ == "__main__":
    main()
