"""A multi-label macro average that leaves undefined labels out says so in every output of ``python -m assess
metrics``: the JSON's ``"notes"``, the CSV's ``note`` column and the text table."""

import io
import json

import numpy as np
import pandas as pd
import pytest
from sklearn import metrics as skm

from assess.cli import main

# label "rare" is neither true nor predicted in any row: its precision (0/0) is undefined, and scikit-learn's
# zero_division=np.nan leaves it out of the macro average: (1/1 + 2/3) / 2 = 0.8333 over labels a and b
FRAME = pd.DataFrame({"true_a": [1, 0, 1, 0], "true_b": [0, 1, 1, 0], "true_rare": [0, 0, 0, 0],
                      "pred_a": [1, 0, 0, 0], "pred_b": [0, 1, 1, 1], "pred_rare": [0, 0, 0, 0]})
NOTE = "precision is undefined for label 'rare' (never predicted in y_pred); the macro average leaves it out"


def run(capsys, path, *argv):
    capsys.readouterr()
    assert main(["metrics", str(path), "--quiet", "--metrics", "precision_macro", "hamming_loss", *argv]) == 0
    return capsys.readouterr().out


def test_macro_note_reaches_json_csv_and_table(capsys, tmp_path):
    path = tmp_path / "labels.csv"
    FRAME.to_csv(path, index=False)
    y, yp = FRAME.filter(like="true_").to_numpy(), FRAME.filter(like="pred_").to_numpy()
    want = skm.precision_score(y, yp, average="macro", zero_division=np.nan)
    assert want == pytest.approx((1 + 2 / 3) / 2)
    doc = json.loads(run(capsys, path))
    assert doc["models"]["labels"]["precision_macro"] == pytest.approx(want, abs=1e-12)
    assert doc["notes"]["labels"]["precision_macro"] == NOTE
    csv = pd.read_csv(io.StringIO(run(capsys, path, "--format", "csv"))).set_index("key")
    assert csv.loc["precision_macro", "note"] == NOTE and pd.isna(csv.loc["hamming_loss", "note"])
    table = run(capsys, path, "--format", "table")
    line = next(x for x in table.splitlines() if "precision_macro" in x)
    assert "0.833" in line and f"(note: {NOTE})" in line
