"""The server-wide store of results (pages/shared.py): computed once per key however many sessions ask, bounded,
and refusing new work over the memory budget. Threads are coordinated with events, never with sleeps."""

import threading

import pytest

from pages.shared import ServerBusy, SharedResults, resident_mb


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
