"""The project's own error type: every bad input ends as one of these, with one clear sentence.

Text taken from a file (a column name, a cell, a sheet or member name, a parser's complaint about a line) can be
megabytes long; `shorten` bounds it wherever a message quotes it, and every message is bounded as a whole, so no
file can make an error line longer than `MAX_MESSAGE` characters.
"""

from __future__ import annotations

#: Longest file-derived fragment a message quotes (a name, a cell); longer text is cut with an ellipsis.
MAX_QUOTED = 60
#: Longest message, a backstop for messages that join many quoted fragments.
MAX_MESSAGE = 1_000


def shorten(text, limit: int = MAX_QUOTED) -> str:
    """``text`` as one line of at most ``limit`` characters: line breaks become spaces, the cut ends in ``…``.

    >>> shorten("s" * 100, 10)
    'sssssssss…'
    >>> shorten("two\\nlines")
    'two lines'
    """
    text = " ".join(str(text).splitlines())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _bounded(message: str) -> str:
    """One line, and long messages keep their head and tail (where the fix is said) with ``…`` between."""
    message = " ".join(str(message).splitlines())
    if len(message) <= MAX_MESSAGE:
        return message
    tail = MAX_MESSAGE // 4
    return f"{message[: MAX_MESSAGE - tail - 3]} … {message[-tail:]}"


class AssessError(ValueError):
    """A value the user supplied cannot be assessed; the message says what, where and what arrived."""

    def __init__(self, message="", *args):
        super().__init__(_bounded(message), *args)


class InputError(AssessError):
    """A problem with an input file, naming the file, the column and an example row where they are known.

    The file and column names are shortened (`shorten`), because both come from the file or its upload.

    >>> str(InputError("has 3 values outside [0, 1] (first at row 17: 1.4)", file="p.csv", column="proba_cat"))
    'p.csv: column `proba_cat` has 3 values outside [0, 1] (first at row 17: 1.4)'
    """

    def __init__(self, message: str, *, file: str | None = None, column: str | None = None,
                 row: int | None = None):
        self.file, self.column, self.row, self.detail = file, column, row, message
        where = f"{shorten(file)}: " if file else ""
        what = f"column `{shorten(column).replace('`', chr(39))}` " if column else ""
        super().__init__(f"{where}{what}{message}")
