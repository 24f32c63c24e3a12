"""Browser fixtures: the app started exactly as README starts it (`make run`), on a free port, and a Chromium page.

The browser is Debian's chromium (/usr/bin/chromium) driven by Playwright; nothing is downloaded. As root it must
run with --no-sandbox, and background networking is off because this machine's network is closed.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--headless=new", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-default-apps", "--disable-quic"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def running_apps(count: int):
    """``count`` fresh servers, each started as README starts it (`make run`) on a free port, all at once (a start is
    mostly waiting on imports: two together take little longer than one); their URLs while the block runs."""
    ARTIFACTS.mkdir(exist_ok=True)
    servers = []
    try:
        for _ in range(count):
            port = _free_port()
            log = open(ARTIFACTS / f"app-{port}.log", "w")
            proc = subprocess.Popen(["make", "run", f"PORT={port}"], cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                                    start_new_session=True, env={**os.environ, "BROWSER": "none"})
            servers.append((proc, log, f"http://localhost:{port}"))
        deadline = time.monotonic() + 180
        for proc, log, url in servers:
            while True:
                try:
                    with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                        if r.read() == b"ok":
                            break
                except OSError:
                    pass
                if proc.poll() is not None or time.monotonic() > deadline:
                    log.flush()
                    raise RuntimeError(f"the app did not start: {log.name}")
                time.sleep(0.5)
        yield [url for _, _, url in servers]
    finally:
        for proc, log, _ in servers:
            os.killpg(proc.pid, signal.SIGTERM)
        for proc, log, _ in servers:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
            log.close()


@pytest.fixture(scope="session")
def app_url():
    with running_apps(1) as [url]:
        yield url


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser, app_url):
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, accept_downloads=True)
    pg = context.new_page()
    pg.set_default_timeout(30_000)
    pg.goto(app_url)
    yield pg
    context.close()


def choose(page, label: str, option: str) -> None:
    """Pick ``option`` in the Streamlit selectbox labelled ``label`` (a react-aria combobox since Streamlit 1.5x)."""
    box = page.get_by_role("combobox", name=label, exact=True)
    # A combobox at the very bottom of the viewport opens no list (its popover has no room): centre it first.
    box.evaluate("element => element.scrollIntoView({block: 'center'})")
    box.click()
    page.get_by_role("option", name=option, exact=True).click()


def selectbox_value(page, label: str) -> str:
    return page.get_by_role("combobox", name=label, exact=True).input_value()


def wait_idle(page) -> None:
    """Wait until Streamlit has finished the current rerun (the status widget shows 'Running…' while busy)."""
    page.wait_for_timeout(300)
    page.locator('[data-testid="stStatusWidget"]').wait_for(state="hidden", timeout=60_000)


def upload_predictions(page, path) -> None:
    """Choose "Upload a file" and give ``path`` to the Predictions file uploader — by its label, because the Data
    page has a second uploader (saved settings) whose input is already in the page before the switch."""
    page.get_by_text("Upload a file", exact=True).click()
    uploader = page.locator('[data-testid="stFileUploader"]').filter(has_text="Predictions file")
    uploader.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(str(path))
