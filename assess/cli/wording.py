"""Messages written for both front ends, reworded for the command line: "choose it" becomes the option that does it.

`assess.inputs.validation` and `assess.inputs.tasks` speak to whoever reads them ("or choose it"), and the Data page keeps that
wording; a command-line user has no page to choose on, so every error line, warning line and `inspect` problem the
CLI prints goes through `for_cli`, which names the option instead.
"""

from __future__ import annotations

#: (phrase as `assess` writes it, the command line's words), applied in order.
_CLI_WORDS = (
    ("or choose it as the Ground truth below", "or name it with --y-true"),
    ("or choose it as the Cluster below", "or name it with --cluster-col"),
    ("(or `prediction`), or choose it", "(or `prediction`), or name it with --y-pred"),
    ("`proba_<class>` columns, or choose them",
     "`proba_<class>` columns, or name them with --y-pred, --score COLUMN or --score CLASS=COLUMN …"),
    ("if the column holds scores, choose it as the score", "if the column holds scores, name it with --score"),
    ("flip it: 'Flip the score' on the Data page, --flip-score on the command line", "flip it with --flip-score"),
    ("choose them under 'Per-class score columns' (or as the score)",
     "name them with --score CLASS=COLUMN … (or --score COLUMN)"),
    ("if the positive class is wrong, choose the other one",
     "if the positive class is wrong, name the other one with --positive"),
)


def for_cli(message: str) -> str:
    """``message`` with the Data page's "choose it" replaced by the command-line option that does it.

    >>> for_cli("no predicted value column found: name one `y_pred` (or `prediction`), or choose it")
    'no predicted value column found: name one `y_pred` (or `prediction`), or name it with --y-pred'
    """
    for page, cli in _CLI_WORDS:
        message = message.replace(page, cli)
    return message
