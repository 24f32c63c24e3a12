"""AppTest of the Confusion page: matrices against scikit-learn, the cost matrix, confused pairs, multi-label."""

import json

import numpy as np
import pytest
import pandas as pd
from sklearn.metrics import confusion_matrix

from tests.conftest import ROOT, open_app

NORMALISE = ["counts (share of all)", "by true class (recall on the diagonal)"]


def open_page(sample=None):
    return open_app("views/confusion.py", sample=sample)


def cell_counts(at, title):
    for element in at.get("plotly_chart"):
        spec = json.loads(element.proto.spec)
        if spec["layout"]["title"]["text"] == title:
            return [int(t.split("<br>")[0].replace(",", "")) for t in np.ravel(spec["data"][0]["text"])]
    raise AssertionError(title)


def test_multiclass_matrices_pairs_and_cost():
    at = open_page("Wine — multi-class, 2 models")
    data = pd.read_csv(ROOT / "assets/samples/wine_multiclass.csv").query("model == 'forest'")
    classes = ["barbera", "barolo", "grignolino"]
    expected = confusion_matrix(data.y_true, data.y_pred, labels=classes).ravel().tolist()
    assert cell_counts(at, "forest") == expected
    pairs = [d.value for d in at.dataframe if "predicted_class" in d.value.columns][0]
    assert set(pairs["model"]) <= {"logistic", "forest"}
    cost = [d.value for d in at.dataframe if "expected cost per sample" in d.value.columns][0]
    errors = (data.y_true != data.y_pred).mean()  # unit costs: expected cost = error rate
    assert cost.set_index("model").loc["forest", "expected cost per sample"] == np.float64(errors)


def test_binary_uses_label_column_and_shows_no_pairs():
    at = open_page()
    data = pd.read_csv(ROOT / "assets/samples/breast_cancer_binary.csv").query("model == 'tree'")
    assert cell_counts(at, "tree") == confusion_matrix(data.y_true, data.y_pred,
                                                       labels=["benign", "malignant"]).ravel().tolist()
    assert not [d for d in at.dataframe if "predicted_class" in d.value.columns]
    assert any("predicted-label column" in c.value.replace("\\", "") for c in at.caption)


def _upload(at, frame):
    at.radio[0].set_value("Upload a file").run()
    at.file_uploader[0].upload("pairs.csv", frame.to_csv(index=False).encode(), "text/csv").run()
    return at.switch_page("views/confusion.py").run()


def test_no_confused_pair_is_a_sentence_not_an_empty_table():
    """Every row predicted as its class: "Most confused pairs" says so (the table widget ended the page on a
    ``ValueError`` counting wrapped lines in no cell); with one error the pair is listed, its long class names
    wrapped so the count and share stay in view."""
    names = ["Invoice — duplicate payment to the same supplier", "Invoice — paid on time", "Credit note"]
    truth = np.array(names * 20, dtype=object)
    at = _upload(open_app(), pd.DataFrame({"y_true": truth, "y_pred": truth}))
    assert not at.exception
    assert not [d for d in at.dataframe if "predicted_class" in d.value.columns]
    assert any("no pair of classes is confused" in c.value for c in at.caption)
    wrong = truth.copy()
    wrong[0] = names[1]
    at = _upload(open_app(), pd.DataFrame({"y_true": truth, "y_pred": wrong}))
    assert not at.exception
    pairs, = [d for d in at.dataframe if "predicted_class" in d.value.columns]
    assert pairs.value[["true_class", "predicted_class", "count"]].values.tolist() == [[names[0], names[1], 1]]
    assert pairs.proto.row_height > 64   # the long names wrap onto two lines


def _cost_table(at):
    return [d.value for d in at.dataframe if "expected cost per sample" in d.value.columns][0].set_index("model")


def _edit_costs(at, cells):
    """Seed the page's cost editor (AppTest applies no cell edits: the editor's state is assigned, then a rerun)."""
    a = at.session_state["assessment"]
    key = f"costs_{a.table.sha256}_{len(a.classes)}"
    at.session_state[key] = {"edited_rows": cells, "added_rows": [], "deleted_rows": []}
    return at.run()


def test_page_and_report_give_one_verdict_and_one_number_for_a_benefit():
    """A benefit written as a negative cost (a malignant tumour found is worth 2): the page and the report both accept
    it and give the same expected cost, scikit-learn's confusion matrix times the costs (the report refused it while
    the page took it)."""
    from assess.present.report import ReportOptions, build_report

    at = _edit_costs(open_page(), {1: {"malignant": -2.0}})
    assert not at.exception
    a = at.session_state["assessment"]
    costs = np.array([[0.0, 1.0], [1.0, -2.0]])
    report = build_report(a, ReportOptions(costs=tuple(map(tuple, costs)), charts=False, n_resamples=100))
    assert report.misclassification is not None
    page = _cost_table(at)
    data = pd.read_csv(ROOT / "assets/samples/breast_cancer_binary.csv")
    for row in report.misclassification.models:
        part = data.query("model == @row.model")
        cm = confusion_matrix(part.y_true, part.y_pred, labels=["benign", "malignant"])
        oracle = (cm * costs).sum() / cm.sum()
        assert row.expected == pytest.approx(oracle, abs=1e-12)
        assert page.loc[row.model, "expected cost per sample"] == pytest.approx(oracle, abs=1e-12)
        assert oracle < 0       # the finds outweigh the errors: a net benefit


def test_page_and_report_refuse_an_empty_cost_cell_alike():
    from assess.present.report import ReportOptions, build_report

    at = _edit_costs(open_page(), {0: {"malignant": None}})
    assert not at.exception
    warned = [w.value for w in at.warning if "cost matrix" in w.value]
    assert warned and "true `benign`, predicted `malignant`" in warned[0]
    assert set(_cost_table(at)["expected cost per sample"]) == {"—"}     # shown undefined, not computed
    a = at.session_state["assessment"]
    report = build_report(a, ReportOptions(costs=((0.0, float("nan")), (1.0, 0.0)), charts=False, n_resamples=100))
    assert report.misclassification is None
    assert any("true `benign`, predicted `malignant`" in n for n in report.notes)


def test_matrices_are_computed_once_and_cached_across_reruns(monkeypatch):
    """The matrices come from one cached call (ui.state.cached of assess.analyses.decision_costs.confusions): another
    colouring reruns the page without counting again; a new cost matrix is a new key, counted once."""
    from assess.analyses import decision_costs

    calls = []
    real = decision_costs.confusions

    def counted(*args, **kwargs):   # the store keys by qualified name: the stand-in carries the real one's
        calls.append(1)
        return real(*args, **kwargs)

    counted.__module__, counted.__qualname__ = real.__module__, real.__qualname__
    monkeypatch.setattr(decision_costs, "confusions", counted)
    at = open_page("Wine — multi-class, 2 models")
    before = len(calls)
    next(r for r in at.radio if r.label == "Cells coloured").set_value(list(NORMALISE)[0]).run()
    assert not at.exception and len(calls) == before                # rerun, same inputs: from the cache
    _edit_costs(at, {0: {"barolo": 7.0}})
    assert not at.exception and len(calls) == before + 1            # new costs: computed once


def test_the_page_is_a_short_script():
    """title → guard → widgets → one cached call → charts → render: the counting lives in assess."""
    assert len((ROOT / "views/confusion.py").read_text(encoding="utf-8").splitlines()) < 150
