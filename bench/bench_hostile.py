"""Wall time and peak memory of ``python -m assess inspect`` on each hostile file of issue 15 (`tests.hostile_files`).

Run from a checkout: ``python bench/bench_hostile.py [--repo OTHER_CHECKOUT]``; ``--repo`` measures another checkout
(e.g. the main branch, for before/after figures) with the same files. Each file runs in its own process under
``/usr/bin/time -v`` with a time limit, so a file that balloons is reported, not waited for. Not a test: timings
and resident memory belong here.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests import hostile_files as hostile  # noqa: E402 - the generator lives with the tests

MAKERS = [hostile.gzip_bomb, hostile.xlsx_wide_dimension, lambda: hostile.xlsx_huge_header(60_000_000),
          hostile.csv_single_long_line, hostile.csv_many_columns, hostile.csv_beyond_int64, hostile.csv_big_score,
          *hostile.READER_CASES]


def measure(path: Path, repo: Path, timeout: float) -> tuple[str, float, float, str]:
    cmd = ["/usr/bin/time", "-v", sys.executable, "-m", "assess", "inspect", str(path)]
    try:
        proc = subprocess.run(cmd, cwd=repo, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", timeout, float("nan"), ""
    report = proc.stderr
    seconds = re.search(r"Elapsed \(wall clock\) time .*: (?:(\d+):)?(\d+):([\d.]+)", report)
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", report)
    wall = (int(seconds.group(1) or 0) * 3600 + int(seconds.group(2)) * 60 + float(seconds.group(3)))
    first = next((ln for ln in report.splitlines() if ln.startswith(("error", "internal"))), "")
    status = re.search(r"Exit status: (\d+)", report)
    return status.group(1) if status else "?", wall, int(rss.group(1)) / 1024, first


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", type=Path, default=ROOT, help="checkout whose `assess` is measured")
    parser.add_argument("--timeout", type=float, default=180)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        print(f"{'file':<22}{'bytes':>12}{'exit':>8}{'seconds':>9}{'peak MB':>9}  first line (120 chars)")
        for maker in MAKERS:
            name, data = maker()
            path = Path(tmp) / name
            path.write_bytes(data)
            status, wall, rss, first = measure(path, args.repo, args.timeout)
            print(f"{name:<22}{len(data):>12,}{status:>8}{wall:>9.1f}{rss:>9.0f}  {first[:120]}")
            path.unlink()


if __name__ == "__main__":
    main()
