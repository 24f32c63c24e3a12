"""Tables that must show every column without scrolling sideways, at 1024, 1280, 1440 and 1920 px: the clustering
"All clusterings" table on the iris sample (three clusterings; value and interval on rows of their own, the
direction an arrow after the index's name). Measured in the page: the grid's scroll width against its frame.
"""

from __future__ import annotations

import pytest

from tests.browser.test_layout import WIDTHS, context, layout_url, open_page  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser

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
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(900)   # the grid re-lays out on resize
        hidden[width] = page.evaluate(HIDDEN_AFTER, heading)
    return hidden


def test_all_clusterings_table_fits_every_width(context, layout_url):  # noqa: F811
    page = open_page(context, layout_url, IRIS, "Metrics")
    page.get_by_role("heading", name="All clusterings").wait_for()
    hidden = hidden_at_every_width(page, "All clusterings")
    page.close()
    assert all(px is not None for px in hidden.values()), hidden   # the table was found at every width
    assert {width: px for width, px in hidden.items() if px > 1} == {}


#: (sample, page, the heading above the table): tables that scrolled sideways at 1024 px before the table widget
#: fitted them (issue 15) — the Controls checklist, Compare's suitable tests. Not yet here: the Metrics page's per-model
#: tables (metric, value, interval and three baselines alone need about 590 px of the 556 there; still 111 px hidden
#: on the binary sample, 160 on Wine, with the method and remark at their narrowest).
WIDE_TABLES = [("Breast cancer", "Controls", "Checklist"),
               ("Breast cancer", "Compare", "Suitable tests")]


@pytest.mark.parametrize("sample, page_name, heading", WIDE_TABLES)
def test_wide_tables_fit_1024(context, layout_url, sample, page_name, heading):  # noqa: F811
    page = open_page(context, layout_url, sample, page_name)
    page.get_by_role("heading", name=heading).wait_for()
    page.set_viewport_size({"width": 1024, "height": 900})
    page.wait_for_timeout(900)
    hidden = page.evaluate(HIDDEN_AFTER, heading)
    page.close()
    assert hidden is not None, f"no table after {heading!r}"
    assert hidden <= 1, f"{page_name}: {hidden:.0f} px of {heading!r} hidden to the right at 1024 px"
