"""Every character the app writes has a glyph in the fonts scripts/setup.sh installs (issue 15, "glyphs as boxes").

Debian's Chromium — the headless browser of the screenshots and the journeys, and kaleido's renderer for the PDF,
PNG and SVG exports — draws with the system fonts: Liberation (the charts' and the report's first choice) and, for
what Liberation lacks (★ ✓ ⚠ ∈ ₂ …), DejaVu Sans. There is no emoji font, so ✅ ❌ ➖ were boxes on the Controls
page. The oracle is fontconfig's own list of each font file's characters (``fc-query``), not a list kept here.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import ROOT

FONTS = ("/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
         "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")

pytestmark = pytest.mark.skipif(shutil.which("fc-query") is None or not all(Path(f).exists() for f in FONTS),
                                reason="fontconfig and the fonts of scripts/setup.sh are not installed")


def charset(font: str) -> set[int]:
    """The code points ``font`` has glyphs for, as fontconfig reports them ("20-7e a0-2e9 …", hexadecimal)."""
    text = subprocess.run(["fc-query", "--format=%{charset}", font], capture_output=True, text=True,
                          check=True).stdout
    points: set[int] = set()
    for part in text.split():
        low, _, high = part.partition("-")
        points.update(range(int(low, 16), int(high or low, 16) + 1))
    return points


def shown_strings(path: Path) -> list[tuple[int, str]]:
    """The string literals of a Python file that can reach a screen or an export (docstrings left out), with their
    line numbers; a template's whole text."""
    text = path.read_text(encoding="utf-8")
    if path.suffix != ".py":
        return [(1, text)]
    tree = ast.parse(text)
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr)
                  and isinstance(node.body[0].value, ast.Constant)}
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings]


def missing_glyphs(strings, covered: set[int]) -> list[tuple[int, str]]:
    # U+FE0F asks for an emoji presentation (there is no emoji font); U+2060 is the invisible word joiner of
    # ui.state.md: neither is drawn
    return sorted({(line, ch) for line, text in strings for ch in text
                   if ord(ch) > 0x7E and ord(ch) not in covered and ch not in "\u2060"})


@pytest.fixture(scope="module")
def covered() -> set[int]:
    return set().union(*(charset(f) for f in FONTS))


def test_every_character_the_app_writes_has_a_glyph(covered):
    files = [ROOT / "app.py", *sorted((ROOT / "views").glob("*.py")), *sorted((ROOT / "ui").glob("*.py")), *sorted((ROOT / "assess").rglob("*.py")),
             *sorted((ROOT / "assess").rglob("*.j2"))]
    boxes = [(str(f.relative_to(ROOT)), line, f"U+{ord(ch):04X} {ch}")
             for f in files for line, ch in missing_glyphs(shown_strings(f), covered)]
    assert boxes == [], "characters no installed font can draw (Chromium shows a box)"


def test_the_check_finds_an_emoji(covered):
    assert missing_glyphs([(7, 'STATUS = "✅ ok ★"')], covered) == [(7, "✅")]
    assert ord("★") in covered and ord("✓") in covered and ord("⚠") in covered
