"""Journey: open the app → the sample is loaded → upload a CSV through the real uploader → the sidebar names it at
once → change a role → the task changes → visit Metrics and come back: the upload is still loaded. A screenshot is
saved to test-artifacts/ for a person to look at."""

import pytest

from tests.browser.conftest import ARTIFACTS, choose, selectbox_value, upload_predictions, wait_idle

pytestmark = pytest.mark.browser

CSV = "y_true,y_pred,amount\n" + "".join(f"{i % 2},{(i // 3) % 2},{i * 1.25}\n" for i in range(40))


def test_load_sample_upload_change_role(page, tmp_path):
    page.get_by_role("heading", name="Task and roles").wait_for()
    wait_idle(page)
    assert selectbox_value(page, "Task") == "Binary classification"
    assert selectbox_value(page, "Positive class") == "malignant"
    page.get_by_text("No problems found in 1,707 rows").wait_for()

    path = tmp_path / "mine.csv"
    path.write_text(CSV)
    upload_predictions(page, path)
    page.get_by_text("40 rows", exact=False).first.wait_for()
    wait_idle(page)
    sidebar = page.locator('[data-testid="stSidebar"]')
    sidebar.get_by_text("mine.csv").wait_for()          # drawn before the page, yet already up to date
    assert sidebar.get_by_text("No data loaded").count() == 0
    assert selectbox_value(page, "Ground truth") == "y_true"
    assert selectbox_value(page, "Task") == "Binary classification"

    choose(page, "Ground truth", "amount")
    wait_idle(page)
    page.get_by_text("is numeric with non-integer values").wait_for()
    assert selectbox_value(page, "Task") == "Regression"
    page.screenshot(path=str(ARTIFACTS / "journey_data.png"), full_page=True)

    sidebar.get_by_role("link", name="Metrics").click()
    page.get_by_role("heading", name="Metrics").wait_for()
    wait_idle(page)
    sidebar.get_by_role("link", name="Data").click()
    page.get_by_role("heading", name="Task and roles").wait_for()
    wait_idle(page)
    page.get_by_text("40 rows", exact=False).first.wait_for()  # the upload survived the visit
    sidebar.get_by_text("mine.csv").wait_for()
    assert selectbox_value(page, "Task") == "Regression"     # and so did the role the user changed
