"""One spelling on screen: every string the product shows (a string literal of assess/, ui/, views/ or app.py that is
not a docstring) writes a percentage as "63%", as `percent_level` does ("95%"), never "63 %", and the Diebold–Mariano
and Harvey–Leybourne–Newbold names with en dashes, as the literature does. A walk through the app found both
spellings of each on one report."""

import ast
import math
import re
from pathlib import Path

from assess.metrics.evaluate import MAXIMUM_NO_INTERVAL

ROOT = Path(__file__).resolve().parents[1]


def _shown_strings(pattern: str):
    """(file, line, text) of every string literal matching ``pattern`` that is not a docstring (f-strings' literal
    parts included); only the files whose text matches are parsed, which keeps this fast."""
    files = [ROOT / "app.py", *(p for folder in ("assess", "ui", "views") for p in (ROOT / folder).rglob("*.py"))]
    for path in files:
        source = path.read_text(encoding="utf-8")
        if not re.search(pattern, source):
            continue
        tree = ast.parse(source)
        docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                      if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                      and node.body and isinstance(node.body[0], ast.Expr)
                      and isinstance(node.body[0].value, ast.Constant)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings \
                    and re.search(pattern, node.value):
                yield path.relative_to(ROOT), node.lineno, node.value


def test_shown_percentages_have_no_space_before_the_sign():
    spaced = [f"{f}:{n}: {text[:80]!r}" for f, n, text in _shown_strings(r"\d %")]
    assert not spaced, "write '63%' as percent_level does:\n" + "\n".join(spaced)


def test_test_names_are_written_with_en_dashes():
    hyphened = [f"{f}:{n}: {text[:80]!r}" for f, n, text in
                _shown_strings(r"Diebold-Mariano|Harvey-Leybourne|Leybourne-Newbold")]
    assert not hyphened, "write Diebold–Mariano, Harvey–Leybourne–Newbold:\n" + "\n".join(hyphened)


def test_the_maximum_note_gives_the_share_of_resamples_in_house_style():
    # a resample's maximum equals the sample's with probability 1 − (1 − 1/n)ⁿ → 1 − 1/e (Efron & Tibshirani 1993,
    # §7.4): 0.632…, "63%"
    assert f"in about {1 - math.exp(-1):.0%} of resamples" in MAXIMUM_NO_INTERVAL
