"""Shared test helpers: the app under AppTest, opened on a page (optionally after choosing a sample)."""

from pathlib import Path

from streamlit.testing.v1 import AppTest

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
