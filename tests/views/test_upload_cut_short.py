"""AppTest: an upload whose reading a click on another page cut short still ends up loaded (issue 15).

Streamlit stops a callback at its next use of ``st.session_state`` once another run is requested — the user clicks
Metrics while the Data page's upload callback is reading a large file — by raising ``RerunException`` there. The
tests raise the same exception from inside the read (or the description) once, exactly where Streamlit would, and
check that the next run finishes the work instead of leaving "No data loaded" (``ui.state.PendingRead``). The
real-browser journey is tests/browser/test_upload_in_progress.py.
"""

import pytest
from streamlit.runtime.scriptrunner import RerunData, RerunException
from streamlit.testing.v1 import AppTest

import ui.state as state
from tests.conftest import open_app

NAME = "mine.csv"
CSV = b"y_true,y_pred,amount\n" + b"".join(f"{i % 2},{(i // 3) % 2},{i * 1.25}\n".encode() for i in range(40))


def stopped_once(monkeypatch, name: str, predicate) -> list:
    """Make ``ui.state.<name>`` raise Streamlit's RerunException on its first call for which ``predicate(args,
    kwargs)`` holds, as a page click does at a yield point; returns the list of those calls."""
    real = getattr(state, name)
    calls = []

    def once(*args, **kwargs):
        if predicate(args, kwargs):
            calls.append(args)
            if len(calls) == 1:
                raise RerunException(RerunData())
        return real(*args, **kwargs)

    monkeypatch.setattr(state, name, once)
    return calls


def upload(at: AppTest) -> AppTest:
    at.radio[0].set_value(state.UPLOAD).run()
    at.file_uploader[0].upload(NAME, CSV, "text/csv").run()
    assert not at.exception
    return at


def assert_loaded(at: AppTest) -> None:
    assessment = at.session_state[state.Key.ASSESSMENT]
    assert assessment is not None and assessment.table.name == NAME
    assert len(assessment.frame) == 40
    assert at.session_state[state.Key.PENDING_READ] is None
    at.switch_page("views/metrics.py").run()
    assert not at.exception
    assert [i.value for i in at.info if "Load a predictions file" in i.value] == []
    assert len(at.dataframe) > 0, "the Metrics page drew its tables"


def test_a_read_stopped_by_a_page_click_is_finished_by_the_next_run(monkeypatch):
    at = open_app()
    reads = stopped_once(monkeypatch, "read_table", lambda args, kwargs: kwargs.get("name") == NAME)
    upload(at)
    assert len(reads) == 2, "the read was stopped once, then finished by the run that followed"
    assert_loaded(at)


def test_a_description_stopped_by_a_page_click_is_finished_by_the_next_run(monkeypatch):
    at = open_app()
    described = stopped_once(monkeypatch, "describe", lambda args, kwargs: args[0].name == NAME)
    upload(at)
    assert len(described) == 2
    assert_loaded(at)


def test_a_role_change_stopped_midway_is_finished_by_the_next_run(monkeypatch):
    at = upload(open_app())
    [truth] = [s for s in at.selectbox if (s.key or "").startswith("role_y_true_")]
    described = stopped_once(monkeypatch, "describe", lambda args, kwargs: args[1].roles)   # overrides set
    truth.set_value("amount").run()
    assert not at.exception
    assert len(described) == 2
    assessment = at.session_state[state.Key.ASSESSMENT]
    assert assessment is not None and assessment.roles.y_true == "amount"


def test_removing_the_file_cancels_a_read_cut_short():
    """A read left pending, then the file removed (or a sample chosen): the next run must not bring the file back."""
    at = AppTest.from_string(
        "import streamlit as st\n"
        "from ui.state import Key, PendingRead, UPLOAD, Upload, init_state, set_upload\n"
        "st.session_state[Key.SOURCE] = UPLOAD\n"
        f"st.session_state[Key.PENDING_READ] = PendingRead(Upload({NAME!r}, {CSV!r}))\n"
        "set_upload(None)\n"
        "init_state()\n"
        "st.write(repr(st.session_state[Key.TABLE]))\n", default_timeout=60)
    at.run()
    assert not at.exception
    assert [m.value for m in at.markdown] == ["None"]


def test_pages_say_a_file_still_uploading_is_not_sent():
    """Leaving the Data page while the browser still sends the file stops it (the server never hears of it): the
    Data page says so under the uploader, and a page opened before any file arrived says the same, not only "load a
    file"."""
    at = open_app()
    at.radio[0].set_value(state.UPLOAD).run()
    assert state.STAY_WHILE_UPLOADING in [c.value for c in at.caption]
    at.switch_page("views/metrics.py").run()
    assert [i.value for i in at.info] == [f"No file uploaded yet: choose it on the Data page. "
                                          f"{state.STAY_WHILE_UPLOADING}"]


@pytest.mark.parametrize("page", ["views/metrics.py", "views/curves.py"])
def test_a_failed_read_keeps_the_old_guard(page):
    at = open_app()
    at.radio[0].set_value(state.UPLOAD).run()
    at.file_uploader[0].upload("broken.csv", b"y_true,y_pred\n1,0\n1,0,7\n0,1\n", "text/csv").run()
    at.switch_page(page).run()
    assert [i.value for i in at.info] == ["Load a predictions file without blocking errors first."]
