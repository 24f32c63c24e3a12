"""The immutable description of one assessment input, and `describe`, which builds it.

`describe` puts a `LoadedTable`, the column roles (`assess.inputs.roles`), the task, its classes and positive class
(`assess.inputs.tasks`) and the models together, validates them (`assess.inputs.validation`) and returns an `Assessment`, which
the pages, the command line and the report all consume. Every choice is overridable through `Overrides`; an
override's reason says "set by you". Roles and their canonical names follow SPEC, "Input files".
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property

import numpy as np
import pandas as pd

from assess.inputs.columns import (indicator_column, is_continuous, label_codes, label_mask, label_strings, normalise_name,
                            numeric_column, quote, rows_by_code, rows_by_value, sort_labels, split_sets, time_values)
from assess.core.data import Predictions, Task
from assess.core.errors import AssessError
from assess.inputs.read import LoadedTable
from assess.inputs.names import DisplayNames
from assess.inputs.roles import Overrides, Roles, apply_role, detect_roles, interval_level, probabilities_as_scores
from assess.inputs.tasks import conventional_positive, infer_positive, infer_task, task_classes
from assess.inputs.validation import Problem, validate

@dataclass(frozen=True, eq=False)
class Assessment:
    """One immutable description of an assessment input: data, roles, task, positive class, class order, models.

    Build it with `describe`. ``problems`` holds what `assess.inputs.validation.validate` found; `predictions` refuses to
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
    problems: tuple[Problem, ...] = ()
    names: DisplayNames = DisplayNames()  # models, classes and positive above carry these display names
    #: the rows of a classification file whose truth is empty (`unlabelled_rows`), set aside by `describe`: ``table``
    #: holds the labelled rows only, so every metric, chart and test reads those; None when every row is labelled
    unlabelled: LoadedTable | None = None
    #: where ``table``'s rows lie in the file (0-based) when `describe` set unlabelled rows aside; None: the same rows
    file_rows: np.ndarray | None = field(default=None, repr=False)

    @property
    def n_unlabelled(self) -> int:
        return 0 if self.unlabelled is None else int(len(self.unlabelled.frame))

    def unlabelled_predictions(self, model: str | None = None) -> Predictions | None:
        """One model's unlabelled rows encoded as `predictions` encodes its labelled ones (scores, predicted labels,
        ids, in the same class order), with ``y_true`` None: their labels have not arrived. None when the model has
        no unlabelled row."""
        if self.unlabelled is None:
            return None
        rows = self._unlabelled.model_rows.get(self.models[0] if model is None else model)
        if rows is None or not len(rows):
            return None
        return replace(self._unlabelled.predictions(model), y_true=None)

    def unlabelled_frame(self, model: str | None = None) -> pd.DataFrame | None:
        """One model's unlabelled rows with every column of the file (time stamps, features …), row for row as
        `unlabelled_predictions` encodes them; None when the model has none."""
        if self.unlabelled is None:
            return None
        rows = self._unlabelled.model_rows.get(self.models[0] if model is None else model)
        return None if rows is None or not len(rows) else self.unlabelled.frame.iloc[rows]

    @cached_property
    def _unlabelled(self) -> Assessment:
        """The unlabelled rows as an assessment of their own (no problems: `describe` checked them with the rest),
        so that they are encoded by the one `_encode`; its ``y_true`` is never read."""
        labelled = np.zeros(len(self.frame) + self.n_unlabelled, dtype=bool)
        labelled[self.file_rows] = True
        return replace(self, table=self.unlabelled, unlabelled=None, problems=(), file_rows=np.flatnonzero(~labelled))

    @property
    def frame(self) -> pd.DataFrame:
        return self.table.frame

    @property
    def errors(self) -> tuple[Problem, ...]:
        return tuple(p for p in self.problems if p.level == "error")

    @property
    def warnings(self) -> tuple[Problem, ...]:
        return tuple(p for p in self.problems if p.level == "warning")

    @cached_property
    def model_rows(self) -> dict[str, np.ndarray]:
        """Row positions of each model (all rows for single-model and wide files), by display name."""
        return _model_rows(self.frame, self.roles, self.models, self.names)

    @cached_property
    def _encoded(self) -> dict[tuple[str, str | None], Predictions]:
        return {}

    @cached_property
    def _ids(self) -> np.ndarray | None:
        """Every row's sample id, read once for all models (each model's are its rows of it). An integer id column
        stays integers — the column's own memory, read-only — since ``7`` and ``"7"`` name the same sample and
        compare, align and count alike: label strings would be one Python object per row and per model (measured:
        30 MB for a 200,000-row file of 3 models, 150 MB at a million rows), kept as long as the assessment is.
        Any other id column is read as labels (`assess.inputs.columns.label_strings`: ``1.0`` and ``1`` are one id)."""
        if not self.roles.id:
            return None
        column = self.frame[self.roles.id]
        if isinstance(column.dtype, np.dtype) and column.dtype.kind in "iu":
            ids = column.to_numpy().view()   # a view: the flag below must not lock the frame's own array
        else:
            ids = label_strings(column).to_numpy(dtype=object)
        ids.flags.writeable = False
        return ids

    @property
    def outputs(self) -> tuple[str, ...]:
        """The output names of a multi-output regression (``y_true_<name>``/``y_pred_<name>`` pairs); () otherwise."""
        return tuple(name for name, _, _ in self.roles.outputs)

    def predictions(self, model: str | None = None, output: str | None = None) -> Predictions:
        """The encoded arrays of one model (the first when ``model`` is None); see `assess.core.data.Predictions`.

        In a multi-output regression file, ``output`` names the output (one of `outputs`) and the result is the
        ordinary 1-D regression `Predictions` of that output, so every metric, chart and test works on it unchanged.
        Without ``output`` it is the *first* output: pages that do not offer an output choice (Compare) then assess
        that one, and the Metrics and Errors pages offer the choice. ``output`` on a single-output file is an error.

        Encoded once per (model, output) and kept: the assessment is immutable, and pages ask for the same model on
        every rerun (encoding a million rows takes a few tenths of a second).
        """
        if self.errors:
            raise AssessError(f"{self.table.name}: {self.errors[0].message} (fix the errors before assessing)")
        if not self.models:
            raise AssessError(f"{self.table.name}: no model to assess")
        if output is not None and output not in self.outputs:
            raise AssessError(f"no output {quote(output)} in {self.table.name} "
                              + (f"(outputs: {', '.join(map(quote, self.outputs))})" if self.outputs
                                 else "(it has a single target)"))
        if self.outputs and output is None:
            output = self.outputs[0]
        key = (self.models[0] if model is None else model, output)
        if key not in self._encoded:
            encoded = self._encode(model, output)
            for name in ("y_true", "y_pred", "scores", "weight", "fold", "repeat", "ids", "group", "lower", "upper", "features"):
                array = getattr(encoded, name)
                if array is not None:
                    array.flags.writeable = False  # shared by every later call: nobody may change it
            self._encoded[key] = encoded
        return self._encoded[key]

    def _encode(self, model: str | None, output: str | None = None) -> Predictions:
        model = self.models[0] if model is None else model
        if model not in self.models:
            raise AssessError(f"no model {quote(model)} in {self.table.name} (models: "
                              f"{', '.join(self.models)})")
        rows = self.model_rows[model]
        r = self.roles
        # one model's rows; its name column is not read here, and copying a text column is most of the copy's cost
        frame = self.frame if len(rows) == len(self.frame) else \
            (self.frame.drop(columns=[r.model]) if r.model else self.frame).iloc[rows]
        fc = self.names.file_class  # the file's label behind a display name: the data are read by file labels
        wide = next((wm for wm in r.wide_models if wm.name == self.names.file_model(model)), None)
        pred_col = wide.y_pred if wide else r.y_pred
        score_col = wide.score if wide else r.score
        extras = dict(
            weight=numeric_column(frame, r.weight) if r.weight else None,
            fold=label_strings(frame[r.fold]).to_numpy(dtype=object) if r.fold else None,
            repeat=label_strings(frame[r.repeat]).to_numpy(dtype=object) if r.repeat else None,
            ids=None if self._ids is None else self._ids if len(rows) == len(self.frame) else self._ids[rows],
            group=label_strings(frame[r.groups[0]]).to_numpy(dtype=object) if r.groups else None,
            model=model,
        )
        task = self.task
        if task is Task.BINARY:
            positive = fc(self.positive)
            y_true = label_mask(frame[r.y_true], positive).astype(np.int8)
            y_pred = label_mask(frame[pred_col], positive).astype(np.int8) if pred_col else None
            if score_col:
                scores = numeric_column(frame, score_col)
            elif r.class_scores:
                by_class = dict(r.class_scores)
                if positive in by_class:
                    scores = numeric_column(frame, by_class[positive])
                else:  # only the other class has a column (validation says so): P(positive) = 1 − P(other)
                    scores = 1.0 - numeric_column(frame, by_class[fc(self.negative)])
            else:
                scores = None
            return Predictions(task, (self.negative, self.positive), y_true, y_pred, scores, **extras)
        if task is Task.MULTICLASS:
            index = {fc(c): i for i, c in enumerate(self.classes)}
            y_true = _codes(frame[r.y_true], index)
            y_pred = _codes(frame[pred_col], index) if pred_col else None
            scores = None
            if r.class_scores and not wide:
                by_class = dict(r.class_scores)
                if all(fc(c) in by_class for c in self.classes):
                    scores = np.column_stack([numeric_column(frame, by_class[fc(c)]) for c in self.classes])
            return Predictions(task, self.classes, y_true, y_pred, scores, **extras)
        if task is Task.MULTILABEL:
            y_true, y_pred, scores = self._multilabel_arrays(frame, pred_col)
            return Predictions(task, self.classes, y_true, y_pred, scores, **extras)
        if task in (Task.REGRESSION, Task.FORECAST):
            true_col = r.y_true
            if output is not None:
                _, true_col, pred_col = next(o for o in r.outputs if o[0] == output)
            when = dict(time=time_values(frame[r.timestamp]).to_numpy() if r.timestamp else None,
                        series=label_strings(frame[r.series]).to_numpy(dtype=object) if r.series else None,
                        horizon=numeric_column(frame, r.horizon) if r.horizon else None,
                        origin=time_values(frame[r.origin]).to_numpy() if r.origin else None)
            return Predictions(task, (), numeric_column(frame, true_col),
                               numeric_column(frame, pred_col) if pred_col else None, None, **extras, **when,
                               target=str(true_col), lower=numeric_column(frame, r.lower) if r.lower else None,
                               upper=numeric_column(frame, r.upper) if r.upper else None,
                               interval_level=interval_level(r))
        # clustering: a wide file's clustering reads its own column `cluster_<name>` (held as the model's y_pred)
        clusters = label_strings(frame[pred_col if wide is not None and wide.clustering else r.cluster])
        cluster_index = {c: i for i, c in enumerate(sort_labels(set(clusters.dropna())))}
        y_true = None
        if r.y_true:
            index = {fc(c): i for i, c in enumerate(self.classes)}
            y_true = _codes(frame[r.y_true], index)
        features = (np.column_stack([numeric_column(frame, col) for col in r.features]) if r.features else None)
        return Predictions(task, self.classes, y_true, _codes(clusters, cluster_index), None, **extras,
                           features=features, clusters=tuple(cluster_index))

    @property
    def negative(self) -> str:
        """The binary task's negative class: the first class other than the positive one (``not <positive>`` when
        the first rows show only the positive class)."""
        others = [c for c in self.classes if c != self.positive]
        return others[0] if others else f"not {self.positive}"

    def _multilabel_arrays(self, frame: pd.DataFrame, pred_col: str | None):
        r, labels = self.roles, [self.names.file_class(c) for c in self.classes]
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
            for i, labset in enumerate(split_sets(frame[col])):
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
            "sheet": self.table.sheet, "rows": int(len(self.frame)) + self.n_unlabelled,
            "n_unlabelled": self.n_unlabelled, "columns": [str(c) for c in self.frame.columns],
            "notes": list(self.table.notes), "task": self.task.value, "task_reason": self.task_reason,
            "roles": self.roles.table(), "positive": self.positive, "positive_reason": self.positive_reason,
            "classes": list(self.classes), "models": list(self.models), "outputs": list(self.outputs),
            "problems": [p.to_dict() for p in self.problems],
        }


def _codes(col: pd.Series, index: dict[str, int]) -> np.ndarray:
    """Each row's label's position in ``index``; -1 for a missing or unknown label."""
    codes, labels = label_codes(col)
    return np.array([index.get(x, -1) for x in labels] + [-1], dtype=np.int64)[codes]


def _score_of_its_class(roles: Roles, classes: list[str], positive: str) -> Roles:
    """A lone ``score`` column is the score of the class the labels call positive (1, True, yes, …: `score` is
    ``predict_proba(X)[:, 1]``). When the other class is chosen as the positive one, the score stays that class's:
    it becomes that class's probability column, and the positive class is scored 1 − score (validation says so) —
    the chosen class's own ranking, not the other class's reported under its name. Labels that name no positive
    class leave the score as the positive class's, whichever is chosen."""
    if not roles.score or roles.wide_models:
        return roles
    owner, _ = conventional_positive(classes)
    if owner is None or owner == positive:
        return roles
    return replace(roles, score=None, class_scores=((owner, roles.score),))


def describe(table: LoadedTable, overrides: Overrides | None = None) -> Assessment:
    """Detect roles, task, classes, positive class and models of ``table``, apply ``overrides``, and validate.

    Raises `AssessError` only when no assessment can be described at all (no ground truth and no clusters);
    everything else is reported in ``Assessment.problems``.
    """
    overrides = overrides or Overrides()
    frame = table.frame
    roles = detect_roles(frame)
    for role, value in overrides.roles:
        roles = apply_role(roles, frame, role, value, file=table.name)
    if overrides.roles:
        roles = probabilities_as_scores(frame, roles)   # e.g. a truth chosen by hand makes pred_<model> scores
    if overrides.task is not None:
        task, task_reason = overrides.task, "set by you"
    else:
        try:
            task, task_reason = infer_task(frame, roles)
        except AssessError as exc:
            raise AssessError(f"{table.name}: {exc} (columns: {', '.join(map(str, list(frame.columns)[:12]))})") \
                from None

    classes = task_classes(frame, roles, task)
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
            roles = _score_of_its_class(roles, classes, positive)
        else:
            positive, positive_reason = infer_positive(frame, roles.y_true, classes)

    if roles.model:   # the model column read once: its names and each one's rows
        model_codes, models = table.label_codes(roles.model)
        model_rows = rows_by_code(model_codes, models)
    else:
        models = tuple(wm.name for wm in roles.wide_models) if roles.wide_models else (table.stem,)
        model_rows = _model_rows(frame, roles, models)
    problems = validate(frame, roles, task, classes=classes, positive=positive, models=models,
                        model_rows=model_rows)
    names = overrides.names
    if names:  # display names from here on (see assess.inputs.names); validation above spoke of the file's own values
        names.check(models, classes, file=table.name)
        models = tuple(names.model(m) for m in models)
        classes = [names.cls(c) for c in classes]
        positive = None if positive is None else names.cls(positive)
    unlabelled = None
    empty = frame[roles.y_true].isna().to_numpy() if task in (Task.BINARY, Task.MULTICLASS) and roles.y_true \
        else None
    if empty is not None and empty.any() and not empty.all():   # all empty: an error (validation), kept whole
        unlabelled, table = _rows_of(table, empty), _rows_of(table, ~empty)
        frame = table.frame
        if roles.model:
            model_rows = rows_by_code(model_codes[~empty], tuple(model_rows))   # the file's model names, in order
    assessment = Assessment(table, roles, task, task_reason, tuple(classes), positive, positive_reason, models,
                            tuple(problems), names, unlabelled, None if unlabelled is None else np.flatnonzero(~empty))
    # the rows found above, by display name, as `Assessment.model_rows` would find them again (cached_property)
    assessment.__dict__["model_rows"] = {names.model(m): rows for m, rows in model_rows.items()} \
        if roles.model else _model_rows(frame, roles, assessment.models, names)
    return assessment


def _rows_of(table: LoadedTable, mask: np.ndarray) -> LoadedTable:
    """The rows of ``table`` where ``mask`` holds, renumbered from 0, with the label codes found while reading."""
    coded = {col: (codes[mask], labels) for col, (codes, labels) in table.coded.items()}
    return replace(table, frame=table.frame.loc[mask].reset_index(drop=True), coded=coded)


def _model_rows(frame: pd.DataFrame, roles: Roles, models: tuple[str, ...],
                names: DisplayNames = DisplayNames()) -> dict[str, np.ndarray]:
    if roles.model:
        return {names.model(m): rows for m, rows in rows_by_value(frame[roles.model]).items()}
    return {m: np.arange(len(frame)) for m in models}


def annotator_columns(assessment: Assessment) -> tuple[tuple[str, str], ...]:
    """(annotator, column) for every ``y_true_<annotator>`` column holding class labels that no role uses (ISO/IEC
    TS 4213 5.3.9, ground truth: the controls' agreement between annotators; the slices' default leaves them out);
    () unless there are at least two. Numeric pairs ``y_true_<name>``/``y_pred_<name>`` are outputs of a multi-output
    regression (their role), never annotators."""
    used = assessment.roles.used_columns()
    found = []
    for col in assessment.frame.columns:
        name = normalise_name(col)
        if name.startswith("y_true_") and len(name) > 7 and (col not in used or col == assessment.roles.y_true) \
                and not is_continuous(assessment.frame[col]):
            found.append((str(col)[7:], col))
    return tuple(found) if len(found) >= 2 else ()
