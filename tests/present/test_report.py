"""The assessment report and the settings file (issue 12): the report's numbers are the CLI's numbers (parsed back
from the HTML with html.parser and from the PDF with pypdf), display names reach every number's label, settings
round-trip and bad settings are refused with one clear message, and a failed report never leaves a half-written
file. Oracles: the `metrics`/`compare` JSON of the command line, and scikit-learn for the values themselves."""

import io
import json
import os
import re
import stat
import zipfile
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from pypdf import PdfReader
from sklearn import metrics as skm

from assess.cli import main
from assess.core.data import Task
from assess.core.errors import AssessError
from assess.inputs.read import read_table
from assess.metrics import metrics_for
from assess.inputs.names import DisplayNames
from assess.present.report import ReportOptions, build_report, render_html, render_zip, write_atomically, write_report
from assess.present.report.formula import formula_html
from assess.inputs.roles import Overrides
from assess.inputs.assessment import describe
from assess.present.settings import Settings
from assess.core.formatting import bounds, number
from assess.present.summary import headline_sentences

ROOT = Path(__file__).resolve().parents[2]
BINARY = str(ROOT / "assets/samples/breast_cancer_binary.csv")
REGRESSION = str(ROOT / "assets/samples/diabetes_regression.csv")
SECTIONS = ("Metrics", "Charts", "Significance tests", "ISO 4213 5.3 control checklist", "Metric definitions",
            "Reproducibility appendix")


class Cells(HTMLParser):
    """Every table row of an HTML document as a list of its cells' text."""

    def __init__(self):
        super().__init__()
        self.rows, self._row, self._cell, self.text = [], None, None, []

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self._row = []
        elif tag in ("td", "th") and self._row is not None:
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self._row.append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag == "tr" and self._row is not None:
            self.rows.append(self._row)
            self._row = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)
        self.text.append(data)


def parse(html: str) -> Cells:
    cells = Cells()
    cells.feed(html)
    return cells


def cli_json(capsys, *argv):
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


@pytest.fixture(scope="module")
def binary_html(tmp_path_factory):
    out = tmp_path_factory.mktemp("report") / "report.html"
    assert main(["report", BINARY, "--out", str(out), "--resamples", "200"]) == 0
    return out.read_text(encoding="utf-8")


def test_report_numbers_equal_the_metrics_and_compare_json(binary_html, capsys):
    doc = cli_json(capsys, "metrics", BINARY, "--ci", "auto", "--resamples", "200")
    cells = parse(binary_html)
    headline = {row[0].rsplit(" (", 1)[0]: row[1:4] for row in cells.rows if len(row) == 5}
    names = {"ROC AUC": "roc_auc", "Recall (sensitivity)": "recall", "Precision": "precision", "F1 score": "f1",
             "Accuracy": "accuracy"}
    assert set(names) <= set(headline)
    for title, key in names.items():
        for model, cell in zip(["logistic", "tree", "naive_bayes_3f"], headline[title]):
            v = doc["models"][model][key]
            assert cell == f"{number(v['value'])} ({bounds(v['low'], v['high'])})", (title, model)
    # the value itself against scikit-learn (the CLI's own oracle test is tests/cli/test_metrics.py)
    rows = pd.read_csv(BINARY).query("model == 'logistic'")
    assert headline["ROC AUC"][0].startswith(number(skm.roc_auc_score(rows.y_true == "malignant", rows.score)))
    compare = cli_json(capsys, "compare", BINARY, "--test", "delong")
    text = " ".join(" ".join(cells.text).split())
    assert " ".join(compare["sentence"].split()) in text  # the verdict is the compare sentence, word for word
    for title in SECTIONS:
        assert title in text


def test_html_is_self_contained_and_shows_every_chart(binary_html):
    assert "<link" not in binary_html and 'src="http' not in binary_html and "@import" not in binary_html
    assert "default-src 'none'" in binary_html  # the page may not fetch anything, even if something tried
    charts = len(re.findall(r'<script type="application/json" id="chart-\d+-data">', binary_html))
    keys = len(re.findall(r'<script type="application/json" id="chart-\d+-key-data">', binary_html))
    # + the two key charts of page 1, drawn from their own half-width figures
    assert charts >= 12 and keys == 2 and binary_html.count("data-figure=") == charts + keys


def test_pdf_text_has_names_answers_sections_and_numbers(tmp_path, capsys):
    settings = Settings(display_names=DisplayNames.of({"logistic": "Logistic regression"}, {"malignant": "Cancer"}),
                        checklist={"representativeness": "Hospital A, 2019 cohort", "ground_truth": "Biopsy"},
                        paper="letter", n_resamples=200)
    config = tmp_path / "settings.json"
    config.write_text(settings.to_json(), encoding="utf-8")
    out = tmp_path / "report.pdf"
    assert main(["report", BINARY, "--config", str(config), "--out", str(out), "--models", "Logistic regression",
                 "tree"]) == 0
    reader = PdfReader(out)
    assert abs(float(reader.pages[0].mediabox.width) - 612) < 2  # Letter: 8.5 in
    text = " ".join(" ".join(page.extract_text() for page in reader.pages).split())
    for expected in ("Logistic regression", "Cancer", "Hospital A, 2019 cohort", "Biopsy", *SECTIONS,
                     f"Page 1 of {len(reader.pages)}"):
        assert expected in text, expected
    doc = cli_json(capsys, "metrics", BINARY, "--config", str(config), "--ci", "auto", "--resamples", "200")
    auc = doc["models"]["Logistic regression"]["roc_auc"]
    assert f"{number(auc['value'])} ({bounds(auc['low'], auc['high'])})" in text
    assert "logistic," not in text.split("Reproducibility")[0]  # the file's name of the model is not shown


def test_zip_tables_match_the_cli_and_neutralise_formulas(tmp_path, capsys):
    frame = pd.read_csv(BINARY)
    frame["model"] = frame["model"].replace({"tree": "=HYPERLINK(1)"})
    path = tmp_path / "hostile.csv"
    frame.to_csv(path, index=False)
    out = tmp_path / "report.zip"
    assert main(["report", str(path), "--out", str(out), "--ci", "wilson"]) == 0
    archive = zipfile.ZipFile(out)
    assert {"report.json", "settings.json", "metrics.csv", "tests.csv", "checklist.csv"} <= set(archive.namelist())
    document = json.loads(archive.read("report.json"))
    cli = cli_json(capsys, "metrics", str(path), "--ci", "wilson")
    assert document["metrics"]["models"] == cli["models"]
    assert "'=HYPERLINK(1)" in archive.read("metrics.csv").decode()
    assert '"=HYPERLINK(1)"' in archive.read("report.json").decode()  # JSON keeps strings as they are


def test_settings_round_trip_and_out_of_time_reuse(tmp_path, capsys):
    settings = Settings(display_names=DisplayNames.of({"tree": "Decision tree"}, {"malignant": "Cancer"}),
                        labels_from="scores", threshold=0.37, n_resamples=200, seed=7, ci="bootstrap",
                        checklist={"context": "Screening"}, tests=("mcnemar",))
    again = Settings.loads(settings.to_json(), source="s.json")
    assert again.to_dict() == settings.to_dict()
    config = tmp_path / "settings.json"
    config.write_text(settings.to_json(), encoding="utf-8")
    # next quarter's file: other rows of the same models (a bootstrap resample of the sample's sample ids)
    frame = pd.read_csv(BINARY)
    ids = np.random.default_rng(3).choice(frame["id"].unique(), 400, replace=False)
    later = tmp_path / "next_quarter.csv"
    frame[frame["id"].isin(ids)].to_csv(later, index=False)
    out = tmp_path / "r.zip"
    assert main(["report", str(later), "--config", str(config), "--out", str(out)]) == 0
    document = json.loads(zipfile.ZipFile(out).read("report.json"))
    cli = cli_json(capsys, "metrics", str(later), "--config", str(config))
    assert document["metrics"]["models"] == cli["models"] and "Decision tree" in cli["models"]
    assert cli["settings"]["threshold"] == 0.37 and cli["settings"]["seed"] == 7
    assert [t["test"] for t in document["tests"]] == ["mcnemar"]
    assert document["settings"]["checklist"] == {"context": "Screening"}
    rows = frame[frame["id"].isin(ids) & (frame["model"] == "tree")]
    y, yp = rows.y_true == "malignant", rows.score >= 0.37
    assert cli["models"]["Decision tree"]["recall"]["value"] == pytest.approx(skm.recall_score(y, yp), abs=1e-12)


@pytest.mark.parametrize("change, message", [
    ({"version": 99}, "settings version 99 is not supported"),
    ({"format": "other"}, "not an assess settings file"),
    ({"task": "regression"}, "is for a regression assessment; breast_cancer_binary.csv is binary"),
    ({"roles": {"score": "no_such_column"}}, "names column 'no_such_column' for the role 'score'"),
    ({"colour": "red"}, "unknown key 'colour'"),
    ({"resamples": "many"}, "'resamples' must be a whole number"),
    ({"checklist": {"weather": "fine"}}, "unknown checklist item 'weather'"),
])
def test_bad_settings_are_refused_and_nothing_is_written(tmp_path, capsys, change, message):
    config = tmp_path / "bad.json"
    config.write_text(json.dumps(Settings().to_dict() | change), encoding="utf-8")
    out = tmp_path / "report.pdf"
    out.write_bytes(b"the previous report")
    assert main(["report", BINARY, "--config", str(config), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert out.read_bytes() == b"the previous report" and list(tmp_path.iterdir()) == [config, out] or \
        sorted(tmp_path.iterdir()) == sorted([config, out])


def test_settings_apply_to_other_commands(tmp_path, capsys):
    config = tmp_path / "s.json"
    config.write_text(Settings(display_names=DisplayNames.of({"ridge": "Ridge regression"})).to_json())
    doc = cli_json(capsys, "metrics", REGRESSION, "--config", str(config), "--metrics", "mae")
    assert "Ridge regression" in doc["models"]
    result = cli_json(capsys, "compare", REGRESSION, "--config", str(config), "--test", "paired_t")
    assert "Ridge regression" in result["models"]
    assert main(["inspect", REGRESSION, "--config", str(tmp_path / "missing.json")]) == 2


def test_a_failed_write_leaves_the_old_file(tmp_path, monkeypatch):
    target = tmp_path / "report.html"
    target.write_text("old")

    class Boom(Exception):
        pass

    def exploding(*args, **kwargs):
        raise Boom

    import assess.present.report.render as render
    monkeypatch.setattr(render, "render_html", exploding)
    report = build_report(describe(read_table(REGRESSION)), ReportOptions(ci="", models=("ridge",)))
    with pytest.raises(Boom):
        write_report(report, target)
    assert target.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["report.html"]
    write_atomically(target, b"new")
    assert target.read_bytes() == b"new" and [p.name for p in tmp_path.iterdir()] == ["report.html"]


@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o002, 0o664), (0o077, 0o600)])
def test_a_written_report_has_the_permissions_the_umask_gives_any_new_file(tmp_path, umask, mode):
    """A report saved for colleagues is readable by them when the user's umask says so (``open(…, "wb")``'s
    0666 & ~umask); mkstemp's 0600 ignored the umask."""
    old = os.umask(umask)
    try:
        write_atomically(tmp_path / "report.pdf", b"%PDF")
        (tmp_path / "plain.pdf").write_bytes(b"%PDF")   # the oracle: what Python's open gives a new file
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "report.pdf").stat().st_mode) == mode
    assert stat.S_IMODE((tmp_path / "plain.pdf").stat().st_mode) == mode
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plain.pdf", "report.pdf"]


@pytest.mark.parametrize("positive", ["1", "True", "yes", "malignant tumour", "a very long class name " * 3])
def test_display_names_reach_sentences_and_keep_the_numbers(positive):
    rng = np.random.default_rng(11)
    y = rng.integers(0, 2, 300)
    labels = np.where(y == 1, positive.strip(), "other")
    frame = pd.DataFrame({"y_true": labels, "score": np.clip(y * 0.3 + rng.random(300) * 0.7, 0, 1)})
    table = read_table(frame.to_csv(index=False).encode(), name="fraud.csv")
    plain = describe(table, Overrides(positive=positive.strip()))
    named = describe(table, Overrides(positive=positive.strip(),
                                      names=DisplayNames.of({"fraud": "Scorer"}, {positive.strip(): "Fraud"})))
    assert (named.models, named.positive) == (("Scorer",), "Fraud")
    from assess.metrics.reports import compute_reports
    a, b = compute_reports(plain)["fraud"], compute_reports(named)["Scorer"]
    assert a.values.keys() == b.values.keys()
    np.testing.assert_array_equal(np.array(list(a.values.values())), np.array(list(b.values.values())))
    assert b["roc_auc"].value == pytest.approx(skm.roc_auc_score(y, frame.score), abs=1e-12)
    sentences = " ".join(headline_sentences({"Scorer": b}, positive=named.positive))
    assert "Fraud cases" in sentences and positive.strip() not in sentences


def test_names_that_collide_are_refused():
    table = read_table(BINARY)
    with pytest.raises(AssessError, match="would both be called 'tree'"):
        describe(table, Overrides(names=DisplayNames.of({"logistic": "tree"})))


def test_every_registry_formula_reads_without_tex():
    for task in (Task.BINARY, Task.MULTICLASS, Task.MULTILABEL, Task.FORECAST):
        for spec in metrics_for(task):
            text = formula_html(spec.latex)
            assert "\\" not in text and "frac" not in text and "mathrm" not in text, (spec.key, text)
    assert formula_html(r"r = \frac{T_P}{T_P + F_N}") == "r = T<sub>P</sub> / (T<sub>P</sub> + F<sub>N</sub>)"
    assert "&lt;script&gt;" in formula_html("<script>")


def _multilabel_file() -> bytes:
    rng = np.random.default_rng(5)
    return pd.DataFrame({"true_news": rng.integers(0, 2, 120), "true_sport": rng.integers(0, 2, 120),
                         "score_news": rng.random(120), "score_sport": rng.random(120)}).to_csv(index=False).encode()


@pytest.mark.parametrize("name, data, charts", [
    ("wine.csv", (ROOT / "assets/samples/wine_multiclass.csv").read_bytes(), 6),
    ("labels.csv", _multilabel_file(), 1),
    ("diabetes.csv", (ROOT / "assets/samples/diabetes_regression.csv").read_bytes(), 4),
    ("forecasts.csv", (ROOT / "assets/samples/monthly_forecasts.csv").read_bytes(), 5),
])
def test_every_task_gets_a_report(name, data, charts):
    assessment = describe(read_table(data, name=name))
    report = build_report(assessment, ReportOptions(ci="", n_resamples=100))
    assert len(report.figures) >= charts and sum(f.summary for f in report.figures) >= 1
    html = render_html(report)
    assert report.recommendation.text in " ".join(parse(html).text)
    assert json.loads(zipfile.ZipFile(io.BytesIO(render_zip(report))).read("report.json"))["task"] == \
        assessment.task.value


def test_a_single_model_is_judged_against_its_baselines():
    report = build_report(describe(read_table(REGRESSION)), ReportOptions(ci="", models=("ridge",)))
    assert report.comparisons == () and "nothing to compare" in report.recommendation.text
    assert "mean baseline" in report.recommendation.text


def test_file_text_cannot_become_markup():
    frame = pd.read_csv(BINARY)
    frame["model"] = frame["model"].replace({"tree": "</script><script>alert(1)</script>"})
    report = build_report(describe(read_table(frame.to_csv(index=False).encode(), name="x.csv")),
                          ReportOptions(ci=""))
    html = render_html(report)
    assert "<script>alert(1)" not in html and "&lt;/script&gt;&lt;script&gt;alert(1)" in html


def test_the_appendix_settings_reproduce_the_report(tmp_path, monkeypatch):
    """The reproducing command of the appendix (``--config settings.json``) gives the same numbers, role flags and
    interval method included."""
    monkeypatch.chdir(tmp_path)
    frame = pd.read_csv(BINARY).rename(columns={"y_true": "truth", "score": "p"})
    frame.to_csv("renamed.csv", index=False)
    assert main(["report", "renamed.csv", "--y-true", "truth", "--score", "p", "--ci", "wilson", "--out",
                 "a.zip"]) == 0
    first = json.loads(zipfile.ZipFile("a.zip").read("report.json"))
    Path("settings.json").write_text(json.dumps(first["settings"]), encoding="utf-8")
    assert first["command"] == "python -m assess report renamed.csv --config settings.json --out a.zip"
    assert main(first["command"].split()[3:]) == 0
    again = json.loads(zipfile.ZipFile("a.zip").read("report.json"))
    assert again["metrics"] == first["metrics"] and first["settings"]["roles"] == {"y_true": "truth", "score": "p"}


def test_checklist_carries_the_controls_the_file_allows():
    """The annotator sample: the 5.3.9 row says what the Controls page says, and its Fleiss' κ is statsmodels' on the
    three annotators' labels; the 5.3.5 row keeps the report's own id check and adds the controls' line."""
    from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa

    path = ROOT / "assets/samples/breast_cancer_annotators.csv"
    report = build_report(describe(read_table(path)), ReportOptions(ci="", charts=False, tests=()))
    rows = {row.item.key: row.found for row in report.checklist}
    data = pd.read_csv(path).drop_duplicates("id")
    table, _ = aggregate_raters(data[["y_true_reader_a", "y_true_reader_b", "y_true_reader_c"]].to_numpy())
    assert f"Fleiss' κ {fleiss_kappa(table):.3f}" in rows["ground_truth"]
    assert rows["ground_truth"].startswith("Checked: ground truth from column y_true")
    assert "same 171 sample ids" in rows["test_data"]
    # nothing the app could not check is claimed: no split or training ids, so no overlap line
    assert "training ids" not in rows["test_data"] and "not checked" not in " ".join(rows.values())


def test_clustering_report_has_its_metrics_charts_and_a_test_verdict():
    """The iris clusterings: the headline ARI per model is scikit-learn's, the charts are the contingency heatmaps,
    and the verdict comes from a test that ran (the bootstraps default to the ARI), not 'no test could be run'."""
    from sklearn.metrics import adjusted_rand_score

    path = ROOT / "assets/samples/iris_clustering.csv"
    report = build_report(describe(read_table(path)), ReportOptions(n_resamples=100))
    data = pd.read_csv(path)
    for model, rows in data.groupby("model"):
        assert report.reports[model]["adjusted_rand_index"].value == pytest.approx(
            adjusted_rand_score(rows.y_true, rows.cluster), abs=1e-12)
    assert "adjusted_rand_index" in report.headline
    assert any(f.key.startswith("contingency_") for f in report.figures)
    assert "No significance test could be run" not in report.verdict
    assert report.decision_text() == "not applicable (cluster assignments)"


def test_the_report_bootstrap_draws_its_resamples_and_equals_compare_json(binary_html, capsys, tmp_path):
    """The paired bootstrap of the report (200 resamples, seed 0) is `compare --test paired_bootstrap` with the
    same resamples and seed, number for number (the report's resamples once stopped at the metrics). By default
    (every suited test, ROC AUC unweighted) the report runs DeLong's test and lists the bootstrap of the same AUC
    difference as skipped, with the reason; asked for by name, the bootstrap runs."""
    compare = cli_json(capsys, "compare", BINARY, "--test", "paired_bootstrap", "--metric", "roc_auc",
                       "--resamples", "200", "--seed", "0")
    default_text = " ".join(" ".join(parse(binary_html).text).split())
    assert " ".join(compare["sentence"].split()) not in default_text
    assert "paired_bootstrap: DeLong's test above compares the same ROC AUC difference analytically" in default_text
    out = tmp_path / "boot.html"
    assert main(["report", BINARY, "--out", str(out), "--resamples", "200", "--tests", "paired_bootstrap",
                 "--test-metric", "roc_auc"]) == 0
    text = " ".join(" ".join(parse(out.read_text(encoding="utf-8")).text).split())
    assert " ".join(compare["sentence"].split()) in text
    default = cli_json(capsys, "compare", BINARY, "--test", "paired_bootstrap", "--metric", "roc_auc")
    assert default["sentence"] != compare["sentence"]            # 1,000 resamples read differently: the test can fail
    a = describe(read_table(BINARY))
    report = build_report(a, ReportOptions(n_resamples=200, seed=0, charts=False, tests=("paired_bootstrap",),
                                           test_metric="roc_auc"))
    (boot,) = report.comparisons
    pair = next(p for p in boot.pairs if {p.model_a, p.model_b} == {"logistic", "tree"})
    assert pair.result.details.n_resamples == 200 and pair.result.details.seed == 0
    listed = next(p for p in compare["pairs"] if {p["model_a"], p["model_b"]} == {"logistic", "tree"})
    assert pair.result.details.n_resamples == listed["details"]["n_resamples"] == 200
    assert pair.result.pvalue == listed["pvalue"]
    assert (pair.result.effect.interval.low, pair.result.effect.interval.high) == pytest.approx(
        (listed["effect"]["low"], listed["effect"]["high"]), abs=1e-15)


@pytest.mark.parametrize("ids_b, expected", [
    ([1, 2, 3], "all 2 models were scored on the same 3 sample ids"),       # same ids, same order
    ([3, 1, 2], "all 2 models were scored on the same 3 sample ids"),       # same ids, another order
    ([7, 8, 9], "different sample ids (a: 3, b: 3)"),
])
def test_checklist_reads_the_ids_by_hand(tmp_path, ids_b, expected):
    from assess.present.report.checklist import checklist

    frame = pd.DataFrame({"model": ["a"] * 3 + ["b"] * 3, "id": [1, 2, 3] + ids_b, "y_true": [0, 1, 1] * 2,
                          "y_pred": [0, 1, 0, 1, 1, 0]})
    path = tmp_path / "ids.csv"
    frame.to_csv(path, index=False)
    rows = {r.item.key: r.found for r in checklist(describe(read_table(path)), ["a", "b"])}
    assert expected in rows["test_data"]
    assert "every sample id occurs once per model" in rows["leakage"]


def test_checklist_of_repeated_cv_counts_repeats_not_duplicates():
    """Each sample once per repeat is the design of repeated cross-validation, not a leak (a sample twice within one
    repeat is refused before, `tests/inputs/test_repeated_cv.py`); the design is 5 repeats of 2 folds, not 2 folds."""
    from assess.present.report.checklist import checklist
    from tests.repeated_cv import repeated_cv_frame

    frame = repeated_cv_frame(n_splits=2, n_repeats=5)
    rows = {r.item.key: r.found for r in checklist(describe(read_table(frame.to_csv(index=False).encode(),
                                                                       name="rcv.csv")), ["logreg", "bayes"])}
    assert rows["leakage"] == "Checked: every sample id occurs once per model and repeat (no duplicated test rows)."
    assert rows["cross_validation"] == ("Checked: repeated cross-validation, 5 repeats (repeat) of 2 folds (fold) "
                                        "for every model.")


def test_captions_and_the_operating_sentence_name_a_symbol_class_by_its_role():
    """A positive class named "." read "share of . cases found" in the report's captions and "finds 80% of . cases" in
    its verdict: both now go through `assess.core.formatting.class_phrase`, as the headline sentences do."""
    from assess.present.report.figures import report_figures
    from assess.present.report.model import _operating_sentence
    from assess.metrics.reports import compute_reports

    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 200)
    frame = pd.DataFrame({"y_true": np.where(y == 1, ".", "other"), "score": np.clip(0.3 * y + rng.random(200) * 0.7, 0, 1)})
    assessment = describe(read_table(frame.to_csv(index=False).encode(), name="dot.csv"), Overrides(positive="."))
    captions = " ".join(f.caption for f in report_figures(assessment, assessment.models))
    assert "share of positive (.) cases found" in captions and " . cases" not in captions
    report = compute_reports(assessment)[assessment.models[0]]
    sentence = _operating_sentence(assessment, report, ReportOptions(ci=""))
    assert "of positive (.) cases while flagging" in sentence


def test_the_header_quotes_a_positive_class_that_is_not_a_word():
    """A class named "." read "positive class: ." in the summary table; quoted, the reader sees it is a name."""
    rng = np.random.default_rng(4)
    y = rng.random(200) < 0.4
    frame = pd.DataFrame({"y_true": np.where(y, ".", "ok"), "score": np.clip(rng.normal(0.3 + 0.3 * y, 0.2), 0, 1)})
    assessment = describe(read_table(frame.to_csv(index=False).encode(), name="dot.csv"))
    assert assessment.positive == "."
    html = render_html(build_report(assessment, ReportOptions(ci="", n_resamples=50, charts=False)))
    assert "positive class: ‘.’" in html


def test_baseline_counts_read_whole_in_the_report_as_on_the_metrics_page():
    """An expected count of the stratified baseline (204 positives · 0.373 ≈ 78.99 true positives at random) read
    "78.99" in the report and "79" on the Metrics page: both write it through `summary.baseline_text`."""
    from assess.metrics import baseline_columns
    from assess.present.report.render import context
    from assess.present.summary import model_frame

    report = build_report(describe(read_table(ROOT / "assets" / "samples" / "breast_cancer_binary.csv")),
                          ReportOptions(ci="", charts=False, tests=()))
    model, metrics = next(iter(report.reports.items()))
    expected = metrics["tp"].baselines["stratified"]
    assert not float(expected).is_integer()                 # the case: an expectation, not a whole count
    page = model_frame(metrics).set_index("metric")
    whole = f"{round(expected):,}"
    assert page.loc[get_name("tp"), "stratified"] == whole
    table = next(t for t in context(report)["metric_tables"] if t["model"] == model)
    row = next(r for r in table["rows"] if r["name"] == get_name("tp"))
    assert row["baselines"][list(baseline_columns(Task.BINARY)).index("stratified")] == whole


def get_name(key: str) -> str:
    from assess.metrics import get
    return get(Task.BINARY, key).name


def test_at_the_defaults_the_report_and_compare_draw_the_same_resamples_and_agree(capsys):
    """No flag given: the report's paired bootstrap is `compare`'s, p-value and interval (the report drew 1,000
    resamples and `compare` 2,000, so the report's numbers were compare's only with --resamples)."""
    from assess.core.defaults import DEFAULT_RESAMPLES

    compare = cli_json(capsys, "compare", BINARY, "--test", "paired_bootstrap", "--metric", "roc_auc")
    report = build_report(describe(read_table(BINARY)), ReportOptions(charts=False, tests=("paired_bootstrap",),
                                                                      test_metric="roc_auc"))
    (boot,) = report.comparisons
    for listed in compare["pairs"]:
        pair = next(p for p in boot.pairs if (p.model_a, p.model_b) == (listed["model_a"], listed["model_b"]))
        assert pair.result.details.n_resamples == listed["details"]["n_resamples"] == DEFAULT_RESAMPLES
        assert pair.result.pvalue == listed["pvalue"]
        assert (pair.result.effect.interval.low, pair.result.effect.interval.high) == pytest.approx(
            (listed["effect"]["low"], listed["effect"]["high"]), abs=1e-15)


def test_the_report_says_its_resamples_are_a_maximum_when_auto_stops_early(binary_html):
    """Under ci=auto a bootstrap stops once its bounds are as precise as shown: the facts say "up to"."""
    text = " ".join(" ".join(parse(binary_html).text).split())
    assert "method auto, up to 200 bootstrap resamples (fewer once the bounds are as precise as shown" in text


@pytest.fixture(scope="module")
def wine_report():
    return build_report(describe(read_table((ROOT / "assets/samples/wine_multiclass.csv").read_bytes(),
                                            name="wine.csv")), ReportOptions(ci="", n_resamples=100))


def test_the_per_class_table_reads_as_the_metrics_page_headers(wine_report):
    """The per-class table once showed its raw keys turned to words ("Roc auc"); the headers are the registry's names,
    as written by hand here (the Metrics page's per-class table shows the same)."""
    rows = parse(render_html(wine_report)).rows
    header = next(r for r in rows if "Specificity" in r and "Support" in r)
    assert header[-2:] == ["ROC AUC (vs rest)", "Average precision (vs rest)"]
    assert not any(cell in ("Roc auc", "Roc auc (vs rest)") for row in rows for cell in row)


def test_the_one_vs_rest_captions_read_as_sentences(wine_report):
    """Issue-33 walk: the caption read "One Precision–recall curve per class" (a capital mid-sentence)."""
    captions = [f.caption for f in wine_report.figures if f.key.startswith("ovr_")]
    assert any(c.startswith("One precision–recall curve per class") for c in captions)
    assert any(c.startswith("One ROC curve per class") for c in captions)
