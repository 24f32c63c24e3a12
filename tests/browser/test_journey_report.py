"""Journey: sample → rename a model and the positive class → Report → answer two checklist items, state costs → download
the PDF (A4), then choose HTML and download it → the PDF's text has the new names, the answers and the section
titles; the HTML, opened offline in Chromium, draws every chart and asks the network for nothing. Page 1 and the
page at 1,024 and 1,440 px are rendered to PNG for a person to look at."""

import subprocess

import pytest
from pypdf import PdfReader

from tests.browser.conftest import ARTIFACTS, wait_idle

pytestmark = pytest.mark.browser

SECTIONS = ("Metrics", "Charts", "Significance tests", "Costs", "Misclassification costs",
            "ISO 4213 5.3 control checklist", "Metric definitions", "Reproducibility appendix")


def test_report_with_display_names_and_checklist(page, browser, tmp_path):
    page.get_by_role("heading", name="Task and roles").wait_for()
    page.get_by_text("Display names of models and classes").click()
    page.get_by_role("textbox", name="Model `logistic`").fill("Logistic regression")
    page.get_by_role("textbox", name="Class `malignant`").fill("Cancer")
    page.get_by_role("button", name="Apply names").click()
    wait_idle(page)
    page.get_by_text("Positive class").first.wait_for()

    page.get_by_role("link", name="Report").click()
    page.get_by_role("heading", name="Report options").wait_for()
    answers = {"5.3.2 Data representativeness and bias": "Hospital A, 2019 cohort",
               "5.3.9 Ground truth": "Biopsy-confirmed diagnoses"}
    for label, text in answers.items():
        box = page.get_by_role("textbox", name=label)
        box.fill(text)
        box.press("Tab")  # a text area commits its value on blur
        wait_idle(page)
    page.get_by_text("Misclassification costs").click()
    page.get_by_text("State what each kind of error costs").click()    # 0/1 costs: the expected cost is the error rate
    wait_idle(page)
    page.get_by_role("button", name="Build the report").click()
    pdf_button = page.get_by_role("button", name="Download the PDF (A4)")
    pdf_button.wait_for(timeout=240_000)
    for width in (1024, 1440):       # the page at a laptop's and a desktop's width, for a person to look at
        page.set_viewport_size({"width": width, "height": 900})
        wait_idle(page)
        # Streamlit scrolls its main block, not the document: bring the options, then the download, into view
        page.get_by_role("heading", name="Report options").scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / f"journey_report_page_{width}_options.png"))
        pdf_button.scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / f"journey_report_page_{width}_download.png"))
    page.set_viewport_size({"width": 1400, "height": 1000})

    with page.expect_download(timeout=240_000) as info:
        pdf_button.click()
    pdf_path = tmp_path / "report.pdf"
    info.value.save_as(pdf_path)
    page.locator('[data-testid="stRadio"]').filter(has_text="Format").get_by_text("HTML", exact=True).click()
    html_button = page.get_by_role("button", name="Download the HTML")
    html_button.wait_for(timeout=120_000)
    with page.expect_download() as info:
        html_button.click()
    html_path = tmp_path / "report.html"
    info.value.save_as(html_path)

    reader = PdfReader(pdf_path)
    text = " ".join(" ".join(p.extract_text() for p in reader.pages).split())
    for expected in ("Logistic regression", "Cancer", *answers.values(), *SECTIONS):
        assert expected in text, expected
    first_page = ARTIFACTS / "journey_report_page1"
    subprocess.run(["pdftoppm", "-r", "80", "-f", "1", "-l", "1", "-png", "-singlefile", str(pdf_path),
                    str(first_page)], check=True)

    offline = browser.new_context(offline=True, viewport={"width": 1200, "height": 900})
    requests = []
    viewer = offline.new_page()
    viewer.set_default_timeout(180_000)  # 5 MB of HTML and 20 charts drawn on load: slow on a busy 2-core machine
    viewer.on("request", lambda request: requests.append(request.url))
    viewer.goto(html_path.as_uri(), wait_until="domcontentloaded")
    charts = viewer.locator("div[data-figure]")
    count = charts.count()
    assert count >= 12
    viewer.wait_for_function(f"document.querySelectorAll('div[data-figure] .main-svg').length >= {count}",
                             timeout=180_000)
    for i in range(count):  # every chart drew its plot area
        assert charts.nth(i).locator(".main-svg").first.bounding_box()["height"] > 100
    assert all(url.startswith(("file:", "data:", "blob:", "about:")) for url in requests), requests
    assert "Logistic regression" in viewer.content()
    viewer.screenshot(path=str(ARTIFACTS / "journey_report_html.png"))
    offline.close()
