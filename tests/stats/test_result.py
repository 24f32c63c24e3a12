"""The TestResult type and its JSON and table views (the numbers of its sentences: tests/core/test_formatting.py)."""

import dataclasses
import json
import math

import numpy as np
import pandas as pd
import pytest

from assess.intervals import ConfidenceInterval
from assess.stats import Assumption, Effect, TestResult, friedman, mcnemar
from assess.stats._result import FRAME_COLUMNS


@dataclasses.dataclass(frozen=True)
class Details:
    arr: np.ndarray
    frame: pd.DataFrame
    scalar: float
    flag: bool


def make(**kw):
    base = dict(test="x", method="X test", statistic=1.5, pvalue=0.02, df=(2.0, 30.0), alternative="two-sided",
                effect=Effect("d", 0.3, ConfidenceInterval(-math.inf, math.nan, 0.9, "t")),
                assumptions=[Assumption("normal", True, "Shapiro–Wilk p = 0.4"), Assumption("iid", None, "?")],
                sentence="s.", n=np.int64(12), models=("A", "B"),
                details=Details(np.array([1.0, np.nan]), pd.DataFrame({"a": [np.inf]}, index=["r"]),
                                np.float64(2.5), np.bool_(True)))
    base.update(kw)
    return TestResult(**base)


def test_to_dict_is_strict_json_with_nan_and_inf_as_null():
    d = make().to_dict()
    text = json.dumps(d, allow_nan=False)   # raises on NaN/inf
    back = json.loads(text)
    assert back["df"] == [2.0, 30.0]
    assert back["effect"] == {"name": "d", "value": 0.3, "low": None, "high": None, "confidence_level": 0.9,
                              "interval_method": "t"}
    assert back["assumptions"] == [{"name": "normal", "met": True, "detail": "Shapiro–Wilk p = 0.4"},
                                   {"name": "iid", "met": None, "detail": "?"}]
    assert back["details"] == {"arr": [1.0, None], "frame": {"a": {"r": None}}, "scalar": 2.5, "flag": True}
    assert back["n"] == 12 and back["models"] == ["A", "B"]


def test_to_dict_has_the_spec_compare_keys():
    d = mcnemar([1, 1, 0, 1], [0, 1, 1, 0]).to_dict()
    for key in ("test", "statistic", "pvalue", "df", "effect", "assumptions", "sentence"):
        assert key in d
    assert set(d["effect"]) >= {"name", "value", "low", "high"}


def test_numbers_are_never_rounded_in_the_result():
    res = mcnemar([1] * 7 + [0] * 3, [0] * 3 + [1] * 7)
    assert res.effect.value == 0.0 and res.pvalue == 1.0
    res = friedman(np.array([[0.123456789, 0.2], [0.3, 0.1], [0.5, 0.25]]))
    assert res.statistic == pytest.approx(1 / 3, rel=1e-15)


def test_to_frame_has_fixed_columns():
    frame = make().to_frame()
    assert list(frame.columns) == FRAME_COLUMNS
    assert frame.loc[0, "df"] == "2, 30" and frame.loc[0, "models"] == "A vs B"
    assert frame.loc[0, "assumptions_met"] is True or frame.loc[0, "assumptions_met"] == True  # noqa: E712


def test_result_is_frozen_and_assumptions_met_summarises():
    res = make()
    with pytest.raises(dataclasses.FrozenInstanceError):
        res.pvalue = 0.5
    with pytest.raises(dataclasses.FrozenInstanceError):
        res.details.scalar = 1
    assert res.assumptions_met is True
    assert make(assumptions=[Assumption("a", False, ""), Assumption("b", True, "")]).assumptions_met is False
    assert make(assumptions=[Assumption("a", None, "")]).assumptions_met is None


def test_docstring_examples_run():
    import doctest
    import importlib

    for name in ("counts", "folds", "scores", "corrections"):
        module = importlib.import_module(f"assess.stats.{name}")
        result = doctest.testmod(module)
        assert result.failed == 0 and (result.attempted > 0 or name == "scores"), name


def test_stats_imports_neither_streamlit_nor_plotly():
    import subprocess
    import sys

    code = ("import sys, assess.stats; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('streamlit', 'plotly')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
