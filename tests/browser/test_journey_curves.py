"""Journey: sample → Curves → move the threshold → the confusion matrix changes → download the ROC PDF through the
real button → it is a valid PDF with the chart's title → screenshot."""

import pytest
from pypdf import PdfReader

from tests.browser.conftest import ARTIFACTS, wait_idle

pytestmark = pytest.mark.browser


def test_curves_threshold_and_pdf(page):
    page.get_by_role("heading", name="Task and roles").wait_for()
    page.get_by_role("link", name="Curves").click()
    page.get_by_role("heading", name="Threshold explorer").wait_for()
    wait_idle(page)
    page.locator('.st-key-cm_tree[data-stale="false"]').get_by_text("at threshold 0.500").wait_for()
    # tree at 0.5 flags 188 + 16 (scikit-learn's confusion_matrix on the sample, see test_page_curves)
    before = page.locator('.st-key-cm_tree[data-stale="false"]').first.inner_text()

    box = page.get_by_role("spinbutton", name="Exact threshold")
    box.fill("0.9")
    box.press("Enter")
    page.locator('.st-key-cm_tree[data-stale="false"]').get_by_text("at threshold 0.900").wait_for()
    wait_idle(page)
    after = page.locator('.st-key-cm_tree[data-stale="false"]').first.inner_text()
    assert before != after

    with page.expect_download(timeout=120_000) as info:
        page.locator('.st-key-pdf_ROC_[data-stale="false"] button').first.click()
    download = info.value
    path = ARTIFACTS / "roc_from_browser.pdf"
    download.save_as(path)
    data = path.read_bytes()
    assert data.startswith(b"%PDF")
    text = PdfReader(path).pages[0].extract_text()
    assert "ROC curve" in text and "tree" in text
    page.screenshot(path=str(ARTIFACTS / "journey_curves.png"), full_page=True)
