"""Journey: upload a file whose model names, class labels and a column name carry HTML, Markdown, LaTeX, Streamlit
shortcodes, bare URLs and a formula → walk Data, Metrics, Confusion, Curves and Compare (running a test) → on no
page does the browser hold a link, bold text, image, formula or icon made from the file, in the page or in a chart;
the file's text is shown as written. A screenshot per page is saved to test-artifacts/."""

import pytest

from tests.browser.conftest import ARTIFACTS, upload_predictions, wait_idle
from tests.views.test_injection import HOSTILE_MODELS, hostile_csv

pytestmark = pytest.mark.browser

#: Everything the browser made of the file's text, if it read any of it as markup: links and images pointing at the
#: file's URLs (in HTML or SVG), bold text, KaTeX of the file's formula, a Material icon from ``:material/home:``.
FIND_MARKUP = """() => {
  const evil = v => v && v.includes('evil.example');
  const found = [];
  for (const el of document.querySelectorAll('*')) {
    for (const attr of el.attributes) {
      if (['href', 'src', 'xlink:href', 'srcset', 'action'].includes(attr.name) && evil(attr.value)) {
        found.push(`${el.tagName} ${attr.name}=${attr.value}`);
      }
    }
  }
  for (const el of document.querySelectorAll('a, strong, b, img, tspan[style*="bold"]')) {
    const text = el.textContent || '';
    if (/click|bold|col\\b|evil/.test(text) || evil(el.getAttribute('src'))) found.push(`${el.tagName}: ${text}`);
  }
  for (const el of document.querySelectorAll('.katex annotation, .katex-mathml annotation')) {
    if (el.textContent.includes('frac{1}{0}')) found.push(`katex: ${el.textContent}`);
  }
  for (const el of document.querySelectorAll('[data-testid="stIconMaterial"]')) {
    if (el.textContent.trim() === 'home') found.push('material icon: home');
  }
  return found;
}"""
VISIBLE_TEXT = "() => document.body.innerText.replaceAll('\\u2060', '')"
CHART_TEXT = ("() => Array.from(document.querySelectorAll('.js-plotly-plot text'))"
              ".map(t => t.textContent).join('\\n')")


def _open(page, sidebar, name: str) -> None:
    sidebar.get_by_role("link", name=name).click()
    page.get_by_role("heading", name=name).first.wait_for()
    wait_idle(page)


def _charts_drawn(page) -> None:
    # visible ones: a matrix's vector colour bar has an axis of its own whose ticks are hidden
    page.locator(".js-plotly-plot .legendtext:visible, .js-plotly-plot .xtick:visible").first.wait_for()


def test_hostile_names_render_literally_everywhere(page, tmp_path):
    path = tmp_path / "hostile.csv"
    path.write_bytes(hostile_csv())
    page.get_by_role("heading", name="Task and roles").wait_for()
    wait_idle(page)
    upload_predictions(page, path)
    page.get_by_text("240 rows", exact=False).first.wait_for()
    wait_idle(page)
    sidebar = page.locator('[data-testid="stSidebar"]')
    seen, markup = {}, {}

    def check(name: str) -> None:  # every page is walked, then every finding reported at once
        page.screenshot(path=str(ARTIFACTS / f"journey_injection_{name.lower()}.png"), full_page=True)
        markup[name] = page.evaluate(FIND_MARKUP)
        seen[name] = page.evaluate(VISIBLE_TEXT)

    check("Data")
    assert "[x](https://evil.example) http://evil.example www.evil.example" in seen["Data"]  # the Why: caption

    _open(page, sidebar, "Metrics")
    tabs = page.get_by_role("tab")
    tabs.first.wait_for()
    tab_texts = [t.replace("\u2060", "") for t in tabs.all_inner_texts()]
    check("Metrics")

    chart_texts = {}
    for name in ("Confusion", "Curves"):
        _open(page, sidebar, name)
        _charts_drawn(page)
        check(name)
        chart_texts[name] = page.evaluate(CHART_TEXT)

    _open(page, sidebar, "Compare")
    page.get_by_role("button", name="Run test").click()
    page.get_by_role("heading", name="Result").wait_for()
    wait_idle(page)
    check("Compare")

    assert {name: found for name, found in markup.items() if found} == {}
    assert tab_texts == list(HOSTILE_MODELS)
    for name, text in chart_texts.items():  # a chart draws the name's characters
        assert HOSTILE_MODELS[0] in text, name
