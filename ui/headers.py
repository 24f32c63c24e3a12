"""The security headers every HTTP response of the app carries, added by an ASGI middleware.

Streamlit 1.67 has no option for response headers, but it serves the app with Starlette and lets a script define an
``st.App`` with middleware of its own (`serve.py`, which `make run` starts). Without these headers any web site could
show the app in a frame and trick a signed-in user into clicking through it (clickjacking). Frames from the app's own
origin stay allowed: Streamlit shows components in same-origin frames. The websocket is not HTTP and passes as it is.
"""

from __future__ import annotations

#: Header name → value, lower-case names as ASGI sends them. ``X-Frame-Options`` is for browsers that predate CSP's
#: ``frame-ancestors``; ``nosniff`` keeps a downloaded CSV from being run as a script; ``same-origin`` keeps the
#: app's URL (its page names) out of the Referer sent to other sites.
HEADERS: dict[bytes, bytes] = {
    b"x-frame-options": b"SAMEORIGIN",
    b"content-security-policy": b"frame-ancestors 'self'",
    b"x-content-type-options": b"nosniff",
    b"referrer-policy": b"same-origin",
}


class SecurityHeaders:
    """ASGI middleware: `HEADERS` on every HTTP response, replacing a header of the same name set further in."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                kept = [(k, v) for k, v in message.get("headers", ()) if k.lower() not in HEADERS]
                message = {**message, "headers": kept + list(HEADERS.items())}
            await send(message)

        await self.app(scope, receive, send_with_headers)
