"""Multi-output regression (`y_true_<name>`/`y_pred_<name>` pairs): roles, encoding per output, the per-output,
uniform and variance-weighted values against scikit-learn's ``multioutput`` as the oracle, the joint bootstrap, the
CLI JSON and the Metrics and Errors pages."""

import io
import json
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from sklearn import metrics as skm

from assess.cli import main
from assess.core.data import Predictions, Task
from assess.core.errors import AssessError
from assess.inputs.assessment import describe
from assess.inputs.read import read_table
from assess.inputs.roles import Overrides
from assess.metrics.evaluate import evaluate
from assess.metrics.multioutput import evaluate_output_predictions, evaluate_outputs
from assess.metrics.reports import compute_output_reports, compute_reports
from tests.conftest import open_app
from tests.views.test_errors import figures, values

ORACLES = {"mae": skm.mean_absolute_error, "mse": skm.mean_squared_error, "r2": skm.r2_score,
           "explained_variance": skm.explained_variance_score}
VARIANCE_WEIGHTED = ("r2", "explained_variance")


def multi_output_frame(n=120, seed=0, *, models=("ridge",), weight=False, prefix=("y_true_", "y_pred_")):
    """Three outputs on very different scales (so uniform and variance-weighted averages differ)."""
    rng = np.random.default_rng(seed)
    truth = {"price": rng.normal(100, 20, n), "volume": rng.gamma(2.0, 3.0, n), "share": rng.uniform(0, 1, n)}
    parts = []
    for i, model in enumerate(models):
        part = {"model": model} if len(models) > 1 else {}
        for name, y in truth.items():
            noise = rng.normal(0, (0.4 + 0.3 * i) * y.std(), n)
            part[f"{prefix[0]}{name}"] = y
            part[f"{prefix[1]}{name}"] = y + noise + 0.1 * y.std()
        if weight:
            part["weight"] = rng.uniform(0.2, 3.0, n)
        parts.append(pd.DataFrame(part))
    return pd.concat(parts, ignore_index=True)


def assess_frame(frame, name="multi.csv"):
    return describe(read_table(frame.to_csv(index=False).encode(), name=name))


def matrices(frame, names=("price", "volume", "share")):
    return (frame[[f"y_true_{n}" for n in names]].to_numpy(), frame[[f"y_pred_{n}" for n in names]].to_numpy())


# --- roles, task, validation -------------------------------------------------------------------------------------

def test_pairs_become_outputs_with_a_reason_and_the_task_is_regression():
    a = assess_frame(multi_output_frame(models=("ridge", "forest")))
    assert a.task is Task.REGRESSION and "3 outputs" in a.task_reason
    assert a.outputs == ("price", "volume", "share") and a.models == ("ridge", "forest")
    assert a.roles.outputs[0] == ("price", "y_true_price", "y_pred_price")
    assert a.roles.reason("outputs").startswith("3 column pairs `y_true_<name>`/`y_pred_<name>`")
    assert not a.roles.wide_models and not a.roles.true_labels and a.roles.y_true is None
    assert {"role": "outputs", "columns": ["y_true_price", "y_pred_price", "y_true_volume", "y_pred_volume",
                                            "y_true_share", "y_pred_share"],
            "reason": a.roles.reason("outputs")} in a.roles.table()
    assert a.to_dict()["outputs"] == ["price", "volume", "share"]
    assert not a.errors


def test_continuous_true_pred_pairs_are_outputs():
    a = assess_frame(multi_output_frame(prefix=("true_", "pred_")))
    assert a.task is Task.REGRESSION and a.outputs == ("price", "volume", "share")
    assert "holding continuous numbers" in a.roles.reason("outputs")


def test_a_single_pair_is_the_files_truth_and_prediction():
    regression = assess_frame(multi_output_frame()[["y_true_price", "y_pred_price"]])
    assert regression.outputs == () and regression.task is Task.REGRESSION
    assert (regression.roles.y_true, regression.roles.y_pred) == ("y_true_price", "y_pred_price")
    labels = describe(read_table(b"y_true_label,y_pred_label\ncat,dog\ndog,dog\ncat,cat\n", name="c.csv"))
    assert labels.task is Task.BINARY and labels.roles.reason("y_true").endswith("the ground truth")


def test_multilabel_indicator_columns_stay_multilabel():
    """0/1 `true_<label>`/`pred_<label>` columns are the multi-label path of tests/inputs/test_assessment.py, unchanged."""
    text = "true_news,true_sport,pred_news,pred_sport,score_news,score_sport\n" + "\n".join(
        f"{i % 2},{(i // 2) % 2},{(i // 3) % 2},{i % 2},0.{i % 9 + 1},0.{(i + 3) % 9 + 1}" for i in range(40))
    a = describe(read_table(text.encode(), name="ml.csv"))
    assert a.task is Task.MULTILABEL and a.outputs == ()
    assert [lab for lab, _ in a.roles.true_labels] == ["news", "sport"]
    assert [lab for lab, _ in a.roles.pred_labels] == ["news", "sport"]
    # one continuous pair among indicator columns does not turn the file into a regression
    mixed = pd.read_csv(io.StringIO(text)).assign(true_price=np.linspace(0.5, 9.5, 40),
                                                                 pred_price=np.linspace(1.5, 8.5, 40))
    assert assess_frame(mixed).task is Task.MULTILABEL


def test_choosing_a_target_makes_a_single_output_file():
    frame = multi_output_frame()
    overrides = Overrides().with_role("y_true", "y_true_volume").with_role("y_pred", "y_pred_volume")
    a = describe(read_table(frame.to_csv(index=False).encode(), name="m.csv"), overrides)
    assert a.outputs == () and a.task is Task.REGRESSION and a.roles.reason("y_true") == "set by you"
    np.testing.assert_array_equal(a.predictions().y_pred, frame.y_pred_volume.to_numpy())


def test_a_text_cell_in_an_output_is_an_error_naming_the_column_and_row():
    frame = multi_output_frame(n=30).astype({"y_pred_volume": object})
    frame.loc[4, "y_pred_volume"] = "n/a?"
    a = assess_frame(frame)
    [error] = a.errors
    assert error.column == "y_pred_volume" and error.rows == (5,) and "prediction of output `volume`" in error.message
    with pytest.raises(AssessError, match="fix the errors"):
        a.predictions(output="volume")


def test_an_unpaired_output_column_is_a_warning():
    a = assess_frame(multi_output_frame(n=30).assign(y_true_extra=1.5))
    [warning] = [p for p in a.warnings if p.code == "unpaired_output"]
    assert warning.column == "y_true_extra" and a.outputs == ("price", "volume", "share")


# --- encoding ----------------------------------------------------------------------------------------------------

def test_each_output_encodes_as_ordinary_regression_predictions():
    frame = multi_output_frame(models=("ridge", "forest"))
    a = assess_frame(frame)
    rows = frame[frame.model == "forest"]
    pred = a.predictions("forest", output="volume")
    assert pred.task is Task.REGRESSION and pred.target == "y_true_volume" and pred.model == "forest"
    np.testing.assert_array_equal(pred.y_true, rows.y_true_volume.to_numpy())
    np.testing.assert_array_equal(pred.y_pred, rows.y_pred_volume.to_numpy())
    # no output: the first one (documented in Assessment.predictions)
    np.testing.assert_array_equal(a.predictions("forest").y_true, rows.y_true_price.to_numpy())
    with pytest.raises(AssessError, match="no output `nope`.*outputs: `price`, `volume`, `share`"):
        a.predictions(output="nope")
    single = assess_frame(pd.DataFrame({"y_true": [1.5, 2.5, 3.5], "y_pred": [1.0, 2.0, 4.0]}))
    with pytest.raises(AssessError, match="single target"):
        single.predictions(output="price")


# --- values against scikit-learn ---------------------------------------------------------------------------------

@pytest.mark.parametrize("weighted", [False, True])
def test_per_output_uniform_and_variance_weighted_match_sklearn(weighted):
    frame = multi_output_frame(weight=weighted, seed=3)
    a = assess_frame(frame)
    r = evaluate_outputs(a, keys=list(ORACLES))
    Y, P = matrices(frame)
    w = frame["weight"].to_numpy() if weighted else None
    for key, oracle in ORACLES.items():
        raw = oracle(Y, P, sample_weight=w, multioutput="raw_values")
        got = [r.by_output[name][key].value for name in a.outputs]
        np.testing.assert_allclose(got, raw, rtol=1e-9, atol=1e-9, err_msg=key)
        assert r.average[key].value == pytest.approx(oracle(Y, P, sample_weight=w, multioutput="uniform_average"),
                                                     rel=1e-9, abs=1e-9), key
    for key in VARIANCE_WEIGHTED:
        expected = ORACLES[key](Y, P, sample_weight=w, multioutput="variance_weighted")
        assert r.variance_weighted[key].value == pytest.approx(expected, rel=1e-9, abs=1e-9), key
    # the scales differ a lot, so the two averages are not the same number (the test can tell them apart)
    assert abs(r.variance_weighted["r2"].value - r.average["r2"].value) > 1e-3
    assert set(r.variance_weighted) == set(VARIANCE_WEIGHTED)


def test_rmse_average_is_the_mean_of_the_outputs_rmse_as_sklearn():
    frame = multi_output_frame(seed=5)
    r = evaluate_outputs(assess_frame(frame), keys=["rmse"])
    Y, P = matrices(frame)
    assert r.average["rmse"].value == pytest.approx(skm.root_mean_squared_error(Y, P), rel=1e-9)


def test_a_constant_output_makes_r2_undefined_on_average_and_drops_from_the_variance_weighting():
    frame = multi_output_frame(seed=1).assign(y_true_share=0.5)
    r = evaluate_outputs(assess_frame(frame), keys=["r2", "mae"])
    assert np.isnan(r.by_output["share"]["r2"].value)
    assert np.isnan(r.average["r2"].value) and "undefined for output `share`" in r.average["r2"].reason
    assert np.isfinite(r.average["mae"].value)
    Y, P = matrices(frame)
    # scikit-learn gives the constant output weight 0: the variance-weighted value is the other two outputs'
    assert r.variance_weighted["r2"].value == pytest.approx(skm.r2_score(Y, P, multioutput="variance_weighted"),
                                                            rel=1e-9)
    all_constant = frame.assign(y_true_price=1.0, y_true_volume=2.0)
    r = evaluate_outputs(assess_frame(all_constant), keys=["r2"])
    assert np.isnan(r.variance_weighted["r2"].value) and "constant" in r.variance_weighted["r2"].reason


def test_baselines_of_the_averages_are_the_averages_of_the_baselines():
    frame = multi_output_frame(seed=2)
    r = evaluate_outputs(assess_frame(frame), keys=["mae", "r2"])
    Y, _ = matrices(frame)
    mean_mae = np.mean([skm.mean_absolute_error(Y[:, j], np.full(len(Y), Y[:, j].mean())) for j in range(3)])
    assert r.average["mae"].baselines["mean"] == pytest.approx(mean_mae, rel=1e-9)
    assert r.variance_weighted["r2"].baselines["mean"] == pytest.approx(0.0, abs=1e-12)


# --- the joint bootstrap -----------------------------------------------------------------------------------------

def _naive_joint_percentiles(frame, n_resamples, seed_child, keys, level=0.95):
    """Slow oracle: draw rows with numpy's multinomial counts one resample at a time, recompute with scikit-learn."""
    Y, P = matrices(frame)
    n = len(Y)
    rng = np.random.default_rng(seed_child)
    out = {k: [] for k in keys}
    for _ in range(n_resamples):
        idx = rng.integers(0, n, n)
        for key in keys:
            out[key].append(ORACLES[key](Y[idx], P[idx]))
    a = (1 - level) / 2
    return {k: np.quantile(v, [a, 1 - a]) for k, v in out.items()}


def test_average_intervals_resample_all_outputs_together_and_are_seeded():
    frame = multi_output_frame(n=150, seed=4)
    a = assess_frame(frame)
    options = dict(keys=["mae", "r2"], ci="bootstrap", n_resamples=400, seed=11)
    r = evaluate_outputs(a, **options)
    again = evaluate_outputs(a, **options)
    for key in ("mae", "r2"):
        res = r.average[key]
        assert res.low < res.value < res.high and "all 3 outputs resampled together" in res.method
        assert (res.low, res.high) == (again.average[key].low, again.average[key].high)
    vw = r.variance_weighted["r2"]
    assert vw.low < vw.value < vw.high
    # an independent, slow bootstrap of the same statistic agrees in distribution (different draws): the interval
    # ends within a few hundredths of the interval's width
    naive = _naive_joint_percentiles(frame, 2000, 123, ["mae", "r2"])
    for key in ("mae", "r2"):
        width = naive[key][1] - naive[key][0]
        assert abs(r.average[key].low - naive[key][0]) < 0.25 * width, key
        assert abs(r.average[key].high - naive[key][1]) < 0.25 * width, key
    # a method that does not apply gives no interval and says so
    r = evaluate_outputs(a, keys=["mae"], ci="wilson")
    assert np.isnan(r.average["mae"].low) and "no wilson interval" in r.average["mae"].note


@pytest.mark.parametrize(("weighted", "method"), [(False, "percentile"), (True, "bca")])
def test_each_outputs_interval_is_the_one_evaluate_gives_it_alone(weighted, method):
    """The joint run draws what evaluate() draws for one output (same seed child): the same interval, to 1e-12."""
    frame = multi_output_frame(n=90, seed=12, weight=weighted).assign(y_true_share=lambda f: f.y_true_share.round(1))
    frame.loc[3, "y_true_share"] = 0.0  # mape of `share` is undefined: no interval, in both
    a = assess_frame(frame)
    options = dict(ci="bootstrap", n_resamples=150, seed=4, bootstrap_method=method)
    joint = evaluate_outputs(a, **options)
    for name in a.outputs:
        alone = evaluate(a.predictions(output=name), **options)
        for r in alone.results:
            mine = joint.by_output[name][r.key]
            np.testing.assert_equal(mine.value, r.value, err_msg=f"{name} {r.key}")   # NaN equals NaN here
            assert (mine.method, mine.reason) == (r.method, r.reason), (name, r.key)
            np.testing.assert_allclose([mine.low, mine.high], [r.low, r.high], rtol=1e-12, atol=1e-12,
                                       err_msg=f"{name} {r.key}")
    assert np.isnan(joint.by_output["share"]["mape"].low) and joint.by_output["share"]["mape"].reason


def test_outputs_must_share_their_rows():
    a = assess_frame(multi_output_frame(n=40))
    short = a.predictions(output="volume")
    cut = replace(short, y_true=short.y_true[:10], y_pred=short.y_pred[:10])
    with pytest.raises(ValueError, match="share their rows"):
        evaluate_output_predictions({"price": a.predictions(output="price"), "volume": cut})


def test_compute_reports_gives_the_uniform_average_per_model():
    frame = multi_output_frame(models=("ridge", "forest"), seed=6)
    a = assess_frame(frame)
    reports = compute_reports(a, keys=["mse"])
    full = compute_output_reports(a, keys=["mse"])
    for model, rows in frame.groupby("model"):
        Y, P = matrices(rows)
        assert reports[model]["mse"].value == pytest.approx(skm.mean_squared_error(Y, P), rel=1e-9)
        assert full[model].by_output["share"]["mse"].value == pytest.approx(
            skm.mean_squared_error(Y[:, 2], P[:, 2]), rel=1e-9)


# --- command line ------------------------------------------------------------------------------------------------

def test_cli_json_has_the_average_each_output_and_the_variance_weighted_averages(tmp_path, capsys):
    frame = multi_output_frame(models=("ridge", "forest"), weight=True, seed=7)
    path = tmp_path / "multi.csv"
    frame.to_csv(path, index=False)
    assert main(["metrics", str(path), "--metrics", "mae", "r2", "explained_variance"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["task"] == "regression" and doc["outputs"] == ["price", "volume", "share"]
    for model, rows in frame.groupby("model"):
        Y, P = matrices(rows)
        w = rows["weight"].to_numpy()
        assert doc["models"][model]["mae"] == pytest.approx(skm.mean_absolute_error(Y, P, sample_weight=w), rel=1e-9)
        for j, name in enumerate(("price", "volume", "share")):
            assert doc["by_output"][model][name]["r2"] == pytest.approx(
                skm.r2_score(Y[:, j], P[:, j], sample_weight=w), rel=1e-9)
        for key in VARIANCE_WEIGHTED:
            assert doc["variance_weighted"][model][key] == pytest.approx(
                ORACLES[key](Y, P, sample_weight=w, multioutput="variance_weighted"), rel=1e-9)
    assert main(["metrics", str(path), "--metrics", "mae", "--ci", "bootstrap", "--resamples", "100"]) == 0
    doc = json.loads(capsys.readouterr().out)
    cell = doc["by_output"]["ridge"]["volume"]["mae"]
    assert cell["low"] < cell["value"] < cell["high"]
    assert set(doc["models"]["ridge"]["mae"]) == {"value", "low", "high"}
    assert main(["metrics", str(path), "--metrics", "r2", "--format", "csv"]) == 0
    rows = pd.read_csv(io.StringIO(capsys.readouterr().out)).set_index(["model", "output", "key"])["value"]
    forest = frame[frame.model == "forest"]
    Y, P = matrices(forest)
    w = forest["weight"].to_numpy()
    assert rows["forest", "(uniform average)", "r2"] == pytest.approx(skm.r2_score(Y, P, sample_weight=w), rel=1e-9)
    assert rows["forest", "(variance-weighted average)", "r2"] == pytest.approx(
        skm.r2_score(Y, P, sample_weight=w, multioutput="variance_weighted"), rel=1e-9)
    assert rows["forest", "volume", "r2"] == pytest.approx(skm.r2_score(Y[:, 1], P[:, 1], sample_weight=w), rel=1e-9)
    assert main(["metrics", str(path), "--metrics", "r2", "--format", "table"]) == 0
    table = capsys.readouterr().out
    assert "forest  output share  (n = 120)" in table and "ridge  output (uniform average)" in table


# --- pages -------------------------------------------------------------------------------------------------------

def _upload(frame):
    at = open_app()
    at.radio[0].set_value("Upload a file").run()
    at.file_uploader[0].upload("multi.csv", frame.to_csv(index=False).encode(), "text/csv").run()
    assert not at.exception
    return at


def test_metrics_page_offers_each_output_and_the_average():
    frame = multi_output_frame(models=("ridge", "forest"), seed=8)
    at = _upload(frame).switch_page("views/metrics.py").run()
    assert not at.exception
    [output] = [s for s in at.selectbox if s.label == "Output"]
    assert output.options == ["All outputs (average)", "price", "volume", "share"]
    [ci] = [s for s in at.selectbox if s.label == "Confidence interval"]
    ci.set_value("none").run()
    assert not at.exception
    comparison = at.dataframe[0].value.set_index("key")
    for model, rows in frame.groupby("model"):
        Y, P = matrices(rows)
        assert comparison.loc["r2", model].startswith(f"{skm.r2_score(Y, P):.3f}"), model
    assert "Variance-weighted averages" in [s.value for s in at.subheader]
    weighted = at.dataframe[1].value.set_index("key")
    Y, P = matrices(frame[frame.model == "ridge"])
    assert weighted.loc["r2", "ridge"].startswith(f"{skm.r2_score(Y, P, multioutput='variance_weighted'):.3f}")
    [output] = [s for s in at.selectbox if s.label == "Output"]
    output.set_value("volume").run()
    assert not at.exception
    comparison = at.dataframe[0].value.set_index("key")
    for model, rows in frame.groupby("model"):
        expected = skm.r2_score(rows.y_true_volume, rows.y_pred_volume)
        assert comparison.loc["r2", model].startswith(f"{expected:.3f}"), model
    assert "Variance-weighted averages" not in [s.value for s in at.subheader]


def test_errors_page_charts_the_chosen_output():
    frame = multi_output_frame(seed=9)
    frame_name = "multi"   # a single-model file's model is named after the file
    at = _upload(frame).switch_page("views/errors.py").run()
    assert not at.exception
    [output] = [s for s in at.selectbox if s.label == "Output"]
    assert output.options == ["price", "volume", "share"]
    for name in ("price", "share"):
        [output] = [s for s in at.selectbox if s.label == "Output"]
        output.set_value(name).run()
        assert not at.exception
        drawn = figures(at)["Predicted against actual"]
        points = next(t for t in drawn["data"] if str(t.get("name", "")).startswith(frame_name))
        np.testing.assert_allclose(values(points["x"]), frame[f"y_true_{name}"].to_numpy())
        np.testing.assert_allclose(values(points["y"]), frame[f"y_pred_{name}"].to_numpy())


# --- property: any shape, weights or not ------------------------------------------------------------------------

@st.composite
def output_matrices(draw):
    n = draw(st.integers(3, 40))
    k = draw(st.integers(2, 4))
    seed = draw(st.integers(0, 2**16))
    rng = np.random.default_rng(seed)
    Y = rng.normal(0, rng.uniform(0.1, 50, k), (n, k)).round(draw(st.sampled_from([1, 3, 8])))
    P = Y + rng.normal(0, 1, (n, k))
    w = rng.uniform(0, 3, n) if draw(st.booleans()) else None
    return Y, P, w


@settings(max_examples=40, deadline=None)
@given(output_matrices())
def test_averages_match_sklearn_on_any_shape(data):
    Y, P, w = data
    assume(w is None or w.sum() > 0)
    preds = {f"o{j}": Predictions(Task.REGRESSION, (), Y[:, j], P[:, j], None, weight=w, model="m")
             for j in range(Y.shape[1])}
    variances = np.array([np.average((Y[:, j] - np.average(Y[:, j], weights=w)) ** 2, weights=w)
                          for j in range(Y.shape[1])])
    r = evaluate_output_predictions(preds, list(ORACLES), baselines=False)
    for key, oracle in ORACLES.items():
        raw = oracle(Y, P, sample_weight=w, multioutput="raw_values")
        defined = np.isfinite([r.by_output[n][key].value for n in preds])
        if defined.all():
            np.testing.assert_allclose(r.average[key].value, oracle(Y, P, sample_weight=w), rtol=1e-9, atol=1e-9)
        else:  # scikit-learn's force_finite puts 1.0/0.0 where we say undefined
            assert key in VARIANCE_WEIGHTED and np.isnan(r.average[key].value) and r.average[key].reason
            assert np.all(variances[~defined] <= 1e-12 * max(1.0, variances.max())), raw
        if key in VARIANCE_WEIGHTED and np.any(variances > 0) and defined[variances > 0].all():
            np.testing.assert_allclose(r.variance_weighted[key].value,
                                       oracle(Y, P, sample_weight=w, multioutput="variance_weighted"),
                                       rtol=1e-9, atol=1e-9)


def test_compare_page_tests_the_chosen_output():
    from scipy import stats as sps

    from tests.views.test_compare import choose, read, run_test

    frame = multi_output_frame(models=("ridge", "forest"), seed=10)
    at = _upload(frame).switch_page("views/compare.py").run()
    assert not at.exception
    [output] = [s for s in at.selectbox if s.label == "Output"]
    assert output.options == ["Average over the 3 outputs", "price", "volume", "share"]   # the average first
    assert output.value is None
    ridge, forest = (frame[frame.model == m] for m in ("ridge", "forest"))
    for name in ("volume", "share"):
        choose(at, "Output", name)
        choose(at, "Test", "paired_t")
        run_test(at)
        errors = [np.abs(m[f"y_pred_{name}"] - m[f"y_true_{name}"]).to_numpy() for m in (ridge, forest)]
        expected = sps.ttest_rel(*errors)
        sentence = read(at.success[0])
        assert f"{abs(np.mean(errors[0] - errors[1])):.3g}" in sentence, (name, sentence)
        low, high = sorted(abs(b) for b in expected.confidence_interval())   # ridge − forest < 0: ridge is better
        assert f"CI {low:.3g} to {high:.3g}" in sentence and "ridge's predictions are off by" in sentence, sentence


# --- ci="auto": the one layer's choice per output and for the averages -------------------------------------------

def test_auto_gives_each_output_its_own_layer_interval_and_analytic_averages_where_they_extend():
    """Under auto each output's interval is evaluate()'s on that output alone (t, delta, order statistics); the
    uniform MAE is SciPy's t interval of the per-row average |error| over the outputs, R²'s is the delta method on
    the averaged pseudo-values; the average RMSE (no function of one mean) is bootstrapped by the sequential rule."""
    from scipy import stats
    frame = multi_output_frame(n=200, seed=7)
    a = assess_frame(frame)
    options = dict(keys=["mae", "rmse", "r2", "median_absolute_error"], ci="auto", n_resamples=5000, seed=2)
    r = evaluate_outputs(a, **options)
    for name in a.outputs:
        alone = evaluate(a.predictions(output=name), **options)
        for res in alone.results:
            mine = r.by_output[name][res.key]
            assert (mine.low, mine.high, mine.method) == (res.low, res.high, res.method), (name, res.key)
    Y, P = matrices(frame)
    per_row = np.abs(Y - P).mean(axis=1)
    low, high = stats.t.interval(0.95, len(per_row) - 1, loc=per_row.mean(), scale=stats.sem(per_row))
    assert (r.average["mae"].low, r.average["mae"].high) == pytest.approx((low, high), rel=1e-12)
    assert r.average["mae"].method.startswith("t") and "average per-row value" in r.average["mae"].method
    assert r.average["r2"].method.startswith("delta-method") and r.average["r2"].low < r.average["r2"].value
    rmse = r.average["rmse"].method
    # the sequential rule ran (its Monte-Carlo error is recorded; these outputs' scales keep it to the maximum)
    assert rmse.startswith("bootstrap-percentile") and "Monte-Carlo error of the bounds" in rmse
    assert "bootstrap-percentile" in r.variance_weighted["r2"].method


def test_delta_interval_of_the_average_r2_and_t_of_the_average_mae_cover_95_percent():
    """Seeded simulation, 1,500 data sets of 200 rows, two correlated outputs: y₁ ~ N(0, 1), y₂ = 0.6 y₁ + 0.8 z,
    ŷ₁ = 0.8 y₁ + N(0, 0.5²), ŷ₂ = y₂ + N(0, 0.8²) + 0.5 (ε₁ shared in part). True R²: 1 − (0.04 + 0.25) = 0.71 and
    1 − 0.64 − 0.25 = 0.11 (mean 0.41); true MAE: E|e| of the normal errors, √(2/π)·σ, averaged (the bias 0.5 of
    ŷ₂ enters through the folded normal's mean). Band ±1.5 % (Monte-Carlo SE 0.56 % at 1,500)."""
    from scipy import stats
    from assess.metrics.multioutput import _average_analytic
    from assess.metrics.registry import get
    from assess.core.data import Task
    rng = np.random.default_rng(32)
    S, n = 1500, 200
    r2, mae = get(Task.REGRESSION, "r2"), get(Task.REGRESSION, "mae")
    sd1 = np.sqrt(0.2 ** 2 + 0.5 ** 2)                    # e₁ = −0.2 y₁ + ε₁
    sd2 = 0.8
    folded = lambda mu, s: s * np.sqrt(2 / np.pi) * np.exp(-mu ** 2 / (2 * s ** 2)) + mu * (1 - 2 * stats.norm.cdf(-mu / s))  # noqa: E731
    true_mae = (folded(0.0, sd1) + folded(0.5, sd2)) / 2
    true_r2 = ((1 - sd1 ** 2) + (1 - sd2 ** 2 - 0.25)) / 2
    hits = {"r2": 0, "mae": 0}
    for _ in range(S):
        y1 = rng.normal(size=n)
        y2 = 0.6 * y1 + 0.8 * rng.normal(size=n)
        eps = rng.normal(size=n)
        p1 = 0.8 * y1 + 0.5 * eps
        p2 = y2 + 0.8 * (0.5 * eps + np.sqrt(0.75) * rng.normal(size=n)) + 0.5
        for key, spec, truth in (("r2", r2, true_r2), ("mae", mae, true_mae)):
            low, high, _ = _average_analytic(spec, "auto", [y1, y2], [p1, p2], None, 0.95)
            hits[key] += low <= truth <= high
    for key, h in hits.items():
        assert abs(h / S - 0.95) <= 0.015, (key, h / S)
