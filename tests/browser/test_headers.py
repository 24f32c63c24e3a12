"""The served app refuses to be framed by another site (clickjacking), as `make run` starts it.

A page served from another origin (a second local port) frames the app; Chromium must refuse to show it there. The
control is the same page framing a page of its own origin, which must show.
"""

from __future__ import annotations

import contextlib
import http.server
import threading
import urllib.request

import pytest

pytestmark = pytest.mark.browser


@contextlib.contextmanager
def other_site(app_url):
    """A web site on another port: ``/`` frames the app, ``/own`` is a page of its own, ``/self`` frames that."""
    pages = {"/": f'<iframe id="f" src="{app_url}/" width="800" height="600"></iframe>',
             "/own": '<p id="mine">its own page</p>',
             "/self": '<iframe id="f" src="/own" width="800" height="600"></iframe>'}

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = pages.get(self.path, "").encode()
            self.send_response(200 if body else 404)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()


def test_the_app_sends_the_frame_headers_on_its_pages_and_files(app_url):
    for path in ("/", "/_stcore/health", "/metrics"):
        with urllib.request.urlopen(app_url + path, timeout=10) as response:
            assert response.headers["X-Frame-Options"] == "SAMEORIGIN", path
            assert response.headers["Content-Security-Policy"] == "frame-ancestors 'self'", path


def test_another_site_cannot_show_the_app_in_a_frame(browser, app_url):
    context = browser.new_context()
    page = context.new_page()
    refusals = []
    page.on("console", lambda message: refusals.append(message.text) if "frame" in message.text.lower() else None)
    try:
        with other_site(app_url) as site:
            page.goto(f"{site}/self")      # the control: a frame of the site's own page shows
            page.frame_locator("#f").locator("#mine").wait_for(timeout=10_000)
            page.goto(f"{site}/")
            for _ in range(100):           # the refusal is logged within a second or so: wait for it, not 3 s flat
                if any("frame-ancestors" in text or "X-Frame-Options" in text for text in refusals):
                    break
                page.wait_for_timeout(100)
            framed = next(f for f in page.frames if f != page.main_frame)
            assert framed.locator('[data-testid="stApp"]').count() == 0
            assert any("frame-ancestors" in text or "X-Frame-Options" in text for text in refusals), refusals
    finally:
        context.close()
