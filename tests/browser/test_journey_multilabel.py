"""Journey: the digits multi-label sample → Curves → per-label ROC of the first model (micro and macro averages) →
download its PDF through the real button → a vector PDF naming every label and both averages."""

import pytest
from pypdf import PdfReader

from tests.browser.conftest import ARTIFACTS, wait_idle

pytestmark = pytest.mark.browser

DIGITS = "Digits — multi-label, 5 properties, 2 models, 5 folds"
LABELS = ("even", "prime", "at_least_5", "closed_loop", "multiple_of_3")


def test_multilabel_per_label_roc_and_pdf(page):
    page.get_by_role("heading", name="Task and roles").wait_for()
    # the source radio's option, found through the DOM (XPath): text selectors do not see radio option labels here
    page.locator(f'xpath=//label[@data-testid="stRadioOption"][.//p[normalize-space()="{DIGITS}"]]').click()
    # generous waits: eight test sessions may share the machine's two cores
    page.get_by_text("3,594 rows · multi-label classification · 2 models").wait_for(timeout=90_000)

    page.get_by_role("link", name="Curves").click()
    page.get_by_role("heading", name="Every label at once").wait_for(timeout=90_000)
    wait_idle(page)
    # the first model is drawn by default (changing it is covered by AppTest in tests/views/test_multilabel.py)
    page.locator('.st-key-chart_ml_ROC[data-stale="false"] .js-plotly-plot').first.wait_for(timeout=90_000)
    wait_idle(page)
    page.screenshot(path=str(ARTIFACTS / "journey_multilabel.png"), full_page=True)

    with page.expect_download(timeout=120_000) as info:
        page.locator('.st-key-pdf_ml_ROC[data-stale="false"] button').first.click()
    path = ARTIFACTS / "per_label_roc_from_browser.pdf"
    info.value.save_as(path)
    assert path.read_bytes().startswith(b"%PDF")
    [first] = PdfReader(path).pages
    text = first.extract_text()
    assert "ROC per label" in text and "logistic_ovr" in text
    assert all(label in text for label in LABELS) and "micro-average" in text and "macro-average" in text
    # vector: the chart is drawn as paths and text, not embedded as a picture
    xobjects = first["/Resources"].get("/XObject", {})
    assert not [x for x in xobjects.values() if x.get_object().get("/Subtype") == "/Image"]
