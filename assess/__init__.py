"""assess: assess machine-learning model performance from prediction files.

The compute package behind the dashboard and the command line. It never imports Streamlit.
Domain reference: ISO/IEC TS 4213:2022, *Assessment of machine learning classification performance*.
"""

from assess.data import Predictions, Task
from assess.errors import AssessError, InputError

__all__ = ["AssessError", "InputError", "Predictions", "Task"]
__version__ = "0.1.0"
