"""AppTest of the Curves page: explorer, suggestions, charts from the engine's curves, multi-class and multi-label."""

import json

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import confusion_matrix, roc_auc_score

from tests.conftest import ROOT, open_app


def open_curves(sample=None):
    return open_app("views/curves.py", sample=sample)


def matrix_spec(at, title, subtitle_start=""):
    for element in at.get("plotly_chart"):
        spec = json.loads(element.proto.spec)
        heading = spec["layout"].get("title", {})
        if heading.get("text") == title and (heading.get("subtitle", {}).get("text") or "").startswith(subtitle_start):
            return spec
    raise AssertionError(f"no chart titled {title} ({subtitle_start}…)")


def test_threshold_moves_the_confusion_matrix():
    at = open_curves()
    data = pd.read_csv(ROOT / "assets/samples/breast_cancer_binary.csv").query("model == 'tree'")
    y = data.y_true == "malignant"
    for threshold in (0.5, 0.9):
        [box] = [n for n in at.number_input if n.label == "Exact threshold"]
        box.set_value(threshold).run()
        assert not at.exception
        spec = matrix_spec(at, "tree", f"at threshold {threshold:.3f}")
        counts = [int(t.split("<br>")[0].replace(",", "")) for t in np.ravel(spec["data"][0]["text"])]
        expected = confusion_matrix(y, data.score >= threshold).ravel()  # [tn, fp, fn, tp], scikit-learn oracle
        assert counts == expected.tolist()
    assert [s.value for s in at.slider] == [0.9]


def test_suggestion_button_sets_threshold():
    at = open_curves()
    [youden] = [b for b in at.button if b.label.startswith("Youden's J: ")]
    suggested = float(youden.label.split(": ")[1])
    youden.click().run()
    assert not at.exception
    [box] = [n for n in at.number_input if n.label == "Exact threshold"]
    assert box.value == pytest.approx(suggested, abs=5e-4)


def test_charts_and_decile_table():
    at = open_curves()
    titles = []
    for element in at.get("plotly_chart"):
        titles.append(json.loads(element.proto.spec)["layout"].get("title", {}).get("text", ""))
    for expected in ("ROC curve", "Precision–recall", "Cumulative gain", "Lift", "Calibration", "Kolmogorov"):
        assert any(t.startswith(expected) for t in titles), (expected, titles)
    deciles = [d.value for d in at.dataframe if "cumulative_gain" in d.value.columns][0]
    assert len(deciles) == 30 and np.allclose(deciles.groupby("model")["cumulative_gain"].last(), 1.0)


WINE = "Wine — multi-class, 2 models"


def charts_by_title(at):
    specs = [json.loads(e.proto.spec) for e in at.get("plotly_chart")]
    return {spec["layout"]["title"]["text"]: spec for spec in specs}


def wine():
    data = pd.read_csv(ROOT / "assets/samples/wine_multiclass.csv")
    return {m: g for m, g in data.groupby("model")}


def test_multiclass_overlays_the_models_on_one_class_with_every_curve():
    at = open_curves(WINE)
    shown = charts_by_title(at)
    about = "class barbera against the rest"
    for title in ("ROC curve", "Precision–recall curve", "Cumulative gain", "Lift", "Calibration (reliability)"):
        assert f"{title} — {about}" in shown, (title, list(shown))
    roc = shown[f"ROC curve — {about}"]
    for model, rows in wine().items():   # each model's one-vs-rest AUC in the legend: scikit-learn's
        auc = roc_auc_score(rows.y_true == "barbera", rows.proba_barbera)
        assert any(t.get("name", "").startswith(f"{model} (AUC {auc:.3f}") for t in roc["data"]), model
    assert not [c for c in at.caption if "threshold on the Curves page" in c.value]
    assert "ROC, one class against the rest — " + sorted(wine())[0] in shown or any(
        t.startswith("ROC, one class against the rest") for t in shown)          # every class of one model


def test_multiclass_models_multiselect_chooses_the_overlaid_models():
    at = open_curves(WINE)
    [models] = [m for m in at.multiselect if m.label == "Models"]
    keep = models.value[1]
    models.set_value([keep]).run()
    assert not at.exception
    roc = charts_by_title(at)["ROC curve — class barbera against the rest"]
    drawn = {t["name"].split(" (")[0] for t in roc["data"] if t.get("legendgroup")}
    assert drawn == {keep}


def test_multiclass_macro_average_overlay_quotes_each_models_macro_auc():
    at = open_curves(WINE)
    at.selectbox(key="curves_class").set_value("macro-average").run()
    assert not at.exception
    roc = charts_by_title(at)["ROC curve, macro-average of the classes"]
    for model, rows in wine().items():
        proba = rows[["proba_barolo", "proba_grignolino", "proba_barbera"]].to_numpy()
        truth = rows.y_true.map({"barolo": 0, "grignolino": 1, "barbera": 2})
        auc = roc_auc_score(truth, proba, multi_class="ovr", average="macro")
        assert any(t.get("name", "") == f"{model} (macro AUC {auc:.3f})" for t in roc["data"]), model


def test_multiclass_bands_on_a_class_and_none_on_the_micro_average():
    at = open_curves(WINE)
    at.toggle(key="roc_band").set_value(True).run()
    assert not at.exception
    shown = charts_by_title(at)
    for title in ("ROC curve", "Precision–recall curve", "Cumulative gain", "Lift"):
        spec = shown[f"{title} — class barbera against the rest"]
        assert len([t for t in spec["data"] if t.get("fill") == "toself"]) == 2, title   # one band per model
    at.selectbox(key="curves_class").set_value("micro-average").run()
    assert not at.exception
    assert not [t for t in at.toggle if t.label.startswith("95% bootstrap")]
    assert any("not independent" in c.value for c in at.caption)


def test_multiclass_pages_name_no_threshold():
    at = open_app("views/confusion.py", sample=WINE)
    notes = [c.value for c in at.caption if "predicted" in c.value]
    assert notes and not [n for n in notes if "threshold" in n]


def test_multilabel_upload_explores_one_label():
    rng = np.random.default_rng(0)
    n = 120
    truth = rng.random((n, 2)) < 0.4
    scores = np.clip(truth * 0.4 + rng.random((n, 2)) * 0.6, 0, 1).round(4)
    frame = pd.DataFrame({"true_news": truth[:, 0].astype(int), "true_sport": truth[:, 1].astype(int),
                          "score_news": scores[:, 0], "score_sport": scores[:, 1]})
    at = open_app()
    at.radio[0].set_value("Upload a file").run()
    at.file_uploader[0].upload("ml.csv", frame.to_csv(index=False).encode(), "text/csv").run()
    at.switch_page("views/curves.py").run()
    assert not at.exception
    [label] = [s for s in at.selectbox if s.label == "Label"]
    label.set_value("sport").run()
    assert not at.exception
    spec = matrix_spec(at, "ml", "at threshold")
    cells = [int(t.split("<br>")[0].replace(",", "")) for t in np.ravel(spec["data"][0]["text"])]
    y, s = truth[:, 1], scores[:, 1] >= 0.5
    assert cells == [int((~y & ~s).sum()), int((~y & s).sum()), int((y & ~s).sum()), int((y & s).sum())]


def test_roc_band_and_hull_toggles():
    at = open_curves()
    for key in ("roc_band", "roc_hull"):
        at.toggle(key=key).set_value(True).run()
        assert not at.exception
    [roc] = [json.loads(e.proto.spec) for e in at.get("plotly_chart")
             if json.loads(e.proto.spec)["layout"]["title"]["text"].startswith("ROC curve")]
    names = [t.get("name", "") for t in roc["data"]]
    assert any("convex hull" in n for n in names)
    assert any(t.get("fill") for t in roc["data"]), "the band is a filled area"
    shown = charts_by_title(at)
    for title in ("Precision–recall curve", "Cumulative gain", "Lift"):   # every curve has its band
        assert len([t for t in shown[title]["data"] if t.get("fill") == "toself"]) == 3, title   # one per model
    calibration = shown["Calibration (reliability)"]
    assert all(t["error_y"]["arrayminus"] for t in calibration["data"] if t.get("mode") == "lines+markers")


def test_metric_by_threshold_chart_offers_every_registry_rate():
    from assess.core.data import Task
    from assess.metrics import metrics_for

    at = open_curves()
    [chooser] = [m for m in at.multiselect if m.label == "Metrics by threshold"]
    rates = [m for m in metrics_for(Task.BINARY) if m.needs == "labels" and "threshold" in m.params
             and m.kind != "count"]
    assert {"lr_plus", "cohen_kappa", "diagnostic_odds_ratio"} <= {m.key for m in rates}
    assert len(chooser.options) == len(rates)
    chooser.set_value(["cohen_kappa", "lr_plus"]).run()
    assert not at.exception
    names = [t["name"] for e in at.get("plotly_chart") for t in json.loads(e.proto.spec)["data"]
             if json.loads(e.proto.spec)["layout"].get("title", {}).get("text", "").startswith("Metrics by threshold")]
    assert names == ["Cohen's kappa", "Positive likelihood ratio"]
    chooser.set_value([]).run()
    assert not at.exception


def test_multiclass_class_absent_from_the_truth_has_curves_but_says_why_it_has_no_band():
    """A probability column for a class no row has (c): its one-vs-rest view has no positive to resample."""
    rng = np.random.default_rng(1)
    proba = rng.dirichlet([1, 1, 1, 1], size=90).round(4)
    frame = pd.DataFrame(proba, columns=["proba_a", "proba_b", "proba_c", "proba_d"])
    frame.insert(0, "y_true", rng.choice(["a", "b", "d"], 90))
    frame.insert(0, "model", "m")
    at = open_app()
    at.radio[0].set_value("Upload a file").run()
    at.file_uploader[0].upload("absent.csv", frame.to_csv(index=False).encode(), "text/csv").run()
    at.switch_page("views/curves.py").run()
    at.selectbox(key="curves_class").set_value("c").run()
    at.toggle(key="roc_band").set_value(True).run()
    assert not at.exception
    assert any("No band for `m`" in c.value and "both classes" in c.value for c in at.caption)
