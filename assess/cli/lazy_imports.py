"""SciPy's heavy subpackages loaded on first use, for the command line's start-up.

``from scipy import stats`` at the top of a module runs all of scipy.stats (its distributions, optimisers, array-API
layer): over a second of a loaded machine's start-up, more than pandas, although most runs of the command line —
``metrics`` on a binary file without intervals, say — never call into it. `defer` registers those subpackages with
importlib's `LazyLoader` before the subcommand's modules are imported: an import statement then binds the module at
once, and the module runs on its first attribute access (``stats.norm``), so a run pays for SciPy only when it uses
it. Nothing else changes: the module object is the one every later import gets.

A ``from scipy.x import name`` reads the attribute at import and so loads the module then; code that wants the delay
imports the module (``from scipy import special``) or imports the name inside the function that uses it.
"""

from __future__ import annotations

import importlib.util
import sys

#: The subpackages deferred: imported at module level across the package, needed only by some computations.
DEFERRED = ("scipy.special", "scipy.stats", "scipy.optimize", "scipy.spatial", "scipy.linalg")


def defer(names: tuple[str, ...] = DEFERRED) -> None:
    """Register each of ``names`` (not yet imported) to run on its first attribute access."""
    for name in names:
        if name in sys.modules:
            continue
        spec = importlib.util.find_spec(name)  # imports the parent package (scipy itself is light)
        if spec is None or spec.loader is None:
            continue
        spec.loader = importlib.util.LazyLoader(spec.loader)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        parent, _, child = name.rpartition(".")
        setattr(sys.modules[parent], child, module)  # as the import system binds a submodule on its package
