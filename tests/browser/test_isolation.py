"""Two people on one server: each sees only their own upload — on the pages, in the downloads — while results are
shared between sessions by the file's content hash (ui/store.py). And the server refuses a websocket whose Host
is not one of its names (DNS rebinding)."""

import base64
import csv
import http.client
import io
import os
import urllib.parse

import pytest

from tests.browser.conftest import upload_predictions, wait_idle

pytestmark = pytest.mark.browser


def upload_file(page, tmp_path, name: str, text: str) -> None:
    path = tmp_path / name
    path.write_text(text)
    page.get_by_role("heading", name="Task and roles").wait_for()
    upload_predictions(page, path)
    page.get_by_text(name).first.wait_for()
    wait_idle(page)


def metrics_csv_models(page) -> set[str]:
    page.locator('[data-testid="stSidebar"]').get_by_role("link", name="Metrics").click()
    page.get_by_role("heading", name="All models").wait_for()
    wait_idle(page)
    with page.expect_download() as info:
        page.get_by_role("button", name="Metrics CSV").click()
    rows = csv.DictReader(io.StringIO(open(info.value.path(), encoding="utf-8").read()))
    return {row["model"] for row in rows}


def long_csv(models: list[str], seed: int) -> str:
    lines = ["id,model,y_true,score"]
    for m, model in enumerate(models):
        lines += [f"{i},{model},{i % 2},{((i * 37 + seed + m * 11) % 100) / 100}" for i in range(60)]
    return "\n".join(lines) + "\n"


def test_two_sessions_never_see_each_other(browser, app_url, tmp_path):
    contexts = [browser.new_context(viewport={"width": 1400, "height": 1000}, accept_downloads=True) for _ in "ab"]
    try:
        alice, bob = (c.new_page() for c in contexts)
        for page in (alice, bob):
            page.set_default_timeout(60_000)
            page.goto(app_url)
        upload_file(alice, tmp_path, "alice.csv", long_csv(["alpha_one", "alpha_two"], seed=1))
        upload_file(bob, tmp_path, "bob.csv", long_csv(["beta_one", "beta_two"], seed=2))
        assert metrics_csv_models(alice) == {"alpha_one", "alpha_two"}
        assert metrics_csv_models(bob) == {"beta_one", "beta_two"}
        for page, own, other in ((alice, "alice.csv", "bob.csv"), (bob, "bob.csv", "alice.csv")):
            sidebar = page.locator('[data-testid="stSidebar"]')
            sidebar.get_by_text(own).wait_for()
            assert sidebar.get_by_text(other).count() == 0
            assert page.get_by_text("beta_one" if own == "alice.csv" else "alpha_one").count() == 0
    finally:
        for c in contexts:
            c.close()


def websocket_status(app_url: str, host: str) -> int:
    url = urllib.parse.urlparse(app_url)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=10)
    connection.putrequest("GET", "/_stcore/stream", skip_host=True)
    for header, value in (("Host", host), ("Upgrade", "websocket"), ("Connection", "Upgrade"),
                          ("Sec-WebSocket-Key", base64.b64encode(os.urandom(16)).decode()),
                          ("Sec-WebSocket-Version", "13"), ("Origin", f"http://{host}")):
        connection.putheader(header, value)
    connection.endheaders()
    status = connection.getresponse().status
    connection.close()
    return status


def test_a_websocket_for_another_host_name_is_refused(app_url):
    port = urllib.parse.urlparse(app_url).port
    assert websocket_status(app_url, f"localhost:{port}") == 101
    assert websocket_status(app_url, "evil.example") == 403
