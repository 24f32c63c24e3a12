"""Journey: breast-cancer sample → Slices by `group` → the worst slice is named → export its chart as PDF through the
real button → a valid PDF whose text has the chart's title and the slice → screenshot."""

import io

import pandas as pd
import pytest
from pypdf import PdfReader

from tests.browser.conftest import ARTIFACTS, ROOT, choose, selectbox_value, wait_idle

pytestmark = pytest.mark.browser


def test_slices_worst_slice_and_pdf(page):
    page.get_by_role("heading", name="Task and roles").wait_for()
    page.get_by_role("link", name="Slices").click()
    page.get_by_role("heading", name="Where the model fails").wait_for(timeout=120_000)
    wait_idle(page)
    # the Data page's subgroup column `group` is the default slice column: its values are the slices
    worst = page.get_by_text("Worst slices of", exact=False).first
    worst.wait_for(timeout=60_000)
    text = worst.inner_text()
    # logistic's accuracy: large and medium 185 of 190 right, small 188 of 189 (scikit-learn, see test_page_slices)
    assert "large" in text and "adjusted p" in text
    page.get_by_role("heading", name="Tests across slices").wait_for()
    page.get_by_role("heading", name="Across cross-validation folds").wait_for(timeout=120_000)
    wait_idle(page)
    page.screenshot(path=str(ARTIFACTS / "journey_slices.png"), full_page=True)

    with page.expect_download(timeout=120_000) as info:
        page.locator('.st-key-pdf_slice_forest[data-stale="false"] button').first.click()
    path = ARTIFACTS / "slices_from_browser.pdf"
    info.value.save_as(path)
    data = path.read_bytes()
    assert data.startswith(b"%PDF")
    pdf_text = PdfReader(path).pages[0].extract_text()
    assert "Accuracy per slice" in pdf_text and "logistic" in pdf_text and "large" in pdf_text
    page.screenshot(path=str(ARTIFACTS / "journey_slices.png"), full_page=True)


def test_find_weak_slices_and_their_pdf(page):
    """Slices → naive Bayes → Find weak slices → Search: the sample's `group = medium` is found (its accuracy 0.742
    by scikit-learn, tests/views/test_slices.py) → the found slice's rows as CSV → its chart as PDF through the real
    button."""
    page.get_by_role("heading", name="Task and roles").wait_for()
    page.get_by_role("link", name="Slices").click()
    page.get_by_role("heading", name="Where the model fails").wait_for(timeout=120_000)
    wait_idle(page)
    choose(page, "Model", "naive_bayes_3f")
    wait_idle(page)
    page.get_by_role("heading", name="Find weak slices").wait_for(timeout=60_000)
    page.get_by_text("Search", exact=True).click()
    found = page.get_by_text("1 slice is worse", exact=False).first
    found.wait_for(timeout=60_000)
    assert "3 slices were looked at" in found.inner_text()
    wait_idle(page)
    # the found slice's rows: its CSV download holds exactly the file's naive Bayes rows in group medium (pandas)
    data = pd.read_csv(ROOT / "assets/samples/breast_cancer_binary.csv").query("model == 'naive_bayes_3f'")
    medium = data[data.group == "medium"]
    assert selectbox_value(page, "Rows of a found slice") == f"group = medium ({len(medium):,} rows)"
    with page.expect_download(timeout=60_000) as rows_info:
        page.locator('.st-key-found_rows_csv[data-stale="false"] button').first.click()
    downloaded = pd.read_csv(io.BytesIO(rows_info.value.path().read_bytes()))
    assert sorted(downloaded["id"]) == sorted(medium["id"])
    with page.expect_download(timeout=120_000) as info:
        page.locator('.st-key-pdf_discover_forest[data-stale="false"] button').first.click()
    path = ARTIFACTS / "weak_slices_from_browser.pdf"
    info.value.save_as(path)
    assert path.read_bytes().startswith(b"%PDF")
    pdf_text = PdfReader(path).pages[0].extract_text()
    assert "Accuracy of the weak slices found — naive_bayes_3f" in pdf_text and "group = medium" in pdf_text and "naive_bayes_3f" in pdf_text
    page.screenshot(path=str(ARTIFACTS / "journey_weak_slices.png"), full_page=True)
