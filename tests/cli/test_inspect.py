"""`python -m assess inspect`: JSON on stdout, one line on stderr and exit status 2 for bad input."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from assess.cli import main

ROOT = Path(__file__).resolve().parents[2]
BINARY = str(ROOT / "assets/samples/breast_cancer_binary.csv")


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_inspect_sample(capsys):
    code, out, err = run(capsys, "inspect", BINARY)
    doc = json.loads(out)
    assert code == 0 and err == ""
    assert (doc["task"], doc["positive"], doc["classes"], doc["models"]) == (
        "binary", "malignant", ["benign", "malignant"], ["logistic", "tree", "naive_bayes_3f"])
    assert {"role": "fold", "columns": ["fold"], "reason": "`fold` is the canonical name for this role"} in doc["roles"]
    assert doc["rows"] == 1707 and doc["problems"] == []


def test_inspect_overrides(capsys):
    code, out, _ = run(capsys, "inspect", BINARY, "--positive", "benign", "--class-order", "malignant", "benign")
    doc = json.loads(out)
    assert (doc["positive"], doc["positive_reason"], doc["classes"]) == ("benign", "set by you",
                                                                          ["malignant", "benign"])


def test_inspect_task_change_by_role(capsys, tmp_path):
    path = tmp_path / "p.csv"
    path.write_text("y_true,y_pred,amount\n1,1,3.5\n0,1,2.25\n1,0,7.75\n")
    assert json.loads(run(capsys, "inspect", str(path))[1])["task"] == "binary"
    assert json.loads(run(capsys, "inspect", str(path), "--y-true", "amount")[1])["task"] == "regression"


def test_blocking_problems_exit_2_with_json_and_one_line(capsys, tmp_path):
    path = tmp_path / "p.csv"
    path.write_text("y_true,y_pred\n1,1\n0,\n")
    code, out, err = run(capsys, "inspect", str(path))
    assert code == 2 and json.loads(out)["problems"][0]["code"] == "missing_values"
    assert err == "error: p.csv: column `y_pred` has 1 missing value (row 2) in the predicted label\n"


@pytest.mark.parametrize("content,message", [
    (b"", "error: bad.csv: is empty\n"),
    (b"a,b\n1,2\n", "error: bad.csv: no ground-truth column found"),
])
def test_unreadable_input_exits_2_with_one_line(capsys, tmp_path, content, message):
    path = tmp_path / "bad.csv"
    path.write_bytes(content)
    code, out, err = run(capsys, "inspect", str(path))
    assert code == 2 and out == "" and err.startswith(message) and err.count("\n") == 1


def test_real_process_exit_code_and_no_traceback(tmp_path):
    path = tmp_path / "x.parquet"
    path.write_bytes(b"\x80\x04K\x01.")  # a pickle named .parquet
    proc = subprocess.run([sys.executable, "-m", "assess", "inspect", str(path)], capture_output=True, text=True,
                          cwd=ROOT)
    assert proc.returncode == 2
    assert proc.stderr.startswith("error: x.parquet: looks like a pickle/joblib file")
    assert "Traceback" not in proc.stderr and proc.stdout == ""
