"""AppTest of every page on the digits multi-label sample: the numbers on screen against scikit-learn and
statsmodels, and the multi-label views (per-label curves, labels per sample, co-occurrence, McNemar per label)."""

import json

import numpy as np
import pandas as pd
from sklearn.metrics import hamming_loss, multilabel_confusion_matrix, roc_auc_score
from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar
from statsmodels.stats.multitest import multipletests

from tests.conftest import ROOT, open_app
from tests.views.test_errors import values

SAMPLE = "Digits — multi-label, 5 properties, 2 models, 5 folds"
LABELS = ["even", "prime", "at_least_5", "closed_loop", "multiple_of_3"]


def sample(model):
    frame = pd.read_csv(ROOT / "assets/samples/digits_multilabel.csv").query("model == @model")
    pick = lambda prefix: frame[[f"{prefix}_{label}" for label in LABELS]].to_numpy()  # noqa: E731
    return pick("true").astype(bool), pick("pred").astype(bool), pick("score")


def specs(at):
    return {json.loads(e.proto.spec)["layout"]["title"]["text"]: json.loads(e.proto.spec)
            for e in at.get("plotly_chart")}


def test_data_page_recognises_the_sample_as_multilabel():
    at = open_app("views/data.py", sample=SAMPLE)
    text = " ".join(str(m.value) for m in [*at.markdown, *at.caption, *at.info, *at.success])
    assert "multilabel" in text.lower() or "multi-label" in text.lower()


def test_metrics_page_shows_sklearn_numbers():
    at = open_app("views/metrics.py", sample=SAMPLE)
    table = at.dataframe[0].value.set_index("key")
    for model in ("logistic_ovr", "naive_bayes_coarse"):
        y, yp, _ = sample(model)
        assert table.loc["hamming_loss", model].startswith(f"{hamming_loss(y, yp):.3f}")


def test_curves_page_draws_per_label_roc_with_micro_and_macro_like_sklearn():
    at = open_app("views/curves.py", sample=SAMPLE)
    [model] = [s for s in at.selectbox if s.label == "Model for the per-label curves"]
    model.set_value("naive_bayes_coarse").run()
    assert not at.exception
    y, _, s = sample("naive_bayes_coarse")
    roc = specs(at)["ROC per label — naive_bayes_coarse"]
    names = [t["name"] for t in roc["data"] if "name" in t]
    for j, label in enumerate(LABELS):
        assert f"{label} (AUC {roc_auc_score(y[:, j], s[:, j]):.3f})" in names
    assert f"micro-average (AUC {roc_auc_score(y, s, average='micro'):.3f})" in names
    assert f"macro-average (AUC {roc_auc_score(y, s, average='macro'):.3f})" in names
    assert "Precision–recall per label — naive_bayes_coarse" in specs(at)


def test_confusion_page_grid_cardinality_and_cooccurrence_follow_the_file_labels():
    at = open_app("views/confusion.py", sample=SAMPLE)
    shown = specs(at)
    y, yp, _ = sample("logistic_ovr")
    grid = shown["Confusion per label — logistic_ovr"]
    cells = [int(t.split("<br>")[0].replace(",", "")) for trace in grid["data"] if trace.get("text")
             for t in trace["text"]]
    assert cells == multilabel_confusion_matrix(y, yp).ravel().tolist()
    cardinality = shown["Labels per sample, true and predicted"]
    bars = {t["name"]: t for t in cardinality["data"]}
    true_counts = np.bincount(y.sum(axis=1), minlength=len(LABELS) + 1)
    np.testing.assert_allclose(values(bars["true labels"]["y"]), true_counts / len(y))
    predicted = np.bincount(yp.sum(axis=1), minlength=len(LABELS) + 1)
    np.testing.assert_allclose(values(bars["predicted — logistic_ovr"]["y"]), predicted / len(y))
    co = shown["Label co-occurrence, true and predicted — logistic_ovr"]
    left, right = [t for t in co["data"] if t.get("text")]      # each matrix's cell texts, row-major
    np.testing.assert_array_equal(np.array([int(t.replace(",", "")) for t in left["text"]]).reshape(5, 5),
                                  y.T.astype(int) @ y.astype(int))
    np.testing.assert_array_equal(np.array([int(t.replace(",", "")) for t in right["text"]]).reshape(5, 5),
                                  yp.T.astype(int) @ yp.astype(int))


def test_compare_page_runs_mcnemar_per_label_like_statsmodels():
    at = open_app("views/compare.py", sample=SAMPLE)
    [test] = [s for s in at.selectbox if s.label == "Test"]
    test.set_value("mcnemar_per_label").run()
    [run] = [b for b in at.button if b.label == "Run test"]
    run.click().run()
    assert not at.exception
    a, b = (sample(m) for m in ("logistic_ovr", "naive_bayes_coarse"))
    y = a[0]
    raw = []
    for j in range(len(LABELS)):
        ra, rb = a[1][:, j] == y[:, j], b[1][:, j] == y[:, j]
        raw.append(sm_mcnemar([[np.sum(ra & rb), np.sum(ra & ~rb)], [np.sum(~ra & rb), np.sum(~ra & ~rb)]],
                              exact=True).pvalue)
    [table] = [d.value for d in at.dataframe if "pvalue_adjusted" in d.value.columns]
    assert list(table["label"]) == LABELS
    np.testing.assert_allclose(table["pvalue"], raw, rtol=1e-9)
    np.testing.assert_allclose(table["pvalue_adjusted"], multipletests(raw, method="fdr_bh")[1], rtol=1e-9)
    assert any("5 of 5 labels" in s.value for s in at.success)


def test_every_label_set_to_its_max_f1_threshold_reaches_the_metrics():
    from sklearn.metrics import f1_score, precision_recall_curve

    at = open_app("views/curves.py", sample=SAMPLE)
    [model] = [s for s in at.selectbox if s.label == "From the scores of"]
    model.set_value("naive_bayes_coarse").run()
    [button] = [b for b in at.button if b.label == "Set every label's threshold"]
    button.click().run()
    assert not at.exception
    y, _, s = sample("naive_bayes_coarse")
    expected = []
    for j in range(len(LABELS)):
        precision, recall, thresholds = precision_recall_curve(y[:, j], s[:, j])
        with np.errstate(invalid="ignore", divide="ignore"):
            f1 = 2 * precision * recall / (precision + recall)
        expected.append(thresholds[np.nanargmax(f1[:-1])])
    [table] = [d.value for d in at.dataframe if "Threshold" in getattr(d.value, "columns", [])]
    np.testing.assert_allclose(table["Threshold"], expected)
    at.switch_page("views/metrics.py").run()
    assert not at.exception
    decided = s >= np.array(expected)
    value = at.dataframe[0].value.set_index("key").loc["f1_macro", "naive_bayes_coarse"]
    assert value.startswith(f"{f1_score(y, decided, average='macro'):.3f}")


def test_pages_with_24_labels_draw_eight_curves_and_every_matrix():
    rng = np.random.default_rng(24)
    n, names = 300, [f"topic_{i:02d}" for i in range(24)]
    truth = rng.random((n, 24)) < rng.uniform(0.05, 0.5, 24)
    scores = np.clip(truth * 0.35 + rng.random((n, 24)) * 0.65, 0, 1).round(4)
    frame = pd.DataFrame({**{f"true_{m}": truth[:, j].astype(int) for j, m in enumerate(names)},
                          **{f"score_{m}": scores[:, j] for j, m in enumerate(names)}})
    at = open_app()
    at.radio[0].set_value("Upload a file").run()
    at.file_uploader[0].upload("topics.csv", frame.to_csv(index=False).encode(), "text/csv").run()
    at.switch_page("views/curves.py").run()
    assert not at.exception
    [drawn] = [m for m in at.multiselect if m.label == "Labels drawn"]
    support = truth.sum(axis=0)
    assert sorted(drawn.value) == sorted(names[j] for j in np.argsort(-support, kind="stable")[:8])
    roc = [s for t, s in specs(at).items() if t.startswith("ROC per label")][0]
    assert sum(1 for t in roc["data"] if t.get("name", "").startswith("topic_")) == 8
    at.switch_page("views/confusion.py").run()
    assert not at.exception
    grid = [s for t, s in specs(at).items() if t.startswith("Confusion per label")][0]
    assert len(grid["layout"]["annotations"]) == 24


def test_compare_page_draws_the_per_label_differences():
    at = open_app("views/compare.py", sample=SAMPLE)
    [test] = [s for s in at.selectbox if s.label == "Test"]
    test.set_value("mcnemar_per_label").run()
    [run] = [b for b in at.button if b.label == "Run test"]
    run.click().run()
    assert not at.exception
    a, b = (sample(m) for m in ("logistic_ovr", "naive_bayes_coarse"))
    y = a[0]
    expected = ((a[1] == y).mean(axis=0) - (b[1] == y).mean(axis=0))
    forest = [s for t, s in specs(at).items() if t.startswith("Accuracy difference per label")][0]
    np.testing.assert_allclose(values(forest["data"][0]["x"]), expected)
    assert list(forest["data"][0]["y"]) == LABELS


def test_per_label_curves_wrap_like_the_binary_charts():
    """Walk at 1024 px: the per-label ROC and PR charts sat in two half-page columns, their titles and x-axis titles
    cut and their download buttons out of line. They follow the binary charts' rule now (`ui.widgets.chart_row`): a
    fixed-width cell each in a row that wraps, so below two charts' width they stack."""
    at = open_app("views/curves.py", sample=SAMPLE)

    def places(node, path=()):
        for child in getattr(node, "children", {}).values():
            if getattr(child, "type", None) == "plotly_chart":
                yield json.loads(child.proto.spec)["layout"]["title"]["text"], (None, None, *path)[-2:]
            yield from places(child, (*path, child))

    def layout(row, cell):   # (the row's direction, whether it wraps, the cell's width): None where it has none
        def field(block, name):
            proto = getattr(block, "proto", None)   # a column's proto is a `Column`, without these fields
            fields = proto.DESCRIPTOR.fields_by_name if proto is not None else {}
            return getattr(proto, name) if name in fields and proto.HasField(name) else None
        row_flex = field(row, "flex_container")
        return (row_flex and row_flex.direction, row_flex and row_flex.wrap, str(field(cell, "width_config")))

    found = {title: layout(*path) for title, path in places(at._tree)}
    binary_roc = next(v for t, v in found.items() if t.startswith("ROC") and "per label" not in t)
    assert binary_roc[1] and "pixel_width" in binary_roc[2]          # the binary rule: a wrapping row, fixed cells
    per_label = [v for t, v in found.items() if " per label — " in t and not t.startswith("Confusion")]
    assert len(per_label) == 2 and all(v == binary_roc for v in per_label)
