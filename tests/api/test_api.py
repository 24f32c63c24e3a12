"""The notebook API (`assess.api`, issue 34 §2): one set of numbers with the command line.

Oracles: the command line's own JSON and report (the API must equal them: ``python -m assess metrics|compare|report``
run in-process by `assess.cli.main`), scikit-learn (ROC AUC, recall, confusion matrix), statsmodels (McNemar's exact
test) and hand-worked examples named in each test.
"""

from __future__ import annotations

import argparse
import doctest
import inspect
import json
import re
import subprocess
import sys
import warnings
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from sklearn.metrics import confusion_matrix, recall_score, roc_auc_score
from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar

import assess
from assess.api import assessment as api_module
from assess.cli import main
from assess.cli.common import add_decision_options, add_input_options

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "assets" / "samples").glob("*.csv"))
BINARY = str(ROOT / "assets/samples/breast_cancer_binary.csv")
WINE = str(ROOT / "assets/samples/wine_multiclass.csv")
#: Resamples of the parity runs: the fewest the flag takes above its floor, so 10 samples stay a few seconds; the
#: code run is the default ``--ci auto``'s, whatever the count.
RESAMPLES = 200
#: The two samples whose every metric with intervals takes seconds (the bootstrap of micro averages over 5 labels,
#: per-horizon bootstraps): a few keys (their per-label and per-horizon tables are still compared whole).
KEYS = {"digits_multilabel.csv": ["hamming_loss"],
        "monthly_forecasts.csv": ["mae", "rmse", "coverage"]}


def cli_json(capsys, *argv):
    code = main([*argv, "--quiet"])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if code == 0 else None), err


@pytest.fixture(scope="module")
def binary():
    return assess.evaluate(BINARY)


@pytest.fixture(scope="module")
def wine():
    return assess.evaluate(WINE)


@pytest.mark.parametrize("path", SAMPLES, ids=[p.name for p in SAMPLES])
def test_the_document_is_the_metrics_json_of_the_command_line_on_every_sample(path, capsys):
    keys = KEYS.get(path.name)
    argv = ["metrics", str(path), "--ci", "auto", "--resamples", str(RESAMPLES)] + (["--metrics", *keys] if keys
                                                                                   else [])
    code, expected, err = cli_json(capsys, *argv)
    if code != 0:   # not a predictions file (the training ids of the leakage control): refused alike, the same
        with pytest.raises(assess.AssessError) as refused:   # sentence, the flag said as the keyword
            assess.evaluate(path)
        assert code == 2 and err == f"error: {str(refused.value).replace('y_true=…', '--y-true')}\n"
        assert "or name it with y_true=…" in str(refused.value)
        return
    assert assess.evaluate(path).document(ci="auto", metrics=keys, n_resamples=RESAMPLES) == expected


def test_a_dataframe_and_a_pyarrow_table_give_the_numbers_of_their_file(capsys):
    _, expected, _ = cli_json(capsys, "metrics", WINE)
    frame = pd.read_csv(WINE)
    assert assess.evaluate(frame).document(ci=None) == expected
    assert assess.evaluate(pa.Table.from_pandas(frame)).document(ci=None) == expected
    indexed = assess.evaluate(frame.set_index("id"))       # a named index is a column, as in the file
    assert indexed.inputs.roles.id == "id" and indexed.document(ci=None) == expected


def test_metrics_is_a_tidy_table_whose_values_sklearn_gives(binary):
    table = binary.metrics(ci="auto", metrics=["roc_auc", "recall"])
    assert list(table.columns) == ["model", "metric", "name", "value", "low", "high", "method", "reason"]
    data = pd.read_csv(BINARY)
    for model, rows in data.groupby("model"):
        truth = rows.y_true == "malignant"
        got = table[table.model == model].set_index("metric")
        assert got.loc["roc_auc", "value"] == pytest.approx(roc_auc_score(truth, rows.score), rel=1e-12)
        assert got.loc["recall", "value"] == pytest.approx(recall_score(truth, rows.y_pred == "malignant"))
        assert got.loc["roc_auc", "method"] == "delong" and got.loc["roc_auc", "name"] == "ROC AUC"
        assert (got["low"] < got["value"]).all() and (got["value"] < got["high"]).all()
    assert binary.metrics(ci=None, metrics=["recall"])["method"].isna().all()


def test_an_undefined_metric_is_nan_with_its_reason():
    # hand-worked: no positive case, so recall = TP / (TP + FN) = 0 / 0
    a = assess.evaluate(pd.DataFrame({"y_true": [0, 0, 0, 0], "y_pred": [0, 1, 0, 0]}), positive=1, name="t")
    row = a.metrics(ci="wilson", metrics=["recall", "specificity"]).set_index("metric")
    assert np.isnan(row.loc["recall", "value"]) and row.loc["recall", "reason"]
    assert row.loc["specificity", "value"] == 0.75 and pd.isna(row.loc["specificity", "reason"])


def test_per_class_is_the_per_class_table_of_the_json(wine, capsys):
    _, doc, _ = cli_json(capsys, "metrics", WINE)
    table = wine.per_class()
    for row in table.to_dict("records"):
        expected = doc["per_class"][row["model"]][row["class"]]
        assert {k: row[k] for k in expected} == pytest.approx(expected)
    assert len(table) == sum(len(v) for v in doc["per_class"].values())
    with pytest.raises(assess.AssessError, match="multi-class and multi-label"):
        assess.evaluate(BINARY).per_class()


def test_compare_auto_is_compare_all_of_the_command_line(binary, capsys):
    _, expected, _ = cli_json(capsys, "compare", BINARY, "--test", "all")
    result = binary.compare()
    assert json.loads(json.dumps(result.to_dict())) == expected
    frame = result.to_frame()
    # one row per test's overall result and per pair: DeLong 3 pairs, Cochran's Q 1 + 3 McNemar pairs, McNemar 3
    assert frame["comparison"].tolist() == ["delong"] * 3 + ["cochran_q"] * 4 + ["mcnemar"] * 3
    assert frame.loc[frame.verdict, "comparison"].unique().tolist() == [expected["verdict"]["test"]]


def test_a_named_test_is_that_test_as_statsmodels_computes_it(binary):
    result = binary.compare("mcnemar", models=["logistic", "tree"])
    data = pd.read_csv(BINARY)
    right = {m: (g.sort_values("id").y_true == g.sort_values("id").y_pred).to_numpy() for m, g in data.groupby("model")}
    a, b = right["logistic"], right["tree"]
    table = [[np.sum(a & b), np.sum(a & ~b)], [np.sum(~a & b), np.sum(~a & ~b)]]
    assert result.result.pvalue == pytest.approx(sm_mcnemar(table, exact=True).pvalue, rel=1e-9)
    assert result.to_frame()["pvalue"].tolist() == [result.result.pvalue]


def test_slices_are_the_slices_of_the_metrics_json(binary, capsys):
    _, doc, _ = cli_json(capsys, "metrics", BINARY, "--slice", "group", "--metrics", "recall", "--ci", "auto",
                         "--resamples", str(RESAMPLES))
    frame = binary.slices("group", metrics=["recall"], n_resamples=RESAMPLES)
    for row in frame.to_dict("records"):
        expected = doc["slices"]["by_model"][row["model"]][row["slice"]]
        assert row["n"] == expected["n"]
        for key in ("value", "low", "high", "overall", "gap"):
            assert row[key] == pytest.approx(expected["metrics"][row["metric"]][key])
    tests = {(t["model"], t["key"], t["slice"]): t["p_adjusted"] for t in doc["slices"]["tests"]}
    tested = frame.dropna(subset=["p_adjusted"])
    assert len(tested) == len(tests) > 0
    for row in tested.to_dict("records"):
        assert row["p_adjusted"] == pytest.approx(tests[row["model"], row["metric"], row["slice"]])


def test_a_figure_is_the_reports_chart_in_the_house_template(wine):
    from assess.present.charts.style import FONT_FAMILY

    matrix = wine.figure("confusion", "forest")
    assert matrix.layout.template.layout.font.family == FONT_FAMILY
    data = pd.read_csv(WINE).query("model == 'forest'")
    expected = confusion_matrix(data.y_true, data.y_pred, labels=list(wine.classes))
    counts = [int(t.split("<br>")[0].replace(",", "")) for t in matrix.data[0].text]   # row-major, rows the truth
    assert np.array_equal(np.reshape(counts, expected.shape), expected)
    assert "one class against the rest" in wine.figure("roc").layout.title.text   # multi-class ROC: one-vs-rest
    with pytest.raises(assess.AssessError, match=r"no 'lift' chart .*charts: .*confusion"):
        wine.figure("lift")


def test_the_report_is_the_report_of_the_command_line(wine, tmp_path, capsys):
    # the ZIP of tables (the numbers, tests and settings of the PDF and HTML, without their charts: `figure`'s test)
    (tmp_path / "api").mkdir(), (tmp_path / "cli").mkdir()
    written = wine.report(tmp_path / "api" / "report.zip")
    assert main(["report", WINE, "--out", str(tmp_path / "cli" / "report.zip"), "--quiet"]) == 0

    def members(path):   # the minute the report was made is its only difference
        with zipfile.ZipFile(path) as z:
            return {n: re.sub(rb"\d{4}-\d\d-\d\d \d\d:\d\d UTC", b"", z.read(n)) for n in z.namelist()}

    assert written == tmp_path / "api" / "report.zip"
    assert members(written) == members(tmp_path / "cli" / "report.zip")
    assert {"metrics.csv", "tests.csv", "per_class_forest.csv"} <= set(members(written))


def test_the_jupyter_summary_escapes_every_name_from_the_table():
    hostile = "<script>alert(1)</script>"
    rng = np.random.default_rng(0)
    truth = rng.integers(0, 2, 600)
    frame = pd.DataFrame({"id": np.tile(np.arange(600), 2), "model": [hostile] * 600 + ["<b>m2</b>"] * 600,
                          "y_true": np.tile(np.where(truth == 1, "<img src=x>", "ok"), 2),
                          "score": np.concatenate([truth * 0.6 + rng.random(600) * 0.4, rng.random(600)])})
    shown = assess.evaluate(frame, positive="<img src=x>", name="<i>t</i>")._repr_html_()
    assert "<script>" not in shown and "<b>m2" not in shown and "<i>t" not in shown
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in shown and "&lt;b&gt;m2&lt;/b&gt;" in shown
    assert "1,200 rows" in shown and "ROC AUC" in shown and "Verdict: " in shown and "95% intervals" in shown


def test_evaluate_takes_every_input_option_of_the_metrics_command():
    parser = argparse.ArgumentParser()
    add_input_options(parser)
    add_decision_options(parser)
    # reading caps and progress lines are the command's; a notebook reads its table whole and quietly
    command_only = {"help", "file", "max_mb", "max_rows", "max_memory_mb", "max_columns", "quiet"}
    dests = {a.dest for a in parser._actions} - command_only
    assert dests <= set(inspect.signature(assess.evaluate).parameters)


def test_evaluate_refuses_bad_options_with_the_ranges_of_the_flags(binary):
    with pytest.raises(assess.AssessError, match=r"level: must be from 0.5 to 0.999"):
        binary.metrics(level=0.2)
    with pytest.raises(assess.AssessError, match="ci: 'exact' is not one of"):
        binary.metrics(ci="exact")
    with pytest.raises(assess.AssessError, match="no metric|not a metric|unknown"):
        binary.metrics(metrics=["nope"])
    with pytest.raises(assess.AssessError, match="correction: 'nope' is not one of auto, bonferroni"):
        binary.compare(correction="nope")
    with pytest.raises(assess.AssessError, match="tests: 'nope' is not one of mcnemar"):
        binary.report("report.html", tests=["nope"])
    with pytest.raises(assess.AssessError, match="DataFrame: cannot be read as a table: .*column y_true"):
        assess.evaluate(pd.DataFrame({"y_true": [1, "a"], "y_pred": [1, 0]}))   # numbers and text in one column
    with pytest.raises(assess.AssessError, match="labels_from: 'score' is not one of auto, labels, scores"):
        assess.evaluate(BINARY, labels_from="score")
    with pytest.raises(TypeError, match="path, a pandas DataFrame"):
        assess.evaluate([1, 2, 3])


def test_a_settings_file_applies_as_with_config(tmp_path, capsys):
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps({"format": "assess-settings", "version": 1, "ci": "wilson",
                                    "display_names": {"models": {"tree": "Decision tree"}},
                                    "metrics": ["recall", "precision"]}))
    _, expected, _ = cli_json(capsys, "metrics", BINARY, "--config", str(settings))
    a = assess.evaluate(BINARY, config=settings)
    assert "Decision tree" in a.models and a.document(ci=None) == expected   # None: the settings' interval
    assert expected["settings"]["ci"] == "wilson" and set(expected["models"]["Decision tree"]) == {"recall",
                                                                                                   "precision"}


def test_the_docstring_examples_run():
    result = doctest.testmod(api_module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0 and result.attempted >= 8


def test_the_docs_page_runs(tmp_path, monkeypatch, capsys):
    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "docs" / "api.md").read_text(), re.S)
    assert len(blocks) >= 6
    (tmp_path / "assets").symlink_to(ROOT / "assets")
    monkeypatch.chdir(tmp_path)
    scope: dict = {}
    for block in blocks:
        exec(compile(block, "docs/api.md", "exec"), scope)
    out = capsys.readouterr().out
    assert "binary ('logistic', 'tree', 'naive_bayes_3f') 1707" in out and "wine-report.html" in out
    assert (tmp_path / "wine-report.html").stat().st_size > 0


def test_import_assess_loads_the_api_only_when_used():
    code = "import sys, assess; print('assess.api' in sys.modules, 'pandas' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True).stdout
    assert out.split() == ["False", "False"]   # `python -m assess --help` starts as fast as before
    assert assess.evaluate is api_module.evaluate and assess.Assessment is api_module.Assessment


def test_the_commands_warnings_are_python_warnings_in_the_apis_words():
    # hand-made: positives score 0.6 + x, negatives x, x in [0, 0.4]: ROC AUC 1; the file holds 1 − that score
    truth = np.tile([0, 1], 50)
    frame = pd.DataFrame({"y_true": truth, "score": 1 - (truth * 0.6 + np.linspace(0, 0.4, 100))})
    with pytest.warns(UserWarning, match=r"looks inverted.*flip it with flip_score=…"):
        assess.evaluate(frame)
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # flipped: nothing to warn of
        flipped = assess.evaluate(frame, flip_score=True)
    assert flipped.document(ci=None, metrics=["roc_auc"])["models"]["DataFrame"]["roc_auc"] == 1.0


def test_the_jupyter_summary_names_the_nominal_level_of_a_forecasts_coverage():
    # hand-worked: intervals y_pred ± 1 around forecasts off by 0.5, −0.5 and 2: every third misses, coverage 16/24
    months = pd.date_range("2020-01", periods=24, freq="MS").strftime("%Y-%m")
    truth = np.arange(24.0)
    pred = truth + np.tile([0.5, -0.5, 2.0], 8)
    frame = pd.DataFrame({"timestamp": months, "y_true": truth, "y_pred": pred, "lower_90": pred - 1,
                          "upper_90": pred + 1})
    shown = assess.evaluate(frame, task="forecast")._repr_html_()
    assert "<th>Interval coverage (nominal 90%)</th>" in shown
    assert re.search(r"<td>0\.667 <small>", shown)


def test_check_is_the_check_command(binary, capsys):
    """`Assessment.check` and ``python -m assess check`` give the same verdicts through one function; the AUC
    requirement's verdicts are the ones scikit-learn's ROC AUC gives against the bar."""
    requirements = ["roc_auc>=0.9", "low(recall)>=0.7", "better(roc_auc, baseline)"]
    code = main(["check", BINARY, "--format", "json", *(a for r in requirements for a in ("--require", r))])
    expected = json.loads(capsys.readouterr().out)
    report = binary.check(requirements)
    assert code == 1 and not report.passed
    assert json.loads(json.dumps(report.to_dict())) == {k: v for k, v in expected.items() if k not in ("file", "task")}
    rows = pd.read_csv(BINARY)
    bound_rows = report.to_frame().query("requirement == 'roc_auc >= 0.9'")
    assert sorted(bound_rows.model) == sorted(binary.models)
    for model, passed in zip(bound_rows.model, bound_rows.passed):
        of_model = rows[rows.model == model]
        auc = roc_auc_score(of_model.y_true == binary.positive, of_model.score)
        assert passed == (auc >= 0.9)
