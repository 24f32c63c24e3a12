"""Screenshots of every page × sample at 1024 and 1440 px, to look at (issue 11); not a test, not a benchmark.

    .venv/bin/python bench/screenshots.py http://localhost:8501 /work/shots
    .venv/bin/python bench/screenshots.py URL OUT --samples Wine Iris --pages Curves --presentation
    .venv/bin/python bench/screenshots.py URL OUT --upload my_predictions.csv --pages Data Metrics Report

Drives an app already running at URL (``make run``) with Debian's Chromium through Playwright (the browser tests'
settings) and writes ``OUT/<sample>_<page>_<width>.png`` (``--upload``: each file uploaded as a user would, named
by its file name), each the whole page (the window grown to the page's
height). ``--presentation`` turns presentation mode on first (files end in ``_presentation``).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, upload_predictions  # noqa: E402
from ui.state import SAMPLES as SAMPLE_FILES  # noqa: E402
from tests.browser.test_layout import settle  # noqa: E402

SAMPLES = ("Breast cancer — binary", "Wine", "Diabetes", "CO₂ and El Niño", "Breast cancer — learning curve",
           "Breast cancer with measured latencies", "Digits", "Iris")
PAGES = ("Data", "Metrics", "Confusion", "Curves", "Errors", "Slices", "Clusters", "Compare", "Cost", "Controls",
         "Report")
WIDTHS = (1024, 1440)
HEIGHT = 900


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


def shoot(page, path: Path, width: int) -> None:
    page.set_viewport_size({"width": width, "height": HEIGHT})
    page.wait_for_timeout(900)
    tall = page.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollHeight")
    page.set_viewport_size({"width": width, "height": min(int(tall) + 40, 16_000)})
    settle(page)   # charts out of view are drawn only once the grown window shows them
    page.screenshot(path=str(path))


def open_page(page, name: str) -> bool:
    """Click ``name`` in the sidebar's navigation and wait for its heading (False: the file's task has no such page).

    Presentation mode collapses the sidebar, whose links then lie outside the window and cannot be clicked (the
    clicks waited until the timeout): open it for the click and close it again, so the page is shot as presented."""
    link = page.get_by_role("link", name=name, exact=True)
    if link.count() == 0:
        return False
    expand = page.get_by_test_id("stExpandSidebarButton")
    collapsed = expand.is_visible()
    if collapsed:
        expand.click()
        link.first.wait_for(state="visible")
    link.first.click()
    page.get_by_role("heading", name=name, exact=True).first.wait_for()
    if collapsed and not expand.is_visible():
        page.get_by_test_id("stSidebar").hover()   # the close button shows while the pointer is over the sidebar
        page.get_by_test_id("stSidebarCollapseButton").locator("button").click()
        expand.wait_for(state="visible")
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url")
    parser.add_argument("out", type=Path)
    parser.add_argument("--samples", nargs="*", default=SAMPLES, help="starts of sample titles")
    parser.add_argument("--pages", nargs="*", default=PAGES)
    parser.add_argument("--upload", nargs="*", type=Path, default=(), help="files to upload instead of samples")
    parser.add_argument("--presentation", action="store_true")
    options = parser.parse_args()
    options.out.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for sample in options.upload or options.samples:
            context = browser.new_context(viewport={"width": WIDTHS[0], "height": HEIGHT})
            page = context.new_page()
            page.set_default_timeout(120_000)
            page.goto(options.url)
            page.get_by_role("heading", name="Task and roles").wait_for()
            if options.upload:
                upload_predictions(page, sample)
                page.get_by_test_id("stSidebar").get_by_text(sample.name, exact=False).first.wait_for()
                sample = sample.name
            else:
                page.get_by_text(sample, exact=False).first.click()
                # a large sample loads for seconds under load: wait for its file name, not only for the rerun
                page.get_by_text(next(f for t, f in SAMPLE_FILES.items() if t.startswith(sample)), exact=False
                                 ).first.wait_for()
            settle(page)
            if options.presentation:
                page.get_by_text("Presentation mode").click()
                settle(page)
            for name in options.pages:
                if not open_page(page, name):
                    continue
                settle(page)
                for width in WIDTHS:
                    suffix = "_presentation" if options.presentation else ""
                    path = options.out / f"{slug(sample)}_{slug(name)}_{width}{suffix}.png"
                    shoot(page, path, width)
                    print(path, flush=True)
            context.close()
        browser.close()


if __name__ == "__main__":
    main()
