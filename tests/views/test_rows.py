"""AppTest of the rows behind the numbers (ui/rows_widgets.py) on the Confusion, Metrics and Errors pages: the cells
offered and their rows against scikit-learn's confusion_matrix, the most confidently wrong and the largest errors
against numpy, a page never larger than its size, and a hostile file's cells shown as text."""

import re

import numpy as np
import pandas as pd
from sklearn.metrics import confusion_matrix

from tests.conftest import ROOT, open_app
from tests.hostile_files import MARKUP_CELLS, markup_cells
from tests.views.test_injection import _markdown_texts, _raw_outside_code

SAMPLES = ROOT / "assets" / "samples"


def _table(at):
    return at.dataframe[-1].value


def _caption(at, start="Rows "):
    """The table's caption as the reader sees it (Markdown's escapes resolved)."""
    return next(re.sub(r"\\(.)", r"\1", c.value) for c in at.caption if c.value.startswith(start))


def test_confusion_page_offers_every_cell_with_its_count_and_shows_its_rows():
    at = open_app("views/confusion.py", sample="Wine — multi-class, 2 models")
    data = pd.read_csv(SAMPLES / "wine_multiclass.csv").query("model == 'logistic'")
    classes = ["barbera", "barolo", "grignolino"]
    cm = confusion_matrix(data.y_true, data.y_pred, labels=classes)   # the page's labels: the y_pred column
    [model] = [s for s in at.selectbox if s.label == "Model"]
    assert model.value == "logistic"
    [cell] = [s for s in at.selectbox if s.label == "Cell"]
    assert {o for o in cell.options} == {f"True {t}, predicted {p} ({cm[i, j]:,})" for i, t in enumerate(classes)
                                         for j, p in enumerate(classes) if cm[i, j]}
    cell.set_value(("barolo", "barolo", int(cm[1, 1]))).run()
    assert not at.exception
    shown = _table(at)
    expected = data.id[(data.y_true == "barolo") & (data.y_pred == "barolo")].tolist()
    assert shown["id"].tolist() == expected[:25] and _caption(at).startswith(f"Rows 1–25 of {len(expected)}")


def test_metrics_page_pages_the_most_confidently_wrong_and_filters_them():
    at = open_app("views/metrics.py")     # the breast-cancer sample, labels from y_pred
    data = pd.read_csv(SAMPLES / "breast_cancer_binary.csv").query("model == 'tree'")
    wrong = data[data.y_pred != data.y_true]
    confidence = np.where(wrong.y_true == "malignant", 0.5 - wrong.score, wrong.score - 0.5)
    expected = wrong.id.to_numpy()[np.argsort(-confidence, kind="stable")].tolist()
    [model] = [s for s in at.selectbox if s.label == "Model"]
    model.set_value("tree").run()
    assert len(expected) > 25 and _table(at)["id"].tolist() == expected[:25]
    [page] = [n for n in at.number_input if n.label == "Page"]
    page.set_value(2).run()
    assert _table(at)["id"].tolist() == expected[25:50]            # the browser gets one page, never more
    [text] = [t for t in at.text_input if t.label == "Filter"]
    text.set_value("small").run()
    small = [i for i in expected if data.set_index("id").group[i] == "small"]
    assert _table(at)["id"].tolist() == small[:25]
    assert _caption(at).startswith(f"Rows 1–{min(25, len(small))} of {len(small)} matching the filter "
                                   f"(of {len(expected)})")


def test_errors_page_shows_the_largest_errors_first():
    at = open_app("views/errors.py", sample="Diabetes — regression, 3 models, 5 folds")
    data = pd.read_csv(SAMPLES / "diabetes_regression.csv").query("model == 'ridge'")
    error = (data.y_pred - data.y_true).to_numpy()
    order = np.argsort(-np.abs(error), kind="stable")
    shown = _table(at)
    assert len(shown) == 25 and shown["id"].tolist() == data.id.to_numpy()[order[:25]].tolist()
    [sort] = [s for s in at.selectbox if s.label == "Sort by"]
    sort.set_value(("error", False)).run()
    assert _table(at)["error"].tolist() == sorted(error)[:25]


def test_a_hostile_files_cells_are_text_in_the_table_and_nowhere_markup():
    at = open_app()
    at.radio[0].set_value("Upload a file").run()
    name, raw = markup_cells()
    at.file_uploader[0].upload(name, raw, "text/csv").run()
    for page in ("views/metrics.py", "views/confusion.py"):
        at.switch_page(page).run()
        assert not at.exception
        shown = _table(at)
        assert set(shown["note"]) <= set(MARKUP_CELLS) and len(shown)      # the cell as it is, in a data grid
        assert any(i.startswith("<script>") for i in shown["id"])
        assert not _raw_outside_code(_markdown_texts(at)), page
        assert not any("<script>" in t or "<b>bold" in t for t in _markdown_texts(at))


def test_a_period_with_unlabelled_rows_offers_the_labelled_rows_its_table_lists():
    """Walk of issue 35: December's truths blanked, "2024 Q4 (722 rows)" opened a table of 493. Oracle: pandas' count
    of gradient_boosting's Q4 rows and of those with a truth in the uploaded file."""
    data = pd.read_csv(SAMPLES / "churn_over_time.csv")
    data.loc[data["date"] >= "2024-12-01", "y_true"] = None
    q4 = data[(data["model"] == "gradient_boosting") & (data["date"] >= "2024-10-01")]
    n, labelled = len(q4), int(q4["y_true"].notna().sum())
    assert (n, labelled) == (722, 493)
    at = open_app()
    at.radio[0].set_value("Upload a file").run()
    at.file_uploader[0].upload("churn_december.csv", data.to_csv(index=False).encode(), "text/csv").run()
    at.switch_page("views/over_time.py").run()
    [period] = [s for s in at.selectbox if s.label == "Rows of the period"]
    assert period.options == ["2024 Q1 (777 rows)", "2024 Q2 (724 rows)", "2024 Q3 (777 rows)",
                              f"2024 Q4 ({labelled} labelled rows of {n})"]
    period.set_value(3).run()
    assert _caption(at).startswith(f"Rows 1–25 of {labelled}, file order")
