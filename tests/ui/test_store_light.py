"""Light shared results (a figure at one threshold, `ui.store.SharedResults.get(light=True)`) are bounded apart
from the costly ones: a threshold moved through many values must never push a read file or a sorted model out of the
store (the eight-session load, bench/bench_sessions.py, depends on those staying shared).

Oracle: the least-recently-used rule written out by hand for each kind below."""

from __future__ import annotations

import tomllib
from pathlib import Path

from ui.store import SharedResults


def _store(max_entries=2, max_light=3):
    return SharedResults(max_entries, memory_mb=lambda: 0.0, budget_mb=lambda: 1e9, max_light=max_light)


def test_many_light_entries_leave_the_costly_ones_in_place():
    store = _store()
    store.get("read", lambda: "table")
    store.get("scored", lambda: "curves")
    for threshold in range(10):
        store.get(("chart", threshold), lambda t=threshold: t, light=True)
    # the two costly entries stay; of the light ones the last three (7, 8, 9) are kept
    assert set(store._store) == {"read", "scored", ("chart", 7), ("chart", 8), ("chart", 9)}
    assert store.get("read", lambda: "recomputed") == "table"


def test_each_kind_evicts_its_least_recently_used():
    store = _store(max_entries=2, max_light=2)
    store.get("a", lambda: 1)
    store.get("b", lambda: 2)
    store.get("light1", lambda: 10, light=True)
    store.get("a", lambda: -1)                   # "a" used again: "b" is now the oldest costly entry
    store.get("c", lambda: 3)
    store.get("light2", lambda: 20, light=True)
    store.get("light1", lambda: -10, light=True)  # used again: "light2" is the oldest light entry
    store.get("light3", lambda: 30, light=True)
    assert set(store._store) == {"a", "c", "light1", "light3"}
    assert not store._light - set(store._store)   # a dropped entry leaves the light set too


def test_a_dropped_light_entry_is_computed_again():
    store, calls = _store(max_light=1), []
    store.get("x", lambda: calls.append("x") or 1, light=True)
    store.get("y", lambda: calls.append("y") or 2, light=True)
    assert store.get("x", lambda: calls.append("x again") or 3, light=True) == 3
    assert calls == ["x", "y", "x again"]


def test_the_server_collects_garbage_on_its_own_schedule_not_after_every_run():
    """Streamlit's full collection after every script run is off (.streamlit/config.toml); ui/store.py's tidy-up
    thread collects instead (`COLLECT_EVERY_ROUNDS`)."""
    config = tomllib.loads((Path(__file__).resolve().parents[2] / ".streamlit" / "config.toml").read_text())
    assert config["runner"]["postScriptGC"] is False
