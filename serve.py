"""What `make run` starts: the dashboard (`app.py`) served with the security headers of `ui.headers` on every response.

``streamlit run serve.py`` finds the ``app`` below and serves it through Streamlit's own Starlette server; the
configuration (`.streamlit/config.toml`, ``--server.*`` flags) applies as to ``streamlit run app.py``.
"""

from starlette.middleware import Middleware
from streamlit.starlette import App

from ui.headers import SecurityHeaders

app = App("app.py", middleware=[Middleware(SecurityHeaders)])
