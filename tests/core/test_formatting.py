"""How numbers are written for people (`assess.core.formatting`), and that it is the only place that writes them.

Expected strings are worked by hand from the rule each test names (significant figures, decimals, never rounding a
p-value across alpha), not taken from the code.
"""

import ast
import doctest
import math
import re
from pathlib import Path

import numpy as np
import pytest

from assess.core import formatting
from assess.core.formatting import (LONGEST_CLASS_IN_TEXT, UNDEFINED, bounds, class_phrase, confidence_interval, count,
                                    header, in_words, number, p_value, percent_level, proportion, significant)


def test_docstring_examples_run():
    result = doctest.testmod(formatting)
    assert result.failed == 0 and result.attempted >= 12


# ----------------------------------------------------------------------------------------------- sentences (stats)


@pytest.mark.parametrize("p, text", [(0.0031, "p = 0.0031"), (0.00031, "p < 0.001"), (0.41, "p = 0.41"),
                                     (0.0499, "p = 0.0499"), (0.04999, "p = 0.04999"), (0.0501, "p = 0.0501"),
                                     (0.05, "p = 0.05"), (1.0, "p = 1"), (float("nan"), "p undefined")])
def test_p_values_read_well_and_never_round_across_alpha(p, text):
    assert p_value(p, 0.05) == text


@pytest.mark.parametrize("x, text", [(5000, "5,000"), (0.012345, "0.0123"), (12345.6, "12,346"), (0.5, "0.500"),
                                     (-1.58, "-1.58"), (0.0, "0"), (float("nan"), "undefined")])
def test_numbers_read_with_three_significant_figures(x, text):
    assert significant(x) == text


def test_one_sided_intervals_read_as_bounds():
    assert confidence_interval(0.01, math.inf, 0.95) == "95% CI above 0.0100"
    assert confidence_interval(-math.inf, 0.2, 0.9) == "90% CI below 0.200"


def test_levels_keep_their_digits():
    assert (percent_level(0.95), percent_level(0.9), percent_level(0.995)) == ("95%", "90%", "99.5%")


# ------------------------------------------------------------------------------------------------- tables, report


@pytest.mark.parametrize("low, high, text", [(0.9661, 0.9894, "0.966–0.989"),
                                             (0.74973, 0.75031, "0.7497–0.7503"),      # 1e8 rows: apart at 4
                                             (0.93001, 0.93004, "0.93001–0.93004"),
                                             (12.3401, 12.3449, "12.340–12.345"),
                                             (-0.62, -0.23, "-0.620 to -0.230"),
                                             (-0.617, -0.228, "-0.617 to -0.228"),
                                             (0.1, 0.2, "0.100–0.200"),
                                             (0.5, 0.5, "0.500–0.500")])             # a point stays a point
def test_an_interval_narrower_than_three_decimals_keeps_its_bounds_apart(low, high, text):
    assert bounds(low, high) == text


def test_number():
    assert (number(0.12345), number(12.345), number(float("inf")), number(7.0, count=True)) == \
        ("0.123", "12.35", "—", "7")


def test_every_table_formatter_writes_one_placeholder_for_undefined():
    nan = float("nan")
    assert {count(nan), number(nan), proportion(nan), proportion(None)} == {UNDEFINED}
    assert in_words(proportion(nan)) == significant(nan) == "undefined"


def test_a_float32_nan_is_undefined_too():
    # a Parquet float32 column gives numpy.float32 values, which are not Python floats: count() raised ValueError
    nan32 = np.float32("nan")
    assert (count(nan32), number(nan32), proportion(nan32), p_value(nan32)) == (UNDEFINED,) * 3 + ("p undefined",)
    assert count(np.float32(1176.0)) == "1,176"


# ---------------------------------------------------------------------------------- class names and headers

LONG_CLASS = "very long class name that goes on and on past any sensible width"


@pytest.mark.parametrize("label,role,expected", [
    ("1", "positive", "positive (1)"), (1, "positive", "positive (1)"), ("True", "positive", "positive (True)"),
    ("0", "negative", "negative (0)"), ("-1", None, "class -1"), ("1.0", None, "class 1.0"),
    ("yes", "positive", "yes"), ("two words", "positive", "two words"), ("malignant", None, "malignant")])
def test_class_phrase(label, role, expected):
    assert class_phrase(label, role=role) == expected


def test_long_class_is_cut_with_an_ellipsis():
    phrase = class_phrase(LONG_CLASS, role="positive")
    assert len(phrase) <= LONGEST_CLASS_IN_TEXT and phrase.endswith("…") and LONG_CLASS.startswith(phrase[:-1])


def test_numbers_for_tables():
    # counts are whole with thousands separators; proportions share one number of decimals
    assert [count(v) for v in (1910, 1176.0, 636.0, 0)] == ["1,910", "1,176", "636", "0"]
    assert count(np.nan) == "—" and count(2.5) == "2.5"
    assert [proportion(v) for v in (0, 0.1714, 1)] == ["0.000", "0.171", "1.000"]
    assert header("predicted_positive_share") == "Predicted positive share"
    assert header("share_of_true_class") == "Share of true class"


# ------------------------------------------------------------------------------------------- one home, one word

ROOT = Path(__file__).resolve().parents[2]
HOME = ROOT / "assess" / "core" / "formatting.py"
#: Names of a function that writes a number for people: fmt, fmt_p, _fmt, fmt_number, _cost_number, pvalue_text…
#: (``as_number`` or ``not_a_number``, which read numbers and return no text, are not).
FORMATTER_NAME = re.compile(r"(^|_)fmt(_|$)|^_?num$|_number$|(^|_)(pvalue|p_value|pct|percent|count)_text$")
#: Strings that stood for an undefined number before `UNDEFINED` ("—") and `UNDEFINED_IN_WORDS` were the only ones.
PLACEHOLDERS = {"—", "n/a", "N/A", "undefined"}
#: "n/a" and "-" are how a spreadsheet writes a missing value: the reader accepts them (input, not output).
READS_MISSING_VALUES = ROOT / "assess" / "inputs" / "columns.py"


def _sources():
    files = [ROOT / "app.py", *sorted((ROOT / "assess").rglob("*.py")), *sorted((ROOT / "ui").rglob("*.py")),
             *sorted((ROOT / "views").rglob("*.py"))]
    assert len(files) > 50
    return [(f, ast.parse(f.read_text(encoding="utf-8"))) for f in files if f != HOME]


def test_no_other_module_defines_a_number_formatter():
    found = [f"{f.relative_to(ROOT)}:{node.lineno} {node.name}" for f, tree in _sources() for node in ast.walk(tree)
             if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and FORMATTER_NAME.search(node.name)
             and ("fmt" in node.name or node.returns is not None and ast.unparse(node.returns) == "str")]
    assert found == [], "number formatting lives in assess/core/formatting.py: " + ", ".join(found)


def test_an_undefined_number_is_written_only_through_formatting():
    found = []
    for f, tree in _sources():
        if f == READS_MISSING_VALUES:
            continue
        # a JSON key ({"undefined": reasons}, doc["undefined"]) names a section; it stands for no number
        keys = {id(k) for node in ast.walk(tree) if isinstance(node, ast.Dict) for k in node.keys if k is not None}
        keys |= {id(node.slice) for node in ast.walk(tree) if isinstance(node, ast.Subscript)}
        found += [f"{f.relative_to(ROOT)}:{node.lineno} {node.value!r}" for node in ast.walk(tree)
                  if isinstance(node, ast.Constant) and node.value in PLACEHOLDERS and id(node) not in keys]
    assert found == [], "use formatting.UNDEFINED (or UNDEFINED_IN_WORDS in a sentence): " + ", ".join(found)


def test_a_confidence_level_reads_the_same_in_a_chart_legend_as_in_a_test_sentence():
    """0.975 is "97.5%" in the stats sentences; the charts, summary, report and pages wrote f"{level:.0%}", "98%".
    Hand-worked: 0.975 · 100 = 97.5."""
    from assess import curves
    from assess.present.charts.curve_charts import _legend_name

    curve = curves.roc_curve(curves.threshold_counts([0, 0, 1, 1], [0.1, 0.6, 0.4, 0.9]))   # AUC 3/4
    assert _legend_name("A", curve, (0.5, 1.0), 0.975) == "A (AUC 0.750, 97.5% CI 0.500–1.000)"
    assert confidence_interval(0.5, 1.0, 0.975) == "97.5% CI 0.500 to 1.00"
    offenders = [f"{f.relative_to(ROOT)}: {m.group(0)}" for f, _ in _sources()
                 for m in re.finditer(r"level\w*\)?:\.0%\}|format_func=\"\{:\.0%\}\"", f.read_text(encoding="utf-8"))]
    assert offenders == [], "write a level with formatting.percent_level: " + ", ".join(offenders)
