"""Column roles, task recognition and the immutable description of one assessment input.

`detect_roles` gives every column a role with the reason for it; `infer_task` recognises the task from the roles and
the values, with its reason; `describe` puts a `LoadedTable`, the roles, the task, the positive class, the class order
and the models together into an `Assessment`, which the pages, the command line and the report all consume. Every
choice is overridable through `Overrides`; an override's reason says "set by you".

Roles and their canonical names follow ../shared/SPEC.md "Input files".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np
import pandas as pd

from assess.data import Predictions, Task
from assess.errors import AssessError, shorten
from assess.io import LoadedTable

#: Single-column roles, each with its canonical name first and common synonyms after.
SYNONYMS: dict[str, tuple[str, ...]] = {
    "y_true": ("y_true", "label", "labels", "target", "actual", "truth", "ground_truth", "true", "true_label",
               "y", "gold", "observed"),
    "y_pred": ("y_pred", "prediction", "pred", "predicted", "predicted_label", "pred_label", "y_hat", "yhat",
               "forecast"),
    "score": ("score", "y_score", "prob", "proba", "probability", "y_prob", "y_proba", "pred_proba", "p",
              "confidence"),
    "model": ("model", "model_name", "classifier", "estimator", "system", "algorithm"),
    "id": ("id", "sample_id", "row_id", "sample", "uid", "record_id", "example_id"),
    "fold": ("fold", "cv_fold", "fold_id"),
    "repeat": ("repeat", "repetition", "rep", "run"),
    "weight": ("weight", "sample_weight", "weights"),
    "group": ("group", "subgroup", "slice", "segment"),
    "timestamp": ("timestamp", "time", "date", "datetime", "ds"),
    "horizon": ("horizon", "lead", "step_ahead"),
    "series": ("series", "series_id", "unique_id", "item_id"),
    "cluster": ("cluster", "cluster_id", "cluster_label"),
    "latency_ms": ("latency_ms", "latency"),
    "energy_j": ("energy_j", "energy"),
}
SINGLE_ROLES = tuple(SYNONYMS)
#: Prefixes of per-class probability/score columns (``proba_setosa``).
CLASS_SCORE_PREFIXES = ("proba_", "prob_", "probability_", "p_", "score_")
#: Strings that count as missing in numeric roles (in label roles they stay labels).
NUMERIC_NA = frozenset({"", "na", "n/a", "nan", "null", "none", "-", "?", "#n/a"})
_POSITIVE_NAMES = ("1", "true", "yes", "y", "pos", "positive", "t", "1.0")
_NEGATIVE_NAMES = ("0", "false", "no", "n", "neg", "negative", "f", "0.0", "-1")
#: A numeric ground truth with more distinct values than this (and not all integers) is read as regression.
MAX_CLASSES = 50
#: Most classes a classification file may have: the (k, k) confusion matrix and its bootstrap chunks stay within
#: tens of megabytes. Above it the assessment is refused with a message, never silently re-read as another task.
MAX_ASSESSED_CLASSES = 2_000
MULTILABEL_SEPARATOR = "|"


def normalise_name(name: str) -> str:
    """Lower case, with spaces, dots and hyphens folded to underscores: ``"Predicted Label"`` → ``predicted_label``."""
    return re.sub(r"[\s.\-]+", "_", str(name).strip().lower())


def quote(value) -> str:
    """A file-derived value as an inline code span, safe inside Markdown: backticks cannot break out of it."""
    return f"`{shorten(value).replace('`', chr(39))}`"


# --- roles ------------------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class WideModel:
    """One model of a wide file: its predicted-label and/or score column."""

    name: str
    y_pred: str | None = None
    score: str | None = None


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
    model: str | None = None
    id: str | None = None
    fold: str | None = None
    repeat: str | None = None
    weight: str | None = None
    groups: tuple[str, ...] = ()
    timestamp: str | None = None
    horizon: str | None = None
    series: str | None = None
    cluster: str | None = None
    features: tuple[str, ...] = ()
    latency_ms: str | None = None
    energy_j: str | None = None
    reasons: tuple[tuple[str, str], ...] = ()        # (role, reason)

    def reason(self, role: str) -> str:
        return dict(self.reasons).get(role, "")

    def with_role(self, role: str, value, reason: str) -> Roles:
        reasons = tuple((r, why) for r, why in self.reasons if r != role) + ((role, reason),)
        return replace(self, **{role: value}, reasons=reasons)

    def without(self, role: str) -> Roles:
        empty = () if role in ("groups", "features", "class_scores", "true_labels", "pred_labels", "label_scores",
                               "wide_models") else None
        return replace(self, **{role: empty}, reasons=tuple((r, w) for r, w in self.reasons if r != role))

    def used_columns(self) -> set[str]:
        cols = {c for c in (self.y_true, self.y_pred, self.score, self.model, self.id, self.fold, self.repeat,
                            self.weight, self.timestamp, self.horizon, self.series, self.cluster, self.latency_ms,
                            self.energy_j) if c}
        for pairs in (self.class_scores, self.true_labels, self.pred_labels, self.label_scores):
            cols.update(c for _, c in pairs)
        for wm in self.wide_models:
            cols.update(c for c in (wm.y_pred, wm.score) if c)
        cols.update(self.groups)
        cols.update(self.features)
        return cols

    def table(self) -> list[dict]:
        """One row per role: role, columns, reason — what the Data page and `inspect` show."""
        rows = []
        for role in ("y_true", "y_pred", "score", "model", "id", "fold", "repeat", "weight", "timestamp", "horizon",
                     "series", "cluster", "latency_ms", "energy_j"):
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

    # No ground truth by name: a label column whose values are the suffixes of proba_<class> columns is one.
    if not roles.y_true and not roles.true_labels:
        suffixes = set(_prefixed(free, CLASS_SCORE_PREFIXES))
        for col in free:
            if frame[col].nunique() > len(suffixes):  # cheap: an id column need not be turned into strings
                continue
            values = _label_values(frame, col)
            if len(values) >= 2 and values <= suffixes and not _is_continuous(frame[col]):
                listed = ", ".join(sort_labels(values)[:4])
                roles = roles.with_role("y_true", col, f"its values ({listed}) are the classes named by the "
                                                        "probability columns `proba_<class>`")
                taken.add(col)
                free.remove(col)
                break

    # Per-class scores (proba_<class>) versus wide multi-model columns (y_pred_<model>, score_<model>).
    if not roles.true_labels:
        classes = _label_values(frame, roles.y_true) if roles.y_true else set()
        classes |= _label_values(frame, roles.y_pred) if roles.y_pred else set()
        prefixed = _prefixed(free, CLASS_SCORE_PREFIXES)
        class_cols = {k: c for k, c in prefixed.items() if _matches_class(k, classes)}
        if len(class_cols) >= 2:
            # Columns with the same prefix as two or more class columns are classes too, ones absent from this
            # file's labels — not 1,500 separate models.
            used = {_prefix_of(c) for c in class_cols.values()}
            class_cols.update({k: c for k, c in prefixed.items() if _prefix_of(c) in used})
        if len(class_cols) >= 2 or (class_cols and len(classes) <= 2):
            pairs = tuple((_match_class(k, classes) or k, c) for k, c in class_cols.items())
            target = quote(roles.y_true) if roles.y_true else "the ground truth"
            roles = roles.with_role("class_scores", pairs,
                                    f"{', '.join(quote(c) for _, c in pairs[:3])}{' …' if len(pairs) > 3 else ''}: "
                                    f"one probability column per class of {target}")
            taken.update(c for _, c in pairs)
        free = [c for c in frame.columns if c not in taken]
        wide_pred = _prefixed(free, ("y_pred_", "pred_", "prediction_"))
        wide_score = {k: c for k, c in _prefixed(free, ("score_", "y_score_", "proba_", "prob_")).items()
                      if not _matches_class(k, classes)}
        names = list(dict.fromkeys(list(wide_pred) + list(wide_score)))
        if names and not roles.model and (len(names) >= 2 or not (roles.y_pred or roles.score)):
            models = tuple(WideModel(n, wide_pred.get(n), wide_score.get(n)) for n in names)
            roles = roles.with_role("wide_models", models,
                                    f"columns `y_pred_<model>`/`score_<model>` for {len(models)} models "
                                    f"({', '.join(quote(m.name) for m in models[:4])}) in one wide table")
            taken.update(roles.used_columns())
            free = [c for c in frame.columns if c not in taken]

    features = tuple(c for c in free if normalise_name(c).startswith("x_"))
    if features:
        roles = roles.with_role("features", features, f"{len(features)} columns `x_*`: features for internal "
                                                      "clustering indices")

    # A "prediction" holding probabilities next to a two-class truth is a score, not a label.
    if roles.y_pred and not roles.score and roles.y_true:
        col = frame[roles.y_pred]
        if _looks_like_probability(col) and len(_label_values(frame, roles.y_true)) <= 2:
            why = (f"{quote(roles.y_pred)} holds decimals in [0, 1] while {quote(roles.y_true)} has two classes: "
                   "read as the positive-class score")
            roles = roles.with_role("score", roles.y_pred, why).without("y_pred")
    return roles


_ROLE_WORDS = {
    "y_true": "the ground truth", "y_pred": "the predicted label", "score": "the positive-class score",
    "model": "the model name", "id": "the sample id", "fold": "the cross-validation fold", "repeat": "the CV repeat",
    "weight": "the sample weight", "group": "a subgroup slice", "timestamp": "the time stamp",
    "horizon": "the forecast horizon", "series": "the series id", "cluster": "the cluster assignment",
    "latency_ms": "the latency in ms", "energy_j": "the energy in joules",
}


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


def _prefix_of(column: str) -> str | None:
    name = normalise_name(column)
    return next((p for p in CLASS_SCORE_PREFIXES if name.startswith(p)), None)


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


# --- labels -----------------------------------------------------------------------------------------------------------

def label_strings(col: pd.Series) -> pd.Series:
    """Labels as strings, missing kept as None: integral floats lose ``.0`` so ``1.0`` and ``1`` are one class.

    Works on the distinct values (pd.factorize), so a million rows cost one hash pass, not a million Python calls.

    >>> label_strings(pd.Series([1.0, None, 0.0])).tolist()
    ['1', None, '0']
    """
    codes, uniques = pd.factorize(col, use_na_sentinel=True)
    values = list(uniques)
    if pd.api.types.is_bool_dtype(col) or all(isinstance(v, (bool, np.bool_)) for v in values[:50]) and values:
        names = [str(bool(v)) for v in values]
    elif pd.api.types.is_float_dtype(col):
        v = np.asarray(values, dtype=float)
        integral = bool(np.all(v[np.isfinite(v)] == np.round(v[np.isfinite(v)])))
        names = [str(int(x)) if integral and np.isfinite(x) else repr(float(x)) for x in v]
    elif pd.api.types.is_integer_dtype(col):
        names = [str(int(x)) for x in values]
    else:
        names = [_label_text(x) for x in values]
    lookup = np.array(names + [None], dtype=object)
    return pd.Series(lookup[codes], index=col.index, dtype=object)


def _label_text(value) -> str:
    if isinstance(value, (float, np.floating)) and float(value).is_integer():
        return str(int(value))
    return str(value).strip()


def _label_values(frame: pd.DataFrame, column: str | None) -> set[str]:
    if not column or column not in frame:
        return set()
    col = frame[column]
    if _is_continuous(col):
        return set()
    # Every distinct value, however many: a capped count once turned 1,001 classes into "a single class ()" and
    # scored all-wrong predictions as accuracy 1.0. Too many classes to assess is validation's call, not a guess here.
    uniques = pd.unique(col.dropna())
    return {s for s in label_strings(pd.Series(uniques)) if s is not None}


def _is_numeric(col: pd.Series) -> bool:
    return pd.api.types.is_numeric_dtype(col) and not pd.api.types.is_bool_dtype(col)


def _is_continuous(col: pd.Series) -> bool:
    """Numbers that are not class labels: some non-integers, or more than MAX_CLASSES distinct values."""
    if not _is_numeric(col):
        return False
    v = col.dropna().to_numpy(dtype=float)
    if v.size == 0:
        return False
    if np.any(v != np.round(v)):
        return True
    return len(np.unique(v)) > MAX_CLASSES


def sort_labels(labels) -> list[str]:
    """Numeric labels in numeric order, others in natural order (``c2`` before ``c10``)."""
    labels = list(labels)

    def as_number(s):
        try:
            return float(s)
        except ValueError:
            return None

    if labels and all(as_number(s) is not None for s in labels):
        return sorted(labels, key=as_number)
    return sorted(labels, key=lambda s: [int(t) if t.isdigit() else t.lower() for t in re.split(r"(\d+)", s)])


def _split_sets(col: pd.Series) -> pd.Series:
    """Multi-label sets ``a|b|c`` as frozensets; an empty cell or ``""`` is the empty set."""
    return col.map(lambda v: frozenset() if v is None or (isinstance(v, float) and np.isnan(v)) else
                   frozenset(t.strip() for t in str(v).split(MULTILABEL_SEPARATOR) if t.strip()))


# --- task -------------------------------------------------------------------------------------------------------------

def infer_task(frame: pd.DataFrame, roles: Roles) -> tuple[Task, str]:
    """The task and the reason for it, from the roles and the values of the ground truth.

    >>> f = pd.DataFrame({"y_true": ["cat", "dog", "cow"], "y_pred": ["cat", "cow", "cow"]})
    >>> infer_task(f, detect_roles(f))
    (<Task.MULTICLASS: 'multiclass'>, '`y_true` has 3 classes (cat, cow, dog)')
    """
    if roles.cluster:
        return Task.CLUSTERING, f"{quote(roles.cluster)} holds cluster assignments"
    if roles.true_labels:
        return Task.MULTILABEL, f"{len(roles.true_labels)} indicator columns `true_<label>`: one per label"
    if not roles.y_true:
        raise AssessError("no ground-truth column found: name one `y_true` (or `label`, `target`, `actual`), "
                          "or choose it on the Data page / with --y-true")
    col = frame[roles.y_true]
    if not _is_numeric(col):
        sample = col.dropna().astype(str).head(1000)
        if sample.str.contains(MULTILABEL_SEPARATOR, regex=False).any():
            example = sample[sample.str.contains(MULTILABEL_SEPARATOR, regex=False)].iloc[0]
            return Task.MULTILABEL, (f"{quote(roles.y_true)} holds label sets separated by "
                                     f"'{MULTILABEL_SEPARATOR}' (e.g. {quote(example)})")
    if _is_continuous(col):
        v = col.dropna().to_numpy(dtype=float)
        what = ("non-integer values" if np.any(v != np.round(v))
                else f"{len(np.unique(v)):,} distinct integers (more than {MAX_CLASSES})")
        if roles.timestamp:
            return Task.FORECAST, (f"{quote(roles.y_true)} is numeric with {what}, and {quote(roles.timestamp)} "
                                   "orders the rows in time")
        return Task.REGRESSION, f"{quote(roles.y_true)} is numeric with {what}"
    classes = sort_labels(_label_values(frame, roles.y_true))
    listed = ", ".join(classes[:6]) + (" …" if len(classes) > 6 else "")
    if len(classes) > 2:
        return Task.MULTICLASS, f"{quote(roles.y_true)} has {len(classes)} classes ({listed})"
    if len(classes) == 2:
        return Task.BINARY, f"{quote(roles.y_true)} has two classes ({listed})"
    return Task.BINARY, f"{quote(roles.y_true)} has a single class ({listed}); read as binary"


def infer_positive(frame: pd.DataFrame, y_true: str, classes: list[str]) -> tuple[str | None, str]:
    """The positive class of a binary task, with the reason: 1/True/yes/pos, else not 0/False/no, else the minority."""
    if not classes:
        return None, ""
    lower = {c.lower(): c for c in classes}
    for name in _POSITIVE_NAMES:
        if name in lower:
            return lower[name], f"{quote(lower[name])} is the conventional positive label"
    if len(classes) == 2:
        for name in _NEGATIVE_NAMES:
            if name in lower:
                other = next(c for c in classes if c != lower[name])
                return other, f"{quote(other)} is the label other than the conventional negative {quote(lower[name])}"
    if len(classes) == 1:
        return classes[0], f"{quote(classes[0])} is the only class"
    counts = label_strings(frame[y_true]).value_counts()
    a, b = classes[0], classes[1]
    ca, cb = int(counts.get(a, 0)), int(counts.get(b, 0))
    positive = a if ca < cb else b
    return positive, (f"{quote(positive)} is the minority class ({min(ca, cb):,} of {ca + cb:,} rows); "
                      "change it if the other class is the one to detect")


# --- the assessment ---------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Overrides:
    """What the user changed on the Data page or on the command line; None means "keep the detected value".

    Role values are column names; ``""`` removes a role. ``class_scores`` maps class labels to columns.
    """

    roles: tuple[tuple[str, object], ...] = ()
    task: Task | None = None
    positive: str | None = None
    class_order: tuple[str, ...] | None = None

    def with_role(self, role: str, value) -> Overrides:
        return replace(self, roles=tuple((r, v) for r, v in self.roles if r != role) + ((role, value),))


@dataclass(frozen=True, eq=False)
class Assessment:
    """One immutable description of an assessment input: data, roles, task, positive class, class order, models.

    Build it with `describe`. ``problems`` holds what `assess.validation.validate` found; `predictions` refuses to
    encode an input with blocking errors.
    """

    table: LoadedTable
    roles: Roles
    task: Task
    task_reason: str
    classes: tuple[str, ...]
    positive: str | None
    positive_reason: str
    models: tuple[str, ...]
    problems: tuple = ()

    @property
    def frame(self) -> pd.DataFrame:
        return self.table.frame

    @property
    def errors(self) -> tuple:
        return tuple(p for p in self.problems if p.level == "error")

    @property
    def warnings(self) -> tuple:
        return tuple(p for p in self.problems if p.level == "warning")

    @cached_property
    def model_rows(self) -> dict[str, np.ndarray]:
        """Row positions of each model (all rows for single-model and wide files)."""
        if self.roles.model:
            codes, uniques = pd.factorize(label_strings(self.frame[self.roles.model]), use_na_sentinel=True)
            order = np.argsort(codes, kind="stable")
            bounds = np.searchsorted(codes[order], np.arange(len(uniques) + 1))
            return {str(u): order[bounds[i]:bounds[i + 1]] for i, u in enumerate(uniques)}
        return {m: np.arange(len(self.frame)) for m in self.models}

    @cached_property
    def _encoded(self) -> dict[str, Predictions]:
        return {}

    def predictions(self, model: str | None = None) -> Predictions:
        """The encoded arrays of one model (the first when ``model`` is None); see `assess.data.Predictions`.

        Encoded once per model and kept: the assessment is immutable, and pages ask for the same model on every
        rerun (encoding a million rows takes a few tenths of a second).
        """
        key = self.models[0] if model is None else model
        if key not in self._encoded:
            encoded = self._encode(model)
            for name in ("y_true", "y_pred", "scores", "weight", "fold", "ids", "group"):
                array = getattr(encoded, name)
                if array is not None:
                    array.flags.writeable = False  # shared by every later call: nobody may change it
            self._encoded[key] = encoded
        return self._encoded[key]

    def _encode(self, model: str | None) -> Predictions:
        if self.errors:
            raise AssessError(f"{self.table.name}: {self.errors[0].message} (fix the errors before assessing)")
        model = self.models[0] if model is None else model
        if model not in self.models:
            raise AssessError(f"no model {quote(model)} in {self.table.name} (models: "
                              f"{', '.join(self.models)})")
        rows = self.model_rows[model]
        frame = self.frame.iloc[rows] if len(rows) != len(self.frame) else self.frame
        r = self.roles
        wide = next((wm for wm in r.wide_models if wm.name == model), None)
        pred_col = wide.y_pred if wide else r.y_pred
        score_col = wide.score if wide else r.score
        extras = dict(
            weight=numeric_column(frame, r.weight) if r.weight else None,
            fold=label_strings(frame[r.fold]).to_numpy(dtype=object) if r.fold else None,
            ids=label_strings(frame[r.id]).to_numpy(dtype=object) if r.id else None,
            group=label_strings(frame[r.groups[0]]).to_numpy(dtype=object) if r.groups else None,
            model=model,
        )
        task = self.task
        if task is Task.BINARY:
            positive = self.positive
            y_true = (label_strings(frame[r.y_true]).to_numpy(dtype=object) == positive).astype(np.int8)
            y_pred = ((label_strings(frame[pred_col]).to_numpy(dtype=object) == positive).astype(np.int8)
                      if pred_col else None)
            if score_col:
                scores = numeric_column(frame, score_col)
            elif r.class_scores:
                by_class = dict(r.class_scores)
                if positive in by_class:
                    scores = numeric_column(frame, by_class[positive])
                else:  # only the other class has a column (validation says so): P(positive) = 1 − P(other)
                    scores = 1.0 - numeric_column(frame, by_class[self._negative()])
            else:
                scores = None
            return Predictions(task, (self._negative(), positive), y_true, y_pred, scores, **extras)
        if task is Task.MULTICLASS:
            index = {c: i for i, c in enumerate(self.classes)}
            y_true = _encode(label_strings(frame[r.y_true]), index)
            y_pred = _encode(label_strings(frame[pred_col]), index) if pred_col else None
            scores = None
            if r.class_scores and not wide:
                by_class = dict(r.class_scores)
                if all(c in by_class for c in self.classes):
                    scores = np.column_stack([numeric_column(frame, by_class[c]) for c in self.classes])
            return Predictions(task, self.classes, y_true, y_pred, scores, **extras)
        if task is Task.MULTILABEL:
            y_true, y_pred, scores = self._multilabel_arrays(frame, pred_col)
            return Predictions(task, self.classes, y_true, y_pred, scores, **extras)
        if task in (Task.REGRESSION, Task.FORECAST):
            return Predictions(task, (), numeric_column(frame, r.y_true),
                               numeric_column(frame, pred_col) if pred_col else None, None, **extras)
        # clustering
        clusters = label_strings(frame[r.cluster])
        cluster_index = {c: i for i, c in enumerate(sort_labels(set(clusters.dropna())))}
        y_true = None
        if r.y_true:
            index = {c: i for i, c in enumerate(self.classes)}
            y_true = _encode(label_strings(frame[r.y_true]), index)
        return Predictions(task, self.classes, y_true, _encode(clusters, cluster_index), None, **extras)

    def _negative(self) -> str:
        others = [c for c in self.classes if c != self.positive]
        return others[0] if others else f"not {self.positive}"

    def _multilabel_arrays(self, frame: pd.DataFrame, pred_col: str | None):
        r, labels = self.roles, self.classes
        if r.true_labels:
            true_by, pred_by, score_by = dict(r.true_labels), dict(r.pred_labels), dict(r.label_scores)
            y_true = np.column_stack([indicator_column(frame, true_by[lab]) for lab in labels])
            y_pred = (np.column_stack([indicator_column(frame, pred_by[lab]) for lab in labels])
                      if all(lab in pred_by for lab in labels) else None)
            scores = (np.column_stack([numeric_column(frame, score_by[lab]) for lab in labels])
                      if score_by and all(lab in score_by for lab in labels) else None)
            return y_true, y_pred, scores
        index = {lab: j for j, lab in enumerate(labels)}

        def to_matrix(col):
            out = np.zeros((len(frame), len(labels)), dtype=bool)
            for i, labset in enumerate(_split_sets(frame[col])):
                for lab in labset:
                    if lab in index:
                        out[i, index[lab]] = True
            return out

        return to_matrix(r.y_true), (to_matrix(pred_col) if pred_col else None), None

    def to_dict(self) -> dict:
        """JSON-ready description (what `python -m assess inspect` prints)."""
        return {
            "file": self.table.name, "sha256": self.table.sha256, "format": self.table.format,
            "compression": self.table.compression, "delimiter": self.table.delimiter, "decimal": self.table.decimal,
            "sheet": self.table.sheet, "rows": int(len(self.frame)), "columns": [str(c) for c in self.frame.columns],
            "notes": list(self.table.notes), "task": self.task.value, "task_reason": self.task_reason,
            "roles": self.roles.table(), "positive": self.positive, "positive_reason": self.positive_reason,
            "classes": list(self.classes), "models": list(self.models),
            "problems": [p.to_dict() for p in self.problems],
        }


def numeric_column(frame: pd.DataFrame, column: str) -> np.ndarray:
    """A numeric role's values as float64; NA-like strings become NaN, other text raises (validation reports it)."""
    col = frame[column]
    if _is_numeric(col):
        return col.to_numpy(dtype=float, na_value=np.nan)
    if pd.api.types.is_bool_dtype(col):
        return col.to_numpy(dtype=float, na_value=np.nan)
    text = col.astype(str).str.strip()
    text = text.where(~text.str.lower().isin(NUMERIC_NA) & col.notna(), None)
    return pd.to_numeric(text, errors="coerce").to_numpy(dtype=float)


def indicator_column(frame: pd.DataFrame, column: str) -> np.ndarray:
    """0/1, true/false or yes/no indicator values as bool."""
    col = frame[column]
    if _is_numeric(col) or pd.api.types.is_bool_dtype(col):
        return col.fillna(0).to_numpy(dtype=float) > 0.5
    return col.astype(str).str.strip().str.lower().isin({"1", "true", "yes", "y", "t", "1.0"}).to_numpy()


def _encode(labels: pd.Series, index: dict[str, int]) -> np.ndarray:
    return labels.map(index).fillna(-1).to_numpy(dtype=np.int64)


def describe(table: LoadedTable, overrides: Overrides | None = None) -> Assessment:
    """Detect roles, task, classes, positive class and models of ``table``, apply ``overrides``, and validate.

    Raises `AssessError` only when no assessment can be described at all (no ground truth and no clusters);
    everything else is reported in ``Assessment.problems``.
    """
    from assess.validation import validate

    overrides = overrides or Overrides()
    frame = table.frame
    roles = detect_roles(frame)
    for role, value in overrides.roles:
        roles = _apply_role(roles, frame, role, value, table.name)
    if overrides.task is not None:
        task, task_reason = overrides.task, "set by you"
    else:
        try:
            task, task_reason = infer_task(frame, roles)
        except AssessError as exc:
            raise AssessError(f"{table.name}: {exc} (columns: {', '.join(map(str, list(frame.columns)[:12]))})") \
                from None

    classes = _classes(frame, roles, task)
    if overrides.class_order:
        extra = [c for c in overrides.class_order if c not in classes]
        if extra:
            raise AssessError(f"class order names {', '.join(map(quote, extra))}, which "
                              f"{'is' if len(extra) == 1 else 'are'} not a class of {table.name}")
        classes = list(overrides.class_order) + [c for c in classes if c not in overrides.class_order]

    positive, positive_reason = None, ""
    if task is Task.BINARY:
        if overrides.positive is not None:
            if overrides.positive not in classes:
                raise AssessError(f"positive class {quote(overrides.positive)} is not a class of {table.name} "
                                  f"(classes: {', '.join(classes)})")
            positive, positive_reason = overrides.positive, "set by you"
        else:
            positive, positive_reason = infer_positive(frame, roles.y_true, classes)

    if roles.model:
        models = tuple(str(m) for m in pd.unique(label_strings(frame[roles.model]).dropna()))
    elif roles.wide_models:
        models = tuple(wm.name for wm in roles.wide_models)
    else:
        models = (table.stem,)
    draft = Assessment(table, roles, task, task_reason, tuple(classes), positive, positive_reason, models)
    return replace(draft, problems=tuple(validate(draft)))


_LIST_ROLES = {"groups", "features"}
_PAIR_ROLES = {"class_scores", "true_labels", "pred_labels", "label_scores"}


def _apply_role(roles: Roles, frame: pd.DataFrame, role: str, value, file: str) -> Roles:
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
    # A column moved to a new role leaves its old one.
    for other in valid - {role} - _LIST_ROLES - _PAIR_ROLES:
        if columns and getattr(roles, other) in columns:
            roles = roles.without(other)
    if role in ("y_pred", "score") and roles.wide_models and value:
        roles = replace(roles, wide_models=())
    if role == "model" and value:
        roles = replace(roles, wide_models=())
    return roles.with_role(role, value, "set by you")


def _classes(frame: pd.DataFrame, roles: Roles, task: Task) -> list[str]:
    if task is Task.MULTILABEL:
        if roles.true_labels:
            return [lab for lab, _ in roles.true_labels]
        labels = set()
        for col in (roles.y_true, roles.y_pred):
            if col:
                for labset in pd.unique(_split_sets(frame[col])):
                    labels |= labset
        return sort_labels(labels)
    if task in (Task.REGRESSION, Task.FORECAST):
        return []
    if task is Task.CLUSTERING:
        return sort_labels(_label_values(frame, roles.y_true)) if roles.y_true else []
    labels = _label_values(frame, roles.y_true)
    if roles.y_pred:
        labels |= _label_values(frame, roles.y_pred)
    for wm in roles.wide_models:
        if wm.y_pred:
            labels |= _label_values(frame, wm.y_pred)
    labels |= {k for k, _ in roles.class_scores}
    return sort_labels(labels)
