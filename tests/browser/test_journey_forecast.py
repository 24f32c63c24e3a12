"""Journey: the forecast sample → Metrics → Errors → change the horizon → download the error-by-horizon PDF through
the real button → a vector PDF (text, no raster image) naming the three models."""

import pytest
from pypdf import PdfReader

from tests.browser.conftest import ARTIFACTS, wait_idle

pytestmark = pytest.mark.browser

FORECAST = "CO₂ and El Niño — monthly forecasts"
MODELS = ("naive", "seasonal_naive", "ets")


def test_forecast_metrics_errors_and_pdf(page):
    page.get_by_role("heading", name="Task and roles").wait_for()
    page.get_by_text(FORECAST).click()
    page.get_by_text("2,592 rows · time-series forecasting · 3 models").wait_for()

    page.get_by_role("link", name="Metrics").click()
    page.get_by_role("heading", name="Metrics").wait_for()
    wait_idle(page)
    page.get_by_text("forecasts are off by", exact=False).first.wait_for()

    page.get_by_role("link", name="Errors").click()
    page.get_by_role("heading", name="Across horizons").wait_for()
    wait_idle(page)
    page.get_by_text("forecasts made 1 step ahead", exact=False).wait_for()
    slider = page.get_by_role("slider").first
    slider.focus()
    slider.press("ArrowRight")
    slider.press("ArrowRight")
    page.get_by_text("forecasts made 3 steps ahead", exact=False).wait_for()
    wait_idle(page)

    with page.expect_download(timeout=120_000) as info:
        page.locator('.st-key-pdf_error_by_horizon[data-stale="false"] button').first.click()
    path = ARTIFACTS / "error_by_horizon_from_browser.pdf"
    info.value.save_as(path)
    assert path.read_bytes().startswith(b"%PDF")
    [first] = PdfReader(path).pages
    text = first.extract_text()
    assert "MAE by horizon" in text and all(m in text for m in MODELS)
    # vector: the chart is drawn as paths and text, not embedded as a picture
    xobjects = first["/Resources"].get("/XObject", {})
    assert not [x for x in xobjects.values() if x.get_object().get("/Subtype") == "/Image"]
    page.screenshot(path=str(ARTIFACTS / "journey_forecast.png"), full_page=True)
