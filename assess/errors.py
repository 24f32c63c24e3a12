"""The project's own error type: every bad input ends as one of these, with one clear sentence."""

from __future__ import annotations


class AssessError(ValueError):
    """A value the user supplied cannot be assessed; the message says what, where and what arrived."""


class InputError(AssessError):
    """A problem with an input file, naming the file, the column and an example row where they are known.

    >>> str(InputError("has 3 values outside [0, 1] (first at row 17: 1.4)", file="p.csv", column="proba_cat"))
    'p.csv: column `proba_cat` has 3 values outside [0, 1] (first at row 17: 1.4)'
    """

    def __init__(self, message: str, *, file: str | None = None, column: str | None = None,
                 row: int | None = None):
        self.file, self.column, self.row, self.detail = file, column, row, message
        where = f"{file}: " if file else ""
        what = f"column `{column}` " if column else ""
        super().__init__(f"{where}{what}{message}")
