"""Every built-in sample on every page: nothing may raise. The samples are what a first-time user opens, and two of
them once crashed a page (the multi-label sample on Controls, the clustering sample on Slices) while every page's own
tests passed on the sample it was written for."""

import re

import pandas as pd
import pytest

from tests.conftest import open_app
from ui.state import SAMPLES

PAGES = ("views/data.py", "views/metrics.py", "views/confusion.py", "views/curves.py", "views/compare.py",
         "views/slices.py", "views/over_time.py", "views/cost.py", "views/controls.py", "views/clusters.py",
         "views/report.py")


@pytest.fixture(scope="module", params=list(SAMPLES))
def sample(request):
    return request.param, open_app(sample=request.param)


def test_every_page_shows_its_content_or_why_not(sample):
    title, at = sample
    for page in PAGES:
        at.switch_page(page).run()
        assert not at.exception, f"{page} raised on the sample {title!r}: {at.exception[0].message}"
        shown = [*at.dataframe, *at.get("plotly_chart"), *at.info, *at.error, *at.warning, *at.success, *at.metric,
                 *at.subheader]
        assert shown, f"{page} showed nothing on {title!r}"
        sentences = [e.value for e in (*at.info, *at.caption, *at.warning)]
        assert not [t for t in sentences if re.search(r"\b(multiclass|multilabel)\b", str(t))], \
            f"{page} on {title!r}: a task's key in a sentence instead of its name (Task.label)"
        for table in at.dataframe:   # the grid shows a missing cell as "None": no table may hold one
            if isinstance(table.value, pd.DataFrame):
                assert not table.value.isna().to_numpy().any(), f"{page} on {title!r}: a table shows None"


def test_multilabel_shift_is_each_labels_prevalence_per_group():
    """Oracle: pandas' group means of the indicator columns (the multi-label sample's folds as groups)."""
    from assess.analyses.controls import distribution_shift
    from assess.inputs.assessment import describe
    from assess.inputs.read import read_table
    from ui.state import SAMPLES_DIR
    table = read_table(SAMPLES_DIR / "digits_multilabel.csv")
    assessment = describe(table)
    model = assessment.models[0]
    shift = distribution_shift(assessment, by=assessment.roles.fold, model=model)
    rows = table.frame[table.frame[assessment.roles.model] == model]
    truth = [c for c in rows.columns if str(c).startswith("true_")]
    expected = rows.groupby(rows[assessment.roles.fold].astype(str))[truth].mean()
    got = shift.table.set_index("group")
    for column in truth:
        pd.testing.assert_series_equal(got[f"share_{column[5:]}"], expected[column], check_names=False)
