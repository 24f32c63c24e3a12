"""A fresh server's very first visit shows the app's own navigation and runs the page through the router.

Each test has a server of its own (both started together, before either test), so its first request is the server's
first run: the run Streamlit treats differently when a `pages/` folder sits beside the entry script
(tests/test_architecture.py keeps it out).
"""

import pytest

from tests.browser.conftest import running_apps, wait_idle

pytestmark = pytest.mark.browser

#: The pages the router shows for the default sample (binary classification), in the navigation's order.
CLASSIFICATION_PAGES = ["Data", "Metrics", "Confusion", "Curves", "Slices", "Compare", "Cost", "Controls", "Report"]


def nav_titles(page) -> list[str]:
    page.locator('[data-testid="stSidebarNav"]').wait_for()
    return [link.inner_text().strip().split("\n")[-1] for link in page.locator('[data-testid="stSidebarNavLink"]').all()]


PATHS = ["", "metrics"]


@pytest.fixture(scope="module")
def fresh_servers():
    """A server per path, none visited yet (the health check is not a page run)."""
    with running_apps(len(PATHS)) as urls:
        yield dict(zip(PATHS, urls))


@pytest.mark.parametrize("path", PATHS)
def test_first_visit_of_a_fresh_server_shows_the_apps_navigation(browser, fresh_servers, path):
    url = fresh_servers[path]
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.goto(f"{url}/{path}")
    wait_idle(page)
    assert nav_titles(page) == CLASSIFICATION_PAGES       # not the files of a folder, not the router itself
    title = "Metrics" if path else "Data"
    page.get_by_role("heading", name=title, exact=True).first.wait_for()
    # the router ran around the page: its sidebar toggle and the loaded sample's line are there
    sidebar = page.locator('[data-testid="stSidebar"]')
    sidebar.get_by_text("Presentation mode").wait_for()
    sidebar.get_by_text("breast_cancer_binary.csv").wait_for()
    context.close()
