"""AppTest: every page on files the pipeline must refuse or summarise, without a crash (issue 15).

All-zero weights stop every page at the guard with the command line's sentence ("`weight` is zero for every row;
nothing to assess"), decided once by validation. Files kept small (few rows) so the pages run in seconds.
"""

import ast

import numpy as np
import pandas as pd
import pytest

from tests.conftest import ROOT, open_app

ZERO_WEIGHT_MESSAGE = "`weight` is zero for every row; nothing to assess"
RNG = np.random.default_rng(15)


def _page_constant(page: str, name: str):
    """A module-level constant of a page script, read without running the page (importing it would)."""
    tree = ast.parse((ROOT / page).read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == name for t in node.targets):
            return ast.literal_eval(node.value)
    raise LookupError(f"{page} has no {name}")


def _upload(name: str, data: bytes):
    at = open_app()
    at.radio[0].set_value("Upload a file").run()
    at.file_uploader[0].upload(name, data, "text/csv").run()
    assert not at.exception, name
    return at


def _csv(frame: pd.DataFrame) -> bytes:
    return frame.to_csv(index=False).encode()


ZERO_WEIGHTS = {
    # classification pages: two models so that Compare has something to compare
    "classification": _csv(pd.DataFrame({"model": np.repeat(["a", "b"], 20), "y_true": RNG.integers(0, 2, 40),
                                         "score": RNG.random(40).round(3), "weight": 0.0})),
    # the Errors page is for numeric predictions
    "regression": _csv(pd.DataFrame({"y_true": RNG.normal(size=40), "y_pred": RNG.normal(size=40), "weight": 0})),
}
PAGES = [("classification", "views/metrics.py"), ("classification", "views/confusion.py"),
         ("classification", "views/curves.py"), ("classification", "views/compare.py"),
         ("regression", "views/errors.py")]


@pytest.mark.parametrize("kind,page", PAGES)
def test_all_zero_weights_show_the_cli_message_on_every_page(kind, page):
    at = _upload(f"zero_{kind}.csv", ZERO_WEIGHTS[kind])
    at.switch_page(page).run()
    assert not at.exception, page
    assert [e.value for e in at.error] == [ZERO_WEIGHT_MESSAGE]
    assert [i.value for i in at.info] == ["Load a predictions file without blocking errors first."]
    assert not at.dataframe and not at.get("plotly_chart")


# --- many classes (issue 15: "10,000 classes (and 1,500 proba_ columns): the Metrics page crashes") ----------------

def _many_classes(k: int, n: int) -> bytes:
    """Truth c{i % k}; the prediction right on every third row, else c{7i % k}: most classes have one or two rows."""
    i = np.arange(n)
    pred = np.where(i % 3 == 0, i % k, (7 * i) % k)
    return _csv(pd.DataFrame({"y_true": [f"c{j}" for j in i % k], "y_pred": [f"c{j}" for j in pred]}))


def _many_proba_columns(k: int, n: int) -> bytes:
    rng = np.random.default_rng(1500)
    frame = pd.DataFrame(rng.dirichlet(np.ones(k), size=n).round(6), columns=[f"proba_c{j}" for j in range(k)])
    frame.insert(0, "y_true", [f"c{j}" for j in rng.integers(0, k, n)])
    return _csv(frame)


MANY = {
    "classes_10000.csv": lambda: _many_classes(10_000, 10_000),
    "classes_1500.csv": lambda: _many_classes(1500, 3000),
    "proba_1500.csv": lambda: _many_proba_columns(1500, 30),
}


def test_10000_classes_stop_every_page_with_the_reason():
    at = _upload("classes_10000.csv", MANY["classes_10000.csv"]())
    for page in ("views/metrics.py", "views/confusion.py", "views/curves.py", "views/compare.py"):
        at.switch_page(page).run()
        assert not at.exception, page
        [error] = at.error
        assert "10,000 distinct classes" in error.value and "2,000" in error.value, page


@pytest.mark.parametrize("name", ["classes_1500.csv", "proba_1500.csv"])
def test_1500_classes_metrics_page_shows_the_most_frequent_classes(name):
    from assess.present.metrics_view import PER_CLASS_ROWS   # the page's rule lives in its view
    at = _upload(name, MANY[name]())
    at.switch_page("views/metrics.py").run()
    assert not at.exception
    # one per-class table, split into parts that each fit the page (each repeating the class)
    parts = [d.value.set_index("class") for d in at.dataframe if "class" in d.value.columns]
    whole = pd.concat(parts, axis=1)
    per_class = [whole.loc[:, ~whole.columns.duplicated()].reset_index()]
    assert len(per_class[0]) == PER_CLASS_ROWS
    # the shown classes are the most frequent ones: none left out has more support than the least shown
    assert per_class[0]["support"].is_monotonic_decreasing
    captions = [c.value for c in at.caption if "with the most true rows" in c.value]
    assert captions and "of 1,500" in captions[0]
    # bootstrap intervals (the default "auto") are left out with their reason, not computed for 1,500² matrices
    assert any("no bootstrap interval above 200 classes" in c.value for c in at.caption)


def test_1500_classes_confusion_page_draws_the_top_classes_and_says_so():
    MAX_DRAWN_CLASSES = _page_constant("views/confusion.py", "MAX_DRAWN_CLASSES")
    at = _upload("classes_1500.csv", MANY["classes_1500.csv"]())
    at.switch_page("views/confusion.py").run()
    assert not at.exception
    [fig] = at.get("plotly_chart")
    assert '"1,470 other classes"' in fig.proto.spec
    captions = [c.value for c in at.caption]
    assert any(f"The {MAX_DRAWN_CLASSES} classes with the most true rows of 1,500" in c for c in captions)
    assert any("the costs stay 0/1" in c for c in captions)
    expected_cost = at.dataframe[0].value
    # every class still counts: with 0/1 costs the expected cost is the error rate of the whole file (2 in 3 wrong,
    # except where 7i ≡ i (mod 1500) by chance), computed here independently of the page
    i = np.arange(3000)
    wrong = np.where(i % 3 == 0, False, (7 * i) % 1500 != i % 1500)
    assert expected_cost["expected cost per sample"].iloc[0] == pytest.approx(wrong.mean())
