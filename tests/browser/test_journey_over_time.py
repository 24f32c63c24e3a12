"""Journey: the churn sample → Over time → the third-quarter drop is said → the third quarter's rows (the
drill-down), whose CSV download holds exactly that quarter's rows of the model → export the over-time chart as PDF
through the real button → a valid PDF whose text has the chart's title and the model."""

import io

import pandas as pd
import pytest
from pypdf import PdfReader

from tests.browser.conftest import ARTIFACTS, ROOT, choose, wait_idle

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

    data = pd.read_csv(ROOT / "assets/samples/churn_over_time.csv").query("model == 'gradient_boosting'")
    q3 = data[pd.to_datetime(data.date).dt.to_period("Q") == pd.Period("2024Q3")]
    choose(page, "Rows of the period", f"2024 Q3 ({len(q3):,} rows)")
    wait_idle(page)
    page.get_by_text(f"Rows 1–25 of {len(q3):,}", exact=False).first.wait_for()
    with page.expect_download(timeout=60_000) as rows_info:
        page.locator('.st-key-period_rows_csv[data-stale="false"] button').first.click()
    downloaded = pd.read_csv(io.BytesIO(rows_info.value.path().read_bytes()))
    assert sorted(downloaded["id"]) == sorted(q3["id"])

    with page.expect_download(timeout=60_000) as info:
        page.locator('.st-key-pdf_over_time[data-stale="false"] button').first.click()
    path = ARTIFACTS / "over_time_from_browser.pdf"
    info.value.save_as(path)
    assert path.read_bytes().startswith(b"%PDF")
    text = PdfReader(path).pages[0].extract_text()
    assert "ROC AUC per quarter" in text and "gradient_boosting" in text
    page.screenshot(path=str(ARTIFACTS / "journey_over_time.png"), full_page=True)
