"""Journey: a page clicked while a large upload is still on its way or still being read (issue 15).

The browser sends the file (an HTTP PUT) while the Data page's uploader is on screen, then tells the server, whose
callback reads and describes it — seconds for a file of a few hundred thousand rows. A click on Metrics in between
used to leave "No data loaded" and lose the file:

- clicked once the file has arrived, while the server reads it: the server stops the callback for the new page, and
  the next run finishes the read (`ui.state.PendingRead`): Metrics shows the file, the sidebar names it;
- clicked while the file is still being sent (the PUT is held here by a route until after the click): the browser
  never tells the server about it, and the page says so — choose it again and stay on the Data page.
"""

import numpy as np
import pandas as pd
import pytest

from tests.browser.conftest import upload_predictions, wait_idle

pytestmark = pytest.mark.browser

ROWS = 400_000   # about 13 MB: reading and describing it takes a second or more, a click tens of milliseconds
UPLOAD_PUT = "**/_stcore/upload_file/**"


@pytest.fixture(scope="module")
def big_file(tmp_path_factory):
    rng = np.random.default_rng(15)
    truth = rng.random(ROWS) < 0.3
    frame = pd.DataFrame({"id": np.arange(ROWS), "y_true": np.where(truth, "yes", "no")})
    for model, gap in (("alpha", 0.4), ("beta", 0.3), ("gamma", 0.2)):
        frame[f"score_{model}"] = np.clip(rng.normal(0.3 + gap * truth, 0.2), 0, 1).round(5)
    path = tmp_path_factory.mktemp("upload") / "large.csv"
    frame.to_csv(path, index=False)
    return path


def sidebar(page):
    return page.locator('[data-testid="stSidebar"]')


def test_a_page_clicked_while_the_file_is_read_shows_the_file(page, big_file):
    wait_idle(page)
    with page.expect_request_finished(lambda request: "/_stcore/upload_file/" in request.url, timeout=120_000):
        upload_predictions(page, big_file)
    sidebar(page).get_by_role("link", name="Metrics").click()   # the server is reading the file now
    page.get_by_role("heading", name="Metrics").wait_for()
    sidebar(page).get_by_text("large.csv").wait_for(timeout=120_000)
    wait_idle(page)
    assert sidebar(page).get_by_text(f"{ROWS:,} rows", exact=False).count() == 1
    assert sidebar(page).get_by_text("No data loaded").count() == 0
    main = page.locator('[data-testid="stMain"]')
    assert main.get_by_text("Load a predictions file").count() == 0
    assert main.get_by_text("No file uploaded yet").count() == 0


def test_a_page_clicked_while_the_file_is_sent_says_so(page, big_file, tmp_path):
    wait_idle(page)
    held = []
    page.route(UPLOAD_PUT, lambda route: held.append(route))   # the PUT waits here until the click has been made
    upload_predictions(page, big_file)
    for _ in range(600):                          # the browser starts the PUT within a minute, or the test fails
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "the browser never sent the file"
    sidebar(page).get_by_role("link", name="Metrics").click()
    page.get_by_text("No file uploaded yet: choose it on the Data page. Stay on the Data page until").wait_for()
    held[0].continue_()
    page.unroute(UPLOAD_PUT)
    page.wait_for_timeout(1000)
    assert sidebar(page).get_by_text("No data loaded").count() == 1

    small = tmp_path / "small.csv"
    small.write_text("y_true,y_pred\n" + "".join(f"{i % 2},{(i // 3) % 2}\n" for i in range(40)))
    sidebar(page).get_by_role("link", name="Data").click()
    page.get_by_role("heading", name="Data").first.wait_for()
    wait_idle(page)
    page.get_by_text("Stay on the Data page until the file's upload bar has gone").wait_for()
    uploader = page.locator('[data-testid="stFileUploader"]').filter(has_text="Predictions file")
    uploader.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(str(small))
    sidebar(page).get_by_text("small.csv").wait_for()
