"""`assess.core.progress.Progress` in a `ui.state.cached` key: where a computation reports its progress never decides
which result it is, so a second session (another bar) is served the first session's result."""

from assess.core.progress import Progress
from assess.inputs.assessment import describe
from assess.inputs.read import read_table
from tests.conftest import ROOT
from ui import state

RUNS = []


def rows_of(assessment, model, *, progress=None):
    RUNS.append(model)
    progress(1.0)
    return assessment.predictions(model).n


def test_a_progress_callback_is_not_part_of_the_key():
    a = describe(read_table(ROOT / "assets" / "samples" / "wine_multiclass.csv"))
    seen_1, seen_2 = [], []
    model = a.models[0]
    first = state.cached(rows_of, a, model, progress=Progress(seen_1.append))
    second = state.cached(rows_of, a, model, progress=Progress(seen_2.append))
    assert first == second == a.predictions(model).n
    assert RUNS == [model] and seen_1 == [1.0] and seen_2 == []     # computed once, reported to the first bar
    assert Progress(print) == Progress() and hash(Progress(print)) == hash(Progress())
