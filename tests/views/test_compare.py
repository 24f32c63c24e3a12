"""AppTest of the Compare page: suggestions, running tests, sentences, charts, uploaded per-fold scores."""

import json
import re

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps
from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar

from tests.conftest import ROOT, open_app


@pytest.fixture
def page():
    return open_app("views/compare.py")


def run_test(at):
    [button] = [b for b in at.button if b.label == "Run test"]
    button.click().run()
    assert not at.exception
    return at


def chart_titles(at):
    return [json.loads(e.proto.spec)["layout"]["title"]["text"] for e in at.get("plotly_chart")]


def test_the_recommended_test_follows_the_metric_then_mcnemar_between_two_models(page):
    """The breast-cancer sample opens on ROC AUC: DeLong's test, the test of ROC AUCs, is preselected (McNemar's
    compares accuracy); on accuracy McNemar's is."""
    [metric] = [s for s in page.selectbox if s.label == "Metric"]
    [test] = [s for s in page.selectbox if s.label == "Test"]
    assert (metric.value, test.value) == ("roc_auc", "delong")
    metric.set_value("accuracy").run()
    [test] = [s for s in page.selectbox if s.label == "Test"]
    assert test.value == "mcnemar"
    run_test(page)
    sentence = page.success[0].value.replace("\\", "")
    assert "McNemar exact" in sentence and "logistic" in sentence
    table = page.dataframe[1].value
    data = pd.read_csv(ROOT / "assets/samples/breast_cancer_binary.csv")
    right = {m: (g.sort_values("id").y_true == g.sort_values("id").y_pred).to_numpy() for m, g in data.groupby("model")}
    a, b = right["logistic"], right["tree"]
    expected = sm_mcnemar([[np.sum(a & b), np.sum(a & ~b)], [np.sum(~a & b), np.sum(~a & ~b)]], exact=True).pvalue
    assert table["pvalue"].iloc[0] == pytest.approx(expected)
    assert any(t.startswith("Paired differences") for t in chart_titles(page))
    assert [b.label for b in page.get("download_button") if b.label.startswith("Results")] == ["Results CSV",
                                                                                              "Results JSON"]


def test_friedman_across_folds_draws_the_cd_diagram(page):
    [question] = [r for r in page.radio if r.label == "Question"]
    question.set_value("cv_folds").run()
    [metric] = [s for s in page.selectbox if s.label == "Metric"]
    metric.set_value("roc_auc").run()
    [test] = [s for s in page.selectbox if s.label == "Test"]
    test.set_value("friedman").run()
    run_test(page)
    titles = chart_titles(page)
    assert any(t.startswith("Critical difference diagram") for t in titles)
    assert any(t.startswith("ROC AUC per fold") for t in titles)
    assert "Friedman" in page.success[0].value


def test_uploaded_fold_scores_paired_t(page):
    rng = np.random.default_rng(3)
    frame = pd.DataFrame({"model": np.repeat(["a", "b"], 10), "fold": np.tile(range(10), 2),
                          "accuracy": np.r_[rng.normal(0.8, 0.02, 10), rng.normal(0.78, 0.02, 10)]})
    [source] = [r for r in page.radio if r.label == "Compare models from"]
    source.set_value("per-fold scores I upload").run()
    page.file_uploader(key="fold_upload").upload("cv.csv", frame.to_csv(index=False).encode(), "text/csv").run()
    assert not page.exception
    [test] = [s for s in page.selectbox if s.label == "Test"]
    test.set_value("paired_t").run()
    run_test(page)
    expected = sps.ttest_rel(frame.accuracy[:10], frame.accuracy[10:]).pvalue
    assert page.dataframe[1].value["pvalue"].iloc[0] == pytest.approx(expected)


def test_subgroup_question(page):
    [question] = [r for r in page.radio if r.label == "Question"]
    question.set_value("subgroups").run()
    run_test(page)
    assert not page.exception and page.success


def test_omnibus_and_pairs_table_shows_dashes_never_none(page):
    """Cochran's Q over three models: the omnibus row has no pair and the McNemar pairs no df; those cells read "—"
    (the grid showed "None"). Oracle: statsmodels' Cochran's Q on the sample's right/wrong table."""
    from statsmodels.stats.contingency_tables import cochrans_q

    [question] = [r for r in page.radio if r.label == "Question"]
    question.set_value("several_models").run()
    [metric] = [s for s in page.selectbox if s.label == "Metric"]
    metric.set_value("accuracy").run()                        # Cochran's Q, the test of accuracy, comes first
    run_test(page)
    table = page.dataframe[1].value
    data = pd.read_csv(ROOT / "assets/samples/breast_cancer_binary.csv")
    right = np.column_stack([(g.sort_values("id").y_true == g.sort_values("id").y_pred).to_numpy()
                             for _, g in data.groupby("model")])
    assert table["statistic"].iloc[0] == pytest.approx(cochrans_q(right.astype(int)).statistic)
    assert list(table[["model_a", "model_b"]].iloc[0]) == ["—", "—"]
    cells = table.drop(columns=[c for c in table.columns if table[c].dtype.kind == "f"])
    assert not cells.map(lambda v: v is None or str(v) in ("None", "nan")).any().any()
    assert set(table["df"].iloc[1:]) == {"—"} and table["pvalue_adjusted"].iloc[0] == "—"
    matrix = page.dataframe[2].value                          # adjusted p-values between pairs: no pair on the diagonal
    assert [matrix.iloc[i, i] for i in range(3)] == ["—"] * 3
    assert float(matrix.loc["logistic", "tree"]) == pytest.approx(float(table["pvalue_adjusted"].iloc[1]), rel=1e-3)


def test_run_all_suitable_tests(page):
    [button] = [b for b in page.button if b.label == "Run all suitable tests"]
    button.click().run()
    assert not page.exception
    headline = [m.value for m in page.markdown if m.value.startswith("**")]
    tests_run = [h.split("**")[1] for h in headline]
    assert "McNemar's test" in tests_run and "DeLong's test" in tests_run   # titles, never ids
    assert "All results CSV" in [b.label for b in page.get("download_button")]


def test_two_test_sets_are_compared_as_independent_samples():
    rng = np.random.default_rng(8)
    rows = []
    for model, start, n in (("old", 0, 160), ("new", 1000, 140)):
        y = rng.random(n) < 0.4
        s = 1 / (1 + np.exp(-(1.2 * (2 * y - 1) + rng.normal(0, 1, n))))
        rows += [{"id": start + i, "model": model, "y_true": "yes" if y[i] else "no", "score": round(float(s[i]), 5)}
                 for i in range(n)]
    frame = pd.DataFrame(rows)
    at = open_app()
    at.radio[0].set_value("Upload a file").run()
    at.file_uploader[0].upload("two_sets.csv", frame.to_csv(index=False).encode(), "text/csv").run()
    at.switch_page("views/compare.py").run()
    assert not at.exception
    [design] = [i.value for i in at.info if "samples" in i.value]
    assert design.startswith("**Independent samples**: ") and "no sample id is shared" in design
    [test] = [s for s in at.selectbox if s.label == "Test"]
    # ROC AUC, the headline of scores: DeLong's test for independent samples first
    assert test.value == "unpaired_delong" and "McNemar's test" not in test.options
    assert test.options[0] == "DeLong's test for independent samples"
    test.set_value("welch_t").run()
    [loss] = [s for s in at.selectbox if s.label == "Per-sample loss"]
    loss.set_value("zero_one").run()
    run_test(at)
    wrong = {m: (g.y_true != np.where(g.score >= 0.5, "yes", "no")).to_numpy(float) for m, g in frame.groupby("model")}
    expected = sps.ttest_ind(wrong["old"], wrong["new"], equal_var=False).pvalue
    assert at.dataframe[1].value["pvalue"].iloc[0] == pytest.approx(expected)
    assert any(t.startswith("Differences — Welch's t-test") for t in chart_titles(at))   # the title, not welch_t


# ------------------------------------------------------------------------------------ regression and forecasts

FORECAST_SAMPLE = "CO₂ and El Niño — monthly forecasts, 3 models, 1–12 months ahead"
REGRESSION_SAMPLE = "Diabetes — regression, 3 models, 5 folds"


def read(element) -> str:
    """A message as read on screen: md() escapes Markdown punctuation with backslashes."""
    return re.sub(r"\\(.)", r"\1", element.value)


def choose(at, label, value):
    [box] = [s for s in at.selectbox if s.label == label]
    box.set_value(value).run()
    assert not at.exception


def test_forecast_sample_runs_diebold_mariano_per_horizon():
    at = open_app("views/compare.py", sample=FORECAST_SAMPLE)
    assert not any("Predicted labels" in c.value for c in at.caption)     # no classification decision on forecasts
    [test] = [s for s in at.selectbox if s.label == "Test"]
    assert test.value == "diebold_mariano"
    assert {"Diebold–Mariano test", "Paired bootstrap"} <= set(test.options)   # the options read as titles
    choose(at, "Loss", "absolute")
    run_test(at)
    sentence = read(at.success[0])
    assert "forecasts are off by" in sentence and "(y_true units)" in sentence and "By horizon (Holm" in sentence
    assert any("Diebold–Mariano by horizon" in m.value for m in at.markdown)
    table = at.dataframe[-1].value                 # the per-horizon table comes last
    assert list(table.horizon[:12]) == list(range(1, 13))
    assert set(table.series) == {"all series", "co2_mauna_loa", "elnino_sst"}
    assert {"pvalue", "pvalue_holm", "h_used"} <= set(table.columns)


def test_several_forecasters_get_friedman_over_the_series():
    at = open_app("views/compare.py", sample=FORECAST_SAMPLE)
    [radio] = [r for r in at.radio if r.label == "Question"]
    radio.set_value("several_models").run()
    choose(at, "Test", "friedman")
    run_test(at)
    assert read(at.success[0]).startswith("Over 2 series, ets ranks best on mean absolute error")


def test_regression_sample_compares_per_sample_errors():
    at = open_app("views/compare.py", sample=REGRESSION_SAMPLE)
    [test] = [s for s in at.selectbox if s.label == "Test"]
    assert {"Paired bootstrap", "Paired t-test", "Wilcoxon signed-rank test"} <= set(test.options)
    for key, words in (("paired_t", "predictions are off by"), ("wilcoxon", "absolute errors are typically"),
                       ("paired_bootstrap", "mean absolute error is lower than")):
        choose(at, "Test", key)
        run_test(at)
        assert words in read(at.success[0]) and "(y_true units)" in read(at.success[0]), key


def test_two_models_picked_for_several_models_is_a_warning_not_a_failure(page):
    [question] = [r for r in page.radio if r.label == "Question"]
    question.set_value("several_models").run()
    [models] = [m for m in page.multiselect if m.label == "Models"]
    models.set_value(models.value[:2]).run()
    assert not page.exception and not page.error
    assert "needs at least 3 models (got 2)" in page.warning[0].value.replace("\\", "")


def test_multi_output_cli_page_and_report_verdict_give_one_test_p_value_and_winner(tmp_path, capsys):
    """Issue 33 §1.1: `compare`, the Compare page and the report's verdict tested the first output while `metrics`
    and the report's headline averaged the outputs. Now all three test the average: the same test, p-value and
    sentence (so the same winner), b — whose average MAE (0.5) beats a's (5.0), as the recommendation says."""
    from assess.cli import main
    from assess.inputs.assessment import describe
    from assess.inputs.read import read_table
    from assess.present.report.model import ReportOptions, build_report
    from assess.analyses.compare_view import test_title
    from tests.stats.test_outputs import ISSUE_FILE

    report = build_report(describe(read_table(ISSUE_FILE.encode(), name="two_outputs.csv")),
                          ReportOptions(charts=False))
    verdict = report.comparisons[0]
    assert report.verdict.startswith(verdict.sentence) and report.recommendation.best == "b"
    path = tmp_path / "two_outputs.csv"
    path.write_text(ISSUE_FILE)
    assert main(["compare", str(path), "--test", "all"]) == 0
    assert json.loads(capsys.readouterr().out)["verdict"]["text"] == report.verdict   # the same one verdict
    assert main(["compare", str(path), "--test", verdict.test]) == 0
    cli = json.loads(capsys.readouterr().out)
    at = open_app()
    at.radio[0].set_value("Upload a file").run()
    at.file_uploader[0].upload("two_outputs.csv", ISSUE_FILE.encode(), "text/csv").run()
    at.switch_page("views/compare.py").run()
    choose(at, "Test", verdict.test)
    run_test(at)
    page = at.dataframe[1].value
    assert cli["test"] == verdict.test and cli["pvalue"] == pytest.approx(verdict.result.pvalue)
    assert page["pvalue"].iloc[0] == pytest.approx(verdict.result.pvalue)
    assert cli["sentence"] == read(at.success[0]) == verdict.sentence
    assert report.verdict.startswith("b's ")
    [every] = [b for b in at.button if b.label == "Run all suitable tests"]
    every.click().run()
    shown = read(at.success[0]) + " " + read(at.warning[0])   # "Run all": the verdict, then where tests disagree
    assert shown == f"Verdict ({test_title(verdict.test)}): {report.verdict}"


def test_run_all_on_folds_gives_one_verdict_the_disagreement_assumptions_and_the_cd_diagram(page):
    """Issue 33 §1.4: on 3 models × 5 folds Friedman said 1 of 3 pairs differ and the paired t-tests 3 of 3, with no
    one answer; "Run all" showed neither the assumptions nor the critical difference diagram. The verdict follows
    Friedman (the test for k ≥ 3 models on the same folds) and names the pairs the t-tests call otherwise. Oracle for
    the disagreement: SciPy's Friedman test and paired t-tests on the same table."""
    rng = np.random.default_rng(1)
    rows = []
    for f in range(5):
        base = rng.normal(0.8, 0.03)
        rows += [{"model": m, "fold": f, "auc": base + 0.012 * j + rng.normal(0, 0.004)} for j, m in enumerate("ABC")]
    frame = pd.DataFrame(rows)
    wide = frame.pivot(index="fold", columns="model", values="auc")
    assert sps.friedmanchisquare(*(wide[m] for m in "ABC")).pvalue < 0.05
    assert all(sps.ttest_rel(wide[a], wide[b]).pvalue < 0.05 / 3 for a, b in (("A", "B"), ("B", "C")))
    [source] = [r for r in page.radio if r.label == "Compare models from"]
    source.set_value("per-fold scores I upload").run()
    page.file_uploader(key="fold_upload").upload("cv.csv", frame.to_csv(index=False).encode(), "text/csv").run()
    [button] = [b for b in page.button if b.label == "Run all suitable tests"]
    button.click().run()
    assert not page.exception
    verdict = read(page.success[0])
    assert verdict.startswith("Verdict (Friedman test with Nemenyi post-hoc): Over 5 folds, C ranks best on auc")
    assert any("three or more models over the same folds" in read(c) for c in page.caption)
    [disagreement] = [read(w) for w in page.warning]
    assert disagreement.startswith("The tests disagree on A vs B: significant by the corrected resampled t-test and "
                                   "the paired t-test, not by the Friedman test with Nemenyi post-hoc")
    labels = [e.label for e in page.expander]
    assert "Assumptions of the Paired t-test" in labels and "Assumptions of the Friedman test with Nemenyi post-hoc" \
        in labels
    assert any(t.startswith("Critical difference diagram — auc") for t in chart_titles(page))


def test_the_why_caption_ends_as_a_sentence(page):
    """Issue-33 walk: the caption under the Test select stopped mid-air ("… exact binomial test on the disagreements")."""
    [metric] = [s for s in page.selectbox if s.label == "Metric"]
    metric.set_value("accuracy").run()                        # McNemar's test first
    [caption] = [c.value.replace("\\", "") for c in page.caption if "Why this test" in c.value]
    assert caption.endswith("on the disagreements.")


def test_suitable_tests_wrap_their_reasons_within_1024(page):
    """Walk at 1024 px: the "Why" column was cut at the table's edge and the table scrolled sideways. The reasons
    wrap instead: the columns together fit the table's room at 1024 px and the rows are tall enough for the longest
    reason's lines (the grid's line pitch, 18.2 px after a 13 px first line and 3 px above and below, measured)."""
    from ui import widgets

    [table] = [t for t in page.dataframe if list(t.value.columns) == ["test", "kind", "recommended", "why"]]
    columns = json.loads(table.proto.columns)
    assert sum(columns[c]["width"] for c in ("test", "kind", "recommended", "why")) <= widgets.TABLE_FIT_PX
    lines = max(widgets.wrapped_lines(why, columns["why"]["width"]) for why in table.value["why"])
    assert lines > 1 and table.proto.row_height >= 13 + 18.2 * (lines - 1) + 6
