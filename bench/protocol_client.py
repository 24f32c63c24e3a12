"""A Streamlit session without a browser: the app's own protocol (a websocket of protobuf messages, uploads over HTTP).

bench/bench_sessions.py drives real Chromium, and on this 2-core machine eight Chromiums take most of the CPU the
server needs: their rendering is the users' computers' work, not the server's. This client asks the server for
exactly what a browser asks for — a run of a page with its widgets' values, an upload URL, the file — and reads every
message back, but draws nothing, so `--client protocol` measures the server's part of each step as people on their
own computers get it: from the request to the end of the run whose messages they then draw.

The messages are Streamlit's (``streamlit.proto``): ``BackMsg.rerun_script`` with a ``ClientState`` (page, widget
states), ``BackMsg.file_urls_request`` answered by ``ForwardMsg.file_urls_response``, a multipart PUT of the file to
that URL with the XSRF cookie echoed in a header (as the browser does), and ``ForwardMsg.script_finished``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import requests
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState
from websockets.sync.client import connect

XSRF_COOKIE = "_streamlit_xsrf"


@dataclass
class Run:
    """What one run of a page sent: its elements' text (to check the page is the expected one), its Plotly charts,
    the bytes received, the widgets it showed (label → id, and a radio's options), and when each element arrived
    (``timeline``: `time.perf_counter`, element kind such as ``dataframe``, its text or "")."""

    text: list[str] = field(default_factory=list)
    timeline: list[tuple[float, str, str]] = field(default_factory=list)
    charts: int = 0
    received: int = 0
    widgets: dict[str, str] = field(default_factory=dict)
    options: dict[str, list[str]] = field(default_factory=dict)


class Session:
    """One person's session: ``open()``, then `run_page` and `upload`; every call waits for the run it started."""

    def __init__(self, url: str, timeout: float = 600.0):
        self.url, self.timeout = url.rstrip("/"), timeout
        self.http = requests.Session()
        self.http.get(f"{self.url}/_stcore/health", timeout=timeout).raise_for_status()   # sets the XSRF cookie
        xsrf = self.http.cookies.get(XSRF_COOKIE, "")
        self.headers = {"X-Xsrftoken": xsrf} if xsrf else {}
        host = self.url.split("://", 1)[1]
        # entered here, left in `close`: the connection lives as long as the session (websockets' sync API asks for
        # a context manager)
        self.ws = connect(f"ws://{host}/_stcore/stream", subprotocols=["streamlit", xsrf] if xsrf else ["streamlit"],
                          origin=self.url, max_size=None, open_timeout=timeout,
                          additional_headers={"Cookie": f"{XSRF_COOKIE}={xsrf}"} if xsrf else None).__enter__()
        self.session_id = ""
        self.pages: dict[str, str] = {}       # page name -> page_script_hash
        self.page_hash = ""
        self.states: dict[str, WidgetState] = {}

    def close(self) -> None:
        self.ws.__exit__(None, None, None)

    def _send(self, msg: BackMsg) -> None:
        self.ws.send(msg.SerializeToString())

    def _receive(self) -> ForwardMsg:
        msg = ForwardMsg()
        msg.ParseFromString(self.ws.recv(timeout=self.timeout))
        return msg

    def run_page(self, page: str | None = None, states: list[WidgetState] = ()) -> Run:
        """Run ``page`` (None: the current one) with the widget values kept so far and ``states``, and read every
        message until the run ends; a run the app ends early for a rerun (``st.rerun``) is followed to its end."""
        for state in states:
            self.states[state.id] = state
        if page is not None and self.pages.get(page, self.page_hash) != self.page_hash:
            self.page_hash, self.states = self.pages[page], {}    # a new page: the old page's widgets are gone
        msg = BackMsg()
        msg.rerun_script.query_string = ""
        msg.rerun_script.page_script_hash = self.page_hash
        msg.rerun_script.widget_states.widgets.extend(self.states.values())
        self._send(msg)
        return self._until_finished()

    def _until_finished(self) -> Run:
        run = Run()
        while True:
            data = self.ws.recv(timeout=self.timeout)
            run.received += len(data)
            msg = ForwardMsg()
            msg.ParseFromString(data)
            kind = msg.WhichOneof("type")
            if kind == "new_session":
                self.session_id = msg.new_session.initialize.session_id or self.session_id
                self.pages = {p.page_name: p.page_script_hash for p in msg.new_session.app_pages}
                self.page_hash = msg.new_session.page_script_hash or self.page_hash
            elif kind == "navigation":
                self.pages |= {p.page_name: p.page_script_hash for p in msg.navigation.app_pages}
                self.page_hash = msg.navigation.page_script_hash or self.page_hash
            elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
                self._read_element(msg.delta.new_element, run)
            elif kind == "script_finished":
                if msg.script_finished == ForwardMsg.FINISHED_SUCCESSFULLY:
                    return run
                if msg.script_finished == ForwardMsg.FINISHED_WITH_COMPILE_ERROR:
                    raise RuntimeError("the page did not compile")

    @staticmethod
    def _read_element(element, run: Run) -> None:
        kind = element.WhichOneof("type")
        if kind == "plotly_chart":
            run.charts += 1
        part = getattr(element, kind, None) if kind else None
        shown = ""
        for name in ("body", "label", "text"):
            value = getattr(part, name, None)
            if isinstance(value, str) and value:
                run.text.append(value)
                shown = shown or value
        run.timeline.append((time.perf_counter(), kind or "", shown))
        widget_id = getattr(part, "id", None)
        label = getattr(part, "label", None)
        if isinstance(widget_id, str) and widget_id and isinstance(label, str):
            run.widgets[label] = widget_id
            if kind == "radio":
                run.options[label] = list(part.options)

    def start(self) -> Run:
        """The first run, as a browser asks for it when it connects."""
        return self.run_page()

    def upload(self, widget_id: str, path: Path, others: list[WidgetState] = ()) -> Run:
        """Upload ``path`` through the file uploader ``widget_id`` and run the page with it, as a browser does: ask
        for an upload URL, PUT the bytes, then rerun with the uploader's state naming the file."""
        msg = BackMsg()
        msg.file_urls_request.request_id = "bench"
        msg.file_urls_request.session_id = self.session_id
        msg.file_urls_request.file_names.append(path.name)
        self._send(msg)
        while True:
            reply = self._receive()
            if reply.WhichOneof("type") == "file_urls_response":
                break
        if reply.file_urls_response.error_msg:
            raise RuntimeError(reply.file_urls_response.error_msg)
        urls = reply.file_urls_response.file_urls[0]
        upload_url = urls.upload_url if "://" in urls.upload_url else f"{self.url}/{urls.upload_url.lstrip('/')}"
        with path.open("rb") as f:
            self.http.put(upload_url, files={"file": (path.name, f, "text/csv")}, headers=self.headers,
                          timeout=self.timeout).raise_for_status()
        state = WidgetState(id=widget_id)
        info = state.file_uploader_state_value.uploaded_file_info.add()
        info.name, info.size, info.file_id = path.name, path.stat().st_size, urls.file_id
        info.file_urls.CopyFrom(urls)
        return self.run_page(states=[*others, state])


def radio(run: Run, option: str) -> WidgetState:
    """The state of the radio offering ``option`` with that option chosen (a radio's value is its option's text)."""
    for label, options in run.options.items():
        if option in options:
            return WidgetState(id=run.widgets[label], string_value=option)
    raise RuntimeError(f"no radio offers {option!r}")


def journey(url: str, path: Path, pages: list[tuple[str, str]], upload_label: str, upload_option: str,
            timeout: float = 600.0, ready=lambda: None) -> dict[str, tuple[float, int, int, float]]:
    """Upload ``path`` on the first page and open each later page of ``pages`` ((name, a text it must show)): per
    page its seconds, bytes received, Plotly charts and this client's CPU seconds. The session opens, runs its first
    page and shows the uploader before the clock starts (after ``ready()``, e.g. all sessions waiting at a barrier),
    as the browser sessions do."""
    session = Session(url, timeout)
    try:
        first = session.start()
        choose = radio(first, upload_option)
        with_uploader = session.run_page(states=[choose])
        ready()
        steps = {}
        for i, (name, expected) in enumerate(pages):
            t, cpu = time.perf_counter(), time.process_time()
            run = (session.upload(with_uploader.widgets[upload_label], path, [choose]) if i == 0
                   else session.run_page(name))
            if not any(expected in text for text in run.text):
                raise RuntimeError(f"{name}: the page did not show {expected!r}")
            steps[name] = (time.perf_counter() - t, run.received, run.charts, time.process_time() - cpu)
        return steps
    finally:
        session.close()
