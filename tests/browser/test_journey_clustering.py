"""Journey: the clustering sample → Metrics (the indices of three clusterings) → Clusters → download the contingency
heatmap PDF through the real button → a PDF whose labels and counts are text, naming the classes."""

import pytest
from pypdf import PdfReader

from tests.browser.conftest import ARTIFACTS, wait_idle

pytestmark = pytest.mark.browser

CLUSTERING = "Iris — clustering"
SPECIES = ("setosa", "versicolor", "virginica")


def test_clustering_metrics_clusters_and_pdf(page):
    page.get_by_role("heading", name="Task and roles").wait_for()
    page.get_by_text(CLUSTERING).click()
    page.get_by_text("450 rows · clustering · 3 models").wait_for()

    page.get_by_role("link", name="Metrics").click()
    page.get_by_role("heading", name="All clusterings").wait_for()
    wait_idle(page)
    page.get_by_text("random partition with the same cluster sizes", exact=False).first.wait_for()
    assert page.get_by_role("link", name="Confusion").count() == 0      # hidden for clustering
    assert page.get_by_role("link", name="Curves").count() == 0

    page.get_by_role("link", name="Clusters", exact=True).click()
    page.get_by_role("heading", name="Clusters", exact=True).wait_for()
    wait_idle(page)
    page.get_by_text("Each cell: rows of that class", exact=False).wait_for(timeout=90_000)
    page.get_by_text("All 5 charts on this page (PDF)").wait_for(timeout=90_000)     # the whole page has run
    wait_idle(page)

    with page.expect_download(timeout=120_000) as info:
        page.locator('.st-key-pdf_contingency button').first.click(timeout=90_000)
    path = ARTIFACTS / "contingency_from_browser.pdf"
    info.value.save_as(path)
    assert path.read_bytes().startswith(b"%PDF")
    [first] = PdfReader(path).pages
    text = first.extract_text()
    # the labels and the cell counts are text (Plotly paints a heatmap's colour cells as one picture)
    assert "Reference classes" in text and all(s in text for s in SPECIES) and "50" in text
    page.screenshot(path=str(ARTIFACTS / "journey_clustering.png"), full_page=True)
