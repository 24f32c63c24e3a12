r"""The rows behind a number: which rows of the file a confusion cell counts, the most confidently wrong rows, the
largest errors, the rows of the worst slice — each with its id, truth, prediction, score, error and the file's other
columns — sorted, filtered and paged here, so a page or the command line never holds more than it shows.

Every selection is a :class:`Rows`: the row positions in the file, in their default order, and the columns computed
for them. :func:`page` returns one page of it and the number of rows that match.

- **A confusion cell** (:func:`cell_rows`): the rows whose true class is *t* and whose label at the decision is *p*,
  the labels coming from :func:`assess.core.decision.predicted_labels` exactly as the Confusion page's matrices
  (:func:`assess.analyses.decision_costs.confusions`): a cell holds as many rows as its unweighted count.
- **The most confidently wrong** (:func:`confidently_wrong`): the rows the decision gets wrong, most confident first.
  Binary: how far the score lies on the wrong side of the threshold *t* — :math:`s - t` for a true negative,
  :math:`t - s` for a true positive — so the negatives with the highest scores and the positives with the lowest
  come first, on one scale (with probabilities at 0.5 that is :math:`s` against :math:`1 - s`). Multi-class: the
  highest score given to a class other than the true one, :math:`\max_{j \ne y} s_j`.
- **The largest errors** (:func:`largest_errors`, regression and forecasts): error = prediction − truth (the Errors
  page's sign), largest :math:`|e|` first; rows without both values are left out, as the metrics leave them out.
- **The worst slice** (:func:`worst_slice_rows`): the rows of the slice with the worst value of a metric in a
  :class:`assess.analyses.slices.SliceAnalysis` (:meth:`~assess.analyses.slices.SliceAnalysis.worst`).
- **Any rows** (:func:`rows_at`): a model's rows chosen by a mask or positions (a period of time, a fold).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from assess.core.data import Task
from assess.core.decision import Decision, predicted_labels
from assess.core.errors import AssessError
from assess.inputs.assessment import Assessment
from assess.inputs.columns import quote

if TYPE_CHECKING:   # the slice analysis (and its tests, SciPy) is imported only when a worst slice is asked for
    from assess.analyses.slices import SliceAnalysis

__all__ = ["Rows", "rows_at", "cell_rows", "confidently_wrong", "largest_errors", "worst_slice_rows", "page",
           "cell_choices", "matching", "all_matching", "DEFAULT_ORDER", "HEADERS"]

#: The sort choice that keeps a selection's own order (most confidently wrong first, largest error first, file order).
DEFAULT_ORDER = None
#: How many filters' matches a selection keeps (each at most an index per row).
KEPT_FILTERS = 4
#: Headers of the computed columns (the file's own columns keep their names).
HEADERS = {"row": "Row", "id": "ID", "model": "Model", "truth": "True value", "prediction": "Prediction",
           "score": "Score", "error": "Error (predicted − actual)", "abs_error": "Absolute error",
           "confidence_wrong": "Confidence (wrong)"}


@dataclass(frozen=True, eq=False)
class Rows:
    """A selection of one model's rows. ``positions``: their positions in the file's frame (``iloc``), in the
    selection's default order; ``computed``: one row per position (``row`` = the 1-based row of the file, ``id``
    when the file has one, ``model``, ``truth``, ``prediction``, ``score`` when the model has scores, ``error`` and
    ``abs_error`` for numbers, ``confidence_wrong`` for the confidently wrong); ``other``: the file's columns that
    play no prediction role (features, groups, time stamps …) as (shown name, file column), read from ``frame``
    page by page — a file column named like a computed one is shown as "<name> (file)"; ``title``: what was
    selected, in words; ``order``: the default order, in words; ``note``: what the reader should know (empty when
    nothing)."""

    title: str
    positions: np.ndarray
    computed: pd.DataFrame
    frame: pd.DataFrame
    other: tuple[tuple[str, object], ...]
    order: str = "file order"
    note: str = ""
    #: the last few filters' matches (:func:`matching`): paging through a filtered million rows rescans nothing
    _matches: dict = field(default_factory=dict, init=False, repr=False)

    @property
    def total(self) -> int:
        return int(self.positions.size)

    @property
    def columns(self) -> list[str]:
        return [*self.computed.columns, *(name for name, _ in self.other)]

    def file_columns(self, at: np.ndarray) -> pd.DataFrame:
        """The file's other columns of the rows at indices ``at``, under their shown names."""
        frame = self.frame.iloc[self.positions[at], [self.frame.columns.get_loc(c) for _, c in self.other]]
        frame.columns = [name for name, _ in self.other]
        return frame.reset_index(drop=True)


# ------------------------------------------------------------------------------------------------ selections


def _other_columns(assessment: Assessment, computed) -> tuple[tuple[str, object], ...]:
    """The file's columns besides the predictions: what the rows carry as context (features, groups, dates …)."""
    r = assessment.roles
    own = {r.y_true, r.y_pred, r.score, r.model, r.id}
    for pairs in (r.class_scores, r.true_labels, r.pred_labels, r.label_scores):
        own.update(c for _, c in pairs)
    for wm in r.wide_models:
        own.update((wm.y_pred, wm.score))
    for _, true_col, pred_col in r.outputs:
        own.update((true_col, pred_col))
    return tuple((f"{c} (file)" if str(c) in computed else str(c), c) for c in assessment.frame.columns
                 if c not in own)


def _model_columns(assessment: Assessment, model: str, decision: Decision, output: str | None):
    """(computed columns for every row of ``model``, their positions in the frame, codes at the decision, pred)."""
    if model not in assessment.models:
        raise AssessError(f"{assessment.table.name}: no model {quote(model)} (models: "
                          f"{', '.join(map(quote, assessment.models))})")
    task = assessment.task
    if task not in (Task.BINARY, Task.MULTICLASS, Task.REGRESSION, Task.FORECAST):
        raise AssessError(f"the rows behind the numbers are shown for binary, multi-class, regression and forecast "
                          f"files; this file is {task.label}")
    pred = assessment.predictions(model, output)
    positions = np.asarray(assessment.model_rows[model])
    # the file's row: with unlabelled rows set aside, a position in the frame is not one in the file
    file_rows = positions if assessment.file_rows is None else assessment.file_rows[positions]
    columns: dict[str, object] = {"row": file_rows + 1}
    if pred.ids is not None:
        columns["id"] = np.asarray(pred.ids)
    # categories, not a string per row: a million rows' labels are then codes (sorting follows the class order)
    columns["model"] = pd.Categorical.from_codes(np.zeros(pred.n, dtype=np.int8), [model])
    if task.is_classification:
        codes = predicted_labels(task, pred.y_pred, pred.scores, decision, labels=pred.classes, model=model)
        names = pd.Index(pred.classes, dtype=object)
        columns["truth"] = pd.Categorical.from_codes(pred.y_true.astype(np.int64), names)
        columns["prediction"] = pd.Categorical.from_codes(np.asarray(codes, dtype=np.int64), names)
        if pred.scores is not None:
            # binary: the score itself (higher = more positive); multi-class: the score of the predicted class
            columns["score"] = pred.scores if task is Task.BINARY else pred.scores[np.arange(pred.n), codes]
    else:
        codes = None
        columns["truth"], columns["prediction"] = pred.y_true, pred.y_pred
        columns["error"] = pred.y_pred - pred.y_true
        columns["abs_error"] = np.abs(columns["error"])
    return pd.DataFrame(columns), positions, codes, pred


def _selected(assessment, title, computed, positions, order, in_words="file order", note="") -> Rows:
    return Rows(title, positions[order], computed.iloc[order].reset_index(drop=True), assessment.frame,
                _other_columns(assessment, set(computed.columns)), in_words, note)


def rows_at(assessment: Assessment, model: str, where=None, *, decision: Decision = Decision(),
            output: str | None = None, title: str | None = None) -> Rows:
    """The rows of ``model`` chosen by ``where``, in file order: a boolean mask over the model's rows (as
    ``assessment.predictions(model)`` orders them), an array of positions among them, or None for all."""
    computed, positions, _, _ = _model_columns(assessment, model, decision, output)
    n = len(positions)
    if where is None:
        order = np.arange(n)
    else:
        where = np.asarray(where)
        if where.dtype == bool:
            if where.shape != (n,):
                raise AssessError(f"the row mask has {where.size:,} entries; model {quote(model)} has {n:,} rows")
            order = np.flatnonzero(where)
        else:
            order = np.asarray(where, dtype=np.int64)
            if order.size and (order.min() < 0 or order.max() >= n):
                raise AssessError(f"a row position is outside model {quote(model)}'s {n:,} rows")
    return _selected(assessment, title or f"{model}: {len(order):,} rows", computed, positions, order)


def _class_index(classes: Sequence[str], name: str, what: str) -> int:
    for i, c in enumerate(classes):
        if str(c) == str(name):
            return i
    raise AssessError(f"no {what} class {quote(name)} (classes: {', '.join(map(quote, classes))})")


def cell_rows(assessment: Assessment, model: str, true_class: str, predicted_class: str, *,
              decision: Decision = Decision()) -> Rows:
    """The rows the confusion matrix of ``model`` counts in the cell (``true_class``, ``predicted_class``) at
    ``decision``, in file order."""
    if assessment.task not in (Task.BINARY, Task.MULTICLASS):
        raise AssessError(f"confusion cells belong to binary and multi-class files; this file is "
                          f"{assessment.task.label}")
    computed, positions, codes, pred = _model_columns(assessment, model, decision, None)
    t = _class_index(pred.classes, true_class, "true")
    p = _class_index(pred.classes, predicted_class, "predicted")
    order = np.flatnonzero((pred.y_true == t) & (codes == p))
    return _selected(assessment, f"{model}: true {true_class}, predicted {predicted_class}", computed, positions,
                     order)


def cell_choices(assessment: Assessment, model: str, *, decision: Decision = Decision(),
                 most: int | None = None) -> list[tuple[str, str, int]]:
    """The non-empty cells of ``model``'s confusion matrix at ``decision`` as (true, predicted, rows), the errors
    first (largest first), then the diagonal; the first ``most`` of them (all when None). Rows are counted
    unweighted: a cell's rows are what is listed."""
    _, _, codes, pred = _model_columns(assessment, model, decision, None)
    k = len(pred.classes)
    counts = np.bincount(pred.y_true.astype(np.int64) * k + codes.astype(np.int64), minlength=k * k).reshape(k, k)
    cells = [(pred.classes[i], pred.classes[j], int(counts[i, j])) for i in range(k) for j in range(k)
             if counts[i, j]]
    return sorted(cells, key=lambda c: (c[0] == c[1], -c[2]))[:most]


def confidently_wrong(assessment: Assessment, model: str, *, decision: Decision = Decision()) -> Rows:
    """The rows ``model`` gets wrong at ``decision``, most confidently wrong first (see the module); the model needs
    scores."""
    task = assessment.task
    if task not in (Task.BINARY, Task.MULTICLASS):
        raise AssessError(f"the most confidently wrong rows belong to binary and multi-class files; this file is "
                          f"{task.label} (its largest errors are the rows to read)")
    computed, positions, codes, pred = _model_columns(assessment, model, decision, None)
    if pred.scores is None:
        raise AssessError(f"model {quote(model)} has no scores: how confidently it is wrong cannot be told")
    y = pred.y_true.astype(np.int64)
    if task is Task.BINARY:
        t = decision.threshold
        confidence = np.where(y == 1, t - pred.scores, pred.scores - t)
    else:
        others = np.array(pred.scores, dtype=np.float64)
        others[np.arange(pred.n), y] = -np.inf
        confidence = others.max(axis=1)
    computed["confidence_wrong"] = confidence
    wrong = np.flatnonzero(codes != y)
    # most confident first; NaN scores last; ties keep file order
    order = wrong[np.argsort(np.where(np.isnan(confidence[wrong]), np.inf, -confidence[wrong]), kind="stable")]
    note = ("Confidence (wrong): how far the score lies past the threshold on the wrong side (score − "
            "threshold for a true negative, threshold − score for a true positive)." if task is Task.BINARY else
            "Confidence (wrong): the highest score given to a class other than the true one.")
    return _selected(assessment, f"{model}: most confidently wrong", computed, positions, order,
                     "most confidently wrong first", note)


def largest_errors(assessment: Assessment, model: str, *, output: str | None = None) -> Rows:
    """The rows of ``model`` with both values, largest absolute error first (regression and forecasts)."""
    if assessment.task not in (Task.REGRESSION, Task.FORECAST):
        raise AssessError(f"the largest errors belong to regression and forecast files; this file is "
                          f"{assessment.task.label} (its most confidently wrong rows are the rows to read)")
    computed, positions, _, _ = _model_columns(assessment, model, Decision(), output)
    size = computed["abs_error"].to_numpy(dtype=np.float64)
    kept = np.flatnonzero(np.isfinite(size))
    order = kept[np.argsort(-size[kept], kind="stable")]
    dropped = len(size) - len(kept)
    note = (f"{dropped:,} row{'s' if dropped != 1 else ''} without both an actual and a predicted value "
            f"{'are' if dropped != 1 else 'is'} left out.") if dropped else ""
    return _selected(assessment, f"{model}: largest errors", computed, positions, order, "largest error first",
                     note)


def worst_slice_rows(assessment: Assessment, analysis: SliceAnalysis, model: str, key: str, *,
                     decision: Decision = Decision(), output: str | None = None) -> Rows:
    """The rows of the slice with the worst ``key`` for ``model`` in ``analysis`` (by the metric's direction), in
    file order."""
    worst = analysis.worst(model, key, 1)
    if worst.empty:
        raise AssessError(f"no slice of model {quote(model)} has a value of {quote(key)}")
    label = worst["slice"].iloc[0]
    return slice_rows(assessment, analysis, model, label, decision=decision, output=output,
                      title=f"{model}: worst slice by {key}, {label}")


def slice_rows(assessment: Assessment, analysis: SliceAnalysis, model: str, label: str, *,
               decision: Decision = Decision(), output: str | None = None, title: str | None = None) -> Rows:
    """The rows of the slice ``label`` (as ``analysis`` names its slices) of ``model``, in file order."""
    from assess.analyses.slices import slice_values

    labels = slice_values(assessment.frame, analysis.columns, name=assessment.table.name)["slice"].to_numpy()
    mask = labels[assessment.model_rows[model]] == label
    return rows_at(assessment, model, mask, decision=decision, output=output, title=title or f"{model}: {label}")


# ------------------------------------------------------------------------------------------------ paging


def _column(rows: Rows, name: str, at: np.ndarray) -> pd.Series:
    if name in rows.computed.columns:
        return rows.computed[name].iloc[at].reset_index(drop=True)
    column = dict(rows.other)[name]
    return rows.frame[column].iloc[rows.positions[at]].reset_index(drop=True)


def matching(rows: Rows, contains: str = "") -> np.ndarray:
    """Indices (into ``rows``) of the rows where some column's text holds ``contains`` (case-insensitive); all when
    empty."""
    everything = np.arange(rows.total)
    text = str(contains).strip().casefold()
    if not text:
        return everything
    if text in rows._matches:
        return rows._matches[text]
    hit = np.zeros(rows.total, dtype=bool)
    for name in rows.columns:
        values = _column(rows, name, everything)
        if isinstance(values.dtype, pd.CategoricalDtype):   # each category's text once, not each row's
            named = np.asarray(values.cat.categories.astype(str).str.contains(text, case=False, regex=False))
            codes = values.cat.codes.to_numpy()
            hit |= (codes >= 0) & named[codes]
        else:
            hit |= values.astype(str).str.contains(text, case=False, regex=False).to_numpy(dtype=bool)
    if len(rows._matches) >= KEPT_FILTERS:
        rows._matches.pop(next(iter(rows._matches)))
    rows._matches[text] = found = np.flatnonzero(hit)
    return found


def page(rows: Rows, number: int = 1, size: int = 50, *, sort: str | None = DEFAULT_ORDER, descending: bool = False,
         contains: str = "") -> tuple[pd.DataFrame, int]:
    """(page ``number`` — 1 for the first — of ``size`` rows, the number of rows that match): the rows holding
    ``contains`` (:func:`matching`), ordered by column ``sort`` (None: the selection's own order; missing values
    last; ties keep that order). A page past the last is empty."""
    if isinstance(number, bool) or int(number) != number or number < 1:
        raise AssessError(f"a page number is a whole number from 1 (got {number!r})")
    if isinstance(size, bool) or int(size) != size or size < 1:
        raise AssessError(f"a page size is a whole number from 1 (got {size!r})")
    at = matching(rows, contains)
    if sort is not None:
        if sort not in rows.columns:
            raise AssessError(f"no column {quote(sort)} to sort by (columns: {', '.join(map(quote, rows.columns))})")
        values = _column(rows, sort, at)
        if not (pd.api.types.is_numeric_dtype(values) or pd.api.types.is_datetime64_any_dtype(values)):
            values = values.astype(str)  # a text column of mixed values sorts as its text
        ranked = values.sort_values(ascending=not descending, kind="stable", na_position="last")
        at = at[ranked.index.to_numpy()]
    chosen = at[(int(number) - 1) * int(size):int(number) * int(size)]
    frame = pd.concat([rows.computed.iloc[chosen].reset_index(drop=True),
                       rows.file_columns(chosen)], axis=1)
    return frame, int(at.size)


def all_matching(rows: Rows, *, sort: str | None = DEFAULT_ORDER, descending: bool = False,
                 contains: str = "") -> pd.DataFrame:
    """Every matching row in the page order (for a download)."""
    return page(rows, 1, max(rows.total, 1), sort=sort, descending=descending, contains=contains)[0]
