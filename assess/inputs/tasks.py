"""Which task a file holds, and why: from the roles and the values of the ground truth; its classes; the positive class.

`infer_task` recognises the task (binary, multi-class, multi-label, regression, forecast, clustering) with its reason;
`task_classes` lists the classes of a classification task in display order; `infer_positive` picks the positive
class of a binary task with its reason. Each is overridable through `assess.inputs.roles.Overrides`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from assess.inputs.columns import (MAX_CLASSES, MULTILABEL_SEPARATOR, is_continuous, is_numeric, label_strings, label_values,
                            quote, sort_labels, split_sets)
from assess.core.data import Task
from assess.core.errors import AssessError, shorten
from assess.inputs.roles import Roles

_POSITIVE_NAMES = ("1", "true", "yes", "y", "pos", "positive", "t", "1.0")
_NEGATIVE_NAMES = ("0", "false", "no", "n", "neg", "negative", "f", "0.0", "-1")


def infer_task(frame: pd.DataFrame, roles: Roles) -> tuple[Task, str]:
    """The task and the reason for it, from the roles and the values of the ground truth.

    >>> from assess.inputs.roles import detect_roles
    >>> f = pd.DataFrame({"y_true": ["cat", "dog", "cow"], "y_pred": ["cat", "cow", "cow"]})
    >>> infer_task(f, detect_roles(f))
    (<Task.MULTICLASS: 'multiclass'>, '`y_true` has 3 classes (cat, cow, dog)')
    """
    if roles.cluster:
        return Task.CLUSTERING, f"{quote(roles.cluster)} holds cluster assignments"
    if roles.wide_clusterings:
        return Task.CLUSTERING, (f"{len(roles.wide_models)} columns `cluster_<name>` hold the cluster assignments of "
                                 f"{len(roles.wide_models)} clusterings")
    if roles.true_labels:
        return Task.MULTILABEL, f"{len(roles.true_labels)} indicator columns `true_<label>`: one per label"
    if roles.outputs:
        # Forecast metrics read one target; several outputs with time stamps are assessed as regression per output.
        names = ", ".join(quote(n) for n, _, _ in roles.outputs[:4]) + (" …" if len(roles.outputs) > 4 else "")
        return Task.REGRESSION, (f"{len(roles.outputs)} outputs ({names}), each a column of true and one of "
                                 "predicted numbers: multi-output regression")
    if not roles.y_true:
        raise AssessError("no ground-truth column found: name one `y_true` (or `label`, `target`, `actual`), "
                          "or choose it as the Ground truth below")
    col = frame[roles.y_true]
    if not is_numeric(col):
        sample = col.dropna().astype(str).head(1000)
        if sample.str.contains(MULTILABEL_SEPARATOR, regex=False).any():
            example = sample[sample.str.contains(MULTILABEL_SEPARATOR, regex=False)].iloc[0]
            return Task.MULTILABEL, (f"{quote(roles.y_true)} holds label sets separated by "
                                     f"'{MULTILABEL_SEPARATOR}' (e.g. {quote(example)})")
    numbers = _numbers_with_stray_text(col)
    if numbers is not None:
        # a numeric truth with a few text cells stays numeric: validation names those cells, instead of the file
        # being read as hundreds of classes and the predictions as "not a class"
        col = numbers
    if is_continuous(col):
        v = col.dropna().to_numpy(dtype=float)
        what = ("non-integer values" if np.any(v != np.round(v))
                else f"{len(np.unique(v)):,} distinct integers (more than {MAX_CLASSES})")
        if roles.timestamp:
            shared = _stamps_shared(frame, roles)
            if not shared:
                return Task.FORECAST, (f"{quote(roles.y_true)} is numeric with {what}, and "
                                       f"{quote(roles.timestamp)} orders the rows in time")
            return Task.REGRESSION, (f"{quote(roles.y_true)} is numeric with {what}; {quote(roles.timestamp)} "
                                     f"dates the rows but {shared:,} rows share a time stamp with an earlier row of "
                                     "their model, so they are predictions made over time, not one forecast per "
                                     "time step")
        return Task.REGRESSION, f"{quote(roles.y_true)} is numeric with {what}"
    classes = sort_labels(label_values(frame, roles.y_true))
    listed = ", ".join(map(shorten, classes[:6])) + (" …" if len(classes) > 6 else "")
    if len(classes) > 2:
        return Task.MULTICLASS, f"{quote(roles.y_true)} has {len(classes)} classes ({listed})"
    if len(classes) == 2:
        return Task.BINARY, f"{quote(roles.y_true)} has two classes ({listed})"
    return Task.BINARY, f"{quote(roles.y_true)} has a single class ({listed}); read as binary"


def conventional_positive(classes: list[str]) -> tuple[str | None, str]:
    """The class the labels themselves call positive — 1/True/yes/pos, else the one beside 0/False/no — with the
    reason; (None, "") when the names say nothing (then no one can tell which class a lone score column is for)."""
    lower = {c.lower(): c for c in classes}
    for name in _POSITIVE_NAMES:
        if name in lower:
            return lower[name], f"{quote(lower[name])} is the conventional positive label"
    if len(classes) == 2:
        for name in _NEGATIVE_NAMES:
            if name in lower:
                other = next(c for c in classes if c != lower[name])
                return other, f"{quote(other)} is the label other than the conventional negative {quote(lower[name])}"
    return None, ""


def infer_positive(frame: pd.DataFrame, y_true: str, classes: list[str]) -> tuple[str | None, str]:
    """The positive class of a binary task, with the reason: 1/True/yes/pos, else not 0/False/no, else the minority."""
    if not classes:
        return None, ""
    conventional = conventional_positive(classes)
    if conventional[0] is not None:
        return conventional
    if len(classes) == 1:
        return classes[0], f"{quote(classes[0])} is the only class"
    counts = label_strings(frame[y_true]).value_counts()
    a, b = classes[0], classes[1]
    ca, cb = int(counts.get(a, 0)), int(counts.get(b, 0))
    positive = a if ca < cb else b
    return positive, (f"{quote(positive)} is the minority class ({min(ca, cb):,} of {ca + cb:,} rows); "
                      "change it if the other class is the one to detect")


def task_classes(frame: pd.DataFrame, roles: Roles, task: Task) -> list[str]:
    """The classes (labels, for multi-label) of ``task`` in display order; none for regression and forecasts."""
    if task is Task.MULTILABEL:
        if roles.true_labels:
            return [lab for lab, _ in roles.true_labels]
        labels = set()
        for col in (roles.y_true, roles.y_pred):
            if col:
                for labset in pd.unique(split_sets(frame[col])):
                    labels |= labset
        return sort_labels(labels)
    if task in (Task.REGRESSION, Task.FORECAST):
        return []
    if task is Task.CLUSTERING:
        return sort_labels(label_values(frame, roles.y_true)) if roles.y_true else []
    labels = label_values(frame, roles.y_true)
    if roles.y_pred:
        labels |= label_values(frame, roles.y_pred)
    for wm in roles.wide_models:
        if wm.y_pred:
            labels |= label_values(frame, wm.y_pred)
    labels |= {k for k, _ in roles.class_scores}
    return sort_labels(labels)


def _numbers_with_stray_text(col: pd.Series, share: float = 0.95) -> pd.Series | None:
    """``col`` as numbers when it is text of which at least ``share`` of the non-missing cells are numbers (the rest
    typos such as ``abc`` or ``n/a``), and the numbers are continuous; else None."""
    if is_numeric(col) or pd.api.types.is_bool_dtype(col):
        return None
    present = col.dropna()
    if present.empty:
        return None
    # Parsed once per distinct text (a million 'yes'/'no' cells are two parses), then spread back over the cells.
    codes, uniques = pd.factorize(present)
    parsed_uniques = pd.to_numeric(pd.Series(uniques, dtype=object).astype(str).str.strip(), errors="coerce")
    parsed = pd.Series(parsed_uniques.to_numpy()[codes], index=present.index)
    if parsed.notna().mean() < share or parsed.notna().all():
        return None
    numbers = parsed.dropna()
    return numbers if is_continuous(numbers) else None


def _stamps_shared(frame: pd.DataFrame, roles: Roles) -> int:
    """Rows whose time stamp repeats within their model — 0 when every time has at most one row per model (and
    series): a forecast. A forecast with a horizon or origin column repeats its target times by design (each is
    forecast from several origins), so it counts as 0 then."""
    if roles.horizon or roles.origin:
        return 0
    keys = [c for c in (roles.model, roles.series, roles.timestamp) if c]
    return int(frame.duplicated(subset=keys).sum())

