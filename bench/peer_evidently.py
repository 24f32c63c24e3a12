"""Evidently's preset report of each model in a long-format predictions file, as HTML — run by bench/bench_peers.py
in its own virtualenv (bench/.peers-venv), never imported by `assess` or its tests.

    bench/.peers-venv/bin/python bench/peer_evidently.py FILE TASK OUTDIR

TASK is binary (``y_true``, ``score``), regression (``y_true``, ``y_pred``) or multiclass (``y_true``,
``proba_<class>``), the columns bench/bench_ci_speed.py and bench/bench_multiclass_ci.py write. One
``Report([ClassificationPreset()])`` or ``Report([RegressionPreset()])`` per model (Evidently ≥ 0.7 API: a
``Dataset`` with a ``DataDefinition``), each saved with ``save_html``: the peer's whole job, reading the file included.
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import pandas as pd
from evidently import BinaryClassification, DataDefinition, Dataset, MulticlassClassification, Regression, Report
from evidently.presets import ClassificationPreset, RegressionPreset

warnings.simplefilter("ignore")


def definition(task: str, frame: pd.DataFrame) -> tuple[pd.DataFrame, DataDefinition, object]:
    if task == "binary":
        # labels at score >= 0.5, as our report's default decision
        frame = frame.assign(y_pred=(frame["score"] >= 0.5).astype(int))
        return frame, DataDefinition(classification=[BinaryClassification(
            target="y_true", prediction_labels="y_pred", prediction_probas="score", pos_label=1)],
            numerical_columns=["score"]), ClassificationPreset()
    if task == "regression":
        return frame, DataDefinition(regression=[Regression(target="y_true", prediction="y_pred")],
                                     numerical_columns=["y_true", "y_pred"]), RegressionPreset()
    probas = [c for c in frame.columns if c.startswith("proba_")]
    classes = [c.removeprefix("proba_") for c in probas]
    # Evidently names a class's probability column by the class itself; the label is the highest probability
    frame = frame.rename(columns=dict(zip(probas, classes)))
    frame["y_pred"] = frame[classes].idxmax(axis=1)
    return frame, DataDefinition(classification=[MulticlassClassification(
        target="y_true", prediction_labels="y_pred", prediction_probas=classes)],
        categorical_columns=["y_true", "y_pred"], numerical_columns=classes), ClassificationPreset()


def main() -> None:
    path, task, out = Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3])
    table = pd.read_parquet(path) if path.suffix == ".parquet" else pd.read_csv(path)
    for model, rows in table.groupby("model", sort=False):
        frame, data, preset = definition(task, rows.drop(columns=["model", "id"]).reset_index(drop=True))
        snapshot = Report([preset]).run(Dataset.from_pandas(frame, data_definition=data))
        snapshot.save_html(str(out / f"evidently_{task}_{model}.html"))


if __name__ == "__main__":
    main()
