"""The decision rule: how a model's predictions become the labels that label metrics, matrices and tests count.

One :class:`Decision` value says where labels come from, for every classification task:

- ``"labels"``: the file's predicted-label column(s) (``y_pred``);
- ``"scores"``: from the scores — binary: positive when ``score >= threshold`` (ISO/IEC TS 4213:2022, 6.3.6: a
  scorer becomes a classifier at a threshold); multi-label: label l is predicted when ``score_l >= threshold_l``
  (one threshold per label, default the common one); multi-class: the class with the highest score (the first in
  class order on ties), which has no threshold;
- ``"auto"`` (the default): the labels when the file has them, else the scores at the threshold (0.5) or the
  arg-max.

:func:`predicted_labels` is the only place the rule is applied in memory; the metrics, the curves' operating point,
the confusion matrices, the significance tests, the pages and the command line all call it. The out-of-core engines
apply it in SQL through :mod:`assess.engine.expressions` alone, whose expressions are tested against this function
row for row (tests/engine/test_expressions.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

import numpy as np

from assess.core.data import Predictions, Task
from assess.core.errors import AssessError

AUTO, LABELS, SCORES = "auto", "labels", "scores"
SOURCES = (AUTO, LABELS, SCORES)
DEFAULT_THRESHOLD = 0.5


@dataclass(frozen=True)
class Decision:
    """Where predicted labels come from (see the module docstring); hashable, so it can key a cache.

    ``threshold`` is the binary threshold and the multi-label default; ``per_label`` holds multi-label thresholds
    that differ from it, as ``(label, threshold)`` pairs.
    """

    source: str = AUTO
    threshold: float = DEFAULT_THRESHOLD
    per_label: tuple[tuple[str, float], ...] = ()

    def __post_init__(self) -> None:
        if self.source not in SOURCES:
            raise ValueError(f"`source` must be one of {', '.join(SOURCES)} (got {self.source!r})")
        for value in (self.threshold, *(t for _, t in self.per_label)):
            if isinstance(value, bool) or not isinstance(value, (int, float, np.floating)) or not np.isfinite(value):
                raise ValueError(f"a threshold must be a finite number (got {value!r})")
        object.__setattr__(self, "threshold", float(self.threshold))
        object.__setattr__(self, "per_label", tuple(sorted((str(k), float(v)) for k, v in self.per_label)))

    @classmethod
    def from_labels(cls) -> Decision:
        return cls(LABELS)

    @classmethod
    def from_scores(cls, threshold: float = DEFAULT_THRESHOLD, per_label: Mapping[str, float] | None = None
                    ) -> Decision:
        """Labels from the scores at ``threshold`` (and per-label thresholds for multi-label)."""
        return cls(SCORES, threshold, tuple((per_label or {}).items()))

    def with_threshold(self, threshold: float, label: str | None = None) -> Decision:
        """This decision moved to scores at a new threshold (for one multi-label label when ``label`` is given)."""
        if label is None:
            return replace(self, source=SCORES, threshold=float(threshold))
        others = tuple((k, v) for k, v in self.per_label if k != label)
        return replace(self, source=SCORES, per_label=(*others, (label, float(threshold))))

    def threshold_for(self, label: str | None = None) -> float:
        """The threshold of one multi-label label (or the binary one when ``label`` is None)."""
        return dict(self.per_label).get(label, self.threshold) if label is not None else self.threshold

    def thresholds(self, labels) -> np.ndarray:
        """One threshold per label, in the order of ``labels``."""
        return np.array([self.threshold_for(str(label)) for label in labels], dtype=np.float64)

    def source_for(self, task: Task, *, has_labels: bool, has_scores: bool) -> str:
        """The concrete source (:data:`LABELS` or :data:`SCORES`) for data with or without labels and scores."""
        if self.source == AUTO:
            return LABELS if has_labels else SCORES
        if self.source == SCORES and not has_scores and has_labels:
            return LABELS  # a threshold cannot apply to a model without scores: its own labels are all it has
        return self.source

    def labels_from(self, task: Task, *, has_labels: bool, has_scores: bool, labels=()) -> str:
        """The phrase metric reasons append: "in y_pred", "at threshold 0.37", "by arg-max of the scores"."""
        if self.source_for(task, has_labels=has_labels, has_scores=has_scores) == LABELS:
            return "in y_pred"
        if task is Task.MULTICLASS:
            return "by arg-max of the scores"
        if task is Task.MULTILABEL and self._varies(labels):
            return "at the per-label thresholds"
        return f"at threshold {self.threshold:g}"

    def describe(self, task: Task, *, has_labels: bool, has_scores: bool, labels=()) -> str:
        """One plain sentence for a page or a report: which labels its numbers count."""
        if self.source_for(task, has_labels=has_labels, has_scores=has_scores) == LABELS:
            column = "columns" if task is Task.MULTILABEL else "column"
            return f"Predicted labels come from the file's predicted-label {column}."
        if task is Task.MULTICLASS:
            return "Each row is predicted as the class with the highest score."
        if task is Task.MULTILABEL:
            if self._varies(labels):
                each = ", ".join(f"{label} ≥ {self.threshold_for(str(label)):.3f}" for label in labels)
                return f"A label is predicted when its score reaches that label's threshold ({each})."
            return f"A label is predicted when its score is at least {self.threshold:.3f}."
        return f"A row is predicted positive when its score is at least {self.threshold:.3f}."

    def _varies(self, labels) -> bool:
        return any(self.threshold_for(str(label)) != self.threshold for label in labels)


def predicted_labels(task: Task, y_pred, scores, decision: Decision = Decision(), *, labels=(),
                     model: str = "model") -> np.ndarray:
    """Labels by ``decision``, encoded as :class:`assess.core.data.Predictions` encodes ``y_pred``: binary int8 0/1
    (1 = positive), multi-class int class codes, multi-label bool (n, L); ``labels`` names the multi-label columns
    (for per-label thresholds).

    Raises AssessError when the decision needs what the model lacks (labels without a ``y_pred``, scores without
    scores) or the task has no labels to decide (regression, forecast).
    """
    has_labels, has_scores = y_pred is not None, scores is not None
    if not task.is_classification:
        if has_labels:
            return np.asarray(y_pred)
        raise AssessError(f"model `{model}` has no predictions (y_pred) for a {task.value} task")
    if not has_labels and not has_scores:
        raise AssessError(f"model `{model}` has neither predicted labels (y_pred) nor scores")
    if decision.source_for(task, has_labels=has_labels, has_scores=has_scores) == LABELS:
        if not has_labels:
            raise AssessError(f"model `{model}` has no predicted-label column (y_pred); choose labels from the scores")
        return np.asarray(y_pred)
    s = np.asarray(scores, dtype=np.float64)
    if task is Task.MULTICLASS:
        return np.argmax(s, axis=1)
    if task is Task.MULTILABEL:
        cut = decision.thresholds(labels) if len(labels) == s.shape[1] else decision.threshold
        return s >= cut
    return (s >= decision.threshold).astype(np.int8)


def decide(pred: Predictions, decision: Decision = Decision()) -> Predictions:
    """``pred`` with ``y_pred`` replaced by the labels ``decision`` gives (scores kept for the score metrics)."""
    if not pred.task.is_classification:
        return pred
    labels = predicted_labels(pred.task, pred.y_pred, pred.scores, decision, labels=pred.classes, model=pred.model)
    return replace(pred, y_pred=labels)
