"""Shared test set-up: the hypothesis profiles, and the app under AppTest opened on a page (optionally a sample).

Hypothesis profiles
-------------------
``ci`` (loaded unless ``HYPOTHESIS_PROFILE`` names another): derandomized, so every run of the suite, on CI and on a
laptop alike, tries the same examples and a red test is red on every run; ``database=None`` because a derandomized run
has nothing to replay (and hypothesis rejects the combination of the two). A failure found while hunting is pinned with
``@example`` on its test, so it stays checked whatever the profile.

``dev``: randomized, for hunting new failures before pinning them, e.g.
``HYPOTHESIS_PROFILE=dev python -m pytest tests/stats/test_folds.py --hypothesis-seed=7``. The per-test
``max_examples`` of each test file still applies, so vary the seed rather than the count.
"""

import os
from pathlib import Path

from hypothesis import settings
from streamlit.testing.v1 import AppTest

settings.register_profile("ci", derandomize=True, database=None, deadline=None, print_blob=True)
settings.register_profile("dev", derandomize=False, database=None, deadline=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

ROOT = Path(__file__).resolve().parents[1]
APP = str(ROOT / "app.py")


def open_app(page: str | None = None, *, sample: str | None = None, timeout: float = 120) -> AppTest:
    """Run the app as a user would: it opens on the default sample; pick ``sample``; go to ``page``."""
    at = AppTest.from_file(APP, default_timeout=timeout)
    at.run()
    if sample:
        at.radio[0].set_value(sample).run()
    if page:
        at.switch_page(page).run()
    assert not at.exception
    return at


def joined_table(at: AppTest, first: int, on: str | tuple[str, ...]):
    """A table the page shows as several to fit 1024 px (`ui.widgets.data_table` with ``repeat``): the dataframes
    from ``at.dataframe[first]`` on that each carry the ``on`` columns and new columns besides, joined on ``on``."""
    on = [on] if isinstance(on, str) else list(on)
    joined = at.dataframe[first].value.set_index(on)
    for element in list(at.dataframe)[first + 1:]:
        part = element.value
        if not set(on) <= set(part.columns):
            break
        part = part.set_index(on)
        new = [c for c in part.columns if c not in joined.columns]
        if not new or len(part) != len(joined):
            break
        joined = joined.join(part[new])
    return joined
