"""Sentences a stakeholder reads (issue 33 §2): the Metrics page says which model is best in the report's words,
clustering indices are said in plain words, forecast sentences have one pair of parentheses and say which rows the
naive forecast was scored on, and log axes label their ticks in full. Class names 1, True and a long one.

Oracles: scikit-learn (ROC AUC, adjusted Rand index, normalized mutual information, silhouette), purity counted by
hand, Kaufman & Rousseeuw's silhouette bands (1990, ch. 2)."""

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn import metrics as skm

from assess.inputs.assessment import describe
from assess.inputs.read import read_table
from assess.metrics.document import MetricsSettings, compute_metrics
from assess.metrics.reports import compute_reports
from assess.present.charts.slices import learning_curve_chart
from assess.present.metrics_view import metrics_view
from assess.present.report import ReportOptions, build_report, render_html
from assess.present.summary import headline_sentences

ROOT = Path(__file__).resolve().parents[2]
LONG = "a very long class name that goes on well past any sensible width"


def _binary(positive: str, models: tuple[str, str] = ("plain", "sharp")) -> bytes:
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 300)
    labels = np.where(y == 1, positive, "other")
    return pd.concat([pd.DataFrame({"id": np.arange(300), "model": m, "y_true": labels,
                                    "score": np.clip(y * sep + rng.random(300) * (1 - sep), 0, 1).round(4)})
                      for m, sep in zip(models, (0.2, 0.45))]).to_csv(index=False).encode()


@pytest.mark.parametrize("positive", ["1", "True", LONG])
def test_the_metrics_page_says_which_model_is_best_in_the_reports_words(positive):
    assessment = describe(read_table(_binary(positive), name="two.csv"))
    settings = MetricsSettings(ci="auto", n_resamples=100)   # DeLong for the AUCs
    view = metrics_view(assessment, settings, compute_metrics(assessment, settings))
    frame = pd.read_csv(__import__("io").BytesIO(_binary(positive)))
    auc = {m: skm.roc_auc_score(g["y_true"] == positive, g["score"]) for m, g in frame.groupby("model")}
    best, other = sorted(auc, key=auc.get, reverse=True)
    said = view.sentences[0]
    assert said.startswith(f"Model {best} is best on ROC AUC: {auc[best]:.3f} (") and \
        f"for model {other} (95% intervals)" in said
    # the sentence names models, never the class (a class "1" must not be confused with the numbers' digits)
    assert "more than chance" in said and not re.search(rf"(?<![\w.]){re.escape(positive)}(?![\w.])", said)
    # the report's recommendation says the same words (one function): compare its leading clause
    report = build_report(assessment, ReportOptions(ci="auto", n_resamples=100, charts=False, tests=("delong",)))
    head = said.split(". Whether")[0]
    assert head.replace("(95% intervals)", "") in report.recommendation.text.replace("(95% intervals)", "")


@pytest.mark.parametrize("weak, strong", [("True", "1"), ("1", LONG)])
def test_the_best_model_sentence_and_the_recommendation_name_the_model_as_one(weak, strong):
    """A model called 1, True or a long name reads as a model: "Model 1 is best on ROC AUC…", never a bare "1 is best"
    opening a sentence; the report's recommendation sits under its heading "Recommendation." without repeating the
    word ("Recommendation. Recommended: …" before). Oracle: scikit-learn's ROC AUC of each model."""
    data = _binary("yes", (weak, strong))
    assessment = describe(read_table(data, name="named.csv"))
    settings = MetricsSettings(ci="auto", n_resamples=100)
    said = metrics_view(assessment, settings, compute_metrics(assessment, settings)).sentences[0]
    frame = pd.read_csv(__import__("io").BytesIO(data), dtype={"model": str})
    auc = {m: skm.roc_auc_score(g["y_true"] == "yes", g["score"]) for m, g in frame.groupby("model")}
    assert auc[strong] > auc[weak]                       # the data are made so
    assert said.startswith(f"Model {strong} is best on ROC AUC: {auc[strong]:.3f} (")
    assert f" for model {weak} (95% intervals)" in said
    report = build_report(assessment, ReportOptions(ci="auto", n_resamples=100, charts=False, tests=("delong",)))
    assert report.recommendation.separated and report.recommendation.best == strong
    assert report.recommendation.text.startswith(f"Model {strong} is best on ROC AUC: {auc[strong]:.3f} (")
    assert f"It beats model {weak} (" in report.recommendation.text
    shown = re.sub(r"<[^>]+>", " ", render_html(report))
    assert shown.count("Recommendation.") == 1 and "Recommended" not in shown


def _clusters() -> tuple[bytes, pd.DataFrame]:
    rng = np.random.default_rng(4)
    classes = np.repeat(["1", "True", LONG], 60)
    centre = {"1": 0.0, "True": 4.0, LONG: 8.0}
    x1 = np.array([centre[c] for c in classes]) + rng.normal(0, 1.0, 180)
    x2 = rng.normal(0, 1.0, 180)
    cut = np.digitize(x1, [2.0, 6.0])
    frame = pd.DataFrame({"id": np.arange(180), "model": "kmeans", "y_true": classes, "cluster": cut,
                          "x_1": x1, "x_2": x2})
    return frame.to_csv(index=False).encode(), frame


def test_clustering_indices_are_said_in_plain_words():
    data, frame = _clusters()
    assessment = describe(read_table(data, name="clusters.csv"))
    reports = compute_reports(assessment, ci=None)
    text = " ".join(headline_sentences(reports))
    ari = skm.adjusted_rand_score(frame["y_true"], frame["cluster"])
    nmi = skm.normalized_mutual_info_score(frame["y_true"], frame["cluster"])
    sil = skm.silhouette_score(frame[["x_1", "x_2"]], frame["cluster"])
    purity = pd.crosstab(frame["cluster"], frame["y_true"]).max(axis=1).sum() / len(frame)   # by hand
    assert f"Clustering kmeans agrees with the reference classes beyond chance (adjusted Rand index {ari:.3f}" in text
    assert f"rows share their cluster's most common class (purity {purity:.3f})" in text
    assert f"share {nmi:.0%} of their information (normalized mutual information {nmi:.3f}" in text
    band = "a strong structure" if sil > 0.7 else "a reasonable structure" if sil > 0.5 else \
        "a weak structure that could be artificial" if sil > 0.25 else "no substantial structure"
    assert f"shows {band} (mean silhouette {sil:.3f}" in text
    # the scale, read as the adjusted Rand index's is ("0 is …, 1 …"); it once read "; 1 compact, well-apart clusters"
    assert "; 1 is compact, well-apart clusters, 0 rows on the borders between clusters, below 0 rows closer to " \
           "another cluster)." in text
    assert LONG not in text and "True" not in text


def test_forecast_sentences_have_one_pair_of_parentheses_and_say_where_the_naive_forecast_was_scored():
    assessment = describe(read_table(ROOT / "assets/samples/monthly_forecasts.csv"))
    sentences = headline_sentences(compute_reports(assessment, models=["naive"], ci=None))
    text = " ".join(sentences)
    assert not re.search(r"\)\s*\(|\(\s*\(|\)\)", text), text       # no "(…) (…)" nor nested parentheses
    assert all(s.count("(") == s.count(")") for s in sentences)
    mae = next(s for s in sentences if "off by" in s)
    assert "naive forecast, the last value seen, is off by" in mae and "rows where it can be formed" in mae
    assert sum("over each whole series" in s for s in sentences) == 2   # MASE and seasonal MASE: the scale's rows


def test_log_axes_label_their_ticks_in_full():
    points = pd.DataFrame({"model": "a", "train_size": [20, 45, 90, 180, 360, 455], "mean": 0.9, "low": 0.8,
                           "high": 0.95})
    axis = learning_curve_chart(points=points, metric="Accuracy", column="train_size").layout.xaxis
    assert axis.type == "log"
    labels = dict(zip(axis.tickvals, axis.ticktext))
    assert {20: "20", 50: "50", 100: "100", 200: "200", 500: "500"}.items() <= labels.items()
    assert all(text == f"{value:,.0f}" for value, text in labels.items())   # never a bare "2" for 20
