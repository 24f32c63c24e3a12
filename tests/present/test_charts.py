"""Charts as data: traces, arrays, axis titles, colours and sizes; no pixels (those are in tests/present/test_export.py)."""

import warnings

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
import pytest

from assess.present.charts import (OKABE_ITO, TEMPLATE, confusion_matrix_chart, model_colors,
                           most_confused_pairs, multilabel_confusion_chart, normalized_matrix)
from assess.present.charts.style import FONT_FAMILY

CLASSES = ["cat", "dog", "bird"]
MATRIX = np.array([[50, 3, 7], [10, 40, 0], [2, 8, 30]])


def _uses_our_template(fig: go.Figure) -> bool:
    return fig.layout.template == pio.templates[TEMPLATE]


# ------------------------------------------------------------------------------------------------------ style --

def test_template_has_our_fonts_and_palette():
    layout = pio.templates[TEMPLATE].layout
    assert layout.font.family == FONT_FAMILY and layout.font.size >= 12
    assert layout.xaxis.tickfont.size >= 12 and layout.legend.font.size >= 12
    assert list(layout.colorway) == list(OKABE_ITO)
    assert pio.templates.default != TEMPLATE  # registered, never made the global default


def test_model_colors_are_positional_stable_and_okabe_ito():
    colors = model_colors(["logreg", "gbm", "rf"])
    assert colors == {"logreg": OKABE_ITO[0], "gbm": OKABE_ITO[1], "rf": OKABE_ITO[2]}
    assert model_colors(["logreg", "gbm", "rf"]) == colors
    assert model_colors(["a", "a", "b"]) == {"a": OKABE_ITO[0], "b": OKABE_ITO[1]}


def test_ten_or_more_series_never_share_a_colour_and_dash():
    """Past eight series the palette does not repeat: 12 hues, then the same hues dashed (10, 20 and 48 classes)."""
    from assess.present.charts.style import series_style

    for n in (10, 20, 48):
        names = [f"class {i}" for i in range(n)]
        colors = model_colors(names)
        looks = {series_style(name, colors) for name in names}
        assert len(looks) == n
    ten = model_colors([f"c{i}" for i in range(10)])
    assert len(set(ten.values())) == 10 and {series_style(c, ten)[1] for c in ten} == {"solid"}


# -------------------------------------------------------------------------------------------- confusion matrix --


def test_long_class_names_take_two_short_lines_on_the_axes_and_stay_whole_in_the_hover():
    # found on a user walk: "Customer churned within 90 days" on one line took the width of a small matrix
    long = "Customer churned within 90 days"
    fig = confusion_matrix_chart(matrix=[[5, 1], [2, 7]], classes=["Stayed", long], colorbar=False)
    assert list(fig.layout.yaxis.ticktext) == ["Stayed", "Customer churned<br>within 90 days"]
    assert list(fig.layout.xaxis.ticktext) == ["Stayed", "Customer<br>churned<br>within 90…"]   # narrow columns
    wide = confusion_matrix_chart(matrix=[[5, 1], [2, 7]], classes=["Stayed", long])
    assert list(wide.layout.xaxis.ticktext) == list(wide.layout.yaxis.ticktext)
    assert all(c[0] in ("Stayed", long) for c in fig.data[0].customdata)     # the hover names the class in full
    cut = confusion_matrix_chart(matrix=[[5, 1], [2, 7]], classes=["a", "x " * 40])
    assert cut.layout.yaxis.ticktext[1].endswith("…") and all(len(line) <= 16 for line in
                                                              cut.layout.yaxis.ticktext[1].split("<br>"))


def test_confusion_matrix_counts_with_share_of_all():
    fig = confusion_matrix_chart(matrix=MATRIX, classes=CLASSES)
    assert _uses_our_template(fig)
    cells = fig.data[0]                                   # texts and hover at the cell centres, row-major
    assert list(fig.layout.xaxis.ticktext) == CLASSES and list(fig.layout.yaxis.ticktext) == CLASSES
    np.testing.assert_array_equal(np.array([c[2] for c in cells.customdata]).reshape(3, 3), MATRIX)
    assert cells.text[0] == f"50<br>{100 * 50 / MATRIX.sum():.1f}%"
    assert fig.layout.xaxis.title.text == "Predicted class" and fig.layout.yaxis.title.text == "True class"
    assert list(fig.layout.yaxis.range) == [2.5, -0.5]  # first class on top, in the order given


@pytest.mark.parametrize("normalize, cell, expected", [
    ("true", (1, 0), 10 / 50), ("pred", (1, 0), 10 / 62), ("all", (1, 0), 10 / 150),
])
def test_confusion_matrix_normalisations(normalize, cell, expected):
    fig = confusion_matrix_chart(matrix=MATRIX, classes=CLASSES, normalize=normalize)
    cells = fig.data[0]
    flat = cell[0] * 3 + cell[1]
    assert cells.customdata[flat][3] == pytest.approx(expected)
    assert cells.text[flat] == f"10<br>{100 * expected:.1f}%"
    assert [t.marker.cmax for t in fig.data if t.marker.showscale] == [1]


def test_normalised_rows_and_columns_sum_to_one_and_empty_rows_are_nan():
    m = np.array([[3, 1, 0], [0, 0, 0], [1, 1, 2]])
    np.testing.assert_allclose(np.nansum(normalized_matrix(m, normalize="true"), axis=1), [1, 0, 1])
    assert np.isnan(normalized_matrix(m, normalize="true")[1]).all()
    np.testing.assert_allclose(normalized_matrix(m, normalize="pred").sum(axis=0)[[0, 1, 2]], [1, 1, 1])
    text = confusion_matrix_chart(matrix=m, classes=CLASSES, normalize="true").data[0].text
    assert text[3] == "0<br>—"      # an empty row's share is undefined: the one placeholder (was an en dash)


def test_confusion_matrix_keeps_numeric_looking_class_names_categorical_and_in_order():
    fig = confusion_matrix_chart(matrix=MATRIX, classes=[10, 2, 1])
    assert [c[1] for c in fig.data[0].customdata[:3]] == ["10", "2", "1"]
    assert list(fig.layout.xaxis.ticktext) == ["10", "2", "1"] and list(fig.layout.xaxis.tickvals) == [0, 1, 2]


@pytest.mark.parametrize("colorbar", [True, False])
def test_a_class_named_by_punctuation_is_quoted_on_the_axes_and_plain_in_the_hover(colorbar):
    """A class called "." would be a speck on the axis: the ticks quote it, the hover names it as it is."""
    fig = confusion_matrix_chart(matrix=MATRIX, classes=[".", "-1", "other"], colorbar=colorbar)
    assert list(fig.layout.yaxis.ticktext) == ["‘.’", "-1", "other"]
    assert list(fig.layout.xaxis.ticktext) == ["‘.’", "-1", "other"]
    assert fig.data[0].customdata[0][0] == "."


def test_expected_cost_is_drawn_in_the_subtitle_as_given():
    """The chart draws the number it is given (assess.analyses.decision_costs computes it) to 4 significant digits."""
    fig = confusion_matrix_chart(matrix=MATRIX, classes=CLASSES, expected_cost=0.52)
    assert fig.layout.title.subtitle.text == "Expected cost per sample: 0.5200"


@pytest.mark.parametrize("kwargs, message", [
    (dict(matrix=np.ones((2, 3)), classes=["a", "b"]), r"square 2-D array \(got shape \(2, 3\)\)"),
    (dict(matrix=MATRIX, classes=["a", "b"]), "`classes` has 2 names but `matrix` is 3×3"),
    (dict(matrix=-MATRIX, classes=CLASSES), "finite counts >= 0"),
    (dict(matrix=MATRIX, classes=CLASSES, normalize="rows"), "`normalize` must be one of"),
])
def test_confusion_matrix_rejects_bad_input(kwargs, message):
    with pytest.raises(ValueError, match=message):
        confusion_matrix_chart(**kwargs)


def test_large_confusion_matrix_has_no_cell_text_but_keeps_hover():
    k = 25
    fig = confusion_matrix_chart(matrix=np.eye(k) * 10 + 1, classes=[f"c{i}" for i in range(k)])
    assert fig.data[0].text is None and "Count" in fig.data[0].hovertemplate


def test_most_confused_pairs():
    table = most_confused_pairs(MATRIX, CLASSES, top=3)
    assert list(table.columns) == ["true_class", "predicted_class", "count", "share_of_true_class"]
    assert table[["true_class", "predicted_class"]].values.tolist() == [["dog", "cat"], ["bird", "dog"],
                                                                        ["cat", "bird"]]
    assert table["count"].tolist() == [10, 8, 7]
    assert table["share_of_true_class"].tolist() == pytest.approx([10 / 50, 8 / 40, 7 / 60])
    assert len(most_confused_pairs(np.diag([5, 5, 5]), CLASSES)) == 0  # no confusion, no rows
    with pytest.raises(ValueError, match="'top' must be an integer >= 1"):
        most_confused_pairs(MATRIX, CLASSES, top=0)


def test_multilabel_grid_has_one_panel_per_label():
    mats = np.array([[[90, 10], [5, 45]], [[70, 0], [20, 60]], [[10, 10], [10, 10]]])
    fig = multilabel_confusion_chart(matrices=mats, labels=["spam", "urgent", "=x"], columns=2)
    assert _uses_our_template(fig)
    panels = [t for t in fig.data if t.text is not None]         # each panel's texts and hover
    assert len(panels) == 3
    assert [a.text for a in fig.layout.annotations] == ["spam", "urgent", "=x"]
    np.testing.assert_allclose([c[3] for c in panels[0].customdata], [0.9, 0.1, 0.1, 0.9])
    assert panels[1].text[3] == "60<br>75.0%"
    assert sum(bool(t.marker.showscale) for t in fig.data) == 1     # one shared 0–100 % scale
    assert {t.xaxis for t in panels} == {"x", "x2", "x3"}
    with pytest.raises(ValueError, match=r"shape \(L, 2, 2\) \(got \(3, 3\)\)"):
        multilabel_confusion_chart(matrices=np.ones((3, 3)), labels=["a", "b", "c"])


# ------------------------------------------------------------------------------------------------ curve charts --
# Built from assess.curves results; the drawn arrays must be exactly the curve's points picked by thin_curve.


from assess import curves  # noqa: E402
from assess.present.charts import (CurveBand, calibration_chart, drawn_indices, fold_curves_chart, gain_chart,  # noqa: E402
                           macro_overlay_chart,
                           ks_chart, lift_chart, metric_threshold_chart, ovr_chart, points_per_curve, pr_chart,
                           roc_chart, score_distribution_chart)
from assess.present.charts.style import REFERENCE_COLOR  # noqa: E402
from assess.present.charts.thinning import thin_curve  # noqa: E402
from assess.curves import CurveResult  # noqa: E402
from assess.metrics.threshold import metric_vs_threshold  # noqa: E402
from assess.core.warnings import UndefinedMetricWarning  # noqa: E402


def _scores(n, *, shift, seed):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.1
    return y, 1 / (1 + np.exp(-(rng.normal(0, 1, n) + shift * y - 2.2)))


@pytest.fixture(scope="module")
def big():
    """1e6 rows, two models with ~1e6 distinct scores each: every curve has ~1e6 points before thinning."""
    y, a = _scores(1_000_000, shift=2.0, seed=1)
    _, b = _scores(1_000_000, shift=1.2, seed=2)
    return {"A": curves.threshold_counts(y, a), "B": curves.threshold_counts(y, b)}


@pytest.fixture(scope="module")
def small():
    y, a = _scores(5_000, shift=2.0, seed=3)
    _, b = _scores(5_000, shift=1.0, seed=4)
    return y, {"A": a, "B": b}, {"A": curves.threshold_counts(y, a), "B": curves.threshold_counts(y, b)}


CURVE_CHARTS = [(roc_chart, curves.roc_curve), (pr_chart, curves.pr_curve), (gain_chart, curves.gain_curve),
                (lift_chart, curves.lift_curve)]


def _model_traces(fig, names):
    """The curve trace of each series: the first line trace in its legend group."""
    return {n: next(t for t in fig.data if t.legendgroup == n and t.mode == "lines" and t.fill is None)
            for n in names}


@pytest.mark.parametrize("chart, make", CURVE_CHARTS)
def test_curves_are_the_thinned_exact_points_with_full_data_areas(chart, make, big):
    curves = {name: make(c) for name, c in big.items()}
    fig = chart(curves=curves, counts=big)
    assert _uses_our_template(fig)
    budget = points_per_curve(2)
    for name, trace in _model_traces(fig, curves).items():
        curve = curves[name]
        idx = thin_curve(curve.x, curve.y, max_points=budget)
        assert len(curve) > 900_000 and len(idx) <= 2000
        np.testing.assert_array_equal(trace.x, curve.x[idx])
        np.testing.assert_array_equal(trace.y, curve.y[idx])
        if curve.area is not None:
            assert f"({curve.area_label} {curve.area:.3f})" in trace.name
        # hover data: the threshold and the counts of each drawn point
        tps0 = np.concatenate(([0.0], big[name].tps))
        np.testing.assert_array_equal(trace.customdata[:, 1], tps0[idx].astype(np.float32))
        np.testing.assert_array_equal(trace.customdata[:, 0], curve.thresholds[idx].astype(np.float32))
        assert "Threshold %{customdata[0]" in trace.hovertemplate and "TP %{customdata[1]" in trace.hovertemplate
    assert all(len(t.x) <= 2000 for t in fig.data if t.x is not None)


@pytest.mark.parametrize("chart, make, x_title, y_title", [
    (roc_chart, curves.roc_curve, "False positive rate (% of negatives flagged)",
     "True positive rate (% of positives found)"),
    (pr_chart, curves.pr_curve, "Recall (% of positives found)", "Precision (% of flagged that are positive)"),
    (gain_chart, curves.gain_curve, "Population targeted, highest scores first (%)",
     "Positives captured (% of all positives)"),
    (lift_chart, curves.lift_curve, "Population targeted, highest scores first (%)", "Lift (× random targeting)"),
])
def test_axis_titles_name_quantity_and_unit(chart, make, x_title, y_title, small):
    fig = chart(curves={"A": make(small[2]["A"])})
    assert fig.layout.xaxis.title.text == x_title and fig.layout.yaxis.title.text == y_title


@pytest.mark.parametrize("chart, make", CURVE_CHARTS)
def test_figure_json_per_curve_stays_under_100_kb_at_a_million_rows(chart, make, big):
    fig = chart(curves={"A": make(big["A"])}, counts={"A": big["A"]}, threshold=0.3)
    assert len(fig.to_json()) <= 100_000


@pytest.mark.parametrize("chart, make, x_of, y_of", [
    (roc_chart, curves.roc_curve, "fpr", "tpr"), (pr_chart, curves.pr_curve, "recall", "precision"),
    (gain_chart, curves.gain_curve, "predicted_positive_fraction", "tpr"),
    (lift_chart, curves.lift_curve, "predicted_positive_fraction", "lift"),
])
def test_operating_point_marker_sits_at_the_threshold(chart, make, x_of, y_of, small):
    counts = small[2]
    fig = chart(curves={n: make(c) for n, c in counts.items()}, counts=counts, threshold=0.4)
    markers = [t for t in fig.data if t.mode == "markers" and t.x[0] is not None]
    assert [m.legendgroup for m in markers] == ["A", "B"]
    for marker in markers:
        op = curves.operating_point(counts[marker.legendgroup], 0.4)
        assert marker.x[0] == pytest.approx(getattr(op, x_of)) and marker.y[0] == pytest.approx(getattr(op, y_of))
        assert marker.customdata[0][1:].tolist() == [op.tp, op.fp]
    (legend,) = [t for t in fig.data if t.mode == "markers" and t.x[0] is None]
    assert legend.name == "Operating point (threshold 0.4)"


def test_thresholds_per_model_and_above_every_score(small):
    counts = small[2]
    fig = roc_chart(curves={n: curves.roc_curve(c) for n, c in counts.items()}, counts=counts,
                    threshold={"A": 0.2, "B": 2.0})
    marker_a, marker_b = [t for t in fig.data if t.mode == "markers" and t.x[0] is not None]
    assert marker_a.x[0] == pytest.approx(curves.operating_point(counts["A"], 0.2).fpr)
    assert (marker_b.x[0], marker_b.y[0]) == (0.0, 0.0)  # nothing flagged: the curve's first point


def test_model_keeps_its_colour_on_every_chart(small):
    y, scores, counts = small
    colors = model_colors(["A", "B", "C"])
    only_b = {"B": counts["B"]}
    seen = []
    for chart, make in CURVE_CHARTS:
        seen.append(_model_traces(chart(curves={n: make(c) for n, c in only_b.items()}, colors=colors), ["B"])["B"]
                    .line.color)
        seen.append(_model_traces(chart(curves={n: make(c) for n, c in counts.items()}, colors=colors), ["B"])["B"]
                    .line.color)
    cal = calibration_chart(curves={"B": curves.calibration_curve(y, scores["B"])}, colors=colors)
    seen.append(next(t for t in cal.data if t.legendgroup == "B").line.color)
    seen.append(ks_chart(curves={"B": curves.ks_curve(counts["B"])}, colors=colors).data[0].line.color)
    assert set(seen) == {colors["B"]} == {OKABE_ITO[1]}
    default = roc_chart(curves={"A": curves.roc_curve(counts["A"]), "B": curves.roc_curve(counts["B"])})
    assert [t.line.color for t in _model_traces(default, ["A", "B"]).values()] == [OKABE_ITO[0], OKABE_ITO[1]]


def test_roc_reference_ci_band_and_hull(small):
    counts = small[2]
    curve = curves.roc_curve(counts["A"])
    grid = np.linspace(0, 1, 11)
    band = CurveBand(grid, np.clip(grid - 0.1, 0, 1), np.clip(grid + 0.1, 0, 1))
    fig = roc_chart(curves={"A": curve}, auc_ci={"A": (0.81, 0.86)}, bands={"A": band}, hull=True)
    chance = fig.data[0]
    assert chance.line.color == REFERENCE_COLOR and list(chance.x) == [0, 1] and list(chance.y) == [0, 1]
    (trace,) = _model_traces(fig, ["A"]).values()
    assert trace.name == f"A (AUC {curve.area:.3f}, 95% CI 0.810–0.860)"
    (shade,) = [t for t in fig.data if t.fill == "toself"]
    np.testing.assert_array_equal(shade.x, np.concatenate([grid, grid[::-1]]))
    np.testing.assert_array_equal(shade.y, np.concatenate([band.high, band.low[::-1]]))
    (hull,) = [t for t in fig.data if t.name == "A: convex hull"]
    assert hull.x[0] == 0 and hull.x[-1] == 1 and np.all(np.diff(hull.y) >= 0)


def test_convex_hull_drops_the_dents():
    curve = CurveResult("roc", np.array([0, 0.1, 0.2, 0.3, 1.0]), np.array([0, 0.5, 0.55, 0.9, 1.0]),
                        np.array([np.inf, 0.9, 0.8, 0.7, 0.1]), "fpr", "tpr", "FPR", "TPR", area=0.8,
                        area_label="AUC")
    fig = roc_chart(curves={"A": curve}, hull=True)
    (hull,) = [t for t in fig.data if t.name == "A: convex hull"]
    assert list(zip(hull.x, hull.y)) == [(0, 0), (0.1, 0.5), (0.3, 0.9), (1, 1)]


def test_pr_baseline_is_the_prevalence_and_iso_f1_curves_have_constant_f1(small):
    counts = small[2]["A"]
    fig = pr_chart(curves={"A": curves.pr_curve(counts)})
    (base,) = [t for t in fig.data if t.name and t.name.startswith("No skill")]
    assert list(base.y) == [counts.prevalence] * 2
    iso = [t for t in fig.data if t.legendgroup == "iso-f1"]
    assert len(iso) == 4
    for trace, f in zip(iso, (0.2, 0.4, 0.6, 0.8)):
        r, p = np.asarray(trace.x), np.asarray(trace.y)
        np.testing.assert_allclose(2 * p * r / (p + r), f)
        assert p.max() <= 1 + 1e-12
    without = pr_chart(curves={"A": curves.pr_curve(counts)}, iso_f1=())
    assert not [t for t in without.data if t.legendgroup == "iso-f1"]


def test_gain_references_and_lift_baseline(small):
    counts = small[2]["A"]
    gain = gain_chart(curves={"A": curves.gain_curve(counts)}, counts={"A": counts})
    random, perfect = gain.data[0], gain.data[1]
    assert list(random.x) == [0, 1] and list(random.y) == [0, 1]
    assert list(perfect.x) == [0, counts.prevalence, 1] and list(perfect.y) == [0, 1, 1]
    assert len(gain_chart(curves={"A": curves.gain_curve(counts)}).data) == 2  # no prevalence, no perfect line
    lift = lift_chart(curves={"A": curves.lift_curve(counts)})
    assert list(lift.data[0].y) == [1, 1] and lift.layout.yaxis.tickformat is None


def test_ks_chart_marks_the_largest_gap(big):
    curve = curves.ks_curve(big["A"])
    fig = ks_chart(curves={"A": curve})
    tpr, fpr, gap = fig.data
    assert len(tpr.x) <= 2000 and list(tpr.x) == list(fpr.x)
    b = curve.best_index
    assert list(gap.x) == [curve.x[b]] * 2 and list(gap.y) == [curve.y2[b], curve.y[b]]
    assert f"KS {curve.statistic:.3f}" in gap.name and curve.x[b] in tpr.x
    assert fig.layout.xaxis.title.text == "Score threshold"
    assert len(fig.to_json()) <= 100_000


def test_pr_gain_and_lift_draw_their_bands(small):
    counts = small[2]
    grid = np.linspace(0, 1, 11)
    band = CurveBand(grid, np.clip(grid - 0.1, 0, 1), np.clip(grid + 0.1, 0, 1), label="95% bootstrap band")
    for chart, make in ((pr_chart, curves.pr_curve), (gain_chart, curves.gain_curve), (lift_chart, curves.lift_curve)):
        fig = chart(curves={"A": make(counts["A"])}, bands={"A": band})
        (shade,) = [t for t in fig.data if t.fill == "toself"]
        assert shade.name == "A: 95&#37; bootstrap band"   # "%" escaped: drawn as written
        np.testing.assert_array_equal(shade.y, np.concatenate([band.high, band.low[::-1]]))


def test_calibration_chart_draws_each_bins_interval(small):
    y, scores, _ = small
    cal = curves.calibration_curve(y, scores["A"])
    band = curves.calibration_band(y, scores["A"], cal.bin_edges)
    fig = calibration_chart(curves={"A": cal}, bands={"A": CurveBand(band.x, band.low, band.high,
                                                                      label="95% Wilson interval")})
    line = next(t for t in fig.data if t.legendgroup == "A" and t.type == "scatter")
    filled = cal.nonempty
    np.testing.assert_allclose(np.asarray(line.y) + np.asarray(line.error_y.array), band.high[filled])
    np.testing.assert_allclose(np.asarray(line.y) - np.asarray(line.error_y.arrayminus), band.low[filled])
    assert "Bars: 95&#37; Wilson interval" in [t.name for t in fig.data]


def test_calibration_chart_has_diagonal_ece_and_histogram(small):
    y, scores, _ = small
    cal = curves.calibration_curve(y, scores["A"], n_bins=10)
    fig = calibration_chart(curves={"A": cal})
    diagonal, line, bars = fig.data
    assert list(diagonal.x) == [0, 1] and list(diagonal.y) == [0, 1]
    np.testing.assert_array_equal(line.x, cal.mean_predicted[cal.nonempty])
    np.testing.assert_array_equal(line.y, cal.observed_frequency[cal.nonempty])
    assert f"ECE {cal.ece:.3f}" in line.name and f"A {cal.ece:.3f}" in fig.layout.title.subtitle.text
    assert bars.type == "bar" and bars.yaxis == "y2"
    np.testing.assert_array_equal(bars.y, cal.counts)
    assert fig.layout.yaxis2.title.text == "Samples per bin"
    assert len(calibration_chart(curves={"A": cal}, histogram=False).data) == 2


def test_score_distribution_sends_bins_not_rows():
    y, s = _scores(200_000, shift=2.0, seed=5)
    fig = score_distribution_chart(scores_by_class={"negative": s[~y], "positive": s[y]}, bins=20, threshold=0.5)
    neg, pos = fig.data
    assert len(neg.x) == 20 and neg.type == "bar"
    assert sum(neg.y) == pytest.approx(1) and sum(pos.y) == pytest.approx(1)
    expected, _ = np.histogram(s[y], bins=np.linspace(0, 1, 21))
    np.testing.assert_allclose(pos.y, expected / y.sum())
    assert fig.layout.shapes[0].x0 == 0.5
    counts_fig = score_distribution_chart(scores_by_class={"positive": s[y]}, bins=20, share=False)
    np.testing.assert_array_equal(counts_fig.data[0].y, expected)
    with pytest.raises(ValueError, match="non-finite"):
        score_distribution_chart(scores_by_class={"x": [0.1, np.nan]})


def test_metric_threshold_chart(big):
    m = metric_vs_threshold(big["A"], ("precision", "recall", "f1", "tp"))
    fig = metric_threshold_chart(metrics=m, threshold=0.3)
    assert [t.name for t in fig.data] == ["Precision", "Recall (sensitivity)", "F1 score"]   # the registry's names
    assert list(fig.layout.yaxis.range) == [-0.02, 1.02]
    budget = points_per_curve(3)
    for trace, name in zip(fig.data, ("precision", "recall", "f1")):
        idx = drawn_indices(m.thresholds, m[name], max_points=budget)
        np.testing.assert_array_equal(trace.x, m.thresholds[idx])
        np.testing.assert_array_equal(trace.y, m[name][idx])
        assert len(trace.x) <= 2000
    assert fig.layout.shapes[0].x0 == 0.3 and fig.layout.xaxis.title.text == "Score threshold"
    assert len(fig.to_json()) <= 100_000 * 3
    with pytest.raises(ValueError, match=r"counts \['tp'\] do not share"):
        metric_threshold_chart(metrics=m, names=["f1", "tp"])
    with pytest.raises(ValueError, match=r"metrics \['mcc'\] were not computed"):
        metric_threshold_chart(metrics=m, names=["mcc"])


def test_metric_threshold_chart_lets_an_unbounded_ratio_set_the_axis(big):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")          # LR+ is undefined where FPR = 0
        m = metric_vs_threshold(big["A"], ("recall", "lr_plus"))
    fig = metric_threshold_chart(metrics=m)
    assert [t.name for t in fig.data] == ["Recall (sensitivity)", "Positive likelihood ratio"]
    assert fig.layout.yaxis.range is None and np.nanmax(fig.data[1].y) > 1


def _curve(kind, x, y):
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    return CurveResult(kind, x, y, np.concatenate(([np.inf], np.linspace(1, 0, len(x) - 1))), "x", "y", "x", "y",
                       area=float(np.trapezoid(y, x)), area_label="AUC" if kind == "roc" else "AP",
                       baseline=0.5 if kind == "pr" else None)


def test_ovr_chart_per_class_micro_and_macro():
    per_class = {"cat": _curve("roc", [0, 0.5, 1], [0, 1, 1]), "dog": _curve("roc", [0, 1], [0, 1])}
    micro = _curve("roc", [0, 0.25, 1], [0, 0.75, 1])
    fig = ovr_chart(per_class=per_class, micro=micro, macro_area=0.625, grid_points=5)
    names = [t.name for t in fig.data]
    assert names[1:] == ["cat (AUC 0.750)", "dog (AUC 0.500)", "micro-average (AUC 0.750)",
                         "macro-average (AUC 0.625)"]
    macro = fig.data[-1]
    assert list(macro.x) == [0, 0, 0.25, 0.5, 0.75, 1]  # starts at the origin like every ROC curve
    np.testing.assert_allclose(macro.y, [0, 0, (0.5 + 0.25) / 2, (1 + 0.5) / 2, (1 + 0.75) / 2, 1])
    assert (fig.data[3].line.color, fig.data[3].line.dash) == ("#000000", "dot")
    assert (macro.line.color, macro.line.dash) == ("#000000", "dash")
    assert ovr_chart(per_class=per_class).data[-1].name == "macro-average"


def test_ovr_pr_macro_uses_interpolated_precision():
    per_class = {"a": _curve("pr", [0, 0.5, 0.5, 1], [1, 0.8, 0.6, 0.7]), "b": _curve("pr", [0, 1], [1, 0.5])}
    macro = ovr_chart(per_class=per_class, grid_points=3).data[-1]
    # a: best precision at recall >= r -> r=0: 1, r=0.5: 0.8, r=1: 0.7; b: 1, 0.5, 0.5
    np.testing.assert_allclose(macro.y, [1, 0.65, 0.6])


@pytest.mark.parametrize("band", ["sd", "minmax"])
def test_fold_curves_faint_folds_bold_mean_and_band(band):
    folds = [_curve("roc", [0, 0.5, 1], [0, h, 1]) for h in (0.6, 0.8, 1.0)]
    fig = fold_curves_chart(folds=folds, name="GBM", band=band, grid_points=3)
    fold_traces = [t for t in fig.data if t.legendgroup == "folds"]
    assert len(fold_traces) == 3 and all(t.opacity < 1 and t.line.width == 1 for t in fold_traces)
    assert [t.showlegend for t in fold_traces] == [True, False, False]
    shade = next(t for t in fig.data if t.fill == "toself")
    mean = fig.data[-1]
    assert mean.line.width > 3 and list(mean.x) == [0, 0, 0.5, 1]
    np.testing.assert_allclose(mean.y, [0, 0, 0.8, 1])
    high_at_half = shade.y[2]  # polygon: x = (0, 0, 0.5, 1) then back
    expected = 0.8 + np.std([0.6, 0.8, 1.0], ddof=1) if band == "sd" else 1.0
    assert high_at_half == pytest.approx(min(expected, 1.0))
    areas = [c.area for c in folds]
    assert mean.name == f"Mean of 3 folds (AUC {np.mean(areas):.3f} ± {np.std(areas, ddof=1):.3f})"
    assert shade.name == {"sd": "± 1 SD across folds", "minmax": "min–max across folds"}[band]


def test_fold_chart_keeps_points_per_chart_bounded(big):
    folds = [curves.roc_curve(big["A"]), curves.roc_curve(big["B"])] * 5
    fig = fold_curves_chart(folds=folds)
    assert sum(len(t.x) for t in fig.data) <= 7_000


def test_a_curve_left_undefined_by_the_data_draws_nothing_and_says_undefined():
    with pytest.warns(UndefinedMetricWarning, match="only one class"):
        curve = curves.roc_curve(curves.threshold_counts([0, 0, 0], [0.1, 0.2, 0.3]))
    fig = roc_chart(curves={"A": curve})
    (trace,) = _model_traces(fig, ["A"]).values()
    # the one placeholder of an undefined number (assess.core.formatting.UNDEFINED), as in every table; was "n/a"
    assert len(trace.x) == 0 and trace.name == "A (AUC —)"


@pytest.mark.parametrize("call, error, message", [
    (lambda c: roc_chart(curves=[c]), TypeError, "mapping of series name -> CurveResult"),
    (lambda c: pr_chart(curves={"A": c}), ValueError, "'roc' curve; this chart draws pr"),
    (lambda c: roc_chart(curves={"A": c}, max_points=2), ValueError, "`max_points` must be an integer >= 4"),
    (lambda c: fold_curves_chart(folds=[c], band="iqr"), ValueError, "`band` must be one of"),
    (lambda c: roc_chart(curves={"A": c}, counts={"A": curves.threshold_counts([0, 1], [0.1, 0.2])}), ValueError,
     "pass the counts the curve was made from"),
])
def test_curve_charts_reject_bad_input(call, error, message, small):
    with pytest.raises(error, match=message):
        call(curves.roc_curve(small[2]["A"]))


def test_macro_overlay_draws_each_models_macro_average_as_ovr_chart_does():
    rng = np.random.default_rng(0)
    per_model = {}
    for m in ("A", "B"):
        proba = rng.dirichlet([1, 1, 1], size=60)
        codes = rng.integers(0, 3, 60)
        per_model[m] = {c: curves.roc_curve(k)
                        for c, k in zip("xyz", curves.ovr_threshold_counts(codes, proba))}
    fig = macro_overlay_chart(per_model=per_model, areas={"A": 0.61, "B": 0.5}, colors=model_colors(["A", "B"]))
    lines = {t.name: t for t in fig.data if t.legendgroup}
    assert set(lines) == {"A (macro AUC 0.610)", "B (macro AUC 0.500)"}
    single = ovr_chart(per_class=per_model["A"]).data[-1]              # the one-model chart's macro-average
    np.testing.assert_allclose(lines["A (macro AUC 0.610)"].y, single.y)
    assert lines["B (macro AUC 0.500)"].line.color == OKABE_ITO[1]


def test_several_no_skill_lines_are_named_for_any_curve_not_only_a_class():
    """Issue-33 walk: the multi-label Curves page's PR chart said "each class's prevalence" for labels. Two curves with
    prevalences 1/4 and 1/2 (hand-made) give two no-skill lines under one entry that names neither class nor label."""
    a = curves.pr_curve(curves.threshold_counts(np.array([1, 0, 0, 0]), np.array([0.9, 0.1, 0.2, 0.3])))
    b = curves.pr_curve(curves.threshold_counts(np.array([1, 1, 0, 0]), np.array([0.9, 0.8, 0.2, 0.3])))
    fig = pr_chart(curves={"even": a, "prime": b})
    no_skill = [t for t in fig.data if t.legendgroup == "no-skill"]
    assert sorted(t.y[0] for t in no_skill) == [0.25, 0.5]
    assert [t.name for t in no_skill if t.showlegend] == ["No skill (each curve's prevalence)"]
