"""Imports only go downward: the layers of `assess` as data, no import cycles, and `assess` never imports streamlit.

The import graph is read from the source (`ast`), so it sees every import — at module level and inside functions,
where a cycle hides best. ``from package import name`` counts as importing ``package.name`` when that is a module
and ``package`` otherwise (the convention of grimp/import-linter). Imports done by name at run time
(`importlib.import_module` in `assess.cli`) are invisible to it.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: The layers of the code, lowest first. A module may import modules of its own layer and of lower ones, never of a
#: higher one. An entry names one module, or with ``.*`` a package and every module under it; every module of
#: `assess`, `ui`, `views` and `app` belongs to exactly one layer (a new module must be placed here).
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("core", ("assess", "assess.core.*")),
    ("inputs", ("assess.inputs.*",)),
    ("curves", ("assess.curves.*",)),
    ("intervals", ("assess.intervals.*",)),
    ("metrics", ("assess.metrics.*",)),
    ("statistical tests", ("assess.stats.*",)),
    ("out-of-core engines", ("assess.engine.*",)),
    ("analyses", ("assess.analyses.*",)),
    ("presentation", ("assess.present.*",)),
    ("integrations", ("assess.integrations.*",)),
    # the notebook API beside the command line: it reads a table and builds each command's options as the command does
    ("command line", ("assess.cli.*", "assess.__main__", "assess.api.*")),
    ("user interface", ("ui.*", "views.*", "app", "serve")),
)
#: The user interface and the command line are two front ends over the same package: neither imports the other
#: (the layers stop the command line from importing the pages; this stops the converse).
UI, CLI = "user interface", "command line"


# --- the import graph ----------------------------------------------------------------------------------------------

def import_graph(root: Path, tops: tuple[str, ...]) -> dict[str, dict[str, int]]:
    """{module: {imported module: line of the first such import}} among the modules of ``tops`` under ``root``.

    ``tops`` are package directories or single-module names (``"app"`` for ``app.py``); imports of anything else
    (numpy, the standard library) are left out.
    """
    files, packages = {}, set()
    for top in tops:
        paths = sorted((root / top).rglob("*.py")) if (root / top).is_dir() else [root / f"{top}.py"]
        for path in paths:
            parts = path.relative_to(root).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
                packages.add(".".join(parts))
            files[".".join(parts)] = path

    def known(name: str) -> str | None:  # the module itself, else the innermost package of ours that holds it
        while name and name not in files:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, dict[str, int]] = {}
    for module, path in files.items():
        here = module if module in packages else module.rpartition(".")[0]
        edges: dict[str, int] = {}
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:  # relative: `from . import x`, `from ..y import z`
                    anchor = here.split(".")[:len(here.split(".")) - node.level + 1]
                    base = ".".join(anchor + ([base] if base else []))
                names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in files else base for alias in node.names]
            else:
                continue
            for name in names:
                target = known(name)
                if target and target != module:
                    edges.setdefault(target, node.lineno)
        graph[module] = edges
    return graph


def layer_index(module: str, layers=LAYERS) -> int | None:
    """Position in ``layers`` of the layer holding ``module``; None when no entry names it."""
    for index, (_, entries) in enumerate(layers):
        for entry in entries:
            if module == entry.removesuffix(".*") or entry.endswith(".*") and module.startswith(entry[:-1]):
                return index
    return None


def unplaced_modules(graph, layers=LAYERS) -> list[str]:
    return sorted(m for m in graph if layer_index(m, layers) is None)


def upward_imports(graph, layers=LAYERS) -> list[str]:
    """Every import of a module of a higher layer: ``"a.b:12 imports x.y (layer 'high' above 'low')"``."""
    found = []
    for module, edges in sorted(graph.items()):
        mine = layer_index(module, layers)
        for target, line in sorted(edges.items()):
            theirs = layer_index(target, layers)
            if mine is not None and theirs is not None and theirs > mine:
                found.append(f"{module}:{line} imports {target} (layer {layers[theirs][0]!r} above "
                             f"{layers[mine][0]!r})")
    return found


def import_cycles(graph) -> list[list[str]]:
    """The import cycles of ``graph``: each strongly connected component of more than one module, sorted (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for target in graph.get(module, {}):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == module:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return sorted(cycles)


def front_end_imports(graph, layers=LAYERS, *, importer=UI, imported=CLI) -> list[str]:
    """Imports of a module of layer ``imported`` by a module of layer ``importer``, as ``"module:line imports x"``."""
    names = [name for name, _ in layers]
    a, b = names.index(importer), names.index(imported)
    return [f"{module}:{line} imports {target}" for module, edges in sorted(graph.items())
            if layer_index(module, layers) == a
            for target, line in sorted(edges.items()) if layer_index(target, layers) == b]


@pytest.fixture(scope="module")
def graph():
    return import_graph(ROOT, ("assess", "ui", "views", "app", "serve"))


# --- the contracts -------------------------------------------------------------------------------------------------

def test_every_module_has_a_layer_and_every_entry_names_a_module(graph):
    assert len(graph) > 60  # the whole package was read, not an empty directory
    assert unplaced_modules(graph) == []
    entries = [entry.removesuffix(".*") for _, names in LAYERS for entry in names]
    # a typo would place nothing (`views` is a folder of page scripts, not a package: its entry names its modules)
    assert [entry for entry in entries if entry not in graph and not any(m.startswith(entry + ".") for m in graph)] == []


def test_no_module_imports_a_higher_layer(graph):
    assert upward_imports(graph) == []


def test_no_import_cycles(graph):
    assert import_cycles(graph) == []


def test_the_user_interface_never_imports_the_command_line(graph):
    assert front_end_imports(graph) == []


# --- each check fails on a package that breaks it ----------------------------------------------------------------

def write_package(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


TOY_LAYERS = (("low", ("pkg", "pkg.low", "pkg.sub.*")), ("high", ("pkg.high",)), ("cli", ("pkg.cli",)),
              ("ui", ("ui.*",)))


def test_the_graph_resolves_every_import_form(tmp_path):
    write_package(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/low.py": "import os\nfrom pkg import sub\n",
        "pkg/sub/__init__.py": "from .leaf import x\n",
        "pkg/sub/leaf.py": "x = 1\nfrom .. import low\nimport pkg.high as h\n",
        "pkg/high.py": "def f():\n    from pkg.sub.leaf import x\n    from pkg.sub import x\n",
    })
    assert import_graph(tmp_path, ("pkg",)) == {
        "pkg": {}, "pkg.low": {"pkg.sub": 2}, "pkg.sub": {"pkg.sub.leaf": 1},
        "pkg.sub.leaf": {"pkg.low": 2, "pkg.high": 3}, "pkg.high": {"pkg.sub.leaf": 2, "pkg.sub": 3}}


def test_a_module_outside_every_layer_is_reported(tmp_path):
    write_package(tmp_path, {"pkg/__init__.py": "", "pkg/low.py": "", "pkg/new.py": ""})
    assert unplaced_modules(import_graph(tmp_path, ("pkg",)), TOY_LAYERS) == ["pkg.new"]


def test_an_upward_import_is_found_at_module_and_at_function_level(tmp_path):
    write_package(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/low.py": "import json\n\ndef f():\n    from pkg.high import g\n",
        "pkg/sub/__init__.py": "from pkg import high\n",
        "pkg/high.py": "from pkg.low import f\n",
    })
    assert upward_imports(import_graph(tmp_path, ("pkg",)), TOY_LAYERS) == [
        "pkg.low:4 imports pkg.high (layer 'high' above 'low')",
        "pkg.sub:1 imports pkg.high (layer 'high' above 'low')"]


def test_a_cycle_through_a_function_level_import_is_found(tmp_path):
    write_package(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/low.py": "from pkg import high\n",
        "pkg/high.py": "def f():\n    import pkg.low\n",
        "pkg/cli.py": "from pkg import high, low\n",
    })
    assert import_cycles(import_graph(tmp_path, ("pkg",))) == [["pkg.high", "pkg.low"]]


def test_a_longer_cycle_is_found_once(tmp_path):
    write_package(tmp_path, {"pkg/__init__.py": "", "pkg/a.py": "import pkg.b\n", "pkg/b.py": "import pkg.c\n",
                             "pkg/c.py": "from pkg import a\n"})
    assert import_cycles(import_graph(tmp_path, ("pkg",))) == [["pkg.a", "pkg.b", "pkg.c"]]


def test_a_user_interface_importing_the_command_line_is_found(tmp_path):
    write_package(tmp_path, {
        "pkg/__init__.py": "", "pkg/high.py": "", "pkg/cli.py": "",
        "ui/__init__.py": "", "ui/page.py": "from pkg.high import x\n\ndef run():\n    from pkg.cli import main\n",
    })
    found = front_end_imports(import_graph(tmp_path, ("pkg", "ui")), TOY_LAYERS, importer="ui", imported="cli")
    assert found == ["ui.page:4 imports pkg.cli"]


# --- private names stay at home ------------------------------------------------------------------------------------

def private(name: str) -> bool:
    """An underscore-named name (``_f``), not a dunder (``__future__``, ``__version__``)."""
    return name.startswith("_") and not name.startswith("__")


def private_uses(root: Path, tops: tuple[str, ...]) -> list[str]:
    """Every use, by a module under ``tops``, of an underscore-named name of another of their modules, as
    ``"module:line uses home._name"``: ``from home import _name``, ``home._name`` where ``home`` names a module it
    imported, and an import of a private module (``pkg._common``) from outside the package ``pkg`` that holds it (its
    siblings share it). A name is public at its home or is used only there; the seams between modules are public.
    Attributes of objects (``obj._field``) are not seen: the type of ``obj`` is not in the source."""
    files, packages = {}, set()
    for top in tops:
        for path in sorted((root / top).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
                packages.add(".".join(parts))
            files[".".join(parts)] = path

    def outside(module: str, target: str) -> str | None:
        """The first private component of ``target`` whose package does not hold ``module``, as a dotted name."""
        parts = target.split(".")
        for i, part in enumerate(parts):
            if private(part) and not (module + ".").startswith(".".join(parts[:i]) + "."):
                return ".".join(parts[:i + 1])
        return None

    found = []
    for module, path in files.items():
        here = module if module in packages else module.rpartition(".")[0]
        aliases: dict[str, str] = {}      # local name -> module of ours it names
        uses: list[tuple[int, str]] = []
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.split(".")[0] in tops:
                        if alias.asname:
                            aliases[alias.asname] = alias.name
                        bad = outside(module, alias.name)
                        if bad:
                            uses.append((node.lineno, bad))
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = here.split(".")[:len(here.split(".")) - node.level + 1]
                    base = ".".join(anchor + ([base] if base else []))
                if base.split(".")[0] not in tops:
                    continue
                for alias in node.names:
                    target = f"{base}.{alias.name}"
                    if target in files:
                        aliases[alias.asname or alias.name] = target
                    bad = outside(module, target) if target in files else outside(module, base) or (
                        target if private(alias.name) else None)
                    if bad:
                        uses.append((node.lineno, bad))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and private(node.attr):
                owner = ast.unparse(node.value)
                home = aliases.get(owner, owner if owner in files else None)
                if home and home != module:
                    uses.append((node.lineno, f"{home}.{node.attr}"))
        found += [f"{module}:{line} uses {name}" for line, name in sorted(set(uses))]
    return sorted(found)


def test_no_module_under_assess_uses_another_modules_private_name():
    assert private_uses(ROOT, ("assess",)) == []


def test_the_private_name_check_finds_every_form_and_allows_a_package_its_private_modules(tmp_path):
    write_package(tmp_path, {
        "pkg/__init__.py": "from pkg._impl import thing\n",
        "pkg/_impl.py": "thing = 1\n_hidden = 2\n\ndef _helper():\n    return _hidden\n",
        "pkg/low.py": "from pkg import _impl\nfrom pkg._impl import _helper\n",
        "pkg/sub/__init__.py": "",
        "pkg/sub/leaf.py": "from .._impl import thing\n",
        "other/__init__.py": "",
        "other/a.py": ("from __future__ import annotations\nimport pkg.low as low\nfrom pkg import low as same\n"
                       "from pkg._impl import thing\n\ndef f(obj):\n"
                       "    return low._impl, same._x, obj._field, pkg.low._y\n"),
    })
    # the package's own modules may share its private module (pkg.__init__, pkg.sub.leaf), not its private names;
    # an object's attribute (obj._field) and a dunder are not uses
    assert private_uses(tmp_path, ("pkg", "other")) == [
        "other.a:4 uses pkg._impl",
        "other.a:7 uses pkg.low._impl",
        "other.a:7 uses pkg.low._x",
        "other.a:7 uses pkg.low._y",
        "pkg.low:2 uses pkg._impl._helper",
    ]


# --- streamlit -----------------------------------------------------------------------------------------------------

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


def test_views_holds_only_the_page_scripts_the_router_registers():
    """`views/` holds the page scripts and nothing else: each is registered with `st.Page` by the router, and every
    Streamlit-only helper lives in `ui/`."""
    scripts = sorted(p.name for p in (ROOT / "views").iterdir() if p.name != "__pycache__")
    router = (ROOT / "app.py").read_text() + (ROOT / "ui" / "state.py").read_text()   # DATA_PAGE is a state constant
    registered = sorted(set(re.findall(r'"views/([\w.]+)"', router)))
    assert len(scripts) >= 10 and scripts == registered


def test_no_pages_folder_beside_the_router():
    """No `pages/` beside app.py. Streamlit 1.67 runs a session's first script run as a v1 multipage app while that
    folder exists (`PagesManager.uses_pages_directory`), and such a run executes a page's own script, without the
    router, when its name matches a file there (`_mpa_v1` in Streamlit's script_runner.py). Measured with the page
    scripts in `pages/`: a fresh server's first visit listed the folder's files ('app', 'clusters', 'compare', …) as
    the navigation, and with `client.showSidebarNavigation = false` showed no navigation at all, the app's own
    included (tests/browser/test_navigation.py fails both ways); AppTest, which resets the flag before every run,
    lost the sidebar from the second run on."""
    assert not (ROOT / "pages").exists()
