"""Side-by-side tables, best model per metric and the plain-language sentences."""

import numpy as np
import pytest

from assess.core.data import Predictions, Task
from assess.metrics import evaluate
from assess.present.summary import about, best_models, comparison_frame, headline_sentences, long_frame, model_frame


def binary(y_pred, model):
    y = np.array([1, 1, 1, 1, 0, 0, 0, 0, 0, 0], dtype=np.int8)
    return model, evaluate(Predictions(Task.BINARY, ("no", "yes"), y, np.array(y_pred, dtype=np.int8), model=model),
                           ["recall", "precision", "fpr", "n"])


@pytest.fixture
def reports():
    return dict([binary([1, 1, 1, 0, 0, 0, 0, 0, 0, 1], "a"), binary([1, 1, 0, 0, 0, 0, 0, 0, 0, 0], "b")])


def test_best_models_follow_direction(reports):
    assert best_models(reports, "recall") == {"a"}        # 3/4 vs 2/4, higher is better
    assert best_models(reports, "precision") == {"b"}     # 3/4 vs 2/2
    assert best_models(reports, "fpr") == {"b"}           # 1/6 vs 0/6, lower is better
    assert best_models(reports, "n") == set()             # a count has no direction


def test_comparison_frame_marks_best(reports):
    frame = comparison_frame(reports).set_index("key")
    assert frame.loc["recall", "a"] == "0.750 ★" and frame.loc["recall", "b"] == "0.500"
    assert frame.loc["n", "a"] == "10"
    assert list(long_frame(reports)["model"].unique()) == ["a", "b"]


def test_sentences(reports):
    sentences = headline_sentences(reports, positive="fraud")
    assert sentences[0] == ("Model a's recall is 0.750 (no interval): it finds about 3 in 4 fraud cases; always "
                            "predicting the majority class finds none.")
    assert "it is right every time (precision 1.000)" in sentences[3]
    # a model named inside a sentence is "model a", not "Model a"
    assert sentences[3].startswith("When model b flags a case as fraud")


def test_a_precision_near_one_half_reads_about_half_the_time():
    y_pred = [1, 1, 0, 0, 1, 1, 0, 0, 0, 0]        # 2 of its 4 flags right
    sentences = headline_sentences(dict([binary(y_pred, "c")]), positive="fraud")
    assert any("it is right about half the time (precision 0.500)" in s for s in sentences), sentences


@pytest.mark.parametrize("value,words", [(0.82, "about 4 in 5"), (0.25, "about 1 in 4"), (0.66, "about 2 in 3"),
                                          (0.96, "almost all"), (0.0, "none")])
def test_about(value, words):
    assert about(value) == words


def test_model_frame_formats_for_reading(reports):
    frame = model_frame(reports["b"]).set_index("metric")
    assert frame.loc["Rows", "value"] == "10"
    assert frame.loc["Recall (sensitivity)", "majority"] == "0.000"  # the majority class (negative) finds none


def test_regression_sentences_in_the_units_of_y_true():
    import numpy as np
    from sklearn.metrics import mean_absolute_error

    from assess.core.data import Predictions, Task
    from assess.metrics import evaluate
    from assess.present.summary import headline_sentences, model_frame

    y = np.array([10.0, 20.0, 30.0, 40.0])
    yp = np.array([12.0, 18.0, 33.0, 45.0])
    report = evaluate(Predictions(Task.REGRESSION, (), y, yp, model="ridge"))
    sentences = headline_sentences({"ridge": report}, units="kg")
    mae = mean_absolute_error(y, yp)                                            # 3.0
    mean_predictor = mean_absolute_error(y, np.full(4, y.mean()))               # 10.0
    assert sentences[0] == (f"Model ridge's predictions are off by {mae:.3f} kg on average (MAE); the mean "
                            f"predictor (always the mean of y_true) is off by {mean_predictor:.2f} kg.")
    assert sentences[1] == "Model ridge over-predicts by 2.000 kg on average (mean error 2.000)."  # (2-2+3+5)/4
    assert list(model_frame(report).columns) == ["metric", "value", "interval", "method", "mean", "median", "remark"]


def test_a_bias_whose_interval_includes_zero_is_no_clear_bias():
    from types import MappingProxyType

    from assess.core.data import Task
    from assess.metrics.evaluate import MetricReport, MetricResult
    from assess.present.summary import headline_sentences

    def report(low, high):
        bias = MetricResult("mean_error", "Mean error (bias)", -0.5, low, high, "bootstrap", baselines=MappingProxyType({}))
        return MetricReport(Task.REGRESSION, "m", 10, (), (bias,), None, MappingProxyType({}), "bootstrap", 0.95, 100, 0)

    assert headline_sentences({"m": report(-1.2, 0.3)}) == [
        "Model m shows no clear bias: its mean error -0.500 has a 95% CI of -1.200 to 0.300, which includes 0."]
    assert headline_sentences({"m": report(-0.9, -0.1)}) == [
        "Model m under-predicts by 0.500 on average (mean error -0.500, 95% CI -0.900 to -0.100)."]


def test_interval_rows_hold_the_cells_of_the_inline_table():
    """``interval_rows=True`` (the clustering table on a narrow screen) splits each "value (low–high) ★" cell of the
    one-row layout into the value row and a "95% interval" row under it; a metric without an interval (the count)
    gets none. Oracle: the inline table of the same reports."""
    def wilson(y_pred, model):
        y = np.array([1, 1, 1, 1, 0, 0, 0, 0, 0, 0], dtype=np.int8)
        return model, evaluate(Predictions(Task.BINARY, ("no", "yes"), y, np.array(y_pred, dtype=np.int8),
                                           model=model), ["recall", "precision", "n"], ci="wilson")
    reports = dict([wilson([1, 1, 1, 0, 0, 0, 0, 0, 0, 1], "a"), wilson([1, 1, 0, 0, 0, 0, 0, 0, 0, 0], "b")])
    inline = comparison_frame(reports)
    rows = comparison_frame(reports, interval_rows=True)
    assert list(rows["metric"]) == ["Recall (sensitivity)", "95% interval", "Precision", "95% interval", "Rows"]
    assert list(rows["key"]) == ["recall", "", "precision", "", "n"]
    for key in ("recall", "precision"):
        at = rows.index[rows["key"] == key][0]
        for model in reports:
            value, star = rows.loc[at, model].removesuffix(" ★"), rows.loc[at, model].endswith("★")
            expected = f"{value} ({rows.loc[at + 1, model]})" + (" ★" if star else "")
            assert inline.set_index("key").loc[key, model] == expected
