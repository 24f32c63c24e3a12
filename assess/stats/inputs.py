"""What a comparison runs on: the models' predictions from a predictions file, or a tidy table of per-fold scores.

Many users arrive with cross-validation results rather than predictions (SPEC "Command line"): a table with columns
``model``, ``fold`` (optionally ``repeat``) and one numeric column per metric. `read_fold_table` recognises and
checks such a table; `is_fold_table` tells it apart from a predictions file (no ground truth, numeric scores).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from assess.core.data import Predictions
from assess.core.errors import InputError
from assess.inputs.assessment import Assessment
from assess.inputs.columns import normalise_name, quote
from assess.inputs.read import LoadedTable
from assess.inputs.roles import detect_roles

_KEYS = ("model", "fold", "repeat")


def _key_columns(frame: pd.DataFrame) -> dict[str, str]:
    by_norm = {normalise_name(c): c for c in frame.columns}
    return {k: by_norm[k] for k in _KEYS if k in by_norm}


def metric_columns(frame: pd.DataFrame) -> list[str]:
    """Numeric columns that are not model/fold/repeat: the metrics of a fold table."""
    keys = set(_key_columns(frame).values())
    return [c for c in frame.columns if c not in keys and pd.api.types.is_numeric_dtype(frame[c])
            and not pd.api.types.is_bool_dtype(frame[c])]


def is_fold_table(frame: pd.DataFrame) -> bool:
    """A table of per-fold scores: ``model`` and ``fold`` columns, a numeric metric column, no ground truth."""
    keys = _key_columns(frame)
    if not ("model" in keys and "fold" in keys and metric_columns(frame)):
        return False
    roles = detect_roles(frame)  # ground truth is `y_true`, or a multi-label file's `true_<label>` columns
    return roles.y_true is None and not roles.true_labels


def read_fold_table(table: LoadedTable) -> tuple[pd.DataFrame, list[str]]:
    """The fold table with canonical ``model``/``fold``/``repeat`` column names, and its metric columns.

    Every rule gives one message naming the file, the column and the first offending row: a missing key column, a
    missing or non-finite score, a model with a fold listed twice.
    """
    frame, name = table.frame, table.name
    keys = _key_columns(frame)
    for needed in ("model", "fold"):
        if needed not in keys:
            raise InputError(f"is not a per-fold scores table: it has no `{needed}` column (expected columns "
                             "`model`, `fold`, optionally `repeat`, and one numeric column per metric)", file=name)
    metrics = metric_columns(frame)
    if not metrics:
        raise InputError("has no numeric metric column beside `model` and `fold`", file=name)
    out = frame.rename(columns={v: k for k, v in keys.items()})
    for col in ("model", "fold"):
        missing = out[col].isna().to_numpy()
        if missing.any():
            raise InputError(f"has {int(missing.sum())} missing values (first at row {int(np.argmax(missing)) + 1})",
                             file=name, column=keys[col])
    for metric in metrics:
        values = out[metric].to_numpy(dtype=float)
        bad = ~np.isfinite(values)
        if bad.any():
            row = int(np.argmax(bad))
            raise InputError(f"has {int(bad.sum())} missing or non-finite scores (first at row {row + 1}, model "
                             f"{quote(out['model'].iloc[row])})", file=name, column=metric)
    block = ["model", "fold"] + (["repeat"] if "repeat" in out else [])
    dup = out.duplicated(block, keep="first").to_numpy()
    if dup.any():
        row = int(np.argmax(dup))
        raise InputError(f"lists fold {quote(out['fold'].iloc[row])} of model {quote(out['model'].iloc[row])} twice "
                         f"(first repeat at row {row + 1})", file=name, column=keys["fold"])
    out["model"] = out["model"].astype(str)
    return out, metrics


def comparison_predictions(assessment: Assessment, models, *, output: str | None = None) -> dict[str, Predictions]:
    """{model: Predictions} as the tests compare them — one home for the command line, the Compare page and the
    report, so the three test the same thing.

    A multi-output regression is compared on the uniform average over its outputs by default, the value ``metrics``
    and the report's headline give (`assess.metrics.multioutput`): ``y_true``/``y_pred`` hold one column per output,
    shape (n, K), so a per-row loss is the mean of the outputs' losses, :math:`\\ell_i = \\frac1K \\sum_k |y_{ik} -
    \\hat y_{ik}|`, whose mean over rows is the average MAE (every paired test of losses applies), and a metric is the
    mean of the outputs' metrics (`assess.stats.bridge.registry_metric`). ``target`` is then the tuple of the
    outputs' ground-truth columns (the sentences say the units are averaged over them). ``output`` names one output
    to compare the models on it alone."""
    if not assessment.outputs or output is not None:
        return {m: assessment.predictions(m, output=output) for m in models}
    out = {}
    for m in models:
        parts = [assessment.predictions(m, output=o) for o in assessment.outputs]
        out[m] = replace(parts[0], y_true=np.column_stack([p.y_true for p in parts]),
                         y_pred=np.column_stack([p.y_pred for p in parts]), lower=None, upper=None,
                         target=tuple(p.target for p in parts))
    return out
