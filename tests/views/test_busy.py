"""Over the server's memory budget (ASSESS_SERVER_MEMORY_MB) new heavy work is refused with one clear sentence on the
page — the upload on the Data page, a computation on any other page — and nothing crashes (ui/store.py)."""

import numpy as np
import pandas as pd

from tests.conftest import open_app

BUSY = "The server is busy"


def _csv(seed: int) -> bytes:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, 60)
    return pd.DataFrame({"y_true": y, "score": np.clip(rng.normal(0.3 + 0.4 * y, 0.2), 0, 1)}).to_csv(
        index=False).encode()


def test_an_upload_over_the_memory_budget_is_refused_on_the_data_page(monkeypatch):
    at = open_app()
    monkeypatch.setenv("ASSESS_SERVER_MEMORY_MB", "0")     # any resident memory is over it
    at.radio[0].set_value("Upload a file").run()
    at.file_uploader[0].upload("busy_upload.csv", _csv(1), "text/csv").run()
    assert not at.exception
    assert any(BUSY in e.value and "Try again in a minute" in e.value for e in at.error)
    assert at.session_state["table"] is None          # nothing half-loaded stays behind


def test_a_new_computation_over_the_budget_shows_the_busy_message_instead_of_the_page(monkeypatch):
    at = open_app()
    at.radio[0].set_value("Upload a file").run()
    at.file_uploader[0].upload("busy_metrics.csv", _csv(2), "text/csv").run()    # read and described in budget
    monkeypatch.setenv("ASSESS_SERVER_MEMORY_MB", "0")
    at.switch_page("views/metrics.py").run()
    assert not at.exception
    assert any(BUSY in w.value for w in at.warning)
