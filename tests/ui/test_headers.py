"""The security headers middleware, called as an ASGI server calls it (the served app: tests/browser/test_headers.py)."""

from __future__ import annotations

import asyncio

from ui.headers import HEADERS, SecurityHeaders


def _serve(scope, inner_headers):
    """The messages ``SecurityHeaders`` sends for one request to an inner app answering with ``inner_headers``."""
    sent = []

    async def inner(scope, receive, send):
        await send({"type": "http.response.start", "status": 200, "headers": inner_headers})
        await send({"type": "http.response.body", "body": b"ok"})

    async def receive():
        return {"type": "http.request", "body": b""}

    async def send(message):
        sent.append(message)

    asyncio.run(SecurityHeaders(inner)(scope, receive, send))
    return sent


def test_every_http_response_forbids_frames_from_other_sites():
    start, body = _serve({"type": "http", "path": "/"}, [(b"content-type", b"text/html")])
    headers = dict(start["headers"])
    assert headers[b"x-frame-options"] == b"SAMEORIGIN"
    assert headers[b"content-security-policy"] == b"frame-ancestors 'self'"
    assert headers[b"x-content-type-options"] == b"nosniff"
    assert headers[b"content-type"] == b"text/html" and body == {"type": "http.response.body", "body": b"ok"}


def test_a_weaker_header_set_further_in_is_replaced_not_doubled():
    start, _ = _serve({"type": "http", "path": "/"}, [(b"X-Frame-Options", b"ALLOWALL")])
    names = [k.lower() for k, _ in start["headers"]]
    assert names.count(b"x-frame-options") == 1 and dict(start["headers"])[b"x-frame-options"] == b"SAMEORIGIN"
    assert set(HEADERS) <= set(names)


def test_the_websocket_passes_untouched():
    start, _ = _serve({"type": "websocket", "path": "/_stcore/stream"}, [(b"a", b"b")])
    assert start["headers"] == [(b"a", b"b")]
