"""Streamlit pages (thin scripts) and the UI-only helpers beside them; the compute lives in `assess`."""
