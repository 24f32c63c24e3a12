"""`report FILE --engine duckdb`: the report fed by the engine's metric reports and paired tests.

Oracle: the in-memory report of the same file (its numbers are `metrics` and `compare`, checked against
scikit-learn, SciPy and statsmodels elsewhere): every metric value and every analytic interval equal to 1e-12, the
paired tests' JSON equal, the tests that need rows listed as skipped with the reason, the whole file's row count.
"""

from __future__ import annotations

import json
import zipfile

import pytest

from tests.engine.test_compare import assert_same_json
from tests.engine.test_engine import SAMPLE, run_cli

pytest.importorskip("duckdb")


def _report(tmp_path, engine: str, *extra) -> dict:
    out = tmp_path / f"{engine}.zip"
    code, _, err = run_cli("report", SAMPLE, "--engine", engine, "--out", out, *extra)
    assert code == 0, err
    with zipfile.ZipFile(out) as z:
        return json.loads(z.read("report.json"))


def test_the_out_of_core_report_has_the_in_memory_numbers(tmp_path):
    memory = _report(tmp_path, "memory")
    duck = _report(tmp_path, "duckdb")
    assert duck["rows"] == memory["rows"] == 3 * 569
    assert duck["task"] == memory["task"] and duck["models"] == memory["models"]
    for model, keys in memory["metrics"]["models"].items():
        for key, m in keys.items():
            d = duck["metrics"]["models"][model][key]
            assert d["value"] == pytest.approx(m["value"], rel=1e-12, nan_ok=True) if m["value"] is not None \
                else d["value"] is None, (model, key)
            if key not in ("average_precision", "pr_auc", "ks_statistic", "log_loss", "brier_score"):
                # analytic intervals and the label metrics' bootstrap: the same numbers (score metrics' bootstrap:
                # other draws, see tests/engine/test_bootstrap.py)
                for part in ("low", "high"):
                    assert (d[part] is None) == (m[part] is None), (model, key, part)
                    if m[part] is not None:
                        assert d[part] == pytest.approx(m[part], rel=1e-12), (model, key, part)
    ran = {t["test"]: t for t in memory["tests"]}
    for test in duck["tests"]:
        assert_same_json(ran[test["test"]], test)
    assert [t["test"] for t in duck["tests"]] == [t for t in ran if t != "paired_bootstrap"]
    assert "--engine memory" in duck["skipped_tests"]["paired_bootstrap"]
    assert duck["verdict"] == memory["verdict"] and duck["recommendation"] == memory["recommendation"]


def test_the_html_report_says_what_was_left_out(tmp_path):
    out = tmp_path / "report.html"
    code, _, err = run_cli("report", SAMPLE, "--engine", "duckdb", "--out", out, "--tests", "mcnemar")
    assert code == 0, err
    html = out.read_text(encoding="utf-8")
    assert "Assessed out of core (duckdb, 1,707 rows)" in html
    assert "Charts and the data controls need the rows" in html
    assert "No weak-slice search: it needs the file" in html


def test_the_out_of_core_report_refuses_other_tasks_clearly(tmp_path):
    code, _, err = run_cli("report", SAMPLE.with_name("iris_clustering.csv"), "--engine", "duckdb", "--out",
                           tmp_path / "r.zip")
    assert code != 0 and "clustering" in err and "--engine memory" in err


def test_an_out_of_core_forecast_report_has_the_engines_metrics(tmp_path):
    out = tmp_path / "report.html"
    code, _, err = run_cli("report", SAMPLE.with_name("monthly_forecasts.csv"), "--engine", "duckdb", "--out", out)
    assert code == 0, err
    html = out.read_text(encoding="utf-8")
    assert "Assessed out of core (duckdb, 2,592 rows)" in html and "MASE (vs naive)" in html
