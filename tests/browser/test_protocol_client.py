"""The load bench's browserless client (bench/protocol_client.py) drives the real server as a browser does: two
sessions upload different files at once through Streamlit's own upload and websocket messages, and each gets its own
file's pages. If Streamlit changes its protocol, `bench/bench_sessions.py --client protocol` would measure nothing;
this fails first. (Marked browser: it needs the app served as `make run` serves it, as the journeys do.)"""

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pandas as pd
import pytest

from bench.protocol_client import journey

pytestmark = pytest.mark.browser

PAGES = [("Data", "Task and roles"), ("Metrics", "All models"), ("Curves", "Threshold explorer")]


def predictions(path, rows: int, models: list[str], seed: int) -> None:
    rng = np.random.default_rng(seed)
    y = rng.random(rows) < 0.4
    frame = pd.DataFrame({"y_true": np.where(y, "yes", "no")})
    for gap, model in zip((0.4, 0.2, 0.3), models):
        frame[f"score_{model}"] = np.clip(rng.normal(0.3 + gap * y, 0.2), 0, 1).round(4)
    frame.to_csv(path, index=False)


def test_two_protocol_sessions_each_get_their_own_file(app_url, tmp_path):
    files = {"north.csv": (1_234, ["alpha", "beta"]), "south.csv": (2_345, ["gamma", "delta", "omega"])}
    for seed, (name, (rows, models)) in enumerate(files.items()):
        predictions(tmp_path / name, rows, models, seed)

    def one(name: str):
        # the Data step must name this session's file and its row count; Metrics and Curves their headings
        pages = [("Data", f"{files[name][0]:,} rows"), *PAGES[1:]]
        return journey(app_url, tmp_path / name, pages, "Predictions file", "Upload a file", timeout=120)

    with ThreadPoolExecutor(2) as pool:
        steps = dict(zip(files, pool.map(one, files)))
    for name, by_page in steps.items():
        assert list(by_page) == ["Data", "Metrics", "Curves"]
        seconds, received, charts, _ = by_page["Curves"]
        assert received > 10_000 and charts >= 8, (name, by_page["Curves"])
