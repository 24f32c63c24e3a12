"""AppTest of the app shell and the Data page (the Streamlit script runs for real, in-process)."""

import re

import pytest
from streamlit.testing.v1 import AppTest

from tests.conftest import open_app

CSV = b"y_true,y_pred,amount\n" + b"".join(f"{i % 2},{(i // 3) % 2},{i * 1.25}\n".encode() for i in range(40))


@pytest.fixture
def app():
    return open_app()


def plain(markdown: str) -> str:
    """What a reader sees of escaped Markdown: drop the backslash escapes."""
    return re.sub(r"\\(.)", r"\1", markdown)


def widget(at, kind, prefix):
    widgets = [w for w in getattr(at, kind) if (w.key or "").startswith(prefix)]
    assert widgets, f"no {kind} with key prefix {prefix}"
    return widgets[0]


def test_opens_on_the_binary_sample(app):
    assert widget(app, "selectbox", "task_").value == "binary"
    assert widget(app, "selectbox", "positive_").value == "malignant"
    assert [s.value for s in app.success] == ["No problems found in 1,707 rows · models: 3"]
    assert any("breast\\_cancer\\_binary" in c.value or "breast_cancer_binary" in c.value for c in app.sidebar.caption)


def test_switch_to_multiclass_sample(app):
    app.radio[0].set_value("Wine — multi-class, 2 models").run()
    assert not app.exception
    assert widget(app, "selectbox", "task_").value == "multiclass"
    assert not [s for s in app.selectbox if (s.key or "").startswith("positive_")]


def upload(app, name, data):
    app.radio[0].set_value("Upload a file").run()
    app.file_uploader[0].upload(name, data, "text/csv").run()
    assert not app.exception
    return app


def test_a_truth_chosen_by_hand_makes_pred_probability_columns_scores(app):
    """Nothing names the truth (`churned`): the page says so with the roles across the whole width, and once the
    user picks it, each `pred_<model>` column of decimals is that model's score — no blocking check."""
    rows = "".join(f"{i % 4 == 0:d},{(i * 37 % 100) / 100},{(i * 53 % 100) / 100}\n" for i in range(60))
    upload(app, "churn.csv", ("churned,pred_gbm,pred_baseline\n" + rows).encode())
    assert any("no ground-truth column found" in plain(e.value) for e in app.error)
    assert not [s for s in app.selectbox if (s.key or "").startswith("task_")]
    widget(app, "selectbox", "role_y_true_").set_value("churned").run()
    assert not app.exception and not app.error
    assert widget(app, "selectbox", "task_").value == "binary"
    assert [s.value for s in app.success] == ["No problems found in 60 rows · models: 2"]


def test_upload_then_change_a_role_changes_the_task(app):
    upload(app, "mine.csv", CSV)
    assert widget(app, "selectbox", "task_").value == "binary"
    widget(app, "selectbox", "role_y_true_").set_value("amount").run()
    assert not app.exception
    assert widget(app, "selectbox", "task_").value == "regression"
    assert widget(app, "selectbox", "role_y_true_").value == "amount"
    app.button[0].click().run()  # "Reset to detected"
    assert widget(app, "selectbox", "task_").value == "binary"


def test_malformed_upload_shows_one_error_and_no_traceback(app):
    upload(app, "broken.csv", b"y_true,y_pred\n1,0\n1,0,7\n0,1\n")
    assert len(app.error) == 1
    assert plain(app.error[0].value).startswith("broken.csv: could not be split into columns: no delimiter")
    assert not app.exception


def test_problems_are_listed(app):
    upload(app, "few.csv", b"y_true,score\n1,0.5\n0,1.7\n1,0.2\n")
    messages = [plain(w.value) for w in app.warning]
    assert any("has 1 value outside [0, 1] (row 2: `1.7`)" in m for m in messages), messages
    assert any(m.startswith("the file has 3 rows, fewer than 30") for m in messages), messages


def test_nothing_from_the_file_becomes_markdown_or_html(app):
    evil = b"y_true,y_pred\n[click](http://example.invalid),<img src=x onerror=alert(1)>\n$x^2$,**bold**\n" * 20
    upload(app, "evil.csv", evil)
    assert not app.exception
    rendered = [e.value for e in [*app.markdown, *app.caption, *app.warning, *app.error, *app.info, *app.success]
                if isinstance(getattr(e, "value", None), str)]
    assert any("click" in text for text in rendered), "the labels are shown somewhere (in the task reason)"
    for text in rendered:
        outside_code = re.sub(r"`[^`]*`", "", text)
        assert "[click](" not in outside_code and "<img" not in outside_code and "$x^2$" not in outside_code, text
    # no element may opt into HTML
    assert all(not getattr(m.proto, "allow_html", False) for m in [*app.markdown, *app.caption])


def test_guard_points_back_to_data_when_nothing_is_loaded():
    at = AppTest.from_string(
        "import streamlit as st\n"
        "from ui.state import require_assessment\n"
        "st.session_state.setdefault('assessment', None)\n"
        "require_assessment()\n"
        "st.write('unreachable')\n", default_timeout=30)
    at.run()
    assert [i.value for i in at.info] == ["Load a predictions file without blocking errors first."]
    assert not [m for m in at.markdown if m.value == "unreachable"]


def test_excel_sheet_can_be_picked_after_upload(app):
    import io

    import openpyxl

    book = openpyxl.Workbook()
    book.active.title = "notes"
    book.active.append(["just", "notes"])
    book.active.append(["a", "b"])
    ws = book.create_sheet("predictions")
    ws.append(["y_true", "y_pred"])
    for i in range(40):
        ws.append([i % 2, (i // 2) % 2])
    buf = io.BytesIO()
    book.save(buf)
    upload(app, "book.xlsx", buf.getvalue())
    assert app.error, "the first sheet has no ground truth, so an error is shown"
    [sheet] = [s for s in app.selectbox if s.label == "Excel sheet"]
    sheet.set_value("predictions").run()
    assert not app.exception and not app.error
    assert widget(app, "selectbox", "task_").value == "binary"


def test_one_blocking_problem_is_counted_in_the_singular_in_the_sidebar(app):
    """A non-numeric score in one row: the Data page names the column and row; the sidebar says "1 blocking
    problem" (it said "1 blocking problem(s)")."""
    rows = "\n".join(f"{i % 2},{(i % 10) / 10}" for i in range(60))
    upload(app, "bad.csv", f"y_true,score\n{rows}\n1,n/a?\n".encode())
    assert any("column `score` has 1 value that is not a number \\(row 61\\: `n/a?`" in e.value for e in app.error)
    assert [c.value for c in app.sidebar.caption if "blocking" in c.value] == [":red[1 blocking problem — see Data]"]


@pytest.mark.parametrize("sample", [None, "Diabetes — regression, 3 models, 5 folds",
                                    "CO₂ and El Niño — monthly forecasts, 3 models, 1–12 months ahead",
                                    "Iris — clustering, 3 clusterings with species and features"])
def test_the_role_pickers_are_the_ones_assess_defines_for_the_task(sample):
    from assess.core.data import Task
    from assess.inputs.roles import role_pickers
    at = open_app(sample=sample)
    task = Task(widget(at, "selectbox", "task_").value)
    shown = [s.label for s in at.selectbox if (s.key or "").startswith("role_")]
    assert sorted(shown) == sorted(label for _, label in role_pickers(task))   # in two columns: read by column


def test_three_classes_of_scores_on_a_binary_truth_is_a_blocking_problem_not_a_crash(app):
    """The fuzzer's 20-line CSV of issue 31 (tests/inputs/test_validation_class_scores.py): the page crashed on an
    unpacking of the class-score pairs; now it names the columns and the sidebar counts one blocking problem."""
    from tests.inputs.test_validation_class_scores import THREE_CLASS_SCORES
    upload(app, "found.csv", THREE_CLASS_SCORES.encode())
    assert not app.exception
    assert any(plain(e.value).startswith("no probability column for the positive class `1`, only `proba_0` for `0`, "
                                         "`proba_2` for `2`") for e in app.error), [e.value for e in app.error]
    assert [c.value for c in app.sidebar.caption if "blocking" in c.value] == [":red[1 blocking problem — see Data]"]


def test_choosing_the_clustering_task_for_a_file_without_clusters_says_so(app):
    """The task chooser offered clustering for the binary sample, and choosing it crashed the page (KeyError: None
    in validation); now the page names what is missing."""
    widget(app, "selectbox", "task_").set_value("clustering").run()
    assert not app.exception
    assert any(plain(e.value).startswith("no cluster-assignment column for the clustering task") for e in app.error), \
        [e.value for e in app.error]
