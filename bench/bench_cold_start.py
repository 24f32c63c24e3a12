"""Command-line cold start: ``python -m assess --help``, ``inspect`` and ``metrics`` on the breast-cancer sample
(issue 14: "well under a second"), and where the start-up goes.

Run: ``PYTHONPATH=. .venv/bin/python bench/bench_cold_start.py`` (add ``--repeat 9`` for steadier medians, and
``--against REV`` to time that git revision's package in the same loop, e.g. the commit before a change).

Each figure is the median wall time (and CPU time, less disturbed by the other processes of a loaded machine) of
``--repeat`` fresh interpreters, printed beside the load average and as a ratio to ``python -c "import pandas"``
measured in the same loop (the floor of any command that reads a table: numpy, pandas and the pyarrow pandas loads).
Two bytecode modes:

- *cached*: the package's compiled bytecode is kept (in a temporary ``PYTHONPYCACHEPREFIX``), as for an installed
  package or any checkout after its first run;
- *uncached*: ``PYTHONDONTWRITEBYTECODE=1`` on a copy of the package without ``__pycache__``, so every run compiles
  the package's own modules from source (what a sandbox with that variable set measures when nothing compiled the
  checkout; pip-installed dependencies keep their bytecode).

Then the top import costs of one ``inspect`` (``python -X importtime``, cached mode), summed per top-level package and
listed per module, and the modules ``inspect`` loads beyond ``import pandas``. Not a test: timings belong here.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "assets" / "samples" / "breast_cancer_binary.csv"
COMMANDS = {
    "python -c pass": ["-c", "pass"],
    "import pandas": ["-c", "import pandas"],
    "--help": ["-m", "assess", "--help"],
    "inspect": ["-m", "assess", "inspect", str(SAMPLE)],
    "metrics": ["-m", "assess", "metrics", str(SAMPLE)],
}


def _env(cache_dir: str | None, source: Path = ROOT) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX")}
    env["PYTHONPATH"] = str(source)
    if cache_dir is None:
        env["PYTHONDONTWRITEBYTECODE"] = "1"  # (an empty prefix would also hide the dependencies' bytecode)
    else:
        env["PYTHONPYCACHEPREFIX"] = cache_dir
    return env


def _wall(args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU (user + system) seconds of one fresh interpreter running ``args``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, *args], env=env, cwd=env["PYTHONPATH"], check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _medians(runs: dict[str, tuple[list[str], dict[str, str]]], repeat: int) -> dict[str, tuple[float, float]]:
    """Median wall and CPU time per run (name: (args, environment)); the runs interleave so that a burst of load falls
    on all alike."""
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in runs}
    for _ in range(repeat):
        for name, (args, env) in runs.items():
            times[name].append(_wall(args, env))
    return {name: (statistics.median(w for w, _ in values), statistics.median(c for _, c in values))
            for name, values in times.items()}


def _importtime(env: dict[str, str]) -> list[tuple[int, int, int, str]]:
    """(self µs, cumulative µs, depth, module) per import of one ``inspect``."""
    err = subprocess.run([sys.executable, "-X", "importtime", *COMMANDS["inspect"]], env=env, cwd=env["PYTHONPATH"],
                         capture_output=True, text=True, check=True).stderr
    rows = []
    for line in err.splitlines():
        match = re.match(r"import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)", line)
        if match:
            rows.append((int(match[1]), int(match[2]), len(match[3]) // 2, match[4]))
    return rows


def _modules(args: list[str], env: dict[str, str]) -> set[str]:
    code = ("import contextlib, io, runpy, sys\n"
            f"sys.argv = {['assess', *args]!r}\n"
            "try:\n"
            "    with contextlib.redirect_stdout(io.StringIO()):\n"
            "        runpy.run_module('assess', run_name='__main__', alter_sys=True)\n"
            "except SystemExit:\n"
            "    pass\n"
            "print(' '.join(sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=env["PYTHONPATH"], capture_output=True, text=True,
                         check=True)
    return set(out.stdout.split())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--against", metavar="REV", help="also time --help, inspect and metrics of the package at "
                                                         "this git revision (e.g. HEAD~5), in the same loop")
    options = parser.parse_args()
    repeat = options.repeat
    print(f"cores: {os.cpu_count()}; median of {repeat} fresh interpreters per figure")
    with tempfile.TemporaryDirectory(prefix="assess-pyc-") as cache_dir:
        cached = _env(cache_dir)
        source = Path(cache_dir) / "source"  # the package without any __pycache__, for the uncached runs
        shutil.copytree(ROOT / "assess", source / "assess", ignore=shutil.ignore_patterns("__pycache__"))
        old = Path(cache_dir) / "against"  # --against: that revision's package, exported beside this one
        other = {}
        if options.against:
            old.mkdir()
            archive = subprocess.run(["git", "-C", str(ROOT), "archive", options.against, "assess"], check=True,
                                     capture_output=True).stdout
            subprocess.run(["tar", "-x", "-C", str(old)], input=archive, check=True)
            other = {f"{name} ({options.against})": COMMANDS[name] for name in ("--help", "inspect", "metrics")}
        for args in COMMANDS.values():  # fill the bytecode cache
            _wall(args, cached)
        for args in other.values():
            _wall(args, _env(cache_dir, old))
        for mode, env, old_env in (("cached", cached, _env(cache_dir, old)),
                                   ("uncached", _env(None, source), _env(None, old))):
            load = os.getloadavg()
            medians = _medians({name: (args, env) for name, args in COMMANDS.items()}
                               | {name: (args, old_env) for name, args in other.items()}, repeat)
            floor = medians["import pandas"][0]
            print(f"\n{mode} bytecode (load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; "
                  f"after: {os.getloadavg()[0]:.2f})")
            for name, (seconds, cpu) in medians.items():
                print(f"  {name:<16} {seconds:6.3f} s wall ({seconds / floor:4.2f} x import pandas)   "
                      f"{cpu:6.3f} s CPU")

        rows = _importtime(cached)
        per_package: Counter[str] = Counter()
        for self_us, _, _, name in rows:
            per_package[name.split(".")[0]] += self_us
        total = sum(per_package.values())
        print(f"\nimports of one inspect (cached, -X importtime, which inflates them): {total / 1e6:.3f} s")
        for name, micros in per_package.most_common(8):
            print(f"  {micros / 1e6:6.3f} s  {name}")
        print("top modules by own time:")
        for self_us, cum_us, _, name in sorted(rows, reverse=True)[:12]:
            print(f"  {self_us / 1e6:6.3f} s own  {cum_us / 1e6:6.3f} s with imports  {name}")
        pandas_only = set(subprocess.run([sys.executable, "-c", "import pandas, sys; print(' '.join(sys.modules))"],
                                         env=cached, capture_output=True, text=True, check=True).stdout.split())
        loaded = _modules(["inspect", str(SAMPLE)], cached)
        own = sorted(m for m in loaded if m.split(".")[0] == "assess")
        beyond = sorted(m for m in loaded - pandas_only if m.split(".")[0] != "assess")
        print(f"inspect loads {len(own)} modules of assess and {len(beyond)} beyond pandas: {' '.join(beyond)}")
        print(f"--help loads {len(_modules(['--help'], cached))} modules in all")


if __name__ == "__main__":
    main()
