"""No file runs the command line away (issue 31, item 5): a file whose reading would need more memory than the
command may use is refused before it is read, with the figures, and a large file's reading is followed on stderr.

The bombs are made here, a few MB holding GBs of repetitive CSV (`tests.hostile_files.write_gzip_bomb` /
`write_zip_bomb`). Each refusal runs the command line in a child process, whose peak resident memory the kernel
reports (getrusage of the children of a small watcher process, so no earlier test's child counts); the child's
address space is also capped, so a regression fails with a MemoryError instead of taking the machine's memory.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from assess.cli import main
from tests.hostile_files import BOMB_HEADER, BOMB_LINE, write_gzip_bomb, write_zip_bomb

ROOT = Path(__file__).resolve().parents[2]
#: The interpreter with pandas, pyarrow and scipy imported takes ~150 MB; a refusal may add the scan's steps.
REFUSAL_PEAK_MB = 400
#: A safety net, not the measure: beyond it the child fails with MemoryError rather than swap the machine.
ADDRESS_SPACE = 6 * 2**30

_WATCHER = """
import json, resource, subprocess, sys
cap = int(sys.argv[1])
limit = lambda: resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
run = subprocess.run(sys.argv[2:], capture_output=True, text=True, preexec_fn=limit)
peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss   # KB on Linux
print(json.dumps({"code": run.returncode, "err": run.stderr, "peak_mb": peak_kb / 1024}))
"""


def run_watched(*argv, env=None) -> dict:
    """``python -m assess ARGV`` in a child: its exit status, stderr and peak resident memory in MB."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith("ASSESS_")} | (env or {})
    done = subprocess.run([sys.executable, "-c", _WATCHER, str(ADDRESS_SPACE), sys.executable, "-m", "assess", *argv],
                          capture_output=True, text=True, cwd=ROOT, env=environ, timeout=600)
    return json.loads(done.stdout)


def test_a_gzip_bomb_is_refused_with_the_figures_in_little_memory(tmp_path):
    bomb = tmp_path / "x.csv.gz"
    unpacked = write_gzip_bomb(bomb, blocks=64)               # 4 GiB of 9-byte lines in ~8 MB
    assert bomb.stat().st_size < 10 * 2**20 and unpacked > 4 * 10**9
    run = run_watched("metrics", str(bomb), env={"ASSESS_MAX_MEMORY_MB": "2048"})
    assert run["code"] == 2, run["err"]
    # hand-worked: 2 GB allows at most 2**31 / (9 + 2 × 56) bytes per line ≈ 17.7 million lines ≈ 160 MB unpacked
    # before the estimate is over it; a gzip's size is known only by unpacking it, so the figures are lower bounds
    err = run["err"].splitlines()[-1]
    assert err.startswith("error: x.csv.gz unpacks to at least "), err
    unpacked_mb, lines = float(err.split()[6]), int(err.split("(at least ")[1].split()[0].replace(",", ""))
    assert 150 <= unpacked_mb <= 170 and 16.5e6 < lines < 18e6, err
    assert err.endswith(" lines × 2 columns); reading it needs more than the 2.0 GB this command may use "
                        "(ASSESS_MAX_MEMORY_MB): raise it with --max-memory-mb or ASSESS_MAX_MEMORY_MB"), err
    assert run["peak_mb"] < REFUSAL_PEAK_MB, run


def test_a_zip_bomb_is_refused_from_its_declared_size_in_little_memory(tmp_path):
    bomb = tmp_path / "x.zip"
    unpacked = write_zip_bomb(bomb, blocks=16)                # 1 GiB in ~2 MB
    assert bomb.stat().st_size < 3 * 2**20 and unpacked > 10**9
    run = run_watched("inspect", str(bomb), env={"ASSESS_MAX_MEMORY_MB": "4096"})
    assert run["code"] == 2, run["err"]
    lines = (unpacked - len(BOMB_HEADER)) // len(BOMB_LINE) + 1
    need_gb = (unpacked + 56 * 2 * lines) / 2**30                       # 1 GiB + 56 bytes × 2 cells × 119 M lines
    err = run["err"]
    assert err.startswith("error: x.zip unpacks to 1,024 MB (about "), err   # the size its directory declares
    estimated = int(err.split("(about ")[1].split()[0].replace(",", ""))   # from the first MB's bytes per line
    assert abs(estimated - lines) < lines / 1000, (estimated, lines)
    assert f"reading it needs about {need_gb:.1f} GB, over the 4.0 GB this command may use (ASSESS_MAX_MEMORY_MB)" \
        in run["err"]
    assert run["peak_mb"] < REFUSAL_PEAK_MB, run


#: 50,000 rows of a binary file, 342 KB: reading it needs 342 KB + 56 bytes × 50,001 lines × 2 columns = 5.7 MB
SMALL = b"y_true,score\n" + b"".join(b"%d,0.%02d\n" % (i % 2, i % 97) for i in range(50_000))
SMALL_FIGURES = "unpacks to 342 KB (50,001 lines × 2 columns)"


def _csv_gz(path: Path) -> Path:
    import gzip

    assert round(len(SMALL) / 1024) == 342 and SMALL.count(b"\n") == 50_001
    assert round((len(SMALL) + 56 * 50_001 * 2) / 2**20) == 6
    path.write_bytes(gzip.compress(SMALL))
    return path


def test_a_file_under_the_limit_is_read_and_the_option_raises_the_limit(tmp_path, capsys):
    path = _csv_gz(tmp_path / "p.csv.gz")
    assert main(["inspect", str(path), "--max-memory-mb", "2"]) == 2
    assert capsys.readouterr().err == (f"error: p.csv.gz {SMALL_FIGURES}; reading it needs about 6 MB, over the 2 MB "
                                       "this command may use (--max-memory-mb): raise it with --max-memory-mb or "
                                       "ASSESS_MAX_MEMORY_MB\n")
    assert main(["inspect", str(path), "--max-memory-mb", "64"]) == 0
    assert json.loads(capsys.readouterr().out)["rows"] == 50_000


def test_the_environment_variable_sets_the_limit_and_the_flag_wins(tmp_path, capsys, monkeypatch):
    path = _csv_gz(tmp_path / "p.csv.gz")
    monkeypatch.setenv("ASSESS_MAX_MEMORY_MB", "2")
    assert main(["inspect", str(path)]) == 2
    assert "over the 2 MB this command may use (ASSESS_MAX_MEMORY_MB)" in capsys.readouterr().err
    assert main(["inspect", str(path), "--max-memory-mb", "64"]) == 0


def test_the_default_limit_is_half_the_memory_available(tmp_path, capsys, monkeypatch):
    path = _csv_gz(tmp_path / "p.csv.gz")
    monkeypatch.delenv("ASSESS_MAX_MEMORY_MB", raising=False)
    monkeypatch.setattr("assess.cli.engine._available_bytes", lambda: 8 * 2**20)
    assert main(["inspect", str(path)]) == 2
    assert "over the 4 MB this command may use (half the memory available)" in capsys.readouterr().err
    monkeypatch.setattr("assess.cli.engine._available_bytes", lambda: 16 * 2**20)
    assert main(["inspect", str(path)]) == 0


def test_help_names_the_limit_option(capsys):
    with pytest.raises(SystemExit):
        main(["metrics", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--max-memory-mb MB memory this command may use to read and assess FILE (default: half the memory " \
           "available, or ASSESS_MAX_MEMORY_MB)" in text


def test_reading_a_large_file_is_followed_on_stderr_unless_quiet(tmp_path, capsys, monkeypatch):
    path = _csv_gz(tmp_path / "p.csv.gz")
    assert main(["inspect", str(path)]) == 0
    assert capsys.readouterr().err == ""                      # a small file reads in silence
    monkeypatch.setattr("assess.cli.common.LARGE_FILE", 100_000, raising=False)   # 342 KB is "large" now
    monkeypatch.setattr("assess.cli.engine.LARGE_FILE", 100_000, raising=False)
    assert main(["inspect", str(path)]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("p.csv.gz: measuring what it holds before reading it: 100 % (")
    assert err[1] == f"p.csv.gz {SMALL_FIGURES}; reading it takes about 6 MB of memory"
    assert err[2].startswith("p.csv.gz: reading: ") and err[-2].startswith("p.csv.gz: reading: 100 % (")
    assert err[-1].startswith("p.csv.gz: read 50,000 rows × 2 columns in ")
    assert err[-1].endswith(" s; recognising the columns and checking them")
    assert main(["inspect", str(path), "--quiet"]) == 0
    assert capsys.readouterr().err == ""


def test_compare_measures_its_file_like_every_command_and_reads_it_once(tmp_path, capsys, monkeypatch):
    # compare read its file a first time under the app's caps (200 MB unpacked, unmeasured), then again
    import assess.cli.common as common
    import assess.cli.compare as compare_cli

    path = _csv_gz(tmp_path / "p.csv.gz")
    assert main(["compare", str(path), "--test", "mcnemar", "--max-memory-mb", "2"]) == 2
    assert capsys.readouterr().err.startswith(f"error: p.csv.gz {SMALL_FIGURES}; reading it needs about 6 MB, over ")
    calls = []
    real = common.read_table
    counted = lambda *a, **kw: calls.append(a) or real(*a, **kw)   # noqa: E731
    monkeypatch.setattr(common, "read_table", counted)
    monkeypatch.setattr(compare_cli, "read_table", counted, raising=False)
    sample = ROOT / "assets" / "samples" / "breast_cancer_binary.csv"
    assert main(["compare", str(sample), "--test", "mcnemar"]) == 0
    assert len(calls) == 1


def test_a_long_step_that_cannot_count_its_work_is_announced_unless_quiet(tmp_path, capsys, monkeypatch):
    # a step with no progress of its own (one metric over 1,500 classes, one library call) stands in as a sleep
    import time

    import assess.cli.metrics as metrics_cli

    real = metrics_cli.compute_metrics
    monkeypatch.setattr(metrics_cli, "compute_metrics", lambda *a, **kw: time.sleep(1.0) or real(*a, **kw))
    monkeypatch.setattr("assess.cli.progress.QUIET_SECONDS", 0.2, raising=False)
    path = tmp_path / "p.csv"
    path.write_bytes(SMALL)
    assert main(["metrics", str(path), "--engine", "memory"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err and err[0].startswith("p.csv: still working: computing the metrics (")
    assert main(["metrics", str(path), "--engine", "memory", "--quiet"]) == 0
    assert capsys.readouterr().err == ""


def test_every_metric_of_a_large_file_is_followed_model_by_model(tmp_path, capsys, monkeypatch):
    path = tmp_path / "p.csv"
    path.write_bytes(SMALL)
    monkeypatch.setattr("assess.cli.common.LARGE_FILE", 100_000, raising=False)   # 342 KB, an 800 KB frame: "large" now
    monkeypatch.setattr("assess.cli.engine.LARGE_FILE", 100_000, raising=False)
    assert main(["metrics", str(path), "--engine", "memory"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[-1].startswith("p.csv: metrics of 1 model(s): 100 % ("), err


def test_a_device_or_a_pipe_is_refused_before_it_is_read():
    # read whole, /dev/zero never ends: the old code grew until memory ran out (here: the child's address-space cap)
    run = run_watched("inspect", "/dev/zero")
    assert run["code"] == 2, run["err"]
    assert run["err"] == ("error: /dev/zero: is not a regular file (a device, a pipe or a socket), so what it holds "
                          "cannot be measured before it is read; save the predictions to a file\n")
    assert run["peak_mb"] < REFUSAL_PEAK_MB, run


def test_the_report_follows_its_stages_unless_quiet(tmp_path, capsys):
    sample = ROOT / "assets" / "samples" / "breast_cancer_binary.csv"
    out = tmp_path / "r.zip"
    assert main(["report", str(sample), "--out", str(out), "--resamples", "100"]) == 0
    assert capsys.readouterr().err.splitlines()[0].startswith("[  2%] metrics and their intervals (")
    assert main(["report", str(sample), "--out", str(out), "--resamples", "100", "--quiet"]) == 0
    assert capsys.readouterr().err == f"wrote {out} (ZIP)\n"
