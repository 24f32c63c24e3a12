"""The server-wide store of results (ui/store.py): computed once per key however many sessions ask, bounded,
and refusing new work over the memory budget. Threads are coordinated with events, never with sleeps."""

import threading

import pytest

from ui import store as shared
from ui.store import ServerBusy, SharedResults, resident_mb


def test_concurrent_callers_of_one_key_share_one_computation():
    store = SharedResults()
    started, release = threading.Event(), threading.Event()
    calls, results = [], {}

    def slow():
        calls.append("first")
        started.set()
        release.wait(timeout=30)
        return "report"

    def second():
        calls.append("second")
        return "another report"

    first = threading.Thread(target=lambda: results.setdefault("a", store.get(("sha", "metrics"), slow)))
    first.start()
    started.wait(timeout=30)
    other = threading.Thread(target=lambda: results.setdefault("b", store.get(("sha", "metrics"), second)))
    other.start()
    release.set()
    first.join(timeout=30)
    other.join(timeout=30)
    assert calls == ["first"] and results == {"a": "report", "b": "report"}


def test_least_recently_used_entries_leave_first():
    store = SharedResults(max_entries=2)
    store.get("a", lambda: 1)
    store.get("b", lambda: 2)
    store.get("a", lambda: 99)          # a is used again, so b is the oldest
    store.get("c", lambda: 3)
    assert len(store) == 2
    assert store.get("a", lambda: 100) == 1 and store.get("b", lambda: 200) == 200


def test_a_failure_is_not_stored():
    store = SharedResults()

    def broken():
        raise ValueError("bad column")

    with pytest.raises(ValueError, match="bad column"):
        store.get("k", broken)
    assert store.get("k", lambda: "fixed") == "fixed"


def test_over_the_memory_budget_new_work_is_refused_but_stored_results_are_served():
    used = {"mb": 100.0}
    store = SharedResults(memory_mb=lambda: used["mb"], budget_mb=lambda: 500.0)
    assert store.get("done", lambda: "kept") == "kept"
    used["mb"] = 900.0
    with pytest.raises(ServerBusy, match=r"holds 900 MB of 500 MB .* Try again in a minute"):
        store.get("new", lambda: "never computed")
    assert store.get("done", lambda: "recomputed") == "kept"


def test_resident_memory_is_read():
    assert resident_mb() > 1.0      # this Python process holds at least a megabyte


def test_results_nobody_used_for_a_while_are_dropped():
    now = {"t": 0.0}
    store = SharedResults(clock=lambda: now["t"])
    store.get("old", lambda: "a")
    now["t"] = 100.0
    store.get("recent", lambda: "b")
    now["t"] = 650.0
    assert store.evict_idle(600.0) == 1           # "old" idle 650 s, "recent" 550 s
    assert store.get("recent", lambda: "recomputed") == "b"
    assert store.get("old", lambda: "recomputed") == "recomputed"


def test_a_file_no_session_holds_any_more_takes_its_results_with_it():
    store = SharedResults()
    store.hold("alice", "sha-a")
    store.hold("bob", "sha-a")
    store.get(("sha-a", "describe"), lambda: "assessment a", tag="sha-a")
    store.get(("sha-a", "metrics"), lambda: "report a", tag="sha-a")
    store.get("untagged", lambda: "kept by the idle rule")
    assert store.hold("alice", "sha-b") == 0         # bob still holds file a
    assert store.get(("sha-a", "metrics"), lambda: "recomputed") == "report a"
    assert store.hold("bob", None) == 2              # nobody holds file a now: both of its entries leave
    assert len(store) == 1 and store.get("untagged", lambda: "recomputed") == "kept by the idle rule"
    assert store.get(("sha-a", "metrics"), lambda: "recomputed", tag="sha-a") == "recomputed"


def test_results_of_closed_sessions_leave_with_them():
    store = SharedResults()
    store.hold("alice", "sha-a")
    store.hold("bob", "sha-b")
    store.get("a", lambda: 1, tag="sha-a")
    store.get("b", lambda: 2, tag="sha-b")
    assert store.keep_sessions({"bob"}) == 1          # alice's tab closed and Streamlit let her session go
    assert store.get("a", lambda: "recomputed") == "recomputed" and store.get("b", lambda: "recomputed") == 2


class _Runtime:
    """Just what `close_departed_sessions` uses of Streamlit's runtime: its event loop, session manager and close."""

    def __init__(self, connected_again=()):
        self.closed, self.connected_again = [], set(connected_again)
        self.states = {}     # session id → its session state (a dict: Streamlit's SessionState has clear() too)
        loop = type("Loop", (), {"call_soon_threadsafe": staticmethod(lambda fn, *args: fn(*args))})()
        self._get_async_objs = lambda: type("Async", (), {"eventloop": loop})()

        self.fragments = {}  # session id → its stored fragments (a dict: Streamlit's storage has clear() too)

        def session_info(_, sid):
            state = self.states.setdefault(sid, {"table": f"{sid}'s million rows"})
            fragments = self.fragments.setdefault(sid, {"explorer": "a function holding the Curves page's globals"})
            return type("SessionInfo", (), {"session": type("AppSession", (), {
                "session_state": state, "_fragment_storage": fragments})()})()

        self._session_mgr = type("Manager", (), {
            "get_active_session_info": lambda _, sid: "active" if sid in self.connected_again else None,
            "get_session_info": session_info})()

    def close_session(self, sid):
        self.closed.append(sid)


def test_sessions_gone_for_their_time_are_closed_and_returning_ones_are_not(monkeypatch):
    runtime = _Runtime(connected_again={"carol"})
    monkeypatch.setattr(shared, "_runtime", lambda: runtime)
    now = {"t": 0.0}
    away = {}

    def close(sessions):
        return shared.close_departed_sessions(away, sessions, after_s=45.0, clock=lambda: now["t"])

    assert close({"alice": False, "bob": True, "carol": False}) == 0     # first seen away at t = 0
    now["t"] = 30.0
    assert close({"alice": False, "bob": True, "dave": False, "carol": False}) == 0
    now["t"] = 40.0
    assert close({"alice": False, "bob": True, "dave": True, "carol": False}) == 0   # dave came back: forgotten
    now["t"] = 45.0
    # carol reconnected between the listing and the close on the event loop: she is left alone
    assert close({"alice": False, "bob": True, "dave": False, "carol": False}) == 2
    assert runtime.closed == ["alice"] and away == {"dave": 45.0}
    # Her state is emptied first: Streamlit keeps a closed session object reachable, with its state
    assert runtime.states["alice"] == {} and runtime.fragments["alice"] == {} and "carol" not in runtime.states
    assert close(None) == 0                  # sessions that cannot be listed: nothing is closed


def test_without_a_streamlit_server_sessions_cannot_be_listed():
    assert shared.live_sessions() is None


def test_a_tidy_round_drops_results_of_sessions_streamlit_no_longer_keeps(monkeypatch):
    store = SharedResults()
    store.hold("alice", "sha-a")
    store.get("a", lambda: 1, tag="sha-a")
    monkeypatch.setattr(shared, "live_sessions", lambda: {"bob": True})
    assert shared.tidy(store, {}) == 1 and len(store) == 0


def test_sessions_are_listed_from_streamlits_own_session_records(monkeypatch):
    from streamlit.runtime.session_manager import ActiveSessionInfo, SessionInfo

    def session(sid):
        return type("AppSession", (), {"id": sid})()

    records = [ActiveSessionInfo(client=object(), session=session("open tab")),
               SessionInfo(client=None, session=session("closed tab"))]
    runtime = type("Runtime", (), {"_session_mgr": type("Manager", (), {"list_sessions": lambda _: records})()})()
    monkeypatch.setattr(shared, "_runtime", lambda: runtime)
    assert shared.live_sessions() == {"open tab": True, "closed tab": False}


# --- what a closed tab leaves behind: widget records and their callbacks ------------------------------------------

class _Assessment:
    """Stands for a session's assessment: weakly referable, so a test sees when nothing holds it any more."""


def _page_run(state, widget_id: str):
    """A page run as Streamlit does it (a fresh module, the page's code executed in it) that draws one widget with a
    callback defined in the page: returns a weak reference to the assessment held in that run's page globals."""
    import types
    import weakref

    from streamlit.runtime.state.common import WidgetMetadata

    page = types.ModuleType("__main__")
    page.__dict__["Assessment"] = _Assessment
    exec("assessment = Assessment()\ndef on_change():\n    return assessment", page.__dict__)
    state._new_widget_state.set_widget_metadata(WidgetMetadata(widget_id, lambda v: v, lambda v: v, "int_value",
                                                               callback=page.__dict__["on_change"]))
    return weakref.ref(page.__dict__["assessment"])


def _collect_until_gone(ref) -> None:
    """A full collection, repeated while ``ref`` is alive (at most 20 times): CPython's ``gc.collect()`` returns at
    once without collecting while another thread's collection runs — the store's own thread collects every 30 s
    (`ui.store`) — which made the checks below fail now and then in a full run."""
    import gc

    for _ in range(20):
        gc.collect()
        if ref() is None:
            return


def test_records_of_widgets_that_left_the_page_let_their_page_globals_go():
    import gc

    from streamlit.runtime.state.session_state import SessionState, Value

    state = SessionState()
    earlier = _page_run(state, "widget-of-the-first-upload")
    current = _page_run(state, "widget-on-the-page")
    state._new_widget_state["widget-on-the-page"] = Value(3)   # only the drawn widget has a value
    gc.collect()
    assert earlier() is not None          # Streamlit's own rule keeps every record ever made (the leak)
    assert shared.forget_widget_callbacks(state) == 1
    _collect_until_gone(earlier)
    assert earlier() is None and current() is not None
    assert state._new_widget_state.widget_metadata["widget-on-the-page"].callback() is current()


def test_a_closed_sessions_state_widget_records_and_fragments_are_emptied():
    from streamlit.runtime.state.session_state import SessionState, Value

    state = SessionState()
    held = _page_run(state, "w")
    state._new_widget_state["w"] = Value(1)
    state["table"] = "a million rows"
    session = type("AppSession", (), {"session_state": state, "_fragment_storage": {"explorer": "page globals"}})()
    shared.forget_state(session)
    _collect_until_gone(held)
    assert held() is None and "table" not in state and session._fragment_storage == {}


def test_sessions_closed_while_their_page_ran_are_emptied_again_until_their_script_stops(monkeypatch):
    import weakref

    loop = type("Loop", (), {"call_soon_threadsafe": staticmethod(lambda fn, *args: fn(*args))})()
    runtime = type("Runtime", (), {"_get_async_objs": lambda _: type("Async", (), {"eventloop": loop})()})()
    monkeypatch.setattr(shared, "_runtime", lambda: runtime)
    running = type("AppSession", (), {})()
    running.session_state, running._fragment_storage, running._scriptrunner = {}, {}, "still running"
    gone = type("AppSession", (), {})()
    closing = {"running": weakref.ref(running), "gone": weakref.ref(gone)}
    del gone
    running.session_state["table"] = "drawn again by the page that was still running"
    assert shared.forget_closed_sessions(closing) == 1
    assert running.session_state == {} and list(closing) == ["running"]
    running.session_state["table"], running._scriptrunner = "its last widgets", None
    assert shared.forget_closed_sessions(closing) == 0
    assert running.session_state == {} and closing == {}


def test_malloc_arenas_are_capped_unless_the_operator_chose(monkeypatch):
    monkeypatch.setenv("MALLOC_ARENA_MAX", "4")
    assert shared.limit_malloc_arenas() is False      # the operator's own setting stands
    monkeypatch.delenv("MALLOC_ARENA_MAX")
    assert shared.limit_malloc_arenas() is True       # glibc accepted the cap (this machine runs glibc)
