"""Streamlit-only helpers of the pages: session state and its keys, widgets, the store shared by every session of the
server and its memory budget. The page scripts themselves are in `views/`; the compute lives in `assess`."""
