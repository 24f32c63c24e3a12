"""Multi-label made first-class (issue 10): per-label thresholds, per-label McNemar with a correction across labels,
the paired bootstrap of multi-label metrics, and the digits sample — each against an independent oracle
(scikit-learn, statsmodels)."""

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import f1_score, hamming_loss, jaccard_score, precision_score, recall_score
from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.weightstats import DescrStatsW

from assess.core.data import Predictions, Task
from assess.core.decision import Decision
from assess.core.errors import AssessError
from assess.metrics import evaluate
from assess.stats import compare, suggest_tests
from assess.stats.multilabel import PerLabelMcNemarDetails, mcnemar_per_label
from tests.conftest import ROOT

LABELS = ("news", "sport", "tech", "arts")


def two_models(n=400, seed=7):
    """Truth with label-specific prevalences; model A better than B on the first two labels only."""
    rng = np.random.default_rng(seed)
    y = rng.random((n, len(LABELS))) < np.array([0.3, 0.5, 0.2, 0.6])
    noise_a = np.array([0.6, 0.6, 1.0, 1.0])
    s_a = 1 / (1 + np.exp(-((2 * y - 1) * 1.5 + rng.normal(0, noise_a, (n, len(LABELS))))))
    s_b = 1 / (1 + np.exp(-((2 * y - 1) * 1.5 + rng.normal(0, 1.0, (n, len(LABELS))))))
    ids = np.arange(n)
    return y, {m: Predictions(Task.MULTILABEL, LABELS, y, None, np.round(s, 6), ids=ids, model=m)
               for m, s in (("A", s_a), ("B", s_b))}


# ------------------------------------------------------------------------------------------- per-label thresholds

def test_metrics_at_per_label_thresholds_equal_sklearn_on_the_thresholded_labels():
    y, preds = two_models()
    cuts = {"news": 0.3, "sport": 0.65, "tech": 0.5, "arts": 0.8}
    decision = Decision.from_scores(0.5, cuts)
    scores = preds["A"].scores
    thresholded = scores >= np.array([cuts[label] for label in LABELS])
    got = evaluate(preds["A"], ["hamming_loss", "f1_macro", "f1_micro", "precision_samples", "recall_weighted",
                                "jaccard_macro"], decision=decision, baselines=False)
    assert got["hamming_loss"].value == pytest.approx(hamming_loss(y, thresholded))
    assert got["f1_macro"].value == pytest.approx(f1_score(y, thresholded, average="macro"))
    assert got["f1_micro"].value == pytest.approx(f1_score(y, thresholded, average="micro"))
    assert got["precision_samples"].value == pytest.approx(
        precision_score(y, thresholded, average="samples", zero_division=np.nan))
    assert got["recall_weighted"].value == pytest.approx(recall_score(y, thresholded, average="weighted"))
    assert got["jaccard_macro"].value == pytest.approx(jaccard_score(y, thresholded, average="macro"))
    # a different threshold on one label changes the numbers (the per-label cut is really used)
    other = evaluate(preds["A"], ["f1_macro"], decision=Decision.from_scores(0.5), baselines=False)
    assert other["f1_macro"].value == pytest.approx(f1_score(y, scores >= 0.5, average="macro"))
    assert other["f1_macro"].value != pytest.approx(got["f1_macro"].value)


# ----------------------------------------------------------------------------------------- per-label McNemar

@pytest.mark.parametrize("correction", ["fdr_bh", "fdr_by", "holm", "bonferroni"])
@pytest.mark.parametrize("method", ["exact", "asymptotic"])
def test_per_label_mcnemar_matches_statsmodels_per_label_and_multipletests_across(correction, method):
    y, preds = two_models()
    a, b = preds["A"].scores >= 0.5, preds["B"].scores >= 0.5
    res = mcnemar_per_label(y, a, b, labels=LABELS, method=method, correction=correction, names=("A", "B"))
    raw = []
    for j in range(len(LABELS)):
        ra, rb = a[:, j] == y[:, j], b[:, j] == y[:, j]
        table = [[np.sum(ra & rb), np.sum(ra & ~rb)], [np.sum(~ra & rb), np.sum(~ra & ~rb)]]
        raw.append(sm_mcnemar(table, exact=method == "exact", correction=True).pvalue)
    np.testing.assert_allclose(res.details.pvalue, raw, rtol=1e-9)
    expected_adjusted = multipletests(raw, method=correction)[1]
    np.testing.assert_allclose(res.details.pvalue_adjusted, expected_adjusted, rtol=1e-9)
    assert res.pvalue == pytest.approx(min(expected_adjusted))
    assert res.statistic == sum(p < 0.05 for p in expected_adjusted)
    # effect: mean per-label accuracy difference = Hamming loss of B minus Hamming loss of A
    assert res.effect.value == pytest.approx(hamming_loss(y, b) - hamming_loss(y, a))
    d = ((a == y).astype(float) - (b == y).astype(float)).mean(axis=1)
    low, high = DescrStatsW(d).zconfint_mean(alpha=0.05)
    assert (res.effect.interval.low, res.effect.interval.high) == pytest.approx((low, high))


def test_per_label_mcnemar_bh_overall_p_is_simes_global_test():
    # Simes (1986): p = min_i m p_(i) / i — a worked example, independent of any library
    y, preds = two_models(n=150, seed=3)
    a, b = preds["A"].scores >= 0.5, preds["B"].scores >= 0.5
    res = mcnemar_per_label(y, a, b, labels=LABELS)
    p = np.sort(res.details.pvalue)
    assert res.pvalue == pytest.approx(min(1.0, float(np.min(len(p) * p / np.arange(1, len(p) + 1)))))


def test_per_label_mcnemar_identical_models_differ_nowhere():
    y, preds = two_models(n=60)
    a = preds["A"].scores >= 0.5
    res = mcnemar_per_label(y, a, a, labels=LABELS)
    assert res.pvalue == 1.0 and res.statistic == 0 and res.effect.value == 0
    assert "none of the 4 labels" in res.sentence


def test_compare_runs_per_label_mcnemar_with_the_decision_and_is_suggested_for_multilabel():
    y, preds = two_models()
    cuts = {"news": 0.2, "arts": 0.7}
    result = compare(preds, test="mcnemar_per_label", decision=Decision.from_scores(0.5, cuts))
    details = result.result.details
    assert isinstance(details, PerLabelMcNemarDetails) and details.labels == list(LABELS)
    thresholds = np.array([cuts.get(label, 0.5) for label in LABELS])
    a, b = preds["A"].scores >= thresholds, preds["B"].scores >= thresholds
    n10 = ((a == y) & (b != y)).sum(axis=0)
    assert details.n10 == n10.tolist()
    assert list(details.table()["label"]) == list(LABELS)
    assert result.to_dict()["details"]["pvalue_adjusted"] == pytest.approx(details.pvalue_adjusted)
    suggested = [s.test for s in suggest_tests(question="two_models", n_models=2, task="multilabel", has_scores=True)]
    assert "mcnemar_per_label" in suggested and "paired_bootstrap" in suggested
    assert "mcnemar_per_label" not in [s.test for s in suggest_tests(question="two_models", n_models=2,
                                                                         task="binary")]


def test_per_label_mcnemar_refuses_other_tasks_and_a_metric():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 50).astype(np.int8)
    binary = [Predictions(Task.BINARY, ("n", "p"), y, rng.integers(0, 2, 50).astype(np.int8), model=m) for m in "AB"]
    with pytest.raises(AssessError, match="multi-label"):
        compare(binary, test="mcnemar_per_label")
    _, preds = two_models(n=40)
    with pytest.raises(AssessError, match="metric"):
        compare(preds, test="mcnemar_per_label", metric="f1_macro")


# ------------------------------------------------------------------------------- paired bootstrap, multi-label

@pytest.mark.parametrize("key, average", [("f1_macro", "macro"), ("f1_samples", "samples")])
def test_paired_bootstrap_of_a_multilabel_metric_matches_a_hand_bootstrap_with_sklearn(key, average):
    y, preds = two_models(n=300, seed=11)
    a, b = preds["A"].scores >= 0.5, preds["B"].scores >= 0.5
    result = compare(preds, test="paired_bootstrap", metric=key, n_resamples=600, seed=5).result

    def f1(t, p):  # rows (samples) or labels (macro) with 0/0 are left out, as assess does
        return f1_score(t, p, average=average, zero_division=np.nan)
    assert result.effect.value == pytest.approx(f1(y, a) - f1(y, b))
    # the oracle: the same paired percentile bootstrap written with scikit-learn, its own random stream
    rng = np.random.default_rng(123)
    diffs = []
    for _ in range(600):
        i = rng.integers(0, len(y), len(y))
        diffs.append(f1(y[i], a[i]) - f1(y[i], b[i]))
    low, high = np.percentile(diffs, [2.5, 97.5])
    assert result.effect.interval.low == pytest.approx(low, abs=0.012)
    assert result.effect.interval.high == pytest.approx(high, abs=0.012)


# ---------------------------------------------------------------------------------------------------- sample

def test_digits_sample_is_out_of_fold_multilabel_with_consistent_columns():
    frame = pd.read_csv(ROOT / "assets/samples/digits_multilabel.csv")
    labels = ["even", "prime", "at_least_5", "closed_loop", "multiple_of_3"]
    assert set(frame["model"]) == {"logistic_ovr", "naive_bayes_coarse"}
    assert frame.groupby("model")["id"].nunique().tolist() == [1797, 1797]
    for label in labels:
        assert frame[f"pred_{label}"].tolist() == (frame[f"score_{label}"] >= 0.5).astype(int).tolist()
    # the labels follow from the digit: one label set per digit, but 5 and 7 share {prime, at_least_5}: 9 sets
    sets = frame[[f"true_{label}" for label in labels]].drop_duplicates()
    assert len(sets) == 9 and sets.sum(axis=1).min() == 0 and sets.sum(axis=1).max() == 4


# ------------------------------------------------------------------------------------------ views and charts

def test_per_label_curves_micro_and_macro_match_sklearn_with_weights():
    from sklearn.metrics import average_precision_score, roc_auc_score

    from assess.analyses.label_curves import per_label_curves

    y, preds = two_models(n=250, seed=2)
    w = np.random.default_rng(1).uniform(0.2, 3, 250)
    pred = Predictions(Task.MULTILABEL, LABELS, y, None, preds["A"].scores, weight=w)
    ovr = per_label_curves(pred)
    s = pred.scores
    for j, label in enumerate(LABELS):
        assert ovr.roc[label].area == pytest.approx(roc_auc_score(y[:, j], s[:, j], sample_weight=w))
        assert ovr.pr[label].area == pytest.approx(average_precision_score(y[:, j], s[:, j], sample_weight=w))
    assert ovr.micro_roc.area == pytest.approx(roc_auc_score(y, s, average="micro", sample_weight=w))
    assert ovr.macro_roc_auc == pytest.approx(roc_auc_score(y, s, average="macro", sample_weight=w))
    assert ovr.micro_pr.area == pytest.approx(average_precision_score(y, s, average="micro", sample_weight=w))
    assert ovr.macro_average_precision == pytest.approx(
        average_precision_score(y, s, average="macro", sample_weight=w))


def test_a_label_that_never_occurs_has_no_curve_and_stays_out_of_the_macro_average():
    from sklearn.metrics import roc_auc_score

    from assess.analyses.label_curves import per_label_curves

    y, preds = two_models(n=100)
    y = y.copy()
    y[:, 2] = False
    ovr = per_label_curves(Predictions(Task.MULTILABEL, LABELS, y, None, preds["A"].scores))
    assert np.isnan(ovr.roc["tech"].area)
    keep = [0, 1, 3]
    assert ovr.macro_roc_auc == pytest.approx(roc_auc_score(y[:, keep], preds["A"].scores[:, keep], average="macro"))


def test_cardinality_and_cooccurrence_follow_the_decision_and_weights():
    from assess.analyses.label_curves import cardinality_distribution, cooccurrence

    y, preds = two_models(n=200, seed=9)
    w = np.random.default_rng(2).integers(1, 4, 200).astype(float)
    pred = Predictions(Task.MULTILABEL, LABELS, y, None, preds["B"].scores, weight=w)
    cuts = {"news": 0.2, "tech": 0.9}
    decided = preds["B"].scores >= np.array([cuts.get(label, 0.5) for label in LABELS])
    dist = cardinality_distribution(pred, Decision.from_scores(0.5, cuts))
    # oracle: the weighted rows repeated, counted with pandas
    repeats = np.repeat(np.arange(200), w.astype(int))
    assert dist["true"].tolist() == pd.Series(y[repeats].sum(axis=1)).value_counts().reindex(
        range(5), fill_value=0).tolist()
    assert dist["predicted"].tolist() == pd.Series(decided[repeats].sum(axis=1)).value_counts().reindex(
        range(5), fill_value=0).tolist()
    co = cooccurrence(pred, Decision.from_scores(0.5, cuts))
    frame = pd.DataFrame(decided[repeats].astype(int), columns=LABELS)
    for j, a in enumerate(LABELS):
        for k, b in enumerate(LABELS):
            assert co["predicted"][j, k] == ((frame[a] == 1) & (frame[b] == 1)).sum()


def test_multilabel_charts_use_the_template_and_stay_legible_at_24_labels():
    import plotly.io as pio

    from assess.present import charts
    from assess.present.charts.style import TEMPLATE

    labels = [f"a_rather_long_label_name_{i}" for i in range(24)]
    rng = np.random.default_rng(0)
    grid = charts.multilabel_confusion_chart(matrices=rng.integers(0, 500, (24, 2, 2)), labels=labels)
    titles = [a.text for a in grid.layout.annotations]
    assert len(titles) == 24 and max(map(len, titles)) <= 18       # 4 panels a row: titles fit their panel
    co = charts.cooccurrence_chart(true=rng.integers(0, 9, (24, 24)), predicted=rng.integers(0, 9, (24, 24)),
                                   labels=labels)
    assert co.data[0].text is None                                  # too many cells to print a count in each
    assert len(set(co.data[0].x)) == 24                             # shortened names stay distinct
    card = charts.cardinality_chart(distributions={"true": [1, 2, 3], "m": [2, 2, 2]})
    for fig in (grid, co, card):
        assert fig.layout.template == pio.templates[TEMPLATE]       # ours, not plotly's (or streamlit's) default
    assert list(card.data[0].y) == pytest.approx([1 / 6, 2 / 6, 3 / 6])
    with pytest.raises(ValueError, match="5×5"):
        charts.cooccurrence_chart(true=np.zeros((4, 4)), predicted=np.zeros((4, 4)), labels=list("abcde"))


# ------------------------------------------------------------------------------------------------ command line

SPEC_MULTILABEL_KEYS = (
    ["hamming_loss", "exact_match_ratio", "jaccard_samples", "jaccard_macro", "jaccard_micro", "jaccard_weighted"]
    + [f"{m}_{a}" for m in ("precision", "recall", "f1") for a in ("micro", "macro", "weighted", "samples")]
    + ["label_cardinality", "label_density", "coverage_error", "label_ranking_average_precision",
       "label_ranking_loss", "kl_divergence"])


def test_cli_metrics_on_the_sample_prints_every_spec_key_like_sklearn(capsys):
    import json

    from sklearn.metrics import coverage_error, label_ranking_loss

    from assess.cli import main

    path = str(ROOT / "assets/samples/digits_multilabel.csv")
    assert main(["metrics", path, "--task", "multilabel", "--label-threshold", "prime=0.3"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["task"] == "multilabel" and doc["settings"]["label_thresholds"] == {"prime": 0.3}
    frame = pd.read_csv(path)
    labels = ["even", "prime", "at_least_5", "closed_loop", "multiple_of_3"]
    for model, rows in frame.groupby("model"):
        got = doc["models"][model]
        assert set(SPEC_MULTILABEL_KEYS) <= set(got)
        y = rows[[f"true_{label}" for label in labels]].to_numpy().astype(bool)
        s = rows[[f"score_{label}" for label in labels]].to_numpy()
        decided = s >= np.array([0.3 if label == "prime" else 0.5 for label in labels])
        assert got["hamming_loss"] == pytest.approx(hamming_loss(y, decided))
        assert got["f1_macro"] == pytest.approx(f1_score(y, decided, average="macro"))
        assert got["coverage_error"] == pytest.approx(coverage_error(y, s))
        assert got["label_ranking_loss"] == pytest.approx(label_ranking_loss(y, s))


def test_cli_compare_runs_mcnemar_per_label_on_the_sample(capsys):
    import json

    from assess.cli import main

    path = str(ROOT / "assets/samples/digits_multilabel.csv")
    assert main(["compare", path, "--test", "mcnemar_per_label", "--label-correction", "holm"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["test"] == "mcnemar_per_label" and doc["design"] == "paired"
    raw = doc["details"]["pvalue"]
    assert doc["details"]["pvalue_adjusted"] == pytest.approx(list(multipletests(raw, method="holm")[1]))


def test_per_label_thresholds_by_youden_match_sklearn_roc():
    from sklearn.metrics import roc_curve

    from assess.analyses.label_curves import per_label_thresholds

    y, preds = two_models(n=300, seed=4)
    got = per_label_thresholds(preds["A"], "youden")
    for j, label in enumerate(LABELS):
        fpr, tpr, thresholds = roc_curve(y[:, j], preds["A"].scores[:, j], drop_intermediate=False)
        j_stat = tpr - fpr
        best = thresholds[j_stat == j_stat.max()].max()     # ties go to the higher threshold (fewer alarms)
        assert got[label] == pytest.approx(best), label
    with pytest.raises(AssessError, match="rule"):
        per_label_thresholds(preds["A"], "target_recall")


def test_per_label_mcnemar_sentence_states_the_better_models_advantage_with_its_interval():
    y, preds = two_models()
    a, b = preds["A"].scores >= 0.5, preds["B"].scores >= 0.5
    ab = mcnemar_per_label(y, a, b, labels=LABELS, names=("A", "B"))
    ba = mcnemar_per_label(y, b, a, labels=LABELS, names=("B", "A"))
    assert ab.effect.value == pytest.approx(-ba.effect.value)
    assert ab.sentence.split("; ")[1] == ba.sentence.split("; ")[1]     # "A gets … more … (95% CI …)" both ways
    assert ab.sentence.split("; ")[1].startswith("A gets")


def test_a_sample_average_note_counts_rows_without_weights_and_weight_with_them():
    """Rows with no predicted label leave sample-wise precision undefined; an unweighted file's note counts those
    rows ("2 rows"), a weighted one gives their weight — it said "total weight 115" of a file without weights."""
    from assess.core.data import Predictions, Task
    from assess.metrics import evaluate

    y = np.array([[1, 0], [0, 1], [1, 1], [1, 0], [0, 1]], dtype=bool)
    yp = np.array([[1, 0], [0, 0], [1, 0], [0, 0], [0, 1]], dtype=bool)     # rows 2 and 4 predict nothing
    plain = evaluate(Predictions(Task.MULTILABEL, ("a", "b"), y, yp, None), ["precision_samples"])
    assert "undefined for 2 rows (" in plain["precision_samples"].note
    weights = np.array([1.0, 2.5, 1.0, 4.0, 1.0])
    weighted = evaluate(Predictions(Task.MULTILABEL, ("a", "b"), y, yp, None, weight=weights), ["precision_samples"])
    assert "undefined for rows with total weight 6.5 (" in weighted["precision_samples"].note
