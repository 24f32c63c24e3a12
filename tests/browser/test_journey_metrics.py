"""Journey: sample → Metrics → add a metric and change the CI method → the table → download the CSV for real."""

import csv
import io

import pytest

from tests.browser.conftest import ARTIFACTS, choose, wait_idle

pytestmark = pytest.mark.browser


def test_metrics_change_and_download(page):
    page.get_by_role("heading", name="Task and roles").wait_for()
    page.get_by_role("link", name="Metrics").click()
    page.get_by_role("heading", name="All models").wait_for()
    wait_idle(page)
    page.get_by_text("Model logistic's recall is", exact=False).or_(
        page.get_by_text("recall is 0.962", exact=False)).first.wait_for()

    choose(page, "Confidence interval", "Wilson score")
    wait_idle(page)
    page.get_by_text("Choose metrics").click()
    multiselect = page.get_by_role("combobox", name="Threshold metrics")
    multiselect.click()
    page.get_by_role("option", name="F-beta score", exact=True).click()
    page.keyboard.press("Escape")
    wait_idle(page)
    page.get_by_role("heading", name="All models").wait_for()

    with page.expect_download() as info:
        page.get_by_role("button", name="Metrics CSV").click()
    download = info.value
    rows = list(csv.DictReader(io.StringIO(open(download.path(), encoding="utf-8").read())))
    by_key = {(r["model"], r["key"]): r for r in rows}
    assert ("tree", "fbeta") in by_key and ("logistic", "recall") in by_key
    assert by_key[("tree", "recall")]["method"] == "wilson"
    assert float(by_key[("tree", "recall")]["low"]) < float(by_key[("tree", "recall")]["value"])
    page.screenshot(path=str(ARTIFACTS / "journey_metrics.png"), full_page=True)
