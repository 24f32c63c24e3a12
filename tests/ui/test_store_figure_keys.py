"""Every figure the Curves page takes from the server's shared store (`ui.state.cached`, keyed by
the call) is the figure an empty store builds for the same settings: a key that left out one of a figure's
inputs would hand one session the figure another session's settings made.

Two sessions of one server are two AppTests in one process (the store is a `st.cache_resource`); the oracle is the
second session's page run again on an emptied store. The pairs of settings: the page as it opens against every setting moved (both ways), and two
that differ in one setting only — β, which only the metrics-by-threshold chart draws, and the threshold."""

from __future__ import annotations

import json

import pytest
import streamlit as st

from tests.conftest import open_app

#: Every setting a shared figure depends on, away from where the page opens: the models shown, the threshold, the ROC
#: band and hull, β (with F-beta plotted), the single-model charts' model and the metrics plotted.
CHANGED = {"models": 2, "threshold": 0.8, "band": True, "hull": True, "beta": 2.0, "detail": 1,
           "plotted": ["fbeta", "precision"]}
DEFAULT = None


def _set(at, settings: dict | None):
    if settings:
        models = at.multiselect[0]
        models.set_value(models.value[:settings["models"]]).run()
        [box] = [n for n in at.number_input if n.label == "Exact threshold"]
        box.set_value(settings["threshold"]).run()
        at.toggle(key="roc_band").set_value(settings["band"]).run()
        at.toggle(key="roc_hull").set_value(settings["hull"]).run()
        at.number_input(key="curves_beta").set_value(settings["beta"]).run()
        detail = at.selectbox(key="detail_model")
        detail.set_value(detail.options[settings["detail"]]).run()
        at.multiselect(key="threshold_chart_metrics").set_value(settings["plotted"]).run()
    assert not at.exception
    return at


def _built_afresh(at):
    """The page run again on an emptied store: every figure built from its settings alone (the runs that led to them
    passed through the page's first settings, and would have left their figures in the store)."""
    st.cache_resource.clear()
    at.run()
    assert not at.exception
    return at


def _figures(at) -> list[dict]:
    return [json.loads(element.proto.spec) for element in at.get("plotly_chart")]


@pytest.mark.parametrize("first, second", [(CHANGED, DEFAULT), (DEFAULT, CHANGED), (CHANGED, CHANGED | {"beta": 3.0}),
                                           (CHANGED, CHANGED | {"threshold": 0.7})],
                         ids=["changed-default", "default-changed", "beta-only", "threshold-only"])
def test_a_shared_figure_is_the_one_its_own_settings_build(first, second):
    _built_afresh(_set(open_app("views/curves.py"), first))        # session 1 leaves only its own figures stored
    session = _set(open_app("views/curves.py"), second)
    shared = _figures(session)                                       # session 2 reads from the store
    # the oracle: session 2's own settings on an emptied store (a third session set the same way would build the
    # same, after the same runs)
    fresh = _figures(_built_afresh(session))
    assert len(shared) == len(fresh) >= 10
    for got, built in zip(shared, fresh):
        assert got == built, built["layout"].get("title", {}).get("text")
