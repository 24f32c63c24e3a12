"""One decision and one home for session state, tried across pages with AppTest (issue "one source of truth").

A threshold set on Curves must reach Metrics, Confusion and Compare; a result computed before a role change must never
be shown after it; a loaded upload must survive a visit to another page; and every session-state key must be a `Key`
member. (AppTest reruns only the page script after the first run, so the sidebar, drawn by app.py, is checked by the
browser journey in tests/browser/test_journey_data.py.) The expected numbers come from scikit-learn
and statsmodels on the sample file, never from `assess`.
"""

import ast
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import confusion_matrix, f1_score, multilabel_confusion_matrix, recall_score
from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar

from tests.conftest import ROOT, open_app

THRESHOLD = 0.37


@pytest.fixture(scope="module")
def sample() -> pd.DataFrame:
    data = pd.read_csv(ROOT / "assets/samples/breast_cancer_binary.csv").sort_values(["model", "id"])
    data["truth"] = data.y_true == "malignant"
    return data


def set_threshold_on_curves(at, value: float):
    at.switch_page("views/curves.py").run()
    [box] = [n for n in at.number_input if n.label == "Exact threshold"]
    box.set_value(value).run()
    assert not at.exception
    return at


def captions(at) -> list[str]:
    return [c.value.replace("\\", "") for c in at.caption]


def heatmap_counts(at, title: str) -> list[int]:
    for element in at.get("plotly_chart"):
        spec = json.loads(element.proto.spec)
        if spec["layout"]["title"]["text"] == title:
            return [int(t.split("<br>")[0].replace(",", "")) for t in np.ravel(spec["data"][0]["text"])]
    raise AssertionError(f"no chart titled {title}")


def run_compare(at, test: str, metric: str | None = None):
    at.switch_page("views/compare.py").run()
    [chooser] = [s for s in at.selectbox if s.label == "Test"]
    chooser.set_value(test).run()
    if metric is not None:
        [metric_box] = [s for s in at.selectbox if s.label == "Metric"]
        metric_box.set_value(metric).run()
    [button] = [b for b in at.button if b.label == "Run test"]
    button.click().run()
    assert not at.exception
    return at


def test_a_threshold_set_on_curves_reaches_metrics_confusion_and_compare(sample):
    at = set_threshold_on_curves(open_app(), THRESHOLD)
    said = f"A row is predicted positive when its score is at least {THRESHOLD:.3f}."

    at.switch_page("views/metrics.py").run()
    assert not at.exception and any(said in c for c in captions(at))
    tree = sample[sample.model == "tree"]
    expected = recall_score(tree.truth, tree.score >= THRESHOLD)
    assert at.dataframe[0].value.set_index("key").loc["recall", "tree"].startswith(f"{expected:.3f}")
    [source] = [r for r in at.radio if r.label == "Labels from"]
    assert source.value == "scores"

    at.switch_page("views/confusion.py").run()
    assert not at.exception and any(said in c for c in captions(at))
    assert heatmap_counts(at, "tree") == confusion_matrix(tree.truth, tree.score >= THRESHOLD).ravel().tolist()

    run_compare(at, "mcnemar")
    assert any(said in c for c in captions(at))
    right = {m: (g.truth == (g.score >= THRESHOLD)).to_numpy() for m, g in sample.groupby("model")}
    a, b = right["logistic"], right["tree"]
    expected_p = sm_mcnemar([[np.sum(a & b), np.sum(a & ~b)], [np.sum(~a & b), np.sum(~a & ~b)]], exact=True).pvalue
    assert at.dataframe[1].value["pvalue"].iloc[0] == pytest.approx(expected_p, rel=1e-12)


def test_metrics_can_go_back_to_the_label_column_for_every_page(sample):
    at = set_threshold_on_curves(open_app(), THRESHOLD)
    at.switch_page("views/metrics.py").run()
    [source] = [r for r in at.radio if r.label == "Labels from"]
    source.set_value("labels").run()
    assert not at.exception
    tree = sample[sample.model == "tree"]
    expected = recall_score(tree.truth, tree.y_pred == "malignant")
    assert at.dataframe[0].value.set_index("key").loc["recall", "tree"].startswith(f"{expected:.3f}")
    at.switch_page("views/confusion.py").run()
    assert any("predicted-label column" in c for c in captions(at))
    assert heatmap_counts(at, "tree") == confusion_matrix(tree.truth, tree.y_pred == "malignant").ravel().tolist()


def test_a_threshold_typed_on_metrics_moves_the_curves_explorer():
    at = open_app("views/metrics.py")
    [source] = [r for r in at.radio if r.label == "Labels from"]
    source.set_value("scores").run()
    [box] = [n for n in at.number_input if n.label == "Threshold (score ≥ threshold is positive)"]
    box.set_value(0.8).run()
    at.switch_page("views/curves.py").run()
    assert not at.exception
    [exact] = [n for n in at.number_input if n.label == "Exact threshold"]
    assert exact.value == pytest.approx(0.8)


def test_changing_the_positive_class_never_shows_the_old_p_value(sample):
    at = run_compare(open_app(), "paired_bootstrap", metric="f1")
    before = at.dataframe[1].value[["pvalue", "effect_value"]].iloc[0].tolist()

    at.switch_page("views/data.py").run()
    [positive] = [s for s in at.selectbox if s.label == "Positive class"]
    positive.set_value("benign").run()
    assert not at.exception

    at.switch_page("views/compare.py").run()
    assert not at.success, "a result computed for the old positive class is still shown"
    run_compare(at, "paired_bootstrap", metric="f1")
    after = at.dataframe[1].value[["pvalue", "effect_value"]].iloc[0].tolist()
    assert after != before
    # The F1 difference the bootstrap tests is the one of the positive class in force (scikit-learn as the oracle).
    for positive, (p_value, effect) in (("malignant", before), ("benign", after)):
        f1 = {m: f1_score(g.y_true == positive, g.y_pred == positive) for m, g in sample.groupby("model")}
        assert effect == pytest.approx(f1["logistic"] - f1["tree"], rel=1e-9)
        assert 0 < p_value <= 1


def test_an_upload_stays_loaded_after_visiting_other_pages():
    at = open_app()
    at.radio[0].set_value("Upload a file").run()
    at.file_uploader[0].upload("mine.csv", b"y_true,score\n1,0.9\n0,0.2\n1,0.6\n0,0.4\n", "text/csv").run()
    for page in ("views/metrics.py", "views/data.py", "views/metrics.py"):
        at.switch_page(page).run()
        assert not at.exception
    assert "Load a predictions file without blocking errors first." not in [i.value for i in at.info]
    assert at.dataframe, "the Metrics page shows no table after a visit to the Data page"
    at.switch_page("views/data.py").run()
    assert any("mine.csv" in m.value.replace("\\", "") for m in at.markdown)


#: What ``st.session_state`` offers besides its keys: reaching these is not a key.
_STATE_METHODS = {"get", "setdefault", "pop", "keys", "values", "items", "update", "clear", "to_dict"}


def _written_out(node) -> str | None:
    """The key ``node`` spells out instead of naming a `Key` member: a string literal, or a module constant
    (``SETTINGS = "settings"``: a second home for keys)."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name) and node.id.lstrip("_").isupper():
        return node.id
    return None


def _session_keys(path: Path) -> list[tuple[int, str]]:
    """(line, key) of every session-state key written out in the code instead of named by a `Key` member: in
    ``st.session_state[k]``, ``.get(k)``/``.setdefault(k)``/``.pop(k)``, ``k in st.session_state`` or an attribute
    ``st.session_state.k`` — even a string equal to a `Key` member's value, which one rename would break — and a
    widget's ``key=`` that is a module constant. (Literal widget keys only name a widget: see
    `test_no_widget_key_takes_a_state_key`.)"""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        key = None
        if isinstance(node, ast.Subscript) and ast.unparse(node.value).endswith("session_state"):
            key = _written_out(node.slice)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and ast.unparse(node.func.value).endswith("session_state") and node.args:
            key = _written_out(node.args[0])
        elif isinstance(node, ast.Call):
            key = next((_written_out(k.value) for k in node.keywords if k.arg == "key"
                        and isinstance(k.value, ast.Name)), None)
        elif isinstance(node, ast.Attribute) and ast.unparse(node.value).endswith("session_state") \
                and node.attr not in _STATE_METHODS and not node.attr.startswith("_"):
            key = node.attr
        elif isinstance(node, ast.Compare) and any(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops) \
                and any(ast.unparse(c).endswith("session_state") for c in node.comparators):
            key = _written_out(node.left)
        if key is not None:
            found.append((node.lineno, key))
    return sorted(found)


def _files() -> list[Path]:
    files = [ROOT / "app.py", *sorted((ROOT / "views").glob("*.py")), *sorted((ROOT / "ui").glob("*.py"))]
    assert {f.parent.name for f in files} >= {"views", "ui"} and len(files) > 10
    return files


def test_every_session_state_key_is_a_key_member():
    from ui.state import Key
    values = [v for k, v in vars(Key).items() if k.isupper()]
    literal = [(f.name, line, key) for f in _files() for line, key in _session_keys(f)]
    assert literal == [], "session-state keys written out instead of named by Key members"
    assert len(set(values)) == len(values), "two names for one key"


def test_no_widget_key_takes_a_state_key():
    """A widget whose literal key is a `Key` member's value would overwrite that state."""
    from ui.state import Key
    values = {v for k, v in vars(Key).items() if k.isupper()}
    taken = [(f.name, node.lineno, k.value.value) for f in _files()
             for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))) if isinstance(node, ast.Call)
             for k in node.keywords if k.arg == "key" and isinstance(k.value, ast.Constant) and k.value.value in values]
    assert taken == []


def test_the_key_check_finds_a_string_key(tmp_path):
    bad = tmp_path / "page.py"
    bad.write_text('import streamlit as st\nst.session_state["cache"] = 1\nst.session_state.get("other")\n'
                   'st.session_state["table"]\nst.session_state.revision = 2\nif "source" in st.session_state: pass\n'
                   'st.session_state[Key.TABLE]\nst.session_state.get(Key.SOURCE)\nst.session_state[MINE] = 3\n'
                   'st.toggle("On", key=_OWN)\nst.toggle("Off", key=Key.PRESENTATION)\nst.session_state[widget_key]\n')
    assert _session_keys(bad) == [(2, "cache"), (3, "other"), (4, "table"), (5, "revision"), (6, "source"),
                                  (9, "MINE"), (10, "_OWN")]


def test_a_per_label_threshold_set_on_curves_reaches_confusion_and_metrics():
    rng = np.random.default_rng(0)
    n = 150
    truth = rng.random((n, 2)) < 0.4
    scores = np.clip(truth * 0.4 + rng.random((n, 2)) * 0.6, 0, 1).round(4)
    frame = pd.DataFrame({"true_news": truth[:, 0].astype(int), "true_sport": truth[:, 1].astype(int),
                          "score_news": scores[:, 0], "score_sport": scores[:, 1]})
    at = open_app()
    at.radio[0].set_value("Upload a file").run()
    at.file_uploader[0].upload("ml.csv", frame.to_csv(index=False).encode(), "text/csv").run()
    at.switch_page("views/curves.py").run()
    [label] = [s for s in at.selectbox if s.label == "Label"]
    label.set_value("sport").run()
    [box] = [n for n in at.number_input if n.label == "Exact threshold"]
    box.set_value(0.3).run()
    assert not at.exception
    predicted = np.column_stack([scores[:, 0] >= 0.5, scores[:, 1] >= 0.3])   # news keeps the default 0.5

    at.switch_page("views/confusion.py").run()
    assert not at.exception
    assert any("sport ≥ 0.300" in c and "news ≥ 0.500" in c for c in captions(at))
    [spec] = [json.loads(e.proto.spec) for e in at.get("plotly_chart")
              if json.loads(e.proto.spec)["layout"]["title"]["text"].startswith("Confusion per label")]
    shown = [int(t.split("<br>")[0].replace(",", "")) for trace in spec["data"] if "text" in trace
             for t in np.ravel(trace["text"])]
    expected = multilabel_confusion_matrix(truth, predicted)                   # per label [[tn, fp], [fn, tp]]
    assert shown == expected.ravel().tolist()

    at.switch_page("views/metrics.py").run()
    assert not at.exception
    f1 = at.dataframe[0].value.set_index("key").loc["f1_micro", "ml"]
    assert f1.startswith(f"{f1_score(truth, predicted, average='micro'):.3f}")
