"""assess: the dashboard's entry point — page config, navigation, the sidebar every page shares."""

import streamlit as st

from assess.analyses.over_time import has_time
from assess.core.data import Task
from assess.core.formatting import counted
from ui.data_directory import sidebar_lines
from ui.data_source import file_summary
from ui.state import BUSY_ICON, DATA_PAGE, Key, current_assessment, forget_stale_widgets, init_state, md
from ui.store import ServerBusy
from ui.widgets import presentation_style, sidebar_state

st.set_page_config(page_title="assess — model performance", page_icon=":material/analytics:", layout="wide",
                   initial_sidebar_state=sidebar_state())
forget_stale_widgets()   # first: nothing of this run is registered yet
presentation_style()
init_state()

# Every page is registered; the navigation shows those that fit the loaded file's task (classification: Confusion
# and Curves; regression and forecasts: Errors), so nobody has to guess where their charts are.
loaded = current_assessment()
numeric = loaded is not None and loaded.task in (Task.REGRESSION, Task.FORECAST)
clustering = loaded is not None and loaded.task is Task.CLUSTERING
classification_only = "hidden" if numeric or clustering else "visible"
numeric_only = "visible" if numeric else "hidden"
pages = {
    "Data": [st.Page(DATA_PAGE, title="Data", icon=":material/upload_file:", default=True)],
    "Assess": [st.Page("views/metrics.py", title="Metrics", icon=":material/table_chart:"),
               st.Page("views/confusion.py", title="Confusion", icon=":material/grid_on:",
                       visibility=classification_only),
               st.Page("views/curves.py", title="Curves", icon=":material/show_chart:",
                       visibility=classification_only),
               st.Page("views/errors.py", title="Errors", icon=":material/scatter_plot:", visibility=numeric_only),
               st.Page("views/slices.py", title="Slices", icon=":material/splitscreen:",
                       visibility="hidden" if clustering else "visible"),
               st.Page("views/over_time.py", title="Over time", icon=":material/timeline:",
                       visibility="visible" if has_time(loaded) else "hidden"),
               st.Page("views/clusters.py", title="Clusters", icon=":material/bubble_chart:",
                       visibility="visible" if clustering else "hidden")],
    "Compare": [st.Page("views/compare.py", title="Compare", icon=":material/compare_arrows:")],
    "Cost and controls": [st.Page("views/cost.py", title="Cost", icon=":material/speed:"),
                          st.Page("views/controls.py", title="Controls", icon=":material/fact_check:")],
    "Report": [st.Page("views/report.py", title="Report", icon=":material/description:")],
}
navigation = st.navigation(pages)

with st.sidebar:
    st.markdown("**assess** · model performance from prediction files")
    st.toggle("Presentation mode", key=Key.PRESENTATION,
              help="For a projector: larger text, one chart per row at full width, the sidebar and option panels "
                   "collapsed (open the sidebar to turn it off).")
    assessment = current_assessment()
    opened = sidebar_lines()          # a data-directory file assessed out of core (ui/data_directory.py)
    if opened is not None:
        for line in opened:
            st.caption(md(line))
    elif assessment is None:
        st.caption("No data loaded.")
    else:
        st.caption(md(f"Active: `{assessment.table.name}`"))
        st.caption(md(file_summary(assessment)))
        if assessment.errors:
            st.caption(f":red[{counted(len(assessment.errors), 'blocking problem')} — see Data]")

# This script's module stays in sys.modules["__main__"] until the next run of any session (Streamlit installs it
# there): a global naming the assessment would keep the last session's table in memory after everyone has left.
del loaded, assessment

try:
    navigation.run()
except ServerBusy as busy:  # over the memory budget: a clear message instead of swapping or dying
    st.warning(str(busy), icon=BUSY_ICON)
