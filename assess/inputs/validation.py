"""What is wrong with an assessment input, in sentences a user can act on.

`validate` returns `Problem`s: an ``error`` blocks the assessment (nothing sensible can be computed), a ``warning``
informs (some numbers will be undefined or less trustworthy). Each names the column, how many rows are affected and
the first of them, numbered from 1 for the first data row. All checks are vectorised: a million rows take a
fraction of a second.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from assess.core.data import Task
from assess.core.problem import Problem
from assess.inputs.columns import HEAD_ROWS, is_numeric, label_codes, label_strings, not_a_number, numeric_column, quote
from assess.inputs.forecast_checks import check_forecast
from assess.inputs.probabilities import outside_unit_interval, rows_not_summing_to_one
from assess.inputs.roles import Roles
from assess.inputs.score_direction import check_score_direction

__all__ = ["Problem", "validate", "MIN_ROWS_NORMAL", "MAX_ASSESSED_CLASSES", "UNLABELLED"]

#: The code of the warning that counts the unlabelled rows of a classification file (an empty ground truth).
UNLABELLED = "unlabelled_rows"

#: Below this many rows a normal-approximation interval (Wilson, CLT) is unreliable (ISO 4213 7.8, Iocchi slides).
MIN_ROWS_NORMAL = 30
#: Most classes a classification file may have: its (k, k) confusion matrix stays within 32 MB (2,000² cells of 8
#: bytes); bootstrap intervals stop earlier, at `assess.metrics.evaluate.MAX_BOOTSTRAP_CLASSES`. Above it the
#: assessment is refused with a message, never silently re-read as another task.
MAX_ASSESSED_CLASSES = 2_000
_SHOW_ROWS = 5


def _first(mask: np.ndarray, positions: np.ndarray | None = None) -> tuple[int, tuple[int, ...], int | None]:
    """(count, first rows as 1-based numbers, index of the first offending element) of a boolean mask."""
    hits = np.flatnonzero(mask)
    if hits.size == 0:
        return 0, (), None
    rows = hits[:_SHOW_ROWS] if positions is None else positions[hits[:_SHOW_ROWS]]
    return int(hits.size), tuple(int(r) + 1 for r in rows), int(hits[0])


def _plural(n: int, phrase: str) -> str:
    """``_plural(2, "value{s} outside [0, 1]")`` → ``"2 values outside [0, 1]"``; a phrase without {s} gets an s."""
    if "{s}" not in phrase:
        phrase += "{s}"
    return f"{n:,} " + phrase.format(s="" if n == 1 else "s", verb="is" if n == 1 else "are")


@dataclass(frozen=True)
class _Input:
    """What `validate` checks, as `describe` found it (before the `assess.inputs.assessment.Assessment` exists)."""

    frame: pd.DataFrame
    roles: Roles
    task: Task
    classes: tuple[str, ...]
    positive: str | None
    models: tuple[str, ...]
    model_rows: dict[str, np.ndarray]


class _Checker:
    def __init__(self, frame: pd.DataFrame):
        self.frame = frame
        self.problems: list[Problem] = []
        self._codes: dict[str, tuple[np.ndarray, tuple[str, ...]]] = {}

    def codes(self, column) -> tuple[np.ndarray, tuple[str, ...]]:
        """`label_codes` of a column, computed once per validation (the truth is read by several checks)."""
        if column not in self._codes:
            self._codes[column] = label_codes(self.frame[column])
        return self._codes[column]

    def add(self, level, code, column, mask, what, *, example=None, positions=None, suffix=""):
        count, rows, first = _first(np.asarray(mask), positions)
        if not count:
            return
        if example is None and column is not None and first is not None:
            idx = first if positions is None else positions[first]
            example = self.frame[column].iloc[idx]
        shown = "" if example is None or (isinstance(example, float) and np.isnan(example)) else f": {quote(example)}"
        where = f"row {rows[0]}" if count == 1 else f"first at row {rows[0]}"
        col = f"column {quote(column)} " if column else "the file "
        self.problems.append(Problem(level, code, f"{col}has {_plural(count, what)} ({where}{shown}){suffix}",
                                     column, count, rows))

    def note(self, level, code, message, column=None, count=0, rows=()):
        self.problems.append(Problem(level, code, message, column, count, rows))

    # --- column-level checks ----------------------------------------------------------------------------------
    def missing(self, column, what="missing value{s}", level="error", suffix=""):
        if column:
            self.add(level, "missing_values", column, self.frame[column].isna().to_numpy(), what, suffix=suffix)

    def numeric(self, column, *, role) -> np.ndarray | None:
        """Check a numeric role; returns its float values (NaN where missing or not a number)."""
        if not column:
            return None
        values = numeric_column(self.frame, column)
        not_number = not_a_number(self.frame, column, values)
        self.add("error", "not_numeric", column, not_number, "value{s} that {verb} not a number",
                 suffix=f"; the {role} must be numeric")
        # Text that is not a number is reported once, above, not again as missing.
        self.add("error", "missing_values", column, np.isnan(values) & ~not_number, "missing value{s}",
                 suffix=f" in the {role}")
        infinite = np.isinf(values)
        self.add("error", "not_finite", column, infinite, "infinite value{s}", suffix=f" in the {role}")
        return values

    def probability(self, column, values, *, level="warning", affected="probability metrics (log loss, Brier "
                                                                         "score, calibration) will be undefined"):
        found = None if values is None else outside_unit_interval(values, f"column {quote(column)}")
        if found is not None:
            self.note(level, "score_out_of_range", f"{found.message}; read as a real-valued score, so {affected}",
                      column, found.count, found.rows)


def validate(frame: pd.DataFrame, roles: Roles, task: Task, *, classes=(), positive: str | None = None,
             models: tuple[str, ...], model_rows: dict[str, np.ndarray]) -> list[Problem]:
    """All problems of an assessment input, errors first.

    ``classes`` and ``positive`` are the task's classes and positive class (binary); ``models`` the model names and
    ``model_rows`` the row positions of each, as `assess.inputs.assessment.describe` found them.
    """
    c = _Checker(frame)
    a = _Input(frame, roles, task, tuple(classes), positive, tuple(models), model_rows)
    r = roles

    # Shared per-sample roles.
    if r.model:
        c.missing(r.model, suffix=" in the model name")
    weights = c.numeric(r.weight, role="weight")
    if weights is not None:
        c.add("error", "negative_weight", r.weight, weights < 0, "negative weight{s}", example=None)
        _check_some_weight(c, a, weights)
    if r.fold:
        c.missing(r.fold, suffix=" in the fold", level="warning")
    if r.repeat:
        c.missing(r.repeat, suffix=" in the repeat", level="warning")
        _check_repeats(c, a)

    if task.is_classification:
        _check_classification(c, a)
        if not any(p.level == "error" for p in c.problems):
            truth = c.codes(r.y_true) if r.y_true else None
            c.problems.extend(check_score_direction(frame, r, task, classes=a.classes, positive=positive,
                                                    models=a.models, model_rows=model_rows, truth_codes=truth))
    elif task in (Task.REGRESSION, Task.FORECAST) and r.outputs:
        for name, true_col, pred_col in r.outputs:
            c.numeric(true_col, role=f"ground truth of output {quote(name)}")
            c.numeric(pred_col, role=f"prediction of output {quote(name)}")
        used = r.used_columns()
        unpaired = [col for col in frame.columns if col not in used
                    and str(col).lower().startswith(("y_true_", "y_pred_"))]
        if unpaired:
            c.note("warning", "unpaired_output", f"{', '.join(map(quote, unpaired[:4]))}"
                                                 f"{' …' if len(unpaired) > 4 else ''} "
                                                 f"{'has' if len(unpaired) == 1 else 'have'} no partner "
                                                 "`y_true_<name>`/`y_pred_<name>` column and "
                                                 f"{'is' if len(unpaired) == 1 else 'are'} not assessed",
                   column=unpaired[0], count=len(unpaired))
    elif task in (Task.REGRESSION, Task.FORECAST):
        c.numeric(r.y_true, role="ground truth")
        pred_cols = [wm.y_pred for wm in r.wide_models if wm.y_pred] or [r.y_pred]
        if not any(pred_cols):
            c.note("error", "no_prediction", "no predicted value column found: name one `y_pred` (or "
                                             "`prediction`), or choose it")
        for col in pred_cols:
            c.numeric(col, role="prediction")
        if task is Task.FORECAST:
            # time stamps, horizons and series (assess.inputs.forecast_checks): unparseable or duplicated stamps, gaps
            c.problems.extend(check_forecast(frame, r, origin=r.origin))
    elif task is Task.CLUSTERING:
        _check_clustering(c, a)

    _check_models(c, a)
    small = {m: len(rows) for m, rows in a.model_rows.items() if len(rows) < MIN_ROWS_NORMAL}
    if small:
        m, k = next(iter(small.items()))
        who = f"model {quote(m)} has " if len(a.models) > 1 else "the file has "
        c.note("warning", "few_rows", f"{who}{_plural(k, 'row')}, fewer than {MIN_ROWS_NORMAL}: normal-approximation "
                                      "intervals (Wilson, CLT) are unreliable; prefer Clopper–Pearson or the "
                                      "bootstrap", count=k)
    return sorted(c.problems, key=lambda p: p.level != "error")


#: More distinct clusters than this share of a model's rows reads as an id column, not a clustering (warning).
MOSTLY_SINGLETONS = 0.5


def _check_clustering(c: _Checker, a: _Input) -> None:
    """Clusters present in every row; reference classes where given; numeric, complete features; and the
    degenerate clusterings (a single cluster, nearly one cluster per row) said up front — per column
    ``cluster_<name>`` of a wide file, per model of a long one."""
    r, frame = a.roles, a.frame
    if not r.cluster and not r.wide_clusterings:
        # the task chosen by hand (Data page, --task clustering) for a file without cluster assignments: without this
        # the checks below read the column `None` (KeyError, a page crash and exit 70)
        c.note("error", "no_clusters", "no cluster-assignment column for the clustering task: name one `cluster` (or "
                                       "`cluster_id`, or one `cluster_<name>` per clustering), or choose it as the "
                                       "Cluster below")
        return
    if r.wide_clusterings:
        per_model = [(wm.name, wm.y_pred, np.arange(len(frame))) for wm in r.wide_models]
    else:
        per_model = [(model, r.cluster, rows) for model, rows in a.model_rows.items()]
    labels = {col: label_strings(frame[col]) for _, col, _ in per_model}   # each column once: long files share one
    for col in labels:
        c.missing(col, suffix=" in the cluster assignment")
    if r.y_true:
        c.missing(r.y_true, level="warning", suffix="; external indices use the rows with a reference class")
    for col in r.features:
        values = numeric_column(frame, col)
        not_number = not_a_number(frame, col, values)
        c.add("warning", "not_numeric", col, not_number, "value{s} that {verb} not a number",
              suffix="; internal indices (silhouette, Davies–Bouldin, Calinski–Harabasz) need numeric features")
        c.add("warning", "missing_values", col, ~np.isfinite(values) & ~not_number, "missing or infinite value{s}",
              suffix="; internal indices (silhouette, Davies–Bouldin, Calinski–Harabasz) are left out")
    unused = [col for col in (r.y_pred, r.score, *(c for _, c in r.class_scores)) if col]
    if unused:
        by = quote(r.cluster) if r.cluster else "the columns `cluster_<name>`"
        c.note("warning", "roles_mixed", f"{', '.join(map(quote, unused[:3]))} "
                                         f"{'is' if len(unused) == 1 else 'are'} not used: {by} make"
                                         f"{'s' if r.cluster else ''} this a clustering (its clusters are compared "
                                         "with the reference classes); to assess predicted labels instead, choose "
                                         "the classification task or unset the cluster role",
               column=unused[0], count=len(unused))
    for model, col, rows in per_model:
        present = labels[col].iloc[rows].dropna()
        k, n = int(present.nunique()), len(present)
        who = f"model {quote(model)}" if len(a.models) > 1 else f"column {quote(col)}"
        if k == 1:
            c.note("warning", "single_cluster", f"{who} puts every row in one cluster ({quote(present.iloc[0])}): "
                                                "internal indices are undefined and external ones say only that "
                                                "nothing was separated", column=col, count=n)
        elif n >= 4 and k > MOSTLY_SINGLETONS * n:
            c.note("warning", "mostly_singletons",
                   f"{who} has {k:,} distinct clusters for {n:,} rows: nearly one cluster per row — is "
                   f"{quote(col)} an id? Purity and homogeneity reach 1 for singletons; read the adjusted "
                   "indices (ARI, AMI)", column=col, count=k)


def _check_labelled(c: _Checker, column) -> None:
    """A row with an empty truth is *unlabelled* (its label has not arrived): `assess.inputs.assessment.describe`
    sets it aside, every metric reads the labelled rows, and `assess.analyses.estimation` estimates the unlabelled
    rows' performance from their scores. A warning counts them; a file with no labelled row at all is an error, since
    nothing can be measured and the scores' calibration, which the estimate rests on, cannot be checked."""
    empty = c.frame[column].isna().to_numpy()
    if empty.size and empty.all():
        c.note("error", "no_labelled_rows", f"column {quote(column)} is empty in every row: no row is labelled, so "
                                            "nothing can be measured, and estimating the performance needs labelled "
                                            "rows to check the scores' calibration on", column=column,
               count=int(empty.size), rows=tuple(range(1, min(empty.size, _SHOW_ROWS) + 1)))
        return
    c.add("warning", UNLABELLED, column, empty, "empty value{s}",
          suffix=" in the ground truth: unlabelled rows, left out of every measured metric (their performance is "
                 "estimated from the scores where the file has probabilities)")


def _check_classification(c: _Checker, a: _Input) -> None:
    r, task = a.roles, a.task
    if task is Task.MULTILABEL and r.true_labels:
        for _, col in r.true_labels + r.pred_labels:
            c.missing(col)
        for _, col in r.label_scores:
            c.probability(col, c.numeric(col, role="label score"))
        if not r.pred_labels and not r.label_scores:
            c.note("error", "no_prediction", "no `pred_<label>` or `score_<label>` columns found for the "
                                             "`true_<label>` columns")
        else:
            _check_every_label_predicted(c, a)
        return

    if task is not Task.MULTILABEL:  # in label-set files an empty cell is the empty set, a legitimate value
        _check_labelled(c, r.y_true)
    pred_cols = [wm.y_pred for wm in r.wide_models if wm.y_pred] or ([r.y_pred] if r.y_pred else [])
    score_cols = [wm.score for wm in r.wide_models if wm.score] or ([r.score] if r.score else [])
    if not pred_cols and not score_cols and not r.class_scores:
        c.note("error", "no_prediction", "no predicted label or score column found: name one `y_pred` (or "
                                         "`prediction`), `score`, or `proba_<class>` columns, or choose them")
        return
    if task is Task.MULTILABEL:
        _check_each_model_predicts(c, a)
        return
    if len(a.classes) > MAX_ASSESSED_CLASSES:
        listed = ", ".join(map(quote, a.classes[:3]))
        c.note("error", "too_many_classes",
               f"{quote(r.y_true)} and the predictions hold {len(a.classes):,} distinct classes ({listed} …), more "
               f"than the {MAX_ASSESSED_CLASSES:,} a classification assessment handles (its confusion matrix has a "
               f"cell per pair of classes); if {quote(r.y_true)} is a number to predict, choose the regression task",
               column=r.y_true, count=len(a.classes))
        return
    for col in pred_cols:
        c.missing(col, suffix=" in the predicted label")
    if not _check_each_model_predicts(c, a):
        return
    _check_labels_are_classes(c, a, [r.y_true] + pred_cols)
    truth_codes, true_labels = c.codes(r.y_true)
    true_classes = set(true_labels)
    if len(true_classes) == 1:
        only = next(iter(true_classes))
        c.note("warning", "single_class", f"column {quote(r.y_true)} has a single class ({quote(only)}): ROC AUC, "
                                          "recall of the other class and other two-class metrics are undefined",
               column=r.y_true, count=int(np.count_nonzero(truth_codes >= 0)))
    for col in pred_cols:
        unseen, example = _labels_outside(*c.codes(col), true_classes)
        c.add("warning", "unseen_prediction", col, unseen, "predicted label{s} never seen in the ground truth",
              example=example)

    if not score_cols and not r.class_scores and not r.wide_models:
        _check_unused_scores(c, a)
    for col in score_cols:
        values = c.numeric(col, role="score")
        if task is Task.BINARY:
            c.probability(col, values)
        _check_constant(c, a, col, values)
    if r.class_scores:
        by_class = dict(r.class_scores)
        missing_classes = [k for k in a.classes if k not in by_class]
        lacking = f"no probability column for {_plural(len(missing_classes), 'class')} " \
                  f"({', '.join(map(quote, missing_classes[:5]))}{' …' if len(missing_classes) > 5 else ''})"
        if missing_classes and task is Task.MULTICLASS and pred_cols:
            c.note("warning", "missing_class_scores", f"{lacking}: score-based metrics are off until every class "
                                                      "has one", count=len(missing_classes))
        elif missing_classes and task is Task.MULTICLASS:
            c.note("error", "missing_class_scores",
                   f"{lacking} and no predicted-label column: add a `proba_<class>` column for each class, or a "
                   "`y_pred` column", count=len(missing_classes))
        elif missing_classes and task is Task.BINARY and a.positive in missing_classes and not score_cols:
            # P(positive) = 1 − P(negative) holds only for the one column of the other class of a two-class
            # model; a column of a class the truth lacks, or several (a model of three classes), leave no score
            # of the positive class — and the readers would pick a column by chance (Assessment, engine.binary).
            negative = next(k for k in a.classes if k != a.positive)
            if len(r.class_scores) == 1 and r.class_scores[0][0] == negative:
                col = r.class_scores[0][1]
                c.note("warning", "complement_score",
                       f"{lacking}: the score of the positive class {quote(a.positive)} is read as 1 − {quote(col)}",
                       column=col)
            else:
                given = ", ".join(f"{quote(col)} for {quote(k)}" for k, col in r.class_scores[:4]) + \
                    (" …" if len(r.class_scores) > 4 else "")
                c.note("error", "no_positive_score",
                       f"no probability column for the positive class {quote(a.positive)}, only {given}: its score "
                       f"is 1 − the probability of {quote(negative)} only when that is the one other class. Add a "
                       f"column for {quote(a.positive)}, unset the per-class score columns (labels are then "
                       "assessed), or choose the multi-class task",
                       column=r.class_scores[0][1], count=len(r.class_scores))
        matrix = []
        for k, col in r.class_scores:
            values = c.numeric(col, role=f"probability of class {quote(k)}")
            c.probability(col, values, affected="log loss and the Brier score will be undefined")
            matrix.append(values)
        if task in (Task.MULTICLASS, Task.BINARY) and not missing_classes and matrix:
            found = rows_not_summing_to_one(np.column_stack(matrix), "the file")
            cols = ", ".join(quote(col) for _, col in r.class_scores[:3]) + (" …" if len(r.class_scores) > 3 else "")
            labels = ("argmax labels are unaffected" if task is Task.MULTICLASS else
                      f"the positive class's column {quote(dict(r.class_scores).get(a.positive, ''))} is the score")
            if found is not None:
                c.note("warning", "proba_not_normalised",
                       f"{found.message} in {cols}; log loss and Brier score use them as given, {labels}",
                       count=found.count, rows=found.rows)


def _check_unused_scores(c: _Checker, a: _Input) -> None:
    """Columns of decimals in [0, 1] that no role uses, in a file without scores: likely per-class probabilities under
    names nothing recognised (``prob_benign``), which would otherwise be ignored while the page says "no problems"."""
    used = a.roles.used_columns()
    unused = []
    for col in a.frame.columns:
        if col in used or not is_numeric(a.frame[col]):
            continue
        v = a.frame[col].to_numpy(dtype=float, na_value=np.nan)
        v = v[np.isfinite(v)]
        if v.size and v.min() >= 0 and v.max() <= 1 and np.any(v != np.round(v)):
            unused.append(str(col))
    if unused:
        listed = ", ".join(map(quote, unused[:4])) + (" …" if len(unused) > 4 else "")
        c.note("warning", "unused_scores",
               f"{listed} {'holds' if len(unused) == 1 else 'hold'} decimals in [0, 1] but "
               f"{'has' if len(unused) == 1 else 'have'} no role, so score-based metrics (ROC AUC, log loss, curves) "
               "are off: if they are class probabilities, choose them under 'Per-class score columns' (or as the "
               "score)", column=unused[0], count=len(unused))


def _check_repeats(c: _Checker, a: _Input) -> None:
    """Repeated cross-validation said once, with its design (r repeats × k folds, from the first model's rows) and
    what the metrics are on it: rows of all repeats pooled, so every sample counts r times — which the point value
    bears (for a mean over rows such as accuracy it is the mean of the repeats' values) but an interval over rows
    does not (it takes the r·n rows as independent)."""
    r, frame = a.roles, a.frame
    if not r.fold:
        c.note("warning", "repeat_without_fold",
               f"column {quote(r.repeat)} marks repeats but no column marks the cross-validation folds: per-fold "
               "metrics and the cross-validation tests need a `fold` column (or choose it)", column=r.repeat)
        return
    rows = next(iter(a.model_rows.values()), np.arange(len(frame)))
    repeats, folds = label_codes(frame[r.repeat])[0][rows], label_codes(frame[r.fold])[0][rows]
    present = (repeats >= 0) & (folds >= 0)                      # code -1: a missing value, warned of above
    blocks = pd.DataFrame({"repeat": repeats[present], "fold": folds[present]}).drop_duplicates()
    per_repeat = blocks.groupby("repeat")["fold"].nunique()
    if len(per_repeat) < 2:
        return
    n, lo, hi = len(per_repeat), int(per_repeat.min()), int(per_repeat.max())
    design = f"{n} repeats × {lo} folds" if lo == hi else f"{n} repeats of {lo} to {hi} folds"
    c.note("warning", "repeated_cv",
           f"repeated cross-validation: {design} ({quote(r.repeat)}, {quote(r.fold)}), each sample scored once per "
           f"repeat{', so rows pair by sample id and repeat' if r.id else ''}. Metrics pool the rows of all {n} "
           f"repeats (every sample counted {n} times); their intervals take those rows as independent and are too "
           "narrow — the per-fold table's Nadeau–Bengio corrected interval and the cross-validation tests "
           "(corrected resampled t"
           + (", 5×2cv" if (n, lo, hi) == (5, 2, 2) else "") + ") account for the repeats",
           column=r.repeat, count=n)


def _check_some_weight(c: _Checker, a: _Input, weights: np.ndarray) -> None:
    """Every model needs a row of positive weight: a weighted mean over zero total weight is 0/0 for every metric."""
    column = a.roles.weight
    if not np.any(weights > 0):
        c.note("error", "zero_weights", f"{quote(column)} is zero for every row; nothing to assess", column=column,
               count=len(weights))
        return
    for model, rows in a.model_rows.items():
        if len(rows) and not np.any(weights[rows] > 0):
            c.note("error", "zero_weights", f"{quote(column)} is zero for every row of model {quote(model)}; "
                                            "nothing to assess", column=column, count=len(rows))
            return


def _model_columns(a: _Input) -> list[tuple[str, str | None, str | None]]:
    """(model, predicted-label column, score column) of each model, as `assess.inputs.assessment.Assessment` encodes them."""
    r = a.roles
    if r.wide_models:
        return [(wm.name, wm.y_pred, wm.score) for wm in r.wide_models]
    return [(model, r.y_pred, r.score) for model in a.models]


def _check_each_model_predicts(c: _Checker, a: _Input) -> bool:
    """Every model has predicted labels or scores its task can use; else one error naming the model and the fix.

    This mirrors what `assess.inputs.assessment.Assessment` encodes: a multi-class model's scores are the complete set of
    ``proba_<class>`` columns (a single score column cannot rank k classes; a wide file's ``score_<model>`` neither);
    a label-set (``a|b``) file's predictions are a label-set column. Returns False when it found an error.
    """
    r, task = a.roles, a.task
    for model, pred_col, score_col in _model_columns(a):
        if pred_col:
            continue
        if task is Task.BINARY and (score_col or r.class_scores):
            continue
        if task is Task.MULTICLASS and r.class_scores and not r.wide_models:
            continue  # complete, or `missing_class_scores` below names the classes without a column
        who = f"model {quote(model)} has" if r.wide_models or len(a.models) > 1 else "the file has"
        if task is Task.MULTILABEL:
            why = (f"{who} no predicted label-set column: the ground truth {quote(r.y_true)} holds label sets "
                   "(e.g. a|b), so the predictions must be label sets too (a `y_pred` column)")
        elif score_col:
            why = (f"{who} one score column {quote(score_col)} but no predicted-label column, and one score cannot "
                   f"rank {len(a.classes):,} classes{_classes_seen(c, a)}: add a `y_pred` column, or one "
                   "`proba_<class>` column per class")
        else:
            why = f"{who} no predicted-label column and no usable scores: add a `y_pred` column"
        c.note("error", "no_prediction", why, column=score_col)
        return False
    return True


def _classes_seen(c: _Checker, a: _Input) -> str:
    """The truth's classes for a message, and the rarest one's rows when it is a stray (a "Total" row under a
    spreadsheet's table): " (`0`, `1`, `Total`; `Total` only in row 7)"."""
    codes, labels = c.codes(a.roles.y_true)
    counts = np.bincount(codes[(codes >= 0) & (codes < len(labels))], minlength=len(labels))   # missing: -1
    listed = ", ".join(quote(x) for x in labels[:6]) + (" …" if len(labels) > 6 else "")
    rarest = int(np.argmin(counts)) if len(labels) else 0
    if len(labels) and counts[rarest] <= 2 and counts.max() > 10 * counts[rarest]:
        _, rows, _ = _first(codes == rarest)
        where = " and ".join(f"{r:,}" for r in rows[:2])
        return f" ({listed}; {quote(labels[rarest])} only in row{'s' if len(rows) > 1 else ''} {where})"
    return f" ({listed})"


def _check_every_label_predicted(c: _Checker, a: _Input) -> None:
    """A multi-label indicator file needs a ``pred_<label>`` for every label, or a ``score_<label>`` for every one."""
    r = a.roles
    lacking_pred = [lab for lab, _ in r.true_labels if lab not in dict(r.pred_labels)]
    lacking_score = [lab for lab, _ in r.true_labels if lab not in dict(r.label_scores)]
    if lacking_pred and lacking_score:
        lacking = lacking_pred if r.pred_labels else lacking_score
        kind = "pred" if r.pred_labels else "score"
        listed = ", ".join(map(quote, lacking[:5])) + (" …" if len(lacking) > 5 else "")
        c.note("error", "no_prediction",
               f"{_plural(len(lacking), 'label')} ({listed}) {'has' if len(lacking) == 1 else 'have'} a "
               f"`true_<label>` column but no `{kind}_<label>` column: add one for every label",
               count=len(lacking))


def _labels_outside(codes: np.ndarray, labels: tuple[str, ...], allowed: set) -> tuple[np.ndarray, str | None]:
    """(rows whose label is present but not in ``allowed``, the first such label): on the column's `label_codes`,
    without a string per row."""
    outside_label = np.array([x not in allowed for x in labels] + [False], dtype=bool)
    outside = outside_label[codes]
    return outside, (labels[codes[np.argmax(outside)]] if outside.any() else None)


def _check_labels_are_classes(c: _Checker, a: _Input, columns) -> None:
    """Every label of the truth and the predictions is one of the task's classes.

    A column of decimals (or of more than `assess.inputs.columns.MAX_CLASSES` distinct numbers) is not read as labels
    (`assess.inputs.columns.label_values`), so its values are no class and would be encoded as "no class": an error here,
    rather than a prediction counted silently as the negative class or a crash in a metric.
    """
    classes = set(a.classes)
    for col in columns:
        outside, example = _labels_outside(*c.codes(col), classes)
        c.add("error", "not_a_class", col, outside, "value{s} that {verb} not a class of this task",
              example=example,
              suffix="; numbers with decimals (or many distinct numbers) are not read as class labels: if the "
                     "column holds scores, choose it as the score")


def _check_constant(c: _Checker, a: _Input, col: str, values) -> None:
    if values is None:
        return
    for model, rows in a.model_rows.items():
        head = values[rows[:HEAD_ROWS]]
        head = head[np.isfinite(head)]
        if head.size > 1 and np.any(head != head[0]):
            continue  # two different scores among the first rows: not constant, no pass over every row
        v = values[rows]
        v = v[np.isfinite(v)]
        if v.size > 1 and np.all(v == v[0]):
            who = f" for model {quote(model)}" if len(a.models) > 1 and a.roles.model else ""
            c.note("warning", "constant_score", f"column {quote(col)} is constant ({v[0]:g}){who}: ROC AUC is 0.5 "
                                                "and every curve is a single step", column=col, count=int(v.size))


def _check_models(c: _Checker, a: _Input) -> None:
    r, frame = a.roles, a.frame
    if r.id:
        c.missing(r.id, suffix=" in the sample id")
        ids = id_codes(frame[r.id])
        # a row repeats when its (model, id[, split, repeat]) codes do: missing model or split is a value of its own,
        # as "" was; one id in both the train and the test rows is leakage, for the Controls page to report. Repeated
        # cross-validation scores each sample once per repeat: its rows pair by (id, repeat).
        keys = {"id": ids, **{role: label_codes(frame[col])[0] for role, col in (("model", r.model),
                                                                                  ("split", r.split),
                                                                                  ("repeat", r.repeat)) if col}}
        dup = pd.DataFrame(keys, copy=False).duplicated(keep="first").to_numpy() & (ids >= 0)
        within = " and ".join(w for w, col in (("model", r.model), ("repeat", r.repeat)) if col)
        unique = "model and repeat" if r.repeat else "model"
        c.add("error", "duplicate_id", r.id, dup, "duplicate id{s}" + (f" within a {within}" if within else ""),
              suffix=f"; ids must be unique per {unique} so rows can be paired across models"
              + ("; a file of repeated cross-validation (each sample once per repeat) needs a `repeat` column "
                 "(or choose it): rows then pair by id and repeat" if r.fold and not r.repeat else ""))
    if len(a.models) > 1 and r.model:
        sizes = {m: len(rows) for m, rows in a.model_rows.items()}
        if r.id:
            # each model's set of ids as a mask over the codes (slot 0: a missing id, which counts as one id, as
            # it always did): one pass over the model's rows, no hashing, no sorting
            slots = int(ids.max()) + 2
            present = {}
            for m, rows in a.model_rows.items():
                present[m] = np.zeros(slots, dtype=bool)
                present[m][ids[rows] + 1] = True
            shared = int(np.count_nonzero(np.logical_and.reduce(list(present.values()))))
            differing = {m: k - shared for m, k in ((m, int(np.count_nonzero(p))) for m, p in present.items())
                         if k != shared}
            if differing:
                m, k = next(iter(differing.items()))
                c.note("warning", "models_differ",
                       f"the models cover different rows: model {quote(m)} has {_plural(k, 'id')} the others lack; "
                       f"paired tests use the {shared:,} ids all models share", column=r.id, count=k)
        elif len(set(sizes.values())) > 1:
            c.note("warning", "models_differ",
                   "the models have different row counts (" + ", ".join(f"{quote(m)}: {k:,}" for m, k in
                                                                      list(sizes.items())[:4]) +
                   ") and there is no `id` column to pair them: paired tests are off")
        elif not r.id and (keys := _forecast_keys(a)):
            c.note("warning", "forecast_keys", "several models but no `id` column: their forecasts are paired by "
                                               + ", ".join(f"{word} ({quote(col)})" for word, col in keys))
        elif not r.id:
            c.note("warning", "no_ids", "several models but no `id` column: rows are paired by their order "
                                        "within each model")


def _forecast_keys(a: _Input) -> list[tuple[str, str]]:
    """[(word, column)] of what identifies a forecast — series, time stamp, horizon, origin, those the file has —
    when they identify each model's rows (as `assess.stats.shaping.forecast_keys` pairs them); else []."""
    r = a.roles
    if a.task is not Task.FORECAST or not r.timestamp:
        return []
    keys = [(word, col) for word, col in (("series", r.series), ("time stamp", r.timestamp), ("horizon", r.horizon),
                                          ("origin", r.origin)) if col]
    columns = [r.model] + [col for _, col in keys]
    return [] if a.frame.duplicated(subset=columns).any() else keys


def id_codes(column: pd.Series) -> np.ndarray:
    """Each row's sample id as an integer code (-1 where missing), equal codes for equal ids as
    `assess.inputs.columns.label_strings` reads them (``1.0`` and ``1`` are one id) — without a Python string per row.

    A numeric id column is factorised as its numbers: distinct numbers are distinct labels there (integral floats
    are written as integers, the rest in full precision), so the codes group the rows exactly as the labels would.
    Any other column goes through `assess.inputs.columns.label_codes` (one string per distinct value, not per row)."""
    if isinstance(column.dtype, np.dtype) and column.dtype.kind in "iuf":
        return pd.factorize(column, use_na_sentinel=True)[0]
    return np.asarray(label_codes(column)[0])
