"""Layout at the widths people present on (issue 11): for each page and sample, at 1024, 1280, 1440 and 1920 px, no
element sticks out of the main column, no chart legend overlaps its plot area, no button's text is cut, and every
chart keeps its title; the Compare page's result table shows all its columns; presentation mode makes the text and
the charts larger and collapses the sidebar. Screenshots at 1024 and 1440 px go to test-artifacts/layout/ to be
looked at.

One app and one browser for the whole file: each page is loaded once per sample and the window is then resized
through the widths (Streamlit and Plotly re-lay out on resize without a rerun), which keeps the file fast.
"""

from __future__ import annotations

import os

import pytest

from tests.browser.conftest import ARTIFACTS

pytestmark = pytest.mark.browser

WIDTHS = (1024, 1280, 1440, 1920)
SCREENSHOT_WIDTHS = (1024, 1440)
HEIGHT = 900
BINARY, WINE = "Breast cancer", "Wine"
REGRESSION, FORECAST = "Diabetes", "CO₂ and El Niño"
#: (sample radio label start, page): every page of the binary sample, the task-specific pages of the others.
CASES = [(BINARY, "Data"), (BINARY, "Metrics"), (BINARY, "Confusion"), (BINARY, "Curves"), (BINARY, "Compare"),
         (WINE, "Curves"), (WINE, "Confusion"), (REGRESSION, "Errors"), (FORECAST, "Errors")]

#: Everything measured in one pass in the page: overflowing elements, legends over plots, cut button texts, charts
#: without a title. Rectangles are the browser's, in CSS px.
MEASURE = """
() => {
  const main = document.querySelector('[data-testid="stMainBlockContainer"]');
  const box = main.getBoundingClientRect();
  const overflow = [];
  for (const el of main.querySelectorAll('[data-testid="stElementContainer"]')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0) continue;
    if (r.right > box.right + 1 || r.left < box.left - 1) overflow.push(el.className.slice(0, 80) + ` ${r.left}-${r.right}`);
  }
  const overlaps = [];
  const untitled = [];
  for (const plot of main.querySelectorAll('.js-plotly-plot')) {
    const title = plot.querySelector('.gtitle');
    if (!title || !title.textContent.trim()) untitled.push(plot.id || 'plot');
    const legend = plot.querySelector('.legend .bg');
    if (!legend) continue;
    const l = legend.getBoundingClientRect();
    for (const area of plot.querySelectorAll('.draglayer .nsewdrag')) {
      const a = area.getBoundingClientRect();
      const w = Math.min(l.right, a.right) - Math.max(l.left, a.left);
      const h = Math.min(l.bottom, a.bottom) - Math.max(l.top, a.top);
      if (w > 1 && h > 1) overlaps.push(`${title ? title.textContent : ''}: legend ${Math.round(w)}×${Math.round(h)} px over the plot`);
    }
  }
  const cut = [];
  for (const text of main.querySelectorAll('button p, [data-testid="stDownloadButton"] p')) {
    const button = text.closest('button');
    const cell = text.closest('[data-testid="stElementContainer"]');
    const right = text.getBoundingClientRect().right;
    if (text.scrollWidth > text.clientWidth + 1 || (button && right > button.getBoundingClientRect().right + 1)
        || (cell && right > cell.getBoundingClientRect().right + 1)) cut.push(text.textContent);
  }
  const page = document.querySelector('[data-testid="stMain"]');
  return {overflow, overlaps, untitled, cut, scroll: page.scrollWidth - page.clientWidth};
}
"""


def settle(page) -> None:
    """Wait for the rerun to finish and every element to replace its loading skeleton."""
    page.wait_for_timeout(500)
    page.locator('[data-testid="stStatusWidget"]').wait_for(state="hidden", timeout=120_000)
    page.wait_for_function("() => !document.querySelector('[data-testid=\"stSkeleton\"]')", timeout=120_000)
    # Plotly's code loads lazily: wait until every chart element has drawn its SVG, so nothing is measured empty.
    page.wait_for_function("() => [...document.querySelectorAll('[data-testid=\"stPlotlyChart\"]')]"
                           ".every(chart => chart.querySelector('.main-svg'))", timeout=120_000)
    page.wait_for_timeout(800)


@pytest.fixture(scope="module")
def layout_url(request):
    """The app under test: the conftest's `make run` app, or one already running at ``$ASSESS_LAYOUT_APP_URL``
    (a helper's worktree without its own .venv)."""
    return os.environ.get("ASSESS_LAYOUT_APP_URL") or request.getfixturevalue("app_url")


@pytest.fixture(scope="module")
def context(browser, layout_url):
    ctx = browser.new_context(viewport={"width": WIDTHS[0], "height": HEIGHT})
    yield ctx
    ctx.close()


#: The Compare page's result table (the first table after the "Result" heading): columns hidden to the right of its
#: frame, which a person would have to scroll sideways to find (px; 0 when every column shows).
RESULT_TABLE_HIDDEN = """
() => {
  const heading = [...document.querySelectorAll('[data-testid="stMain"] h3')].find(h => h.textContent.trim() === 'Result');
  if (!heading) return null;
  const table = [...document.querySelectorAll('[data-testid="stMain"] [data-testid="stDataFrame"]')]
    .find(t => heading.compareDocumentPosition(t) & Node.DOCUMENT_POSITION_FOLLOWING);
  const scroller = table && table.querySelector('.dvn-scroller');
  return scroller ? scroller.scrollWidth - scroller.clientWidth : null;
}
"""


def open_page(context, layout_url, sample, name):
    page = context.new_page()
    page.set_default_timeout(120_000)
    page.set_viewport_size({"width": WIDTHS[0], "height": HEIGHT})
    page.goto(layout_url)
    page.get_by_role("heading", name="Task and roles").wait_for()
    if sample != BINARY:
        page.get_by_text(sample, exact=False).first.click()
        settle(page)
    if name != "Data":
        page.get_by_role("link", name=name).click()
        page.get_by_role("heading", name=name, exact=True).wait_for()
    settle(page)
    return page


def resize(page, width: int, height: int = HEIGHT) -> None:
    """Set the window to ``width`` × ``height`` and wait for Streamlit's, Plotly's and the tables' resize handlers; no
    wait when the window already has that size (nothing re-lays out: pages open at 1024 × HEIGHT and are settled)."""
    if page.viewport_size == {"width": width, "height": height}:
        return
    page.set_viewport_size({"width": width, "height": height})
    page.wait_for_timeout(900)


def measure_at_every_width(page, shots: str, extra=None) -> dict:
    """MEASURE (and ``extra(page)``, a dict of further problems) at each width; screenshots named ``shots``."""
    out = ARTIFACTS / "layout"
    out.mkdir(parents=True, exist_ok=True)
    problems = {}
    for width in WIDTHS:
        resize(page, width)
        found = page.evaluate(MEASURE)
        bad = {k: v for k, v in found.items() if v and k != "scroll"}
        if found["scroll"] > 1:
            bad["page scrolls sideways by px"] = found["scroll"]
        if extra is not None:
            bad |= extra(page)
        if bad:
            problems[width] = bad
        if width in SCREENSHOT_WIDTHS:   # the main column scrolls inside the page: grow the window to all of it
            tall = page.evaluate("() => document.querySelector('[data-testid=\"stMain\"]').scrollHeight")
            resize(page, width, min(int(tall) + 40, 16_000))
            page.screenshot(path=str(out / f"{shots}_{width}.png"))
            page.set_viewport_size({"width": width, "height": HEIGHT})
    return problems


@pytest.mark.parametrize("sample,name", CASES, ids=[f"{s.split()[0]}-{p}" for s, p in CASES])
def test_no_overflow_no_legend_over_a_plot(context, layout_url, sample, name):
    page = open_page(context, layout_url, sample, name)
    problems = measure_at_every_width(page, f"{name.lower()}_{sample.split()[0].lower()}")
    page.close()
    assert not problems, problems


def test_compare_result_table_shows_every_column_at_every_width(context, layout_url):
    page = open_page(context, layout_url, BINARY, "Compare")
    page.get_by_role("button", name="Run test").click()
    page.get_by_role("heading", name="Result").wait_for()
    settle(page)

    def hidden_columns(page) -> dict:
        hidden = page.evaluate(RESULT_TABLE_HIDDEN)
        if hidden is None:
            return {"result table": "not found"}
        return {"result table hides px to the right": hidden} if hidden > 1 else {}

    problems = measure_at_every_width(page, "compare_result_breast", extra=hidden_columns)
    page.close()
    assert not problems, problems


#: What presentation mode changes, measured in the page: the sidebar's width, the page title's and the first chart
#: title's font size (CSS px), the widths of the charts and the main column, and which option panels are open.
PRESENTATION_MEASURE = """
() => {
  const main = document.querySelector('[data-testid="stMain"]');
  const title = main.querySelector('.js-plotly-plot .gtitle');
  return {
    sidebar: document.querySelector('[data-testid="stSidebar"]').getBoundingClientRect().width,
    heading: parseFloat(getComputedStyle(main.querySelector('h1')).fontSize),
    chartTitle: title ? parseFloat(getComputedStyle(title).fontSize) : null,
    charts: [...main.querySelectorAll('[data-testid="stPlotlyChart"]')].map(c => c.getBoundingClientRect().width),
    column: document.querySelector('[data-testid="stMainBlockContainer"]').getBoundingClientRect().width,
    open: [...main.querySelectorAll('[data-testid="stExpander"] details')].filter(d => d.open).length,
  };
}
"""


def test_presentation_mode_makes_text_and_charts_larger_and_collapses_the_sidebar(browser, layout_url):
    context = browser.new_context(viewport={"width": 1280, "height": 800})   # its own: no sidebar choice stored
    page = open_page(context, layout_url, BINARY, "Curves")
    before = page.evaluate(PRESENTATION_MEASURE)
    page.get_by_text("Presentation mode").click()
    settle(page)
    after = page.evaluate(PRESENTATION_MEASURE)
    page.screenshot(path=str(ARTIFACTS / "layout" / "curves_presentation_1280.png"))
    context.close()
    from assess.present.charts.style import PRESENTATION_SCALE
    from ui.widgets import PRESENTATION_TEXT_SCALE

    assert before["sidebar"] > 200 and after["sidebar"] < 5                      # collapsed
    assert after["heading"] == pytest.approx(before["heading"] * PRESENTATION_TEXT_SCALE, rel=0.02)
    assert after["chartTitle"] == pytest.approx(before["chartTitle"] * PRESENTATION_SCALE, rel=0.02)
    assert before["open"] >= 1 and after["open"] == 0                            # "Suggested operating points"
    # one chart per row: every full-size chart as wide as the main column's content (small matrices excepted)
    wide = [w for w in after["charts"] if w > 400]
    assert wide and min(wide) > 0.9 * (after["column"] - 200)
