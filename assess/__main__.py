"""`python -m assess …` and the installed `assess` command: the headless command line (see assess.cli)."""

import sys

from assess.cli import main
from assess.cli.lazy_imports import defer


def console() -> None:
    """The `assess` console script that ``pip install`` writes (pyproject.toml), and ``python -m assess``."""
    # SciPy's subpackages load on first use (over a second of start-up that most runs never need): at the command
    # line's own start, not inside main(), which tests and other programs call in processes (and threads) of their own
    defer()
    sys.exit(main())


if __name__ == "__main__":
    console()
