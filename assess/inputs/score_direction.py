"""An inverted binary score — the negative class's probability chosen as the score — found, and its flip.

A score whose ROC AUC is well below 0.5 ranks the negatives above the positives: most often the file's score is the
probability of the *other* class (``predict_proba(X)[:, 0]``, Spark's element 0, H2O's ``p0``), or the positive class
was chosen the wrong way round. Nothing fails, every number is just wrong, so `check_score_direction` says so as a
validation warning, and `flipped_score` gives the role changes that read the score as 1 − score (the complement of
the other class's probability, see `assess.inputs.assessment.Assessment`), which the Data page applies in one click and the
command line with ``--flip-score``.

The test: the Mann–Whitney form of the AUC, AUC = (R₊ − n₊(n₊ + 1)/2) / (n₊ n₋) with R₊ the sum of the positives'
mid-ranks (ISO/IEC TS 4213 6.3.4, the area under the ROC curve), and Hanley & McNeil's (1982) standard error
SE² = [A(1 − A) + (n₊ − 1)(Q₁ − A²) + (n₋ − 1)(Q₂ − A²)] / (n₊ n₋), Q₁ = A/(2 − A), Q₂ = 2A²/(1 + A). The warning
needs AUC < `MAX_AUC` *and* the upper end of its 95 % interval below 0.5 (a weak model near 0.5 is not inverted),
with at least `MIN_PER_CLASS` rows of each class.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from assess.core.data import Task
from assess.core.problem import Problem
from assess.inputs.columns import codes_mask, label_codes, numeric_column, quote
from assess.inputs.roles import Roles

__all__ = ["check_score_direction", "flipped_score", "MAX_AUC", "roc_auc_by_ranks", "auc_lower_bound"]

#: ROC AUC below which a score (with its interval below 0.5 too) is reported as inverted.
MAX_AUC = 0.4
#: Fewest positives and negatives for the check: below, Hanley–McNeil's normal interval is no guide.
MIN_PER_CLASS = 10
_Z95 = 1.959963984540054
#: Bins of the histogram that proves most scores are not inverted without sorting them (`auc_lower_bound`).
SCREEN_BINS = 4096


def auc_lower_bound(positive: np.ndarray, scores: np.ndarray, bins: int = SCREEN_BINS) -> float:
    """A lower bound on the ROC AUC of finite ``scores`` for the boolean ``positive``, in O(n) without a sort.

    The scores fall into ``bins`` equal-width bins over [min, max]; the bin index floor((s − min)·bins/(max − min))
    never decreases as s grows (each step is monotone in floating point), so a positive in a higher bin than a
    negative has the higher score. Counting only those pairs, L = Σ_b P_b · N_{<b} / (n₊ n₋) with P_b the positives
    in bin b and N_{<b} the negatives below it, gives L ≤ AUC: pairs within one bin (ties among them) are left out.
    A score with L ≥ `MAX_AUC` is not inverted, which spares the exact ranks (a sort of every score) for nearly every
    file; the exact AUC is computed only when L cannot decide. NaN without both classes.
    """
    n_pos = int(np.count_nonzero(positive))
    n_neg = positive.size - n_pos
    if n_pos == 0 or n_neg == 0:
        return float("nan")
    low, high = float(scores.min()), float(scores.max())
    span = high - low
    scale = bins / span if np.isfinite(span) and span > 0 else np.inf
    if not np.isfinite(scale):  # one value, a range too narrow to divide or too wide to subtract: no proof
        return 0.0
    position = np.subtract(scores, low)
    np.multiply(position, scale, out=position)
    key = position.astype(np.intp)                  # the bin, 0 … bins (the maximum lands on `bins` itself)
    np.multiply(key, 2, out=key)
    np.add(key, positive, out=key)                  # 2·bin + class: both classes' counts in one bincount
    counts = np.bincount(key, minlength=2 * bins + 2)
    if counts.size % 2:
        counts = np.append(counts, 0)
    neg_per_bin, pos_per_bin = counts[0::2], counts[1::2]
    neg_below = np.cumsum(neg_per_bin) - neg_per_bin
    return float(np.dot(pos_per_bin.astype(np.float64), neg_below)) / (n_pos * n_neg)


def roc_auc_by_ranks(positive: np.ndarray, scores: np.ndarray) -> tuple[float, float]:
    """(AUC, Hanley–McNeil standard error) of ``scores`` for the boolean ``positive``; NaN without both classes."""
    n_pos = int(positive.sum())
    n_neg = positive.size - n_pos
    if n_pos == 0 or n_neg == 0:
        return float("nan"), float("nan")
    # the positives' mid-ranks (1-based) from one sort of all scores: rank = (#below + #below-or-equal + 1) / 2,
    # summed in integers (exact), then halved — scipy's rankdata(method="average") without its argsort
    ordered = np.sort(scores)
    mine = np.sort(scores[positive])   # sorted needles: searchsorted walks the array once, not at random
    twice = int(np.searchsorted(ordered, mine, "left").sum() + np.searchsorted(ordered, mine, "right").sum()) + n_pos
    auc = (twice / 2 - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)
    q1, q2 = auc / (2 - auc), 2 * auc ** 2 / (1 + auc)
    var = (auc * (1 - auc) + (n_pos - 1) * (q1 - auc ** 2) + (n_neg - 1) * (q2 - auc ** 2)) / (n_pos * n_neg)
    return float(auc), float(np.sqrt(max(var, 0.0)))


def _score_source(roles: Roles, classes, positive: str) -> tuple[str, str] | None:
    """(column, how it is read) of the positive-class score, as `assess.inputs.assessment.Assessment` encodes it."""
    if roles.score:
        return roles.score, "score"
    by_class = dict(roles.class_scores)
    if positive in by_class:
        return by_class[positive], "score"
    others = [c for c in classes if c != positive and c in by_class]
    if others:
        return by_class[others[0]], "complement"
    return None


def check_score_direction(frame: pd.DataFrame, roles: Roles, task: Task, *, classes, positive: str | None,
                          models, model_rows: dict[str, np.ndarray],
                          truth_codes: tuple[np.ndarray, tuple[str, ...]] | None = None) -> list[Problem]:
    """A warning per model whose positive-class score looks inverted (module docstring); [] otherwise.

    Binary files with one score per row (a ``score`` column or per-class columns); wide files' per-model scores are
    checked too, but only the long format can be flipped.
    """
    if task is not Task.BINARY or positive is None:
        return []
    sources = []
    if roles.wide_models:
        sources = [(wm.name, wm.score, "score", np.arange(len(frame))) for wm in roles.wide_models if wm.score]
    else:
        found = _score_source(roles, classes, positive)
        if found:
            sources = [(m, found[0], found[1], model_rows[m]) for m in models]
    if not sources:
        return []
    if not roles.y_true:
        return []
    truth = codes_mask(*(truth_codes or label_codes(frame[roles.y_true])), positive)
    truth_present = frame[roles.y_true].notna().to_numpy()
    every_truth = bool(truth_present.all())
    problems = []
    values_by_column: dict[str, np.ndarray] = {}
    for model, column, how, rows in sources:
        if column not in values_by_column:
            values_by_column[column] = numeric_column(frame, column)
        s = values_by_column[column][rows]
        s = 1.0 - s if how == "complement" else s
        y = truth[rows]
        ok = np.isfinite(s) if every_truth else np.isfinite(s) & truth_present[rows]
        n_pos = int(np.count_nonzero(y & ok))
        if min(n_pos, int(ok.sum()) - n_pos) < MIN_PER_CLASS:
            continue  # a handful of rows says nothing about the direction (and the normal interval fails there)
        y_ok, s_ok = (y, s) if ok.all() else (y[ok], s[ok])
        if auc_lower_bound(y_ok, s_ok) >= MAX_AUC:
            continue  # proven not inverted from a histogram; the exact ranks below would only confirm it
        auc, se = roc_auc_by_ranks(y_ok, s_ok)
        if not (np.isfinite(auc) and auc < MAX_AUC and auc + _Z95 * se < 0.5):
            continue
        who = f" for model {quote(model)}" if len(sources) > 1 else ""
        read = (f"1 − {quote(column)}" if how == "complement" else quote(column))
        fix = ("flip it: 'Flip the score' on the Data page, --flip-score on the command line" if not roles.wide_models
               else f"choose the other class's column as {quote(model)}'s score")
        problems.append(Problem(
            "warning", "inverted_score",
            f"the score {read}{who} looks inverted: its ROC AUC for the positive class {quote(positive)} is "
            f"{auc:.2f} (95% interval {max(auc - _Z95 * se, 0):.2f}–{auc + _Z95 * se:.2f}), so it ranks the other "
            f"class higher. If it is the probability of the other class, {fix}; if the positive class is wrong, "
            "choose the other one", column=column, count=int(ok.sum())))
    return problems


def flipped_score(roles: Roles, classes, positive: str) -> tuple[tuple[str, object], ...]:
    """The role changes (for `assess.inputs.roles.Overrides.with_role`) that read the positive-class score as 1 − the
    current score: a ``score`` column becomes the other class's probability; two per-class columns swap classes.
    () when there is nothing to flip (no score, or a wide file)."""
    if roles.wide_models:
        return ()
    negative = next((c for c in classes if c != positive), None)
    if negative is None:
        return ()
    if roles.score:
        return (("class_scores", {negative: roles.score}), ("score", ""))
    by_class = dict(roles.class_scores)
    if positive in by_class and negative in by_class:
        return (("class_scores", {positive: by_class[negative], negative: by_class[positive]}),)
    if positive in by_class:
        return (("class_scores", {negative: by_class[positive]}),)
    if negative in by_class:
        return (("class_scores", {positive: by_class[negative]}),)
    return ()
