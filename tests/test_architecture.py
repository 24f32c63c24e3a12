"""Imports only go downward: `assess` (the headless compute package) never imports streamlit."""

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def streamlit_imports(package: Path) -> list[str]:
    """file:line of every `import streamlit…` / `from streamlit… import` under ``package``."""
    offenders = []
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            offenders += [f"{path.name}:{node.lineno}" for n in names if n.split(".")[0] == "streamlit"]
    return offenders


def test_no_module_under_assess_imports_streamlit():
    assert streamlit_imports(ROOT / "assess") == []


def test_the_check_finds_both_import_forms(tmp_path):
    (tmp_path / "a.py").write_text("import os\nimport streamlit as st\n")
    (tmp_path / "b.py").write_text("def f():\n    from streamlit.runtime import x\n")
    assert streamlit_imports(tmp_path) == ["a.py:2", "b.py:2"]


def test_importing_every_assess_module_loads_no_streamlit():
    modules = sorted("assess." + ".".join(p.relative_to(ROOT / "assess").with_suffix("").parts)
                     for p in (ROOT / "assess").rglob("*.py") if p.name != "__main__.py")
    code = ("import importlib, sys\n"
            f"for m in {modules!r}:\n"
            "    importlib.import_module(m.removesuffix('.__init__'))\n"
            "print('streamlit' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "False"
