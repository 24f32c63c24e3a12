"""Controls page (ISO 4213 5.3): the assessment controls the app can check itself."""

import streamlit as st

from pages.state import require_assessment

assessment = require_assessment()
st.title("Controls")
