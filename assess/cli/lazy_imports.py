"""SciPy's heavy subpackages loaded on first use, for the command line's start-up.

``from scipy import stats`` at the top of a module runs all of scipy.stats (its distributions, optimisers, array-API
layer): over a second of a loaded machine's start-up, more than pandas, although most runs of the command line —
``metrics`` on a binary file without intervals, say — never call into it. `defer` puts a finder first on
``sys.meta_path`` that gives those subpackages importlib's `LazyLoader`: an import statement then binds the module at
once, and the module runs on its first attribute access (``stats.norm``), so a run pays for SciPy only when it uses
it. Nothing else changes: the module object is the one every later import gets.

The finder looks nothing up until a deferred name is imported, so a run that never imports SciPy (``inspect``,
``--help``) does not even import the ``scipy`` package (its own start-up, test utilities included, costs tens of
milliseconds).

A ``from scipy.x import name`` reads the attribute at import and so loads the module then; code that wants the delay
imports the module (``from scipy import special``) or imports the name inside the function that uses it.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import sys

#: The subpackages deferred: imported at module level across the package, needed only by some computations.
DEFERRED = ("scipy.special", "scipy.stats", "scipy.optimize", "scipy.spatial", "scipy.linalg")


class _LazyFinder:
    """Finds each deferred module as the path finder would, with its loader wrapped in a `LazyLoader`. (A meta path
    finder only needs ``find_spec``; importlib.abc's base class would import importlib.resources, 30 ms.)"""

    def __init__(self, names: tuple[str, ...]):
        self.names = frozenset(names)

    def find_spec(self, fullname, path=None, target=None):
        if fullname not in self.names:
            return None  # every other import goes on to the ordinary finders
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        spec.loader = importlib.util.LazyLoader(spec.loader)
        return spec


def defer(names: tuple[str, ...] = DEFERRED) -> None:
    """From now on, each of ``names`` not yet imported runs on its first attribute access (once per process)."""
    if not any(isinstance(finder, _LazyFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _LazyFinder(tuple(n for n in names if n not in sys.modules)))
