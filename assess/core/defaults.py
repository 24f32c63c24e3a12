"""Defaults every surface shares — the pages, the command line, the report, the settings file and the engines — so
one question asked twice at the defaults gets one answer. Here, below every layer, so that reading a default loads
nothing (the command line's ``inspect`` imports no SciPy)."""

#: Bootstrap resamples when none are asked for: every bootstrap interval and test (the report drew 1,000 and
#: ``compare`` 2,000, and their p-values differed).
DEFAULT_RESAMPLES = 1_000
