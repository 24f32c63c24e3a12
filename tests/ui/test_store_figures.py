"""A shared result that is a Plotly figure is never one object shared by sessions (`ui.store.SharedResults`):
two threads copying one figure at once raced under load ("Invalid property specified for object of type Scatter:
'width'"), so the store keeps the figure's dict and each reader gets its own figure rebuilt from it.

Oracle: Plotly's own `Figure.to_dict()` — the rebuilt figure must equal the computed one property for property."""

from __future__ import annotations

import plotly.graph_objects as go
import pytest

from ui.store import SharedResults


def _figure():
    return go.Figure(go.Scatter(x=[0, 1, 2], y=[1, 3, 2], line={"width": 3}), layout={"template": "plotly_white",
                                                                                     "title": {"text": "t"}})


def _store(tmp_budget=1e9):
    return SharedResults(memory_mb=lambda: 0.0, budget_mb=lambda: tmp_budget)


def test_a_stored_figure_is_its_dict_and_every_reader_gets_its_own_object():
    shared, computed = _store(), _figure()
    first = shared.get("k", lambda: computed)
    second, third = shared.get("k", _figure), shared.get("k", _figure)
    assert not any(isinstance(v, go.Figure) for v in shared._store.values())   # nothing shareable is kept
    assert isinstance(second, go.Figure) and second is not third and second is not computed
    assert second.to_dict() == third.to_dict() == computed.to_dict() == first.to_dict()


def test_a_reader_changing_its_figure_leaves_the_others_alone():
    shared = _store()
    shared.get("k", _figure)
    mine = shared.get("k", _figure)
    mine.add_vline(x=0.5)                     # what with_threshold_line does to a page's copy
    assert shared.get("k", _figure).to_dict() == _figure().to_dict()


def test_a_figure_inside_a_container_is_refused():
    with pytest.raises(TypeError, match="Plotly figure inside a container"):
        _store().get("k", lambda: (_figure(), 1))


def test_other_results_are_kept_as_they_are():
    shared, value = _store(), {"a": [1, 2]}
    assert shared.get("k", lambda: value) is value and shared.get("k", dict) is value
