"""Journey: sample → Compare → McNemar between two models → the sentence appears → download the results CSV."""

import csv
import io

import pytest

from tests.browser.conftest import ARTIFACTS, choose, wait_idle

pytestmark = pytest.mark.browser


def test_compare_mcnemar_and_download(page):
    page.get_by_role("heading", name="Task and roles").wait_for()
    page.get_by_role("link", name="Compare").click()
    page.get_by_role("heading", name="Suitable tests").wait_for()
    wait_idle(page)
    choose(page, "Test", "McNemar's test")
    page.get_by_role("button", name="Run test").click()
    sentence = page.get_by_text("is right on", exact=False).first
    sentence.wait_for(timeout=60_000)
    assert "McNemar exact" in sentence.inner_text()
    wait_idle(page)
    with page.expect_download() as info:
        page.get_by_role("button", name="Results CSV").click()
    rows = list(csv.DictReader(io.StringIO(open(info.value.path(), encoding="utf-8").read())))
    assert rows[0]["test"] == "mcnemar" and float(rows[0]["pvalue"]) < 0.05
    page.screenshot(path=str(ARTIFACTS / "journey_compare.png"), full_page=True)
