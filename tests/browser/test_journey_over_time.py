"""Journey: the churn sample → Over time → the third-quarter drop is said → export the over-time chart as PDF
through the real button → a valid PDF whose text has the chart's title and the model. (The drill-down into a period's rows is
added at merge, with the rows engineer's view.)"""

import pytest
from pypdf import PdfReader

from tests.browser.conftest import ARTIFACTS, wait_idle

pytestmark = pytest.mark.browser

CHURN = "Customer churn over 2024"


def test_over_time_drop_and_pdf(page):
    page.get_by_role("heading", name="Task and roles").wait_for()
    page.get_by_text(CHURN).click()
    page.get_by_text("6,000 rows · binary classification · 2 models").wait_for()

    page.get_by_role("link", name="Over time").click()
    page.get_by_role("heading", name="Changes against the reference").wait_for(timeout=60_000)
    wait_idle(page)
    # the page opens on quarters (the coarsest period giving at least four): the third quarter drops
    page.get_by_text("In 2024 Q3 ROC AUC fell to", exact=False).first.wait_for()

    with page.expect_download(timeout=60_000) as info:
        page.locator('.st-key-pdf_over_time[data-stale="false"] button').first.click()
    path = ARTIFACTS / "over_time_from_browser.pdf"
    info.value.save_as(path)
    assert path.read_bytes().startswith(b"%PDF")
    text = PdfReader(path).pages[0].extract_text()
    assert "ROC AUC per quarter" in text and "gradient_boosting" in text
    page.screenshot(path=str(ARTIFACTS / "journey_over_time.png"), full_page=True)
