"""Tables that must show every column without scrolling sideways, at 1024, 1280, 1440 and 1920 px: the clustering
"All clusterings" table on the iris sample (three clusterings; value and interval on rows of their own, the
direction an arrow after the index's name). Measured in the page: the grid's scroll width against its frame.

The Controls page's tables at 1024 and 1440 px: the checklist's sentences wrap and are read whole (each cell's text
wrapped at its column's width by the browser's own text metrics, against the grid's row height), and the distribution
shift table, too wide for one frame, is shown as several that each fit (issue 15).
"""

from __future__ import annotations

import pytest

from tests.browser.test_layout import HEIGHT, WIDTHS, open_page, resize, settle
from tests.browser.test_layout import context, layout_url  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def opened(context, layout_url):  # noqa: F811
    """``opened(sample, name)``: that page, loaded once for the file and shared by the tests that measure its tables —
    they resize the window and read the page, which changes nothing Streamlit keeps; a page load is 5–15 s on a busy
    machine, and 14 tests here read 9 pages. A test that clicks (a model's tab) is the page's last user."""
    pages = {}

    def get(sample, name):
        if (sample, name) not in pages:
            pages[(sample, name)] = open_page(context, layout_url, sample, name)
        return pages[(sample, name)]

    return get

IRIS = "Iris"

#: The table after the heading ``name``: pixels it hides to the right of its frame (0 when every column shows).
HIDDEN_AFTER = """
name => {
  const heading = [...document.querySelectorAll('[data-testid="stMain"] h3')].find(h => h.textContent.trim() === name);
  if (!heading) return null;
  const table = [...document.querySelectorAll('[data-testid="stMain"] [data-testid="stDataFrame"]')]
    .find(t => heading.compareDocumentPosition(t) & Node.DOCUMENT_POSITION_FOLLOWING);
  const scroller = table && table.querySelector('.dvn-scroller');
  return scroller ? scroller.scrollWidth - scroller.clientWidth : null;
}
"""


def hidden_at_every_width(page, heading: str) -> dict[int, float | None]:
    hidden = {}
    for width in WIDTHS:
        resize(page, width)
        hidden[width] = page.evaluate(HIDDEN_AFTER, heading)
    return hidden


def test_all_clusterings_table_fits_every_width(opened):  # noqa: F811
    page = opened(IRIS, "Metrics")
    page.get_by_role("heading", name="All clusterings").wait_for()
    hidden = hidden_at_every_width(page, "All clusterings")
    assert all(px is not None for px in hidden.values()), hidden   # the table was found at every width
    assert {width: px for width, px in hidden.items() if px > 1} == {}


#: (sample, page, the heading above the table): tables that scrolled sideways at 1024 px before the table widget
#: fitted them (issue 15) — the Controls checklist, Compare's suitable tests. The Metrics page's per-model tables:
#: `test_per_model_tables_fit_1024_with_every_value_whole`.
WIDE_TABLES = [("Breast cancer", "Controls", "Checklist"),
               ("Breast cancer", "Compare", "Suitable tests"),
               ("Wine", "Metrics", "Per class"),   # 181 px hidden before it was split (model and class repeated)
               ("Wine", "Confusion", "Most confused pairs"),   # long class names cut its share column (a user walk)
               ("Breast cancer", "Slices", "Tests across slices"),   # its p columns were out of view (a user walk)
               ("Breast cancer", "Slices", "Across cross-validation folds"),   # these three: a sweep of every page's
               ("Breast cancer", "Curves", "Threshold explorer"),              # tables at 1024 px
               ("Breast cancer", "Curves", "Gain and lift by decile")]


@pytest.mark.parametrize("sample, page_name, heading", WIDE_TABLES)
def test_wide_tables_fit_1024(opened, sample, page_name, heading):  # noqa: F811
    page = opened(sample, page_name)
    page.get_by_role("heading", name=heading).wait_for()
    hidden = [t["right"] for t in tables_under(page, heading, 1024)]
    assert all(px <= 1 for px in hidden), f"{page_name}: {hidden} px of {heading!r} hidden to the right at 1024 px"


#: Every table after the heading ``name`` and before the next heading, read from the data grid's own properties
#: (React's props of the grid: column widths, row height, cell texts): pixels hidden to the right, rows hidden below,
#: and the cells whose text the grid cannot show whole — on one line when rows are one line tall (≤ 64 px: the grid
#: does not wrap), else wrapped between words at the column's width minus the grid's 8 px padding a side, 18.2 px a
#: line after a 13 px first one and 3 px above and below (measured on the grid's wrapped text). Text widths are the
#: browser's (canvas measureText in the grid's font), independent of the widget's glyph table.
TABLES_UNDER = """
name => {
  const headings = [...document.querySelectorAll('[data-testid="stMain"] h2, [data-testid="stMain"] h3')];
  const at = headings.findIndex(h => h.textContent.trim() === name);
  if (at < 0) return null;
  const next = headings[at + 1];
  const tables = [...document.querySelectorAll('[data-testid="stMain"] [data-testid="stDataFrame"]')]
    .filter(t => (headings[at].compareDocumentPosition(t) & Node.DOCUMENT_POSITION_FOLLOWING)
                 && (!next || (next.compareDocumentPosition(t) & Node.DOCUMENT_POSITION_PRECEDING)));
  const ctx = document.createElement('canvas').getContext('2d');
  const px = text => ctx.measureText(text).width;
  function lines(text, width) {
    let n = 1, used = 0;
    for (const word of String(text).split(/\\s+/).filter(Boolean)) {
      const need = used ? px(' ' + word) : px(word);
      if (used && used + need > width) { n += 1; used = px(word); } else used += need;
    }
    return n;
  }
  return tables.map(t => {
    const canvas = t.querySelector('canvas');
    if (!canvas || !t.getClientRects().length) return null;   // in a tab not shown, or a layout for another width
    let fiber = canvas[Object.keys(canvas).find(k => k.startsWith('__reactFiber'))], grid = null, theme = null;
    while (fiber && !(grid && theme)) {
      const p = fiber.memoizedProps;
      if (!grid && p && Array.isArray(p.columns) && p.getCellContent && p.rows !== undefined) grid = p;
      if (!theme && p && p.theme && p.theme.baseFontStyle) theme = p.theme;
      fiber = fiber.return;
    }
    // the grid's own font and padding (presentation mode makes both 1.25 times larger)
    const size = theme ? parseFloat(theme.baseFontStyle.split(' ').pop()) : 14;
    const scale = size / 14, padding = theme ? theme.cellHorizontalPadding : 8;
    ctx.font = theme ? `${theme.baseFontStyle} ${theme.fontFamily}` : '400 14px "Source Sans", sans-serif';
    const scroller = t.querySelector('.dvn-scroller');
    const out = {right: scroller.scrollWidth - scroller.clientWidth, below: scroller.scrollHeight - scroller.clientHeight,
                 cut: []};
    if (!grid) { out.cut.push('grid not found'); return out; }
    const rowHeight = typeof grid.rowHeight === 'number' ? grid.rowHeight : Math.round(35 * scale);
    for (let r = 0; r < grid.rows; r++) grid.columns.forEach((column, c) => {
      const cell = grid.getCellContent([c, r]);
      const text = String(cell.displayData ?? cell.data ?? '');
      const room = column.width - 2 * padding;
      const fits = rowHeight <= 64 * scale ? px(text) <= room
                                           : scale * (13 + 18.2 * (lines(text, room) - 1) + 6) <= rowHeight;
      if (!fits) out.cut.push(`${column.title}: ${text.slice(0, 40)}`);
    });
    return out;
  });
}
"""


def tables_under(page, heading: str, width: int) -> list[dict]:
    resize(page, width)
    tables = [t for t in page.evaluate(TABLES_UNDER, heading) or [] if t is not None]
    assert tables, f"no table after {heading!r} at {width} px"
    return tables


@pytest.mark.parametrize("sample, page_name, heading", [("Breast cancer", "Curves", "Threshold explorer"),
                                                         ("Breast cancer", "Slices", "Tests across slices")])
def test_a_split_table_takes_fewer_parts_where_the_page_is_wider(context, layout_url, sample, page_name,
                                                                  heading):  # noqa: F811
    """Split to fit 1024 px, the same table on a wider page shows in fewer parts (or whole) — one layout in view at
    each width, every part fitting its frame, no value cut. A page of its own: on the page the other tests had read,
    the Slices table was not found at 1024 px once (not understood yet)."""
    page = open_page(context, layout_url, sample, page_name)
    page.get_by_role("heading", name=heading).wait_for()
    seen = {width: tables_under(page, heading, width) for width in (1024, 1440, 1024)}
    page.close()
    assert len(seen[1440]) < len(seen[1024]), {w: len(t) for w, t in seen.items()}
    for width, tables in seen.items():
        assert [t["right"] for t in tables if t["right"] > 1] == [] and all(t["cut"] == [] for t in tables), \
            (width, tables)


@pytest.mark.parametrize("width", (1024, 1440))
def test_controls_checklist_reads_whole_and_shift_tables_fit(opened, width):  # noqa: F811
    page = opened("Breast cancer", "Controls")
    page.get_by_role("heading", name="Checklist").wait_for()
    checklist = tables_under(page, "Checklist", width)
    shift = tables_under(page, "Distribution shift across fold", width)
    assert len(checklist) == 1
    assert checklist[0]["right"] <= 1 and checklist[0]["below"] <= 1, checklist
    assert checklist[0]["cut"] == [], checklist              # every sentence whole, without hovering
    assert [t["right"] for t in shift if t["right"] > 1] == [], shift
    assert all(t["below"] <= 1 for t in shift), shift


PER_MODEL = "Per model, with ISO 5.3.13 baselines"


@pytest.mark.parametrize("sample", ["Breast cancer", "Wine", "Diabetes"])
def test_per_model_tables_fit_1024_with_every_value_whole(context, layout_url, sample):  # noqa: F811
    """Each model's tab: metric, value with its interval in one cell, baselines — nothing hidden to the right (111 px
    on the binary sample and 160 on Wine before value and interval shared a column), no value or name cut. A page of
    its own: on the Metrics page the other tests had resized, Wine's second tab once measured 473 px hidden in a full
    run and 0 on its own (the grid had not laid out again)."""
    page = open_page(context, layout_url, sample, "Metrics")
    page.get_by_role("heading", name=PER_MODEL).wait_for()
    found = {}
    tabs = page.get_by_role("tab")
    for i in range(tabs.count()):
        tabs.nth(i).click()
        page.wait_for_timeout(1500)   # the tab's grid lays out (tables_under does not wait at an unchanged size)
        found[tabs.nth(i).inner_text()] = tables_under(page, PER_MODEL, 1024)
    page.close()
    assert len(found) >= 2, found
    for model, tables in found.items():
        assert len(tables) == 1, (model, tables)
        assert tables[0]["right"] <= 1 and tables[0]["below"] <= 1 and tables[0]["cut"] == [], (model, tables)


def test_all_models_fits_1440_in_presentation_mode(browser, layout_url):
    """Presentation mode (switched on, then the page opened, as a presenter does; the sidebar closed): the grid's text
    is 1.25 times larger, so the "All models" table — metric, direction, each model's value and fold spread — cut
    its last column at 1440 px; now each of its tables fits and no cell is cut."""
    context = browser.new_context(viewport={"width": 1440, "height": HEIGHT})
    page = context.new_page()
    page.set_default_timeout(120_000)
    page.goto(layout_url)
    page.get_by_role("heading", name="Task and roles").wait_for()
    page.get_by_text("Presentation mode").click()
    settle(page)
    expand = page.get_by_test_id("stExpandSidebarButton")
    if expand.is_visible():
        expand.click()
    page.get_by_role("link", name="Metrics").click()
    page.get_by_role("heading", name="Metrics", exact=True).wait_for()
    settle(page)
    if not expand.is_visible():
        page.get_by_test_id("stSidebar").hover()
        page.get_by_test_id("stSidebarCollapseButton").locator("button").click()
        expand.wait_for(state="visible")
    page.get_by_role("heading", name="All models").wait_for()
    page.wait_for_timeout(900)   # the main column re-lays out after the sidebar closed (tables_under: no resize)
    tables = tables_under(page, "All models", 1440)
    font = page.evaluate("() => getComputedStyle(document.documentElement).fontSize")
    context.close()
    assert font == "20px"                               # presenting: 125 % of 16 px
    assert all(t["right"] <= 1 and t["below"] <= 1 and t["cut"] == [] for t in tables), tables
