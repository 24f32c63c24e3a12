"""Which column plays which role, and why: detection by canonical name, synonym and prefix, and the user's overrides.

`detect_roles` gives every column of a frame a role with the reason for it; `Overrides` records what the user
changed (on the Data page or on the command line) and `apply_role` applies one change, whose reason is then
"set by you". Roles and their canonical names follow SPEC, "Input files".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from assess.core.data import Task
from assess.core.errors import AssessError, shorten
from assess.inputs.columns import is_continuous, is_numeric, label_values, normalise_name, quote, sort_labels
from assess.inputs.names import DisplayNames

#: Single-column roles, each with its canonical name first and common synonyms after.
SYNONYMS: dict[str, tuple[str, ...]] = {
    # Names as tools and tutorials write them: scikit-learn (`y_test`), Spark MLlib (`label`, `prediction`), H2O
    # (`predict`), PyCaret (`prediction_label`), Kaggle (`target`, `class`), statistics (`outcome`, `response`).
    "y_true": ("y_true", "label", "labels", "target", "actual", "truth", "ground_truth", "true", "true_label",
               "y", "gold", "observed", "class", "y_test", "true_class", "actual_label", "actual_class",
               "true_value", "actual_value", "gt", "outcome", "response"),
    "y_pred": ("y_pred", "prediction", "pred", "predicted", "predicted_label", "pred_label", "y_hat", "yhat",
               "forecast", "predict", "predictions", "preds", "predicted_class", "pred_class", "prediction_label",
               "predicted_value", "y_predicted"),
    "score": ("score", "y_score", "prob", "proba", "probability", "y_prob", "y_proba", "pred_proba", "p",
              "confidence", "y_pred_proba", "y_pred_prob", "pred_prob", "predicted_probability", "predicted_proba",
              "probability_positive", "positive_probability", "scores", "decision_function"),
    "model": ("model", "model_name", "classifier", "estimator", "system", "algorithm"),
    "id": ("id", "sample_id", "row_id", "sample", "uid", "record_id", "example_id", "row", "index", "row_index",
           "idx", "sample_index", "instance_id", "observation_id", "obs_id"),
    "fold": ("fold", "cv_fold", "fold_id"),
    # Conservative: a repeat pairs rows by (id, repeat), so only names that say "CV repeat". Not `run` (an MLflow or
    # W&B run names a trained configuration, i.e. a model) nor `iteration` (a boosting round or an epoch).
    "repeat": ("repeat", "repetition", "rep", "cv_repeat", "repeat_id", "n_repeat"),
    "weight": ("weight", "sample_weight", "weights"),
    "group": ("group", "subgroup", "slice", "segment"),
    "timestamp": ("timestamp", "time", "date", "datetime", "ds"),
    "horizon": ("horizon", "lead", "step_ahead"),
    "series": ("series", "series_id", "unique_id", "item_id"),
    "origin": ("origin", "forecast_origin", "cutoff", "issue_time", "forecast_date"),
    "lower": ("lower", "lo", "pi_lower", "lower_bound", "yhat_lower", "y_lower", "lower_pi"),
    "upper": ("upper", "hi", "pi_upper", "upper_bound", "yhat_upper", "y_upper", "upper_pi"),
    "cluster": ("cluster", "cluster_id", "cluster_label"),
    "latency_ms": ("latency_ms", "latency"),
    "energy_j": ("energy_j", "energy"),
    "batch_size": ("batch_size", "batch_n"),
    "split": ("split", "subset", "partition", "dataset_split"),
}
SINGLE_ROLES = tuple(SYNONYMS)
#: The single-column roles as fields of `Roles` (``group`` is the list ``groups``).
_COLUMN_ROLES = tuple(r for r in SINGLE_ROLES if r != "group")
#: Prefixes of per-class probability/score columns (``proba_setosa``).
CLASS_SCORE_PREFIXES = ("proba_", "prob_", "probability_", "p_", "score_", "y_proba_", "y_prob_", "pred_proba_",
                        "predict_proba_", "prediction_score_", "probabilities_")
#: Suffixes of wide multi-model columns as notebooks write them (``gbm_proba``, ``logreg_pred``), read only when no
#: prediction column is found by name or prefix.
WIDE_SCORE_SUFFIXES = ("_score", "_proba", "_prob", "_probability", "_probabilities", "_pred_proba", "_y_score")
WIDE_PRED_SUFFIXES = ("_y_pred", "_pred", "_prediction", "_predicted", "_predictions", "_label")
#: H2O's per-class probability columns for numeric class levels: ``p0``, ``p1`` (levels named otherwise give columns
#: named like the classes themselves, which `detect_roles` recognises too).
_H2O_SCORE = re.compile(r"^p(\d+)$")
#: Roles holding several columns: a tuple of columns, or of (label, column) pairs.
_LIST_ROLES = {"groups", "features"}
_PAIR_ROLES = {"class_scores", "true_labels", "pred_labels", "label_scores"}
#: Prefixes of the (ground truth, prediction) columns of one output of a multi-output regression. ``true_``/``pred_``
#: are also the multi-label indicator prefixes, so they name outputs only when both columns hold continuous numbers.
OUTPUT_PREFIXES = (("y_true_", "y_pred_"), ("true_", "pred_"))
#: Prefixes of the columns of a wide clustering file, one per clustering (``cluster_kmeans``, ``cluster_ward``).
CLUSTER_PREFIXES = ("cluster_", "clusters_")


@dataclass(frozen=True)
class WideModel:
    """One model of a wide file: its predicted-label and/or score column; for a clustering (``clustering``), its
    column ``cluster_<name>`` of cluster assignments is ``y_pred``."""

    name: str
    y_pred: str | None = None
    score: str | None = None
    clustering: bool = False


@dataclass(frozen=True)
class Roles:
    """Which column plays which role. Mappings are tuples of pairs so the object is hashable and immutable."""

    y_true: str | None = None
    y_pred: str | None = None
    score: str | None = None
    class_scores: tuple[tuple[str, str], ...] = ()   # (class label, column): multi-class or two-column binary
    true_labels: tuple[tuple[str, str], ...] = ()    # (label, column): multi-label indicator columns
    pred_labels: tuple[tuple[str, str], ...] = ()
    label_scores: tuple[tuple[str, str], ...] = ()
    wide_models: tuple[WideModel, ...] = ()
    outputs: tuple[tuple[str, str, str], ...] = ()   # (output name, y_true column, y_pred column): multi-output
    model: str | None = None
    id: str | None = None
    fold: str | None = None
    repeat: str | None = None
    weight: str | None = None
    groups: tuple[str, ...] = ()
    timestamp: str | None = None
    horizon: str | None = None
    series: str | None = None
    origin: str | None = None                        # when each forecast was made (forecasts)
    lower: str | None = None                         # prediction-interval bounds (forecasts, regression)
    upper: str | None = None
    cluster: str | None = None
    features: tuple[str, ...] = ()
    latency_ms: str | None = None
    energy_j: str | None = None
    batch_size: str | None = None                    # rows whose latency_ms/energy_j were measured per batch
    split: str | None = None                         # train/test mark of each row (assess.analyses.controls)
    reasons: tuple[tuple[str, str], ...] = ()        # (role, reason)

    def reason(self, role: str) -> str:
        return dict(self.reasons).get(role, "")

    @property
    def wide_clusterings(self) -> bool:
        """Whether the wide models are clusterings (columns ``cluster_<name>``), not classifiers."""
        return any(wm.clustering for wm in self.wide_models)

    def with_role(self, role: str, value, reason: str) -> Roles:
        reasons = tuple((r, why) for r, why in self.reasons if r != role) + ((role, reason),)
        return replace(self, **{role: value}, reasons=reasons)

    def without(self, role: str) -> Roles:
        empty = () if role in _LIST_ROLES | _PAIR_ROLES | {"wide_models", "outputs"} else None
        return replace(self, **{role: empty}, reasons=tuple((r, w) for r, w in self.reasons if r != role))

    def used_columns(self) -> set[str]:
        cols = {getattr(self, role) for role in _COLUMN_ROLES} - {None}
        for pairs in (self.class_scores, self.true_labels, self.pred_labels, self.label_scores):
            cols.update(c for _, c in pairs)
        for wm in self.wide_models:
            cols.update(c for c in (wm.y_pred, wm.score) if c)
        for _, true_col, pred_col in self.outputs:
            cols.update((true_col, pred_col))
        cols.update(self.groups)
        cols.update(self.features)
        return cols

    def table(self) -> list[dict]:
        """One row per role: role, columns, reason — what the Data page and `inspect` show."""
        rows = []
        for role in _COLUMN_ROLES:
            col = getattr(self, role)
            if col:
                rows.append({"role": role, "columns": [col], "reason": self.reason(role)})
        for role in ("class_scores", "true_labels", "pred_labels", "label_scores"):
            pairs = getattr(self, role)
            if pairs:
                rows.append({"role": role, "columns": [c for _, c in pairs], "reason": self.reason(role)})
        if self.wide_models:
            cols = [c for wm in self.wide_models for c in (wm.y_pred, wm.score) if c]
            rows.append({"role": "wide_models", "columns": cols, "reason": self.reason("wide_models")})
        if self.outputs:
            rows.append({"role": "outputs", "columns": [c for _, t, p in self.outputs for c in (t, p)],
                         "reason": self.reason("outputs")})
        for role in ("groups", "features"):
            if getattr(self, role):
                rows.append({"role": role, "columns": list(getattr(self, role)), "reason": self.reason(role)})
        return rows


def detect_roles(frame: pd.DataFrame) -> Roles:
    """Give columns roles: canonical names first, then synonyms, then prefixed families, each with a reason.

    >>> r = detect_roles(pd.DataFrame({"Label": [0, 1], "Prediction": [1, 1], "prob": [0.7, 0.9]}))
    >>> (r.y_true, r.y_pred, r.score)
    ('Label', 'Prediction', 'prob')
    >>> r.reason("y_true")
    '`Label` is a common name for the ground truth (canonical name: `y_true`)'
    """
    by_norm = {normalise_name(c): c for c in frame.columns}
    roles = Roles()
    taken: set[str] = set()
    for role, names in SYNONYMS.items():
        for rank, synonym in enumerate(names):
            col = by_norm.get(synonym)
            if col is not None and col not in taken:
                why = (f"{quote(col)} is the canonical name for this role" if rank == 0 else
                       f"{quote(col)} is a common name for {_ROLE_WORDS[role]} (canonical name: {quote(names[0])})")
                role_key = "groups" if role == "group" else role
                value = (col,) if role == "group" else col
                roles = roles.with_role(role_key, value, why)
                taken.add(col)
                break

    # Wide clusterings only where nothing names predictions: a classifier's file keeps its task when it carries
    # some `cluster_*` columns of its own (a segment, say); the lone `cluster` column instead wins, as SPEC says.
    if not (roles.cluster or roles.model or roles.y_pred or roles.score):
        roles = _wide_clusterings(frame, roles, [c for c in frame.columns if c not in taken])
        taken.update(roles.used_columns())

    if not roles.lower and not roles.upper:
        roles = _levelled_interval(roles, [c for c in frame.columns if c not in taken])
        taken.update(c for c in (roles.lower, roles.upper) if c)

    if not roles.y_true:
        roles = _outputs(frame, roles, [c for c in frame.columns if c not in taken])
        taken.update(roles.used_columns())

    free = [c for c in frame.columns if c not in taken]
    # Multi-label indicator columns: true_<label> (with pred_<label> / score_<label> for the same labels).
    true_cols = _prefixed(free, ("true_",))
    if true_cols:
        labels = list(true_cols)
        pred_cols = _prefixed(free, ("pred_",))
        score_cols = _prefixed(free, ("score_", "proba_", "prob_"))
        roles = roles.with_role("true_labels", tuple((lab, true_cols[lab]) for lab in labels),
                                f"{len(labels)} indicator columns `true_<label>`: one per label of a multi-label task")
        if pred_cols:
            roles = roles.with_role("pred_labels", tuple((lab, pred_cols[lab]) for lab in labels if lab in pred_cols),
                                    "indicator columns `pred_<label>` for the same labels")
        if score_cols:
            roles = roles.with_role("label_scores",
                                    tuple((lab, score_cols[lab]) for lab in labels if lab in score_cols),
                                    "score columns `score_<label>` for the same labels")
        taken.update(roles.used_columns())
        free = [c for c in frame.columns if c not in taken]

    # No ground truth by name: a label column whose values are the classes named by the score columns (the suffixes
    # of proba_<class>, H2O's p0/p1, or numeric columns named like the classes: predict_proba saved with classes_ as
    # the header) is one.
    if not roles.y_true and not roles.true_labels:
        suffixes = set(_score_columns(free))
        named = suffixes | {str(c) for c in free if is_numeric(frame[c])}
        for col in free:
            if frame[col].nunique() > len(named):  # cheap: an id column need not be turned into strings
                continue
            values = label_values(frame, col)
            if len(values) >= 2 and values <= named - {str(col)} and not is_continuous(frame[col]):
                listed = ", ".join(map(shorten, sort_labels(values)[:4]))
                by = ("probability columns `proba_<class>`" if values <= suffixes else
                      "numeric columns named like them, one score column per class")
                roles = roles.with_role("y_true", col, f"its values ({listed}) are the classes named by the {by}")
                taken.add(col)
                free.remove(col)
                break

    # Per-class scores (proba_<class>) versus wide multi-model columns (y_pred_<model>, score_<model>).
    if not roles.true_labels:
        classes = label_values(frame, roles.y_true) if roles.y_true else set()
        classes |= label_values(frame, roles.y_pred) if roles.y_pred else set()
        prefixed = _score_columns(free)
        target = quote(roles.y_true) if roles.y_true else "the ground truth"
        class_cols = {k: c for k, c in prefixed.items() if _matches_class(k, classes)}
        if len(class_cols) >= 2:
            # Columns with the same prefix as two or more class columns are classes too, ones absent from this
            # file's labels — not 1,500 separate models.
            used = {_prefix_of(c) for c in class_cols.values()}
            class_cols.update({k: c for k, c in prefixed.items() if _prefix_of(c) in used})
        by_position = _by_position(prefixed, classes)
        by_name = {str(c): c for c in free if str(c) in classes and is_numeric(frame[c])}
        if by_position:
            roles = roles.with_role("class_scores", by_position,
                                    f"{quote(by_position[0][1])} … {quote(by_position[-1][1])} are numbered 0 to "
                                    f"{len(by_position) - 1}, one per class of {target}: column i is the i-th class "
                                    f"in sorted order ({', '.join(map(shorten, (k for k, _ in by_position[:3])))}"
                                    f"{' …' if len(by_position) > 3 else ''}), as scikit-learn's `classes_`")
            taken.update(c for _, c in by_position)
        elif len(class_cols) >= 2 or (class_cols and len(classes) <= 2):
            pairs = tuple((_match_class(k, classes) or k, c) for k, c in class_cols.items())
            roles = roles.with_role("class_scores", pairs,
                                    f"{', '.join(quote(c) for _, c in pairs[:3])}{' …' if len(pairs) > 3 else ''}: "
                                    f"one probability column per class of {target}")
            taken.update(c for _, c in pairs)
        elif len(by_name) >= 2 and roles.y_true:
            pairs = tuple((k, c) for k, c in by_name.items())
            roles = roles.with_role("class_scores", pairs,
                                    f"{', '.join(quote(c) for _, c in pairs[:3])}{' …' if len(pairs) > 3 else ''} "
                                    f"are named like the classes of {target}: one score column per class (as "
                                    "scikit-learn's `predict_proba` saved with the classes as the header, or H2O)")
            taken.update(c for _, c in pairs)
        free = [c for c in frame.columns if c not in taken]
        wide_pred = _prefixed(free, ("y_pred_", "pred_", "prediction_"))
        wide_score = {k: c for k, c in _prefixed(free, ("score_", "y_score_", "proba_", "prob_")).items()
                      if not _matches_class(k, classes)}
        names = list(dict.fromkeys(list(wide_pred) + list(wide_score)))
        if names and not roles.model and not roles.wide_models and (len(names) >= 2 or not (roles.y_pred or roles.score)):
            models = tuple(WideModel(n, wide_pred.get(n), wide_score.get(n)) for n in names)
            roles = roles.with_role("wide_models", models,
                                    f"columns `y_pred_<model>`/`score_<model>` for {len(models)} models "
                                    f"({', '.join(quote(m.name) for m in models[:4])}) in one wide table")
            taken.update(roles.used_columns())
            free = [c for c in frame.columns if c not in taken]
        if not (roles.score or roles.class_scores or roles.wide_models or roles.model):
            roles, taken = _suffixed_outputs(roles, free, classes, taken, target, models=not roles.y_pred)
            free = [c for c in frame.columns if c not in taken]

    features = tuple(c for c in free if normalise_name(c).startswith("x_"))
    if features:
        roles = roles.with_role("features", features, f"{len(features)} columns `x_*`: features for internal "
                                                      "clustering indices")

    return probabilities_as_scores(frame, roles)


def probabilities_as_scores(frame: pd.DataFrame, roles: Roles) -> Roles:
    """A "prediction" holding decimals in [0, 1] next to a two-class truth is the positive class's score, not a label:
    the one `y_pred` column, and each wide model's (``pred_<model>``, as many tools name their probabilities). Run
    by detection and again once the user's changes are in (a truth chosen by hand, say); a `y_pred` the user set
    stays theirs.

    >>> frame = pd.DataFrame({"churned": [0, 1, 0], "pred_gbm": [0.2, 0.9, 0.4], "pred_rule": [0, 1, 1]})
    >>> roles = Roles(y_true="churned", wide_models=(WideModel("gbm", "pred_gbm"), WideModel("rule", "pred_rule")))
    >>> probabilities_as_scores(frame, roles).wide_models
    (WideModel(name='gbm', y_pred=None, score='pred_gbm', clustering=False), WideModel(name='rule', y_pred='pred_rule', score=None, clustering=False))
    """
    if not roles.y_true or len(label_values(frame, roles.y_true)) > 2:
        return roles
    two_classes = f"{quote(roles.y_true)} has two classes"
    if roles.y_pred and not roles.score and roles.reason("y_pred") != "set by you" \
            and _looks_like_probability(frame[roles.y_pred]):
        why = f"{quote(roles.y_pred)} holds decimals in [0, 1] while {two_classes}: read as the positive-class score"
        roles = roles.with_role("score", roles.y_pred, why).without("y_pred")
    moved = [m for m in roles.wide_models if m.y_pred and not m.score and not m.clustering
             and _looks_like_probability(frame[m.y_pred])]
    if moved:
        models = tuple(replace(m, y_pred=None, score=m.y_pred) if m in moved else m for m in roles.wide_models)
        columns = ", ".join(quote(m.y_pred) for m in moved[:3]) + (" …" if len(moved) > 3 else "")
        roles = roles.with_role("wide_models", models,
                                f"{roles.reason('wide_models')}; {columns} "
                                f"{'hold' if len(moved) > 1 else 'holds'} decimals in [0, 1] while {two_classes}: "
                                "read as positive-class scores")
    return roles


_ROLE_WORDS = {
    "y_true": "the ground truth", "y_pred": "the predicted label", "score": "the positive-class score",
    "model": "the model name", "id": "the sample id", "fold": "the cross-validation fold", "repeat": "the CV repeat",
    "weight": "the sample weight", "group": "a subgroup slice", "timestamp": "the time stamp",
    "horizon": "the forecast horizon", "series": "the series id", "origin": "the forecast origin",
    "lower": "the lower bound of the prediction interval", "upper": "the upper bound of the prediction interval",
    "cluster": "the cluster assignment",
    "latency_ms": "the latency in ms", "energy_j": "the energy in joules",
    "batch_size": "the size of the batch the latency was measured on",
    "split": "the train/test split of each row",
}

_COMMON_PICKERS = (("model", "Model"), ("id", "Sample id"), ("fold", "CV fold"), ("repeat", "CV repeat"),
                   ("weight", "Sample weight"))
_NUMERIC_PICKERS = (("y_true", "Actual value"), ("y_pred", "Predicted value"), *_COMMON_PICKERS,
                    ("lower", "Interval lower bound"), ("upper", "Interval upper bound"))
#: The single-column roles a person picks a column for, per task, with their names on the Data page (the other
#: roles' columns are still listed by `Roles.table`); classification, and a file not yet described, by default.
ROLE_PICKERS: dict[Task | None, tuple[tuple[str, str], ...]] = {
    Task.REGRESSION: _NUMERIC_PICKERS,
    Task.FORECAST: (*_NUMERIC_PICKERS, ("timestamp", "Time stamp"), ("series", "Series"), ("horizon", "Horizon"),
                    ("origin", "Forecast origin")),
    Task.CLUSTERING: (("cluster", "Cluster"), ("y_true", "Reference class"), *_COMMON_PICKERS),
}
CLASSIFICATION_PICKERS = (("y_true", "Ground truth"), ("y_pred", "Predicted label"),
                          ("score", "Score (positive class)"), *_COMMON_PICKERS)


def role_pickers(task: Task | None) -> tuple[tuple[str, str], ...]:
    """(role, label) of the roles offered for ``task`` (None: no task recognised yet)."""
    return ROLE_PICKERS.get(task, CLASSIFICATION_PICKERS)


def _outputs(frame: pd.DataFrame, roles: Roles, columns) -> Roles:
    """Multi-output regression: two or more pairs ``y_true_<name>``/``y_pred_<name>`` (any values: validation says
    when one is not numeric), else pairs ``true_<name>``/``pred_<name>`` whose columns all hold continuous numbers
    (0/1 or few-integer ``true_<label>`` columns stay multi-label indicators). A single pair is the file's
    ``y_true``/``y_pred``, whatever the task its values make it."""
    for true_prefix, pred_prefix in OUTPUT_PREFIXES:
        trues, preds = _prefixed(columns, (true_prefix,)), _prefixed(columns, (pred_prefix,))
        if true_prefix == "true_":
            # ``y_true_x`` also starts with ``true_`` only after ``y_``: _prefixed matches the start, so no clash
            pairs = [(n, trues[n], preds[n]) for n in trues if n in preds
                     and is_continuous(frame[trues[n]]) and is_continuous(frame[preds[n]])]
            if len(pairs) != len(trues):  # some true_<label> column is an indicator: the file is multi-label
                continue
        else:
            pairs = [(n, trues[n], preds[n]) for n in trues if n in preds]
        if len(pairs) == 1:  # one target: an ordinary y_true/y_pred file (its values then decide the task)
            (name, true_col, pred_col), = pairs
            why = (f"{quote(true_col)} and {quote(pred_col)} are the only `{true_prefix}<name>`/"
                   f"`{pred_prefix}<name>` pair")
            return (roles.with_role("y_true", true_col, f"{why}: the ground truth")
                    .with_role("y_pred", pred_col, f"{why}: the prediction"))
        if pairs:
            listed = ", ".join(quote(n) for n, _, _ in pairs[:4]) + (" …" if len(pairs) > 4 else "")
            kind = "" if true_prefix == "y_true_" else " holding continuous numbers"
            return roles.with_role("outputs", tuple(pairs),
                                   f"{len(pairs)} column pairs `{true_prefix}<name>`/`{pred_prefix}<name>`{kind}: "
                                   f"one per output of a multi-output regression ({listed})")
    return roles


def _wide_clusterings(frame: pd.DataFrame, roles: Roles, columns) -> Roles:
    """Two or more columns ``cluster_<name>`` (or ``clusters_<name>``): one clustering per column, compared in one
    wide table — the wide form of SPEC's clustering input (issue 10: "one column per clustering to compare"). Numbers
    with decimals are no cluster assignment (a ``cluster_distance``) and stay free; a single column is no family (it
    is named ``cluster`` or chosen on the Data page)."""
    found = {name: col for name, col in _prefixed(columns, CLUSTER_PREFIXES).items()
             if not (is_numeric(frame[col]) and _has_fractions(frame[col]))}
    if len(found) < 2:
        return roles
    models = tuple(WideModel(name, y_pred=col, clustering=True) for name, col in found.items())
    listed = ", ".join(quote(m.name) for m in models[:4]) + (" …" if len(models) > 4 else "")
    return roles.with_role("wide_models", models, f"{len(models)} columns `cluster_<name>`: one clustering per "
                                                  f"column ({listed}) in one wide table")


def _has_fractions(col: pd.Series) -> bool:
    values = pd.to_numeric(col, errors="coerce").dropna().to_numpy(dtype=float)
    return bool(np.any(values != np.round(values)))


_LEVELLED = re.compile(r"^(lower|lo|pi_lower|yhat_lower|upper|hi|pi_upper|yhat_upper)[_-]?(\d{1,2}(?:\.\d+)?)$")


def _levelled_interval(roles: Roles, columns) -> Roles:
    """``lower_90``/``upper_90`` (or ``lo-95``/``hi-95``, as forecasting libraries write them): one pair of bounds with
    the same level. Several levels: the widest is not guessed; the pair of the first level found is taken."""
    found: dict[str, dict[str, str]] = {}
    for col in columns:
        m = _LEVELLED.match(normalise_name(col).replace("-", "_"))
        if m:
            side = "lower" if m.group(1) in ("lower", "lo", "pi_lower", "yhat_lower") else "upper"
            found.setdefault(m.group(2), {}).setdefault(side, col)
    for level, pair in found.items():
        if len(pair) == 2:
            why = f"{quote(pair['lower'])} and {quote(pair['upper'])} are the bounds of a {level} % prediction interval"
            return roles.with_role("lower", pair["lower"], why).with_role("upper", pair["upper"], why)
    # quantile forecasts `q_<level>` (q_05 … q_95, q_0.05, quantile_10): the outermost symmetric pair of quantiles
    # (a, 1 − a) bounds a central (1 − 2a) prediction interval
    quantiles = {q: col for col in columns if (q := _quantile_of(col)) is not None}
    for a in sorted(q for q in quantiles if q < 0.5):
        b = next((q for q in quantiles if abs(q - (1 - a)) < 1e-9), None)
        if b is not None:
            lo, hi = quantiles[a], quantiles[b]
            why = (f"{quote(lo)} and {quote(hi)} are the {a:.0%} and {b:.0%} quantile forecasts: the bounds of a "
                   f"{b - a:.0%} prediction interval")
            return roles.with_role("lower", lo, why).with_role("upper", hi, why)
    return roles


_QUANTILE = re.compile(r"^(?:q|quantile)[_-]?(0?[._]\d+|\d{1,2}(?:[._]\d+)?)$")   # names are normalised: "." → "_"


def _quantile_of(col) -> float | None:
    """The quantile a column named ``q_05``, ``q5``, ``q_0.05`` or ``quantile_95`` holds, as a fraction, else None:
    a number with a leading point or zero-point is a fraction, any other a percentage."""
    m = _QUANTILE.match(normalise_name(col))
    if m is None:
        return None
    text = m.group(1).replace("_", ".")
    q = float(text) if text.startswith((".", "0.")) else float(text) / 100
    return q if 0 < q < 1 else None


def interval_level(roles: Roles) -> float | None:
    """The nominal level of the prediction interval when its column names give it (``lower_90`` → 0.9, ``q_05`` and
    ``q_95`` → 0.9), else None."""
    if roles.lower and roles.upper:   # quantile forecasts: the central interval between the two quantiles
        a, b = _quantile_of(roles.lower), _quantile_of(roles.upper)
        if a is not None and b is not None and a < b and abs(a + b - 1) < 1e-9:
            return round(b - a, 12)
    levels = set()
    for col in (roles.lower, roles.upper):
        m = _LEVELLED.match(normalise_name(col).replace("-", "_")) if col else None
        if m is None:
            return None
        levels.add(float(m.group(2)) / 100)
    return levels.pop() if len(levels) == 1 and 0 < next(iter(levels)) < 1 else None


def _prefixed(columns, prefixes) -> dict[str, str]:
    """{suffix: column} for columns starting with one of ``prefixes`` (case-insensitive), first prefix wins."""
    out: dict[str, str] = {}
    for col in columns:
        low = str(col).lower()
        for prefix in prefixes:
            if low.startswith(prefix) and len(col) > len(prefix):
                out.setdefault(str(col)[len(prefix):], col)
                break
    return out


def _suffixed(columns, suffixes) -> dict[str, str]:
    """{name: column} for columns ending in one of ``suffixes`` (case-insensitive), first suffix wins."""
    out: dict[str, str] = {}
    for col in columns:
        low = normalise_name(col)     # "Fraud probability" ends in "_probability"
        for suffix in suffixes:
            if low.endswith(suffix) and len(low) > len(suffix):
                out.setdefault(str(col).strip()[:len(low) - len(suffix)], col)
                break
    return out


def _suffixed_outputs(roles: Roles, free: list, classes: set[str], taken: set, target: str, *,
                      models: bool = True) -> tuple[Roles, set]:
    """Predictions named by a suffix, as notebooks and spreadsheets write them, when no score was found by name or
    prefix: one score column per class (``cat_proba``, ``dog_proba`` for classes cat and dog; "Fraud probability"
    for class fraud), else — with ``models``, when no predicted label was found either — one model per name
    (``gbm_proba``, ``gbm_pred``, ``logreg_proba``: models gbm and logreg in one wide table)."""
    scores = _suffixed(free, WIDE_SCORE_SUFFIXES)
    preds = _suffixed([c for c in free if c not in scores.values()], WIDE_PRED_SUFFIXES)
    by_class = {_match_class(k, classes): c for k, c in scores.items() if _matches_class(k, classes)}
    if len(by_class) >= 2 or (by_class and len(classes) <= 2 and len(scores) == 1):
        pairs = tuple(by_class.items())
        why = (f"{quote(pairs[0][1])} is named after class {quote(pairs[0][0])} of {target}: its probability"
               if len(pairs) == 1 else
               f"{', '.join(quote(c) for _, c in pairs[:3])}{' …' if len(pairs) > 3 else ''}: one probability column "
               f"`<class>_proba` per class of {target}")
        roles = roles.with_role("class_scores", pairs, why)
        return roles, taken | {c for _, c in pairs}
    scores = {k: c for k, c in scores.items() if not _matches_class(k, classes)}
    names = list(dict.fromkeys(list(preds) + list(scores)))
    if not names or not models:
        return roles, taken
    models = tuple(WideModel(n, preds.get(n), scores.get(n)) for n in names)
    roles = roles.with_role("wide_models", models,
                            f"columns `<model>_pred`/`<model>_proba` for {len(models)} "
                            f"model{'s' if len(models) > 1 else ''} "
                            f"({', '.join(quote(m.name) for m in models[:4])}{' …' if len(models) > 4 else ''})"
                            + (" in one wide table" if len(models) > 1 else ""))
    return roles, taken | set(roles.used_columns())


def _score_columns(columns) -> dict[str, str]:
    """{class suffix: column} of per-class score columns: ``proba_<class>`` and its kin, and H2O's ``p0``, ``p1``, …
    (two or more of them: a lone ``p1`` is no family)."""
    out = _prefixed(columns, CLASS_SCORE_PREFIXES)
    h2o = {m.group(1): c for c in columns if (m := _H2O_SCORE.match(str(c)))}
    if len(h2o) >= 2:
        out.update({k: c for k, c in h2o.items() if k not in out})
    return out


def _prefix_of(column: str) -> str | None:
    name = normalise_name(column)
    if _H2O_SCORE.match(str(column)):
        return "p"
    return next((p for p in CLASS_SCORE_PREFIXES if name.startswith(p)), None)


def _by_position(prefixed: dict[str, str], classes: set[str]) -> tuple[tuple[str, str], ...]:
    """(class, column) pairs when one family of score columns is numbered 0 … k−1 for k classes that are not those
    numbers (``proba_0``, ``proba_1`` for ``cat``, ``dog``; a vector column expanded by `assess.inputs.vectors`): column i
    is the i-th class in sorted order, as scikit-learn orders ``classes_`` (numbers numerically, text as strings).
    Labels 0 … k−1 themselves match by name (Spark's label indices), so they never come here. () otherwise."""
    if len(classes) < 2:
        return ()
    families: dict[str | None, dict[int, str]] = {}
    for suffix, col in prefixed.items():
        if suffix.isdigit():
            families.setdefault(_prefix_of(col), {})[int(suffix)] = col
    for numbered in families.values():
        if sorted(numbered) == list(range(len(classes))) and not classes <= {str(i) for i in numbered}:
            try:
                ordered = sorted(classes, key=float)
            except ValueError:
                ordered = sorted(classes)
            return tuple((ordered[i], numbered[i]) for i in range(len(classes)))
    return ()


def _matches_class(suffix: str, classes: set[str]) -> bool:
    return _match_class(suffix, classes) is not None


def _match_class(suffix: str, classes: set[str]) -> str | None:
    if suffix in classes:
        return suffix
    low = {c.lower(): c for c in classes}
    return low.get(suffix.lower())


def _looks_like_probability(col: pd.Series) -> bool:
    values = pd.to_numeric(col, errors="coerce")
    if values.notna().sum() < max(1, 0.95 * col.notna().sum()):
        return False
    v = values.dropna().to_numpy(dtype=float)
    return v.size > 0 and v.min() >= 0 and v.max() <= 1 and bool(np.any(v != np.round(v)))


# --- overrides --------------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Overrides:
    """What the user changed on the Data page or on the command line; None means "keep the detected value".

    Role values are column names; ``""`` removes a role. ``class_scores`` maps class labels to columns. ``positive``
    and ``class_order`` name the file's labels; ``names`` renames models and classes for display (`assess.inputs.names`).
    """

    roles: tuple[tuple[str, object], ...] = ()
    task: Task | None = None
    positive: str | None = None
    class_order: tuple[str, ...] | None = None
    names: DisplayNames = DisplayNames()

    def with_role(self, role: str, value) -> Overrides:
        return replace(self, roles=tuple((r, v) for r, v in self.roles if r != role) + ((role, value),))


def apply_role(roles: Roles, frame: pd.DataFrame, role: str, value, *, file: str) -> Roles:
    """``roles`` with ``role`` set to ``value`` by the user (``""`` or None removes it); a column moved to a new role
    leaves its old one. Raises `AssessError` for an unknown role or a column ``frame`` lacks (named after ``file``)."""
    valid = set(SINGLE_ROLES) - {"group"} | _LIST_ROLES | _PAIR_ROLES
    if role not in valid:
        raise AssessError(f"unknown role {quote(role)} (roles: {', '.join(sorted(valid))})")
    columns = []
    if role in _PAIR_ROLES:
        value = tuple((str(k), str(c)) for k, c in dict(value).items()) if value else ()
        columns = [c for _, c in value]
    elif role in _LIST_ROLES:
        value = tuple(value or ())
        columns = list(value)
    else:
        value = value or None
        columns = [value] if value else []
    for col in columns:
        if col not in frame.columns:
            raise AssessError(f"{file} has no column {quote(col)} (columns: "
                              f"{', '.join(map(str, list(frame.columns)[:12]))})")
    # A column moved to a new role leaves its old one, a per-class or list role too: `proba_barolo` chosen as the
    # model column stayed barolo's score, which the encoding then read from the frame without the model column.
    for other in valid - {role} - _LIST_ROLES - _PAIR_ROLES:
        if columns and getattr(roles, other) in columns:
            roles = roles.without(other)
    for other in (_LIST_ROLES | _PAIR_ROLES) - {role}:
        current = getattr(roles, other)
        kept = tuple(item for item in current if (item[1] if other in _PAIR_ROLES else item) not in columns)
        if columns and kept != current:
            roles = replace(roles, **{other: kept}) if kept else roles.without(other)
    if role in ("y_pred", "score") and roles.wide_models and value:
        roles = replace(roles, wide_models=())
    if role in ("model", "cluster") and value:
        roles = replace(roles, wide_models=())
    if role in ("y_true", "y_pred") and roles.outputs and value:
        roles = roles.without("outputs")  # a chosen target: a single-output file (its other pairs stay unused)
    return roles.with_role(role, value, "set by you")
