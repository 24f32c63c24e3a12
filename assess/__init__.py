"""assess: assess machine-learning model performance from prediction files.

The compute package behind the dashboard and the command line. It never imports Streamlit.
Domain reference: ISO/IEC TS 4213:2022, *Assessment of machine learning classification performance*.
"""

__all__ = ["AssessError", "Assessment", "InputError", "Predictions", "Task", "evaluate"]
__version__ = "0.1.0"

#: Where each name of ``__all__`` lives. They are looked up on first use (PEP 562) rather than imported here: every
#: ``python -m assess`` imports this package first, and `assess.core.data` brings numpy, a fifth of a second that
#: ``--help`` does not need (bench/bench_cold_start.py).
_HOMES = {"AssessError": "assess.core.errors", "InputError": "assess.core.errors", "Predictions": "assess.core.data",
          "Task": "assess.core.data", "evaluate": "assess.api", "Assessment": "assess.api"}


def __getattr__(name: str):
    if name not in _HOMES:  # AttributeError lets ``from assess import charts`` go on to import the subpackage
        raise AttributeError(f"module 'assess' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(_HOMES[name]), name)
    globals()[name] = value
    return value
