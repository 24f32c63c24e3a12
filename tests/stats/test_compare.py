"""Data shapes, test suggestions and the compare() orchestration (assess.stats.shaping/suggest/compare)."""

import json
import math

import numpy as np
import pandas as pd
import pytest

from assess.core.data import Predictions, Task
from assess.core.decision import Decision
from assess.core.errors import AssessError
from tests.conftest import ROOT
from assess.stats import (adjust_pvalues, align_predictions, anova, chi2_independence, cochran_q, compare,
                          compare_all, compare_subgroups, contingency_table, corrected_resampled_t,
                          correctness_table, cv_5x2_t, delong, diebold_mariano, fold_table, friedman, kruskal,
                          mcnemar, nemenyi, paired_t, suggest_tests, suggestions_frame)


def accuracy(y_true, y_pred, sample_weight=None):
    return float(np.average(np.asarray(y_true) == np.asarray(y_pred), weights=sample_weight))


def binary_models(n=400, strengths=(1.0, 1.3, 0.7), seed=0, shuffle=True):
    """Binary predictions of several models on the same n samples, each model's rows in its own order."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.4).astype(np.int8)
    ids = np.array([f"s{i}" for i in range(n)])
    out = {}
    for k, s in enumerate(strengths):
        name = "ABCDEFG"[k]
        score = 1 / (1 + np.exp(-(s * (2 * y - 1) + rng.normal(0, 1, n))))
        order = rng.permutation(n) if shuffle else np.arange(n)
        out[name] = Predictions(Task.BINARY, ("no", "yes"), y[order], (score[order] >= 0.5).astype(np.int8),
                                score[order], ids=ids[order], fold=(np.arange(n) % 5)[order], model=name)
    return out, y, ids


def fold_frame(k=3, folds=10, repeats=None, seed=0):
    rng = np.random.default_rng(seed)
    rows = []
    for r in range(repeats or 1):
        for f in range(folds):
            base = rng.normal(0.8, 0.03)
            for j in range(k):
                row = {"model": "ABCDEFG"[j], "fold": f, "accuracy": base + 0.01 * j + rng.normal(0, 0.01),
                       "f1": base - 0.01 * j + rng.normal(0, 0.01)}
                if repeats:
                    row["repeat"] = r
                rows.append(row)
    return pd.DataFrame(rows)


# ------------------------------------------------------------------------------------------------------- shaping


def test_alignment_by_id_reorders_every_model_to_the_first():
    preds, y, ids = binary_models()
    aligned = align_predictions(preds)
    assert aligned.models == ("A", "B", "C")
    assert np.array_equal(aligned.ids, preds["A"].ids)
    order = {s: i for i, s in enumerate(ids)}
    truth = y[[order[s] for s in aligned.ids]]
    assert np.array_equal(aligned.y_true, truth)
    for m in "ABC":   # every model's score lines up with the same sample
        own = dict(zip(preds[m].ids, preds[m].scores))
        assert np.array_equal(aligned.scores[m], [own[s] for s in aligned.ids])


def test_correctness_table_and_contingency_table():
    preds, y, ids = binary_models(n=50)
    correct = correctness_table(preds)
    assert list(correct.columns) == ["A", "B", "C"] and correct.index.name == "id"
    own = dict(zip(preds["B"].ids, preds["B"].y_pred == preds["B"].y_true))
    assert correct["B"].tolist() == [own[s] for s in correct.index]
    table = contingency_table(correct)
    assert table.loc["B", "correct"] == correct["B"].sum()
    assert (table.sum(axis=1) == 50).all()


def test_correctness_from_scores_uses_the_threshold_and_multiclass_argmax():
    y = np.array([0, 1, 1, 0], dtype=np.int8)
    a = Predictions(Task.BINARY, ("n", "p"), y, None, np.array([0.2, 0.7, 0.4, 0.6]), model="A")
    b = Predictions(Task.BINARY, ("n", "p"), y, None, np.array([0.1, 0.9, 0.9, 0.1]), model="B")
    assert correctness_table([a, b])["A"].tolist() == [True, True, False, False]
    assert correctness_table([a, b], decision=Decision.from_scores(0.35))["A"].tolist() == [True, True, True, False]
    yc = np.array([0, 2, 1])
    m = Predictions(Task.MULTICLASS, ("x", "y", "z"), yc, None, np.array([[.5, .3, .2], [.1, .2, .7], [.4, .5, .1]]),
                    model="M")
    assert correctness_table([m])["M"].tolist() == [True, True, True]


def test_alignment_errors_name_what_is_missing():
    preds, _, _ = binary_models(n=20)
    b = preds["B"]
    short = Predictions(b.task, b.classes, b.y_true[1:], b.y_pred[1:], b.scores[1:], ids=b.ids[1:], model="B")
    with pytest.raises(AssessError, match=r"model `B` lacks 1 sample ids that model `A` has \(first: 's\d+'\)"):
        align_predictions({"A": preds["A"], "B": short})
    flipped = Predictions(b.task, b.classes, 1 - b.y_true, b.y_pred, b.scores, ids=b.ids, model="B")
    with pytest.raises(AssessError, match=r"model `B` has a different y_true from model `A` \(first at id 's\d+'\)"):
        align_predictions({"A": preds["A"], "B": flipped})
    dup = Predictions(b.task, b.classes, b.y_true, b.y_pred, b.scores, ids=np.r_[b.ids[:-1], b.ids[:1]], model="B")
    with pytest.raises(AssessError, match=r"model `B` has 1 duplicated sample ids \(first: 's\d+'\)"):
        align_predictions({"A": preds["A"], "B": dup})
    no_ids = Predictions(b.task, b.classes, b.y_true[:19], b.y_pred[:19], model="B")
    a_no_ids = Predictions(b.task, b.classes, b.y_true, b.y_pred, model="A")
    with pytest.raises(AssessError, match=r"different numbers of samples and no sample ids to align them "
                                          r"\(A 20, B 19\)"):
        align_predictions([a_no_ids, no_ids])
    with pytest.raises(AssessError, match=r"model `Z` is not among the predictions \(models: A, B, C\)"):
        align_predictions(preds, models=["A", "Z"])
    reg = Predictions(Task.REGRESSION, (), np.zeros(20), np.zeros(20), ids=b.ids, model="R")
    with pytest.raises(AssessError, match=r"models `A` \(binary\) and `R` \(regression\) have different tasks"):
        align_predictions({"A": preds["A"], "R": reg})


def test_fold_table_shapes_and_errors():
    df = fold_frame(k=2, folds=4, repeats=2)
    wide = fold_table(df, metric="accuracy")
    assert list(wide.columns) == ["A", "B"] and wide.index.names == ["repeat", "fold"] and len(wide) == 8
    with pytest.raises(AssessError, match=r"Friedman needs at least 2 folds per model; model `B` has 1"):
        fold_table(df[(df.model == "A") | ((df.fold == 0) & (df.repeat == 0))], metric="accuracy",
                   purpose="Friedman")
    with pytest.raises(AssessError, match=r"model `B` is missing fold 3 \(repeat 1\) that model `A` has"):
        fold_table(df[~((df.model == "B") & (df.fold == 3) & (df.repeat == 1))], metric="accuracy")
    with pytest.raises(AssessError, match=r"model `A` has more than one row for fold 0 \(repeat 0\)"):
        fold_table(pd.concat([df, df.iloc[:1]]), metric="accuracy")
    with pytest.raises(AssessError, match=r"the fold table has no metric column `auc` \(columns: model, fold, "
                                          r"accuracy, f1, repeat\)"):
        fold_table(df, metric="auc")
    bad = df.astype({"accuracy": object})
    bad.loc[5, "accuracy"] = "n/a"
    with pytest.raises(AssessError, match=r"column `accuracy` has 1 missing or non-numeric values \(first at row 5: "
                                          r"'n/a'\)"):
        fold_table(bad, metric="accuracy")
    with pytest.raises(AssessError, match=r"model `Q` is not in the fold table \(models: A, B\)"):
        fold_table(df, metric="accuracy", models=["A", "Q"])


# ------------------------------------------------------------------------------------------------------ suggest


def test_suggestions_for_two_models_on_one_test_set():
    s = suggest_tests(question="two_models", n_models=2, task=Task.BINARY, has_scores=True)
    assert [x.test for x in s] == ["mcnemar", "delong", "paired_bootstrap"]
    assert s[0].recommended and not s[1].recommended
    assert all(x.why for x in s)


def test_the_first_choice_tests_the_metric_compared():
    """DeLong's test for ROC AUC, McNemar's (right/wrong: accuracy) for accuracy, the bootstrap for any other metric;
    sample weights keep the weighted bootstrap first whatever the metric."""
    def order(metric, **kw):
        s = suggest_tests(question="two_models", n_models=2, task=Task.BINARY, has_scores=True, metric=metric, **kw)
        assert [x.recommended for x in s] == [True] + [False] * (len(s) - 1)
        return [x.test for x in s]
    assert order("roc_auc") == ["delong", "mcnemar", "paired_bootstrap"]
    assert order("accuracy") == order(None) == ["mcnemar", "delong", "paired_bootstrap"]
    assert order("f1") == ["paired_bootstrap", "mcnemar", "delong"]
    assert order("roc_auc", weighted=True)[0] == "paired_bootstrap"
    assert [x.test for x in suggest_tests(question="two_models", n_models=2, task=Task.BINARY, has_scores=True,
                                          paired=False, metric="roc_auc")][:2] == ["unpaired_delong", "chi2"]
    assert suggest_tests(question="several_models", n_models=3, task=Task.BINARY, has_scores=True,
                         metric="accuracy")[0].test == "cochran_q"


def test_suggestions_for_several_models_and_folds():
    assert suggest_tests(question="several_models", n_models=4)[0].test == "cochran_q"
    folds = [x.test for x in suggest_tests(question="cv_folds", n_models=4, data="folds")]
    assert folds[0] == "friedman" and "corrected_resampled_t" in folds and "cv_5x2_t" not in folds
    five_by_two = [x.test for x in suggest_tests(question="cv_folds", n_models=2, data="folds", n_folds=2,
                                                 n_repeats=5)]
    assert five_by_two[0] == "cv_5x2_t"
    assert [x.test for x in suggest_tests(question="two_models", n_models=2, paired=False)] == [
        "chi2", "fisher_exact", "unpaired_bootstrap", "mann_whitney", "welch_t"]
    assert [x.test for x in suggest_tests(question="two_models", n_models=2, paired=False, task="binary",
                                          has_scores=True)][2] == "unpaired_delong"
    assert [x.test for x in suggest_tests(question="cv_folds", n_models=3, data="folds", paired=False)] == [
        "kruskal", "anova", "mann_whitney", "welch_t"]
    assert suggest_tests(question="two_models", n_models=2, task="forecast")[0].test == "diebold_mariano"
    assert suggest_tests(question="subgroups", n_models=1)[0].test == "chi2"
    assert suggest_tests(question="error_rate", n_models=1)[0].test == "error_rate_ci"
    assert list(suggestions_frame(suggest_tests(question="several_models", n_models=3)).columns) == [
        "test", "kind", "recommended", "why"]


def test_suggest_rejects_unknown_questions():
    with pytest.raises(AssessError, match=r"`question` must be one of 'two_models', .* \(got 'best'\)"):
        suggest_tests(question="best", n_models=2)
    with pytest.raises(AssessError, match=r"question 'two_models' needs exactly 2 models \(got 3\)"):
        suggest_tests(question="two_models", n_models=3)


# -------------------------------------------------------------------------------------------- compare: samples


def test_compare_two_models_is_the_single_test():
    preds, _, _ = binary_models()
    two = {k: preds[k] for k in "AB"}
    c = compare(two, test="mcnemar", method="midp")
    correct = correctness_table(two)
    direct = mcnemar(correct["A"], correct["B"], method="midp", names=("A", "B"))
    assert c.result == direct and c.pairs == () and c.sentence == direct.sentence
    d = json.loads(json.dumps(c.to_dict(), allow_nan=False))
    assert d["test"] == "mcnemar" and d["pairs"] == [] and d["correction"] is None
    assert d["pvalue"] == direct.pvalue and d["effect"]["name"] == "accuracy difference (A - B)"


def test_compare_pairwise_over_three_models_adjusts_the_pairs():
    preds, _, _ = binary_models()
    for correction in ("holm", "bonferroni", "fdr_bh", "fdr_by"):
        c = compare(preds, test="mcnemar", correction=correction)
        raw = [p.result.pvalue for p in c.pairs]
        assert [(p.model_a, p.model_b) for p in c.pairs] == [("A", "B"), ("A", "C"), ("B", "C")]
        assert [p.pvalue_adjusted for p in c.pairs] == pytest.approx(adjust_pvalues(raw, method=correction))
        assert c.result is None and c.correction == correction
    d = json.loads(json.dumps(c.to_dict(), allow_nan=False))
    assert d["statistic"] is None and len(d["pairs"]) == 3
    assert set(d["pairs"][0]) >= {"model_a", "model_b", "statistic", "pvalue", "pvalue_adjusted", "effect",
                                  "sentence"}
    mat = c.pvalue_matrix()
    assert mat.loc["C", "A"] == pytest.approx(c.pairs[1].pvalue_adjusted)
    assert list(c.to_frame()["model_a"]) == ["A", "A", "B"]


def test_compare_without_correction_keeps_raw_pvalues():
    preds, _, _ = binary_models()
    c = compare(preds, test="delong", correction=None)
    assert all(p.pvalue_adjusted == p.result.pvalue for p in c.pairs)
    aligned = align_predictions(preds)
    direct = delong(aligned.y_true, aligned.scores["A"], aligned.scores["C"], names=("A", "C"))
    assert c.pairs[1].result == direct


def test_compare_omnibus_with_post_hoc_pairs():
    preds, _, _ = binary_models()
    correct = correctness_table(preds)
    c = compare(preds, test="cochran_q")
    assert c.result == cochran_q(correct.to_numpy(), names=("A", "B", "C"))
    assert c.pairs[0].result.test == "mcnemar"
    assert c.sentence.startswith(c.result.sentence)
    chi = compare(preds, test="chi2", continuity=False)
    assert chi.result.statistic == pytest.approx(
        chi2_independence(contingency_table(correct).to_numpy(), correction=False).statistic)


def test_compare_bootstrap_and_fold_tests_on_predictions():
    preds, _, _ = binary_models()
    c = compare(preds, test="paired_bootstrap", metric=accuracy, n_resamples=200, models=["C", "A"])
    assert c.models == ("C", "A") and c.result.effect.name == "accuracy difference (A - B)"
    ft = compare(preds, test="corrected_resampled_t", metric=accuracy, models=["A", "B"])
    aligned = align_predictions(preds)
    per_fold = {m: [accuracy(aligned.y_true[aligned.fold == f], aligned.y_pred[m][aligned.fold == f])
                    for f in pd.unique(aligned.fold)] for m in "AB"}
    direct = corrected_resampled_t(per_fold["A"], per_fold["B"], n_folds=5)
    assert ft.result.statistic == pytest.approx(direct.statistic)


def test_compare_resolves_registry_metric_keys():
    from sklearn.metrics import f1_score, roc_auc_score

    preds, _, _ = binary_models(n=300)
    aligned = align_predictions(preds)
    c = compare(preds, test="paired_bootstrap", metric="f1", models=["A", "B"], n_resamples=50)
    want = f1_score(aligned.y_true, aligned.y_pred["A"]) - f1_score(aligned.y_true, aligned.y_pred["B"])
    assert c.result.statistic == pytest.approx(want, rel=1e-12)
    assert c.result.effect.name == "F1 score difference (A - B)"   # words on screen, not the key
    auc = compare(preds, test="paired_bootstrap", metric="roc_auc", models=["A", "C"], n_resamples=50)
    want = roc_auc_score(aligned.y_true, aligned.scores["A"]) - roc_auc_score(aligned.y_true, aligned.scores["C"])
    assert auc.result.statistic == pytest.approx(want, rel=1e-12)
    folds = compare(preds, test="wilcoxon", metric="roc_auc", models=["A", "B"])
    assert folds.result.n == 5
    with pytest.raises(AssessError, match=r"unknown binary metric 'auroc'; valid keys: "):
        compare(preds, test="paired_bootstrap", metric="auroc")


def test_compare_subgroups_for_classification_and_regression():
    preds, _, _ = binary_models(n=300)
    a = preds["A"]
    groups = np.where(np.arange(300) % 3 == 0, "young", np.where(np.arange(300) % 3 == 1, "mid", "old"))
    c = compare_subgroups(a, groups=groups)
    correct = a.y_pred == a.y_true
    table = [[int(correct[groups == g].sum()), int((~correct[groups == g]).sum())] for g in ("young", "mid", "old")]
    assert c.models == ("young", "mid", "old")
    assert c.result.statistic == pytest.approx(chi2_independence(table).statistic)
    assert len(c.pairs) == 3 and c.correction == "holm"
    rng = np.random.default_rng(2)
    y = rng.normal(size=90)
    reg = Predictions(Task.REGRESSION, (), y, y + rng.normal(size=90), group=np.repeat(["x", "y", "z"], 30),
                      model="R")
    k = compare_subgroups(reg, test="kruskal")
    err = np.abs(reg.y_true - reg.y_pred)
    assert k.result.statistic == pytest.approx(kruskal(err[:30], err[30:60], err[60:]).statistic)
    with pytest.raises(AssessError, match=r"subgroup tests need a group per sample \(`group` column\); model `A` "
                                          r"has none"):
        compare_subgroups(a)
    with pytest.raises(AssessError, match=r"`kruskal` compares absolute errors of numeric predictions by subgroup "
                                          r"\(task is binary\)"):
        compare_subgroups(a, test="kruskal", groups=groups)


def test_compare_diebold_mariano_on_forecasts():
    rng = np.random.default_rng(1)
    y = rng.normal(size=60)
    a = Predictions(Task.FORECAST, (), y, y + rng.normal(0, 1, 60), model="naive")
    b = Predictions(Task.FORECAST, (), y, y + rng.normal(0, 0.5, 60), model="arima")
    c = compare([a, b], test="diebold_mariano", loss="absolute")
    assert c.result == diebold_mariano(y, a.y_pred, b.y_pred, loss="absolute", names=("naive", "arima"))


# ---------------------------------------------------------------------------------------------- compare: folds


def test_compare_fold_tests_match_the_direct_calls():
    df = fold_frame(k=3, folds=10)
    wide = fold_table(df, metric="accuracy")
    pt = compare(df, test="paired_t", metric="accuracy", models=["A", "C"])
    assert pt.result.statistic == pytest.approx(paired_t(wide["A"], wide["C"]).statistic)
    an = compare(df, test="anova", metric="accuracy")
    assert an.result.statistic == pytest.approx(anova(wide["A"], wide["B"], wide["C"]).statistic)
    assert an.pairs[0].result.statistic == pytest.approx(anova(wide["A"], wide["B"]).statistic)
    kw = compare(df, test="kruskal", metric="accuracy")
    assert kw.result.pvalue == pytest.approx(kruskal(wide["A"], wide["B"], wide["C"]).pvalue)


def test_compare_friedman_defaults_to_nemenyi_pairs():
    df = fold_frame(k=4, folds=12)
    wide = fold_table(df, metric="accuracy")
    c = compare(df, test="friedman", metric="accuracy")
    assert c.correction == "nemenyi"
    assert c.result.statistic == pytest.approx(friedman(wide).statistic)
    nem = nemenyi(wide)
    for p in c.pairs:
        assert p.pvalue_adjusted == pytest.approx(nem.pvalues.loc[p.model_a, p.model_b])
        assert p.result.effect.interval.high - p.result.effect.value == pytest.approx(nem.critical_difference)
    assert c.to_dict()["details"]["average_ranks"] == pytest.approx(nem.average_ranks.to_dict())
    holm = compare(df, test="friedman", metric="accuracy", correction="holm")
    k, n = 4, 12
    z = [(holm.result.details.average_ranks[p.model_a] - holm.result.details.average_ranks[p.model_b])
         / math.sqrt(k * (k + 1) / (6 * n)) for p in holm.pairs]
    assert [p.result.statistic for p in holm.pairs] == pytest.approx(z)
    assert [p.pvalue_adjusted for p in holm.pairs] == pytest.approx(
        adjust_pvalues([p.result.pvalue for p in holm.pairs], method="holm"))


def test_compare_corrected_t_infers_folds_from_the_table():
    df = fold_frame(k=2, folds=5, repeats=2)
    wide = fold_table(df, metric="f1")
    c = compare(df, test="corrected_resampled_t", metric="f1")
    assert c.result.details.test_train_ratio == pytest.approx(1 / 4)
    assert c.result.statistic == pytest.approx(corrected_resampled_t(wide["A"], wide["B"], n_folds=5).statistic)


def test_compare_5x2cv_from_a_tidy_table():
    df = fold_frame(k=2, folds=2, repeats=5)
    wide = fold_table(df, metric="accuracy")
    diff = (wide["A"] - wide["B"]).to_numpy().reshape(5, 2)
    c = compare(df, test="cv_5x2_t", metric="accuracy")
    assert c.result.statistic == pytest.approx(cv_5x2_t(diff).statistic)
    with pytest.raises(AssessError, match=r"the 5×2cv t-test needs 5 repeats × 2 folds per model \(got 2 repeats × "
                                          r"5 folds\)"):
        compare(fold_frame(k=2, folds=5, repeats=2), test="cv_5x2_t", metric="accuracy")


def test_compare_all_runs_every_suitable_test():
    preds, _, _ = binary_models()
    res = compare_all(preds, metric=accuracy, n_resamples=100)
    assert [c.test for c in res.comparisons] == ["cochran_q", "mcnemar", "delong", "paired_bootstrap"]
    d = json.loads(json.dumps(res.to_dict(), allow_nan=False))
    assert d["tests"][0]["why"] and d["skipped"] == {}
    folds = compare_all(fold_frame(k=3, folds=10), metric="accuracy")
    # paired folds: no ANOVA or Kruskal–Wallis, which compare independent groups
    assert [c.test for c in folds.comparisons] == ["friedman", "corrected_resampled_t", "wilcoxon", "paired_t"]
    five_by_two = compare_all(fold_frame(k=2, folds=2, repeats=5), metric="f1")
    assert [c.test for c in five_by_two.comparisons][0] == "cv_5x2_t"
    with pytest.raises(AssessError, match=r"the fold table has no fold column `fold`"):
        compare_all(fold_frame().drop(columns="fold"), metric="accuracy")


def test_compare_errors_are_specific():
    preds, _, _ = binary_models(n=40)
    df = fold_frame()
    with pytest.raises(AssessError, match=r"`test` must be one of mcnemar, .* or 'all' \(got 'ttest'\)"):
        compare(preds, test="ttest")
    with pytest.raises(AssessError, match=r"`test='all'` runs every suitable test: call compare_all"):
        compare(preds, test="all")
    with pytest.raises(AssessError, match=r"`correction` must be one of 'auto', 'bonferroni', .* \(got 'sidak'\)"):
        compare(preds, test="mcnemar", correction="sidak")
    with pytest.raises(AssessError, match=r"option `h` does not apply to test `mcnemar` \(its options: continuity, "
                                          r"method\)"):
        compare(preds, test="mcnemar", h=2)
    with pytest.raises(AssessError, match=r"test `mcnemar` needs per-sample predictions; a fold table has only "
                                          r"per-fold scores"):
        compare(df, test="mcnemar")
    with pytest.raises(AssessError, match=r"test `mcnemar` compares per-sample correctness; `metric` does not apply"):
        compare(preds, test="mcnemar", metric=accuracy)
    with pytest.raises(AssessError, match=r"test `paired_bootstrap` needs `metric`: a metric key or a function"):
        compare(preds, test="paired_bootstrap", metric=42)
    with pytest.raises(AssessError, match=r"the fold table has several metric columns \(accuracy, f1\); choose one "
                                          r"with `metric`"):
        compare(df, test="friedman")
    with pytest.raises(AssessError, match=r"Friedman needs at least 2 folds per model; model `B` has 1"):
        compare(df[(df.model != "B") | (df.fold == 0)], test="friedman", metric="accuracy")
    with pytest.raises(AssessError, match=r"`alternative` does not apply to the omnibus test `friedman` "
                                          r"\(got 'greater'\)"):
        compare(df, test="friedman", metric="accuracy", alternative="greater")
    with pytest.raises(AssessError, match=r"test `mcnemar` compares at least 2 models \(got 1: A\)"):
        compare(preds, test="mcnemar", models=["A"])
    with pytest.raises(AssessError, match=r"DeLong needs scores; model `B` has none"):
        b = preds["B"]
        compare({"A": preds["A"], "B": Predictions(b.task, b.classes, b.y_true, b.y_pred, ids=b.ids, model="B")},
                test="delong")


def test_forecasts_without_ids_pair_by_series_time_horizon_and_origin_whatever_their_row_order():
    """A forecast is identified by its series, target time, horizon and origin: two forecasters' rows pair by those,
    so a file whose rows of one model come in another order gives the same Diebold–Mariano test as the sorted file
    (paired by order, it stopped at 'different time stamps')."""
    from assess.inputs.assessment import describe
    from assess.inputs.read import read_table

    frame = pd.read_csv(ROOT / "assets" / "samples" / "monthly_forecasts.csv").drop(columns="id")
    frame = frame[frame.model.isin(["naive", "ets"])]
    shuffled = pd.concat([frame[frame.model == "naive"],
                          frame[frame.model == "ets"].sample(frac=1.0, random_state=3)], ignore_index=True)

    def dm(f):
        a = describe(read_table(f.to_csv(index=False).encode(), name="forecasts.csv"))
        assert not any(p.code == "no_ids" for p in a.problems)
        return compare({m: a.predictions(m) for m in ("naive", "ets")}, test="diebold_mariano")

    ordered, reordered = dm(frame), dm(shuffled)
    assert reordered.result.statistic == pytest.approx(ordered.result.statistic, rel=1e-12)
    assert reordered.result.pvalue == pytest.approx(ordered.result.pvalue, rel=1e-12)
    # the oracle: the same test with the rows joined by their keys in pandas, one id per forecast
    keys = ["series", "timestamp", "horizon", "origin"]
    joined = frame.assign(id=frame.groupby(keys, sort=False).ngroup())
    assert dm(joined).result.statistic == pytest.approx(ordered.result.statistic, rel=1e-12)



def test_run_all_on_five_paired_folds_offers_no_wilcoxon_and_says_why():
    """On 5 folds the signed-rank test cannot go below p = 2/32 = 0.0625 (scipy's exact wilcoxon of 5 all-positive
    differences is the oracle), so "run all" said "No pair differs" with a test that could never say otherwise."""
    from scipy.stats import wilcoxon

    assert wilcoxon([1, 2, 3, 4, 5], [0, 0, 0, 0, 0], method="exact").pvalue == pytest.approx(0.0625)
    five = compare_all(fold_frame(k=3, folds=5), metric="accuracy")
    tests = [c.test for c in five.comparisons]
    assert "wilcoxon" not in tests and "anova" not in tests and "kruskal" not in tests
    assert five.skipped["wilcoxon"] == ("the Wilcoxon signed-rank test cannot reach 5% significance on 5 paired "
                                        "folds: its smallest two-sided p-value is 2/2^5 = 0.0625")


def test_the_bootstrap_without_a_metric_compares_the_headline_metric_as_compare_all_does():
    """`compare --test paired_bootstrap` without --metric refused to run while `--test all` and the report compare
    the task's headline metric (mean absolute error for numbers): one default for every surface."""
    rng = np.random.default_rng(4)
    y = rng.normal(size=40)
    preds = {m: Predictions(Task.REGRESSION, (), y, y + rng.normal(0, s, 40), model=m) for m, s in (("a", 1), ("b", 2))}
    found = compare(preds, test="paired_bootstrap", n_resamples=200).result
    assert found.details.metric == "mae"
    assert found.effect.value == pytest.approx(np.mean(np.abs(preds["a"].y_pred - y))
                                               - np.mean(np.abs(preds["b"].y_pred - y)))


def _regression_models(k=3, n=60, seed=5):
    rng = np.random.default_rng(seed)
    y = rng.normal(size=n)
    return {m: Predictions(Task.REGRESSION, (), y, y + rng.normal(0, 1 + 0.3 * i, n), model=m)
            for i, m in enumerate("ABC"[:k])}


@pytest.mark.parametrize("data, test, options, lead", [
    ("binary", "mcnemar", {}, "McNemar's test on accuracy: "),
    ("binary", "delong", {}, "DeLong's test on ROC AUC: "),
    ("binary", "paired_bootstrap", {"metric": "f1", "n_resamples": 50}, "Paired bootstrap on F1 score: "),
    ("binary", "welch_t", {"loss": "zero_one"}, "Welch's t-test on error rate (0/1 loss): "),
    ("regression", "paired_t", {}, "Paired t-test on absolute error: "),
    ("regression", "diebold_mariano", {}, "Diebold–Mariano test on squared error: "),
    ("folds", "paired_t", {"metric": "f1"}, "Paired t-test on F1 score: "),   # a column named by a key
])
def test_the_summary_of_three_models_names_the_test_and_what_it_compares(data, test, options, lead):
    """Issue 33 §2: with more than two models the report's verdict — the pairs' summary — said '2 of 3 pairs differ
    significantly …' without the test or the metric; a reader could not tell ROC AUC from accuracy."""
    found = {"binary": lambda: binary_models()[0], "regression": _regression_models, "folds": fold_frame}[data]()
    result = compare(found, test=test, **options)
    assert result.result is None and len(result.pairs) == 3
    assert result.sentence.startswith(lead), result.sentence
    assert "pairs differ significantly" in result.sentence or "no pair of models differs" in result.sentence
    two = compare(found if data == "folds" else dict(list(found.items())[:2]), test=test,
                  models=["A", "B"], **options)
    assert not two.sentence.startswith(lead)       # one pair's own sentence names its test in the verdict
