"""AppTest: every page on files the pipeline must refuse or summarise, without a crash (issue 15).

All-zero weights stop every page at the guard with the command line's sentence ("`weight` is zero for every row;
nothing to assess"), decided once by validation. Files kept small (few rows) so the pages run in seconds.
"""

import numpy as np
import pandas as pd
import pytest

from tests.conftest import open_app

ZERO_WEIGHT_MESSAGE = "`weight` is zero for every row; nothing to assess"
RNG = np.random.default_rng(15)


def _upload(name: str, data: bytes):
    at = open_app()
    at.radio[0].set_value("Upload a file").run()
    at.file_uploader[0].upload(name, data, "text/csv").run()
    assert not at.exception, name
    return at


def _csv(frame: pd.DataFrame) -> bytes:
    return frame.to_csv(index=False).encode()


ZERO_WEIGHTS = {
    # classification pages: two models so that Compare has something to compare
    "classification": _csv(pd.DataFrame({"model": np.repeat(["a", "b"], 20), "y_true": RNG.integers(0, 2, 40),
                                         "score": RNG.random(40).round(3), "weight": 0.0})),
    # the Errors page is for numeric predictions
    "regression": _csv(pd.DataFrame({"y_true": RNG.normal(size=40), "y_pred": RNG.normal(size=40), "weight": 0})),
}
PAGES = [("classification", "pages/metrics.py"), ("classification", "pages/confusion.py"),
         ("classification", "pages/curves.py"), ("classification", "pages/compare.py"),
         ("regression", "pages/errors.py")]


@pytest.mark.parametrize("kind,page", PAGES)
def test_all_zero_weights_show_the_cli_message_on_every_page(kind, page):
    at = _upload(f"zero_{kind}.csv", ZERO_WEIGHTS[kind])
    at.switch_page(page).run()
    assert not at.exception, page
    assert [e.value for e in at.error] == [ZERO_WEIGHT_MESSAGE]
    assert [i.value for i in at.info] == ["Load a predictions file without blocking errors first."]
    assert not at.dataframe and not at.get("plotly_chart")
