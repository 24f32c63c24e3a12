"""The data shapes the tests consume, built from encoded predictions or tidy fold tables.

Pure functions on arrays and DataFrames with the canonical column names (``model``, ``fold``, ``repeat``) passed
explicitly — recognising a file's columns is the loader's job (:mod:`assess.inputs.assessment`). Misaligned or too-small data
raises :class:`~assess.core.errors.AssessError` naming what is missing.

Shapes:

- the design: are the models scored on the same samples (paired) or on different ones (independent)?
  :func:`sample_design` decides from ids and ground truth and says why; :func:`arrange_predictions` returns
  :class:`AlignedPredictions` (paired) or :class:`SeparatePredictions` (independent); :func:`fold_design` does the
  same for a fold table;
- per-sample correctness of models aligned by sample id (McNemar, Cochran's Q, chi-squared, Fisher):
  :func:`correctness_table`, :func:`contingency_table`; per model on its own samples: :func:`model_correct`;
- per-sample losses (Welch's t, Mann–Whitney): :func:`sample_losses`;
- per-sample scores or forecasts aligned by id (DeLong, paired bootstrap, Diebold–Mariano): :func:`align_predictions`;
- per-fold metric tables, long format ``model, fold[, repeat], <metric>`` (t-tests, Wilcoxon, ANOVA,
  Kruskal–Wallis, Friedman, corrected t, 5×2cv): :func:`fold_table` (paired, wide) and :func:`fold_groups`
  (unpaired); :func:`fold_scores` computes such a table from predictions that carry folds.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from assess.core.data import Predictions, Task
from assess.core.decision import Decision, predicted_labels
from assess.core.errors import AssessError
from assess.inputs.probabilities import outside_unit_interval
from assess.stats._common import plural, shown
from assess.stats._result import INDEPENDENT, PAIRED, Design

#: Per-sample losses :func:`sample_losses` computes ("auto" picks one from the task and the scores).
LOSSES = ("auto", "zero_one", "brier", "absolute", "squared")


@dataclass(frozen=True, eq=False)
class AlignedPredictions:
    """Several models' predictions on the same samples, rows in one order (the first model's).

    ``ids`` is None when the inputs had no ids (then they were aligned by position). ``y_pred``/``scores`` map
    each model to its array (None when the model has none); ``weight`` is the shared sample weight or None.
    ``design`` is why the models count as paired, when :func:`arrange_predictions` made them. ``repeat`` is the
    repeat of repeated cross-validation (rows are then identified by (id, repeat)). ``time``,
    ``series`` and ``horizon`` are the forecasts' per-sample time stamp, series id and steps ahead (None when the
    file has none; see :class:`assess.core.data.Predictions`), shared by every model; ``target`` names what ``y_true``
    measures.
    """

    task: Task
    classes: tuple[str, ...]
    models: tuple[str, ...]
    y_true: np.ndarray
    y_pred: Mapping[str, np.ndarray | None]
    scores: Mapping[str, np.ndarray | None]
    ids: np.ndarray | None = None
    weight: np.ndarray | None = None
    fold: np.ndarray | None = None
    design: Design | None = None
    time: np.ndarray | None = None
    series: np.ndarray | None = None
    horizon: np.ndarray | None = None
    target: str | None = None
    repeat: np.ndarray | None = None

    @property
    def n(self) -> int:
        return int(self.y_true.shape[0])

    @property
    def n_repeats(self) -> int:
        """How many repeats of cross-validation the rows hold (1 without a ``repeat``): each sample appears once per
        repeat, so a per-sample test would count it that many times."""
        return 1 if self.repeat is None else int(len(pd.unique(self.repeat)))


def _check_comparable(preds: Mapping[str, Predictions]) -> Predictions:
    """The first model, after checking every model has a ground truth and shares the first one's task and classes."""
    names = list(preds)
    first = preds[names[0]]
    for m in names:
        p = preds[m]
        if p.y_true is None:
            raise AssessError(f"model `{m}` has no ground truth (y_true)")
        if p.task != first.task:
            raise AssessError(f"models `{names[0]}` ({first.task.value}) and `{m}` ({p.task.value}) have different "
                              "tasks")
        if tuple(p.classes) != tuple(first.classes):
            raise AssessError(f"models `{names[0]}` and `{m}` have different classes: {list(first.classes)} and "
                              f"{list(p.classes)}")
    return first


def align_predictions(predictions: Mapping[str, Predictions] | Sequence[Predictions], *,
                      models: Sequence[str] | None = None) -> AlignedPredictions:
    """Align models' predictions sample by sample: by ``ids`` when every model has them; else, for forecasts, by
    what identifies a forecast (`forecast_keys`: series, time stamp, horizon, origin) when those are unique within
    each model; else by position.

    Checks, each with its own message: same task and classes; unique ids per model; the same set of ids (names
    the first missing id); the same ``y_true`` for each id; the same weights and folds. ``models`` selects and
    orders models (default: all, in the given order). Repeated cross-validation (every model has a ``repeat``) scores
    each sample once per repeat: its rows are identified, and aligned, by (id, repeat).
    """
    preds = _select(_as_mapping(predictions), models)
    names = list(preds)
    first = _check_comparable(preds)
    with_ids = [m for m in names if preds[m].ids is not None]
    if with_ids and len(with_ids) != len(names):
        lacking = next(m for m in names if preds[m].ids is None)
        raise AssessError(f"model `{with_ids[0]}` has sample ids but model `{lacking}` has none; give every model "
                          "an `id` or none")
    order: dict[str, np.ndarray] = {}
    ids = None
    keys = None if with_ids else forecast_keys(preds)
    with_repeats = [m for m in names if preds[m].repeat is not None]
    if with_repeats and len(with_repeats) != len(names):
        lacking = next(m for m in names if preds[m].repeat is None)
        raise AssessError(f"model `{with_repeats[0]}` has cross-validation repeats but model `{lacking}` has none; "
                          "give every model a `repeat` or none")
    repeated = bool(with_repeats) and bool(with_ids)
    if with_ids or keys is not None:
        if keys is not None:
            ids = keys[names[0]].to_numpy()
            base = keys[names[0]]
        elif repeated:
            ids = np.asarray(first.ids)
            base = _id_repeat(first)
        else:
            ids = np.asarray(first.ids)
            unique = _distinct(ids) == ids.shape[0]
            base = pd.Index(ids) if not all(_same_ids(preds[m].ids, ids) for m in names) or not unique else None
        for m in names:
            if base is None:
                order[m] = np.arange(ids.shape[0])     # the first model's unique ids in its order: nothing to look up
                continue
            mid = (keys[m] if keys is not None else _id_repeat(preds[m]) if repeated
                   else pd.Index(np.asarray(preds[m].ids)))
            if mid.has_duplicates:
                dup = mid[mid.duplicated()]
                what = "(sample id, repeat) pairs" if repeated else "sample ids"
                raise AssessError(f"model `{m}` has {len(dup)} duplicated {what} (first: {shown(dup[0])})")
            unit = ("sample ids" if keys is None and not repeated else "(sample id, repeat) pairs" if repeated
                    else f"forecasts ({', '.join(base.names)})")
            missing = base.difference(mid, sort=False)
            if len(missing):
                raise AssessError(f"model `{m}` lacks {len(missing)} {unit} that model `{names[0]}` has "
                                  f"(first: {shown(missing[0])}); paired tests need every model on the same samples")
            extra = mid.difference(base, sort=False)
            if len(extra):
                raise AssessError(f"model `{m}` has {len(extra)} {unit} that model `{names[0]}` lacks "
                                  f"(first: {shown(extra[0])}); paired tests need every model on the same samples")
            order[m] = mid.get_indexer(base)
    else:
        n = first.n
        for m in names:
            if preds[m].n != n:
                counts = ", ".join(f"{k} {preds[k].n}" for k in names)
                raise AssessError(f"models have different numbers of samples and no sample ids to align them "
                                  f"({counts})")
            order[m] = np.arange(n)

    def take(arr, m):
        return None if arr is None else np.asarray(arr)[order[m]]

    def at(row: int) -> str:
        """Where a check failed: the sample's id, the forecast's keys, or its position."""
        if ids is None:
            return f"row {row}"
        return f"{'forecast' if keys is not None else 'id'} {shown(ids[row])}"

    y_true = take(first.y_true, names[0])
    weight = take(first.weight, names[0])
    fold = take(first.fold, names[0])
    repeat = take(first.repeat, names[0])
    for m in names[1:]:
        yt = take(preds[m].y_true, m)
        if not _same(yt, y_true):
            bad = _first_difference(yt, y_true)
            raise AssessError(f"model `{m}` has a different y_true from model `{names[0]}` (first at {at(bad)}); "
                              "the models must be assessed against the same ground truth")
        w = take(preds[m].weight, m)
        if (w is None) != (weight is None) or (w is not None and not np.array_equal(w, weight)):
            raise AssessError(f"models `{names[0]}` and `{m}` have different sample weights")
        f = take(preds[m].fold, m)
        if f is not None and fold is not None and not np.array_equal(f, fold):
            raise AssessError(f"models `{names[0]}` and `{m}` put samples in different folds")
        rp = take(preds[m].repeat, m)
        if rp is not None and repeat is not None and not np.array_equal(rp, repeat):
            raise AssessError(f"models `{names[0]}` and `{m}` put samples in different repeats")
    when = {}
    for role, word in (("time", "time stamps"), ("series", "series"), ("horizon", "horizons")):
        when[role] = take(getattr(first, role), names[0])
        for m in names[1:]:
            other = take(getattr(preds[m], role), m)
            differs = None if other is None or when[role] is None else np.flatnonzero(_unequal(other, when[role]))
            if differs is not None and differs.size:
                bad = int(differs[0])
                raise AssessError(f"models `{names[0]}` and `{m}` give a sample different {word} (first at {at(bad)}: "
                                  f"{shown(when[role][bad])} and {shown(other[bad])})")
    return AlignedPredictions(task=first.task, classes=tuple(first.classes), models=tuple(names), y_true=y_true,
                              y_pred={m: take(preds[m].y_pred, m) for m in names},
                              scores={m: take(preds[m].scores, m) for m in names},
                              ids=None if keys is not None else ids, weight=weight,
                              fold=fold, repeat=repeat, target=first.target, **when)


def _id_repeat(pred: Predictions) -> pd.MultiIndex:
    """The (sample id, repeat) of each row: what identifies a row of repeated cross-validation."""
    return pd.MultiIndex.from_arrays([np.asarray(pred.ids), np.asarray(pred.repeat)], names=["id", "repeat"])


#: What identifies one forecast, in the order messages name them (`forecast_keys`).
FORECAST_KEYS = ("series", "time", "horizon", "origin")


def forecast_keys(preds: Mapping[str, Predictions]) -> dict[str, pd.MultiIndex] | None:
    """{model: index of (series, time stamp, horizon, origin) per row} — the roles every model has of those, time
    stamps among them — when they identify each model's rows (no two rows of a model share them); else None.

    Forecasts carry no ``id``: a forecast is the value for one series at one time stamp made so many steps ahead
    (from one origin), so two models' forecasts pair by those keys, whatever the order of their rows in the file."""
    first = next(iter(preds.values()))
    roles = [r for r in FORECAST_KEYS if all(getattr(p, r) is not None for p in preds.values())]
    if "time" not in roles or first.task is not Task.FORECAST:
        return None
    out = {}
    for m, p in preds.items():
        index = pd.MultiIndex.from_arrays([np.asarray(getattr(p, r)) for r in roles], names=roles)
        if index.has_duplicates:
            return None
        out[m] = index
    return out


def aligned_labels(aligned: AlignedPredictions, model: str, decision: Decision = Decision()) -> np.ndarray:
    """A model's labels by ``decision`` (:func:`assess.core.decision.predicted_labels`)."""
    return predicted_labels(aligned.task, aligned.y_pred[model], aligned.scores[model], decision,
                            labels=aligned.classes, model=model)


@dataclass(frozen=True, eq=False)
class SeparatePredictions:
    """Several models' predictions, each on its own samples (the independent design), in model order.

    ``predictions`` maps each model to its :class:`assess.core.data.Predictions`; all share task and classes.
    ``design`` says why they count as independent (None when paired data are seen model by model).
    """

    task: Task
    classes: tuple[str, ...]
    models: tuple[str, ...]
    predictions: Mapping[str, Predictions]
    design: Design | None = None


def sample_design(predictions: Mapping[str, Predictions] | Sequence[Predictions], *,
                  models: Sequence[str] | None = None) -> Design:
    """Paired or independent samples, decided from the data, with the reason in one sentence.

    - Every model has sample ids: the same ids → paired; no id shared by any two models → independent (different
      test sets); some but not all shared → AssessError (neither design fits).
    - No model has ids, forecasts: the same forecasts (`forecast_keys`: series, time stamp, horizon, origin) →
      paired by those keys; some shared → AssessError; none → as below.
    - No model has ids: the same number of rows and the same ground truth row by row → paired by position (as
      the rows are taken to be the same samples); otherwise → independent.
    - Some models have ids and others not → AssessError (as :func:`align_predictions`).
    """
    preds = _select(_as_mapping(predictions), models)
    names = list(preds)
    with_ids = [m for m in names if preds[m].ids is not None]
    if with_ids and len(with_ids) != len(names):
        lacking = next(m for m in names if preds[m].ids is None)
        raise AssessError(f"model `{with_ids[0]}` has sample ids but model `{lacking}` has none; give every model "
                          "an `id` or none")
    if with_ids:
        if all(_same_ids(preds[m].ids, preds[names[0]].ids) for m in names[1:]):   # no hashing of every model
            return same_ids_design(_distinct(np.asarray(preds[names[0]].ids)))
        index = {m: pd.Index(np.asarray(preds[m].ids)) for m in names}
        first = index[names[0]]
        if all(index[m].nunique() == first.nunique() and not index[m].difference(first).size for m in names[1:]):
            return same_ids_design(first.nunique())
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                shared = index[a].intersection(index[b])
                if len(shared):
                    raise AssessError(
                        f"models `{a}` and `{b}` share {len(shared)} of their sample ids (first: {shown(shared[0])}) "
                        "but not all: paired tests need the same ids for every model, tests for independent "
                        "samples disjoint ids")
        return DISJOINT_IDS_DESIGN
    keys = forecast_keys(preds)
    if keys is not None:   # forecasts: the same forecasts (series, time, horizon, origin) for every model → paired
        first = keys[names[0]]
        what = ", ".join(first.names)
        if all(len(keys[m]) == len(first) and not keys[m].difference(first).size for m in names[1:]):
            return Design(PAIRED, f"every model has the same {plural(len(first), 'forecast')}, identified by "
                                  f"{what}, so the models were scored on the same targets (paired by those keys)")
        shared = next(((a, b, keys[a].intersection(keys[b])) for i, a in enumerate(names) for b in names[i + 1:]
                       if len(keys[a].intersection(keys[b]))), None)
        if shared is not None:
            a, b, common = shared
            raise AssessError(f"models `{a}` and `{b}` share {len(common)} of their forecasts ({what}; first: "
                              f"{shown(common[0])}) but not all: paired tests need the same forecasts for every "
                              "model")
    n = {m: preds[m].n for m in names}
    if len(set(n.values())) > 1:
        sizes = ", ".join(f"{m} {n[m]:,}" for m in names)
        return Design(INDEPENDENT, f"the models have no sample ids and different numbers of samples ({sizes}), so "
                                   "each was scored on its own samples")
    first = preds[names[0]]
    for m in names[1:]:
        if preds[m].y_true is not None and first.y_true is not None and not _same(preds[m].y_true, first.y_true):
            row = _first_difference(np.asarray(preds[m].y_true), np.asarray(first.y_true))
            return Design(INDEPENDENT, f"the models have no sample ids and their ground truth differs (first at row "
                                       f"{row}: `{names[0]}` and `{m}`), so each was scored on its own samples; "
                                       "give an `id` column to pair them")
    return same_rows_design(first.n)


def same_ids_design(n_ids: int) -> Design:
    """The paired design of models that share all their ``n_ids`` sample ids (also what the out-of-core engines
    conclude from a GROUP BY of the ids, `assess.engine.compare`)."""
    return Design(PAIRED, f"every model has the same {plural(n_ids, 'sample id')}, so the models were scored on "
                          "the same samples")


def same_rows_design(n_rows: int) -> Design:
    """The paired design of models without ids on the same ``n_rows`` rows with the same ground truth."""
    return Design(PAIRED, f"the models have no sample ids, but the same {plural(n_rows, 'row')} with the same "
                          "ground truth, so rows are paired by position")


#: The independent design of models that share no sample id.
DISJOINT_IDS_DESIGN = Design(INDEPENDENT, "no sample id is shared between models, so each model was scored on its "
                                          "own samples (different test sets)")


def _distinct(ids: np.ndarray) -> int:
    """How many distinct ids: one hash table of the values as they are (``pd.unique``; a ``pd.Index`` of strings
    first converts them to Arrow and back, three times the work)."""
    return int(len(pd.unique(ids.ravel())))


def _same_ids(ids, other) -> bool:
    """The same ids in the same order (the usual long file: each model's rows in the same sample order) — one
    elementwise comparison instead of hashing both."""
    a, b = np.asarray(ids), np.asarray(other)
    return a is b or (a.shape == b.shape and a.dtype == b.dtype and bool(np.array_equal(a, b)))


def arrange_predictions(predictions: Mapping[str, Predictions] | Sequence[Predictions] | AlignedPredictions, *,
                        models: Sequence[str] | None = None
                        ) -> tuple[AlignedPredictions | SeparatePredictions, Design]:
    """The predictions in the shape their design calls for: aligned sample by sample when paired
    (:func:`align_predictions`), each model on its own samples when independent; and the :class:`Design`."""
    if isinstance(predictions, (AlignedPredictions, SeparatePredictions)):
        if models is not None and tuple(models) != predictions.models:
            raise AssessError(f"`models` must be those arranged ({', '.join(predictions.models)}) (got {list(models)})")
        if predictions.design is not None:
            return predictions, predictions.design
        if isinstance(predictions, SeparatePredictions):
            return predictions, Design(INDEPENDENT, "the predictions were given model by model")
        how = "by sample id" if predictions.ids is not None else "by position"
        return predictions, Design(PAIRED, f"the predictions were aligned {how}, so the models share their samples")
    design = sample_design(predictions, models=models)
    if design.kind == PAIRED:
        return dataclasses.replace(align_predictions(predictions, models=models), design=design), design
    preds = _select(_as_mapping(predictions), models)
    names = list(preds)
    first = _check_comparable(preds)
    return SeparatePredictions(first.task, tuple(first.classes), tuple(names), preds, design), design


def separate(aligned: AlignedPredictions) -> SeparatePredictions:
    """Aligned predictions seen model by model (to run a test for independent samples on paired data)."""
    preds = {m: Predictions(aligned.task, aligned.classes, aligned.y_true, aligned.y_pred[m], aligned.scores[m],
                            weight=aligned.weight, fold=aligned.fold, ids=aligned.ids, model=m, time=aligned.time,
                            series=aligned.series, horizon=aligned.horizon, target=aligned.target,
                            repeat=aligned.repeat)
             for m in aligned.models}
    return SeparatePredictions(aligned.task, aligned.classes, aligned.models, preds)


def model_correct(pred: Predictions, *, decision: Decision = Decision()) -> np.ndarray:
    """One model's per-sample correctness on its own samples (multi-label: the whole label set matches), as
    :func:`correctness_table` computes it for aligned models."""
    if not pred.task.is_classification:
        raise AssessError(f"per-sample correctness needs classification predictions (task is {pred.task.value}); "
                          "use a test of per-sample losses (welch_t, mann_whitney) or the bootstrap")
    labels = predicted_labels(pred.task, pred.y_pred, pred.scores, decision, labels=pred.classes, model=pred.model)
    return _correct(labels, pred.y_true)


def _correct(labels, y_true) -> np.ndarray:
    eq = np.asarray(labels) == np.asarray(y_true)
    return eq.all(axis=1) if eq.ndim == 2 else eq


def resolve_loss(task: Task, loss: str, *, has_scores: bool) -> str:
    """The loss ``"auto"`` stands for: absolute error for numeric predictions, Brier with scores, else zero-one."""
    if loss != "auto":
        return loss
    if not task.is_classification:
        return "absolute"
    return "brier" if has_scores and task != Task.CLUSTERING else "zero_one"


def sample_losses(pred: Predictions, *, loss: str = "auto", decision: Decision = Decision()) -> np.ndarray:
    r"""Per-sample losses of one model (lower is better), whose mean is the matching registry metric.

    - ``"zero_one"``: 1 when the prediction is wrong (multi-label: the label set differs), else 0 — mean =
      ``error_rate`` (multi-label: 1 − ``exact_match_ratio``);
    - ``"brier"`` (scores as probabilities): binary :math:`(s_i - y_i)^2`, multi-class
      :math:`\sum_k (p_{ik} - [y_i = k])^2`, multi-label the mean over labels of :math:`(p_{il} - y_{il})^2` —
      mean = ``brier_score`` (binary, multi-class);
    - ``"absolute"`` / ``"squared"`` (regression, forecasts): :math:`|y_i - \hat y_i|`, :math:`(y_i - \hat y_i)^2`
      — averaged over the outputs of a multi-output regression (``y_true`` of shape (n, K)), so the mean is the
      outputs' average MAE or MSE (`assess.stats.inputs.comparison_predictions`);
    - ``"auto"``: see :func:`resolve_loss`.
    """
    if loss not in LOSSES:
        raise AssessError(f"`loss` must be one of {', '.join(repr(x) for x in LOSSES)} (got {loss!r})")
    loss = resolve_loss(pred.task, loss, has_scores=pred.scores is not None)
    if loss == "zero_one":
        return (~model_correct(pred, decision=decision)).astype(float)
    if loss == "brier":
        if not pred.task.is_classification or pred.scores is None:
            raise AssessError(f"the Brier loss needs classification scores; model `{pred.model}` has none")
        s = np.asarray(pred.scores, dtype=float)
        found = outside_unit_interval(s, f"the scores of model `{pred.model}`")
        if found is not None:
            raise AssessError(f"the Brier loss needs probabilities in [0, 1]: {found.message}")
        if pred.task == Task.MULTICLASS:
            onehot = np.arange(s.shape[1])[None, :] == np.asarray(pred.y_true)[:, None]
            return ((s - onehot) ** 2).sum(axis=1)
        d = (s - np.asarray(pred.y_true, dtype=float)) ** 2
        return d.mean(axis=1) if d.ndim == 2 else d
    if pred.task.is_classification or pred.y_pred is None:
        raise AssessError(f"the {loss} error needs numeric predictions (task is {pred.task.value}); use zero_one "
                          "or brier")
    e = np.asarray(pred.y_true, dtype=float) - np.asarray(pred.y_pred, dtype=float)
    losses = np.abs(e) if loss == "absolute" else e * e
    # several outputs (n, K): the row's loss is the mean over its outputs, so the mean loss is the outputs' average
    return losses.mean(axis=1) if losses.ndim == 2 else losses


def loss_label(loss: str) -> str:
    """The loss as the sentences name it."""
    return {"zero_one": "error rate (0/1 loss)", "brier": "Brier loss", "absolute": "absolute error",
            "squared": "squared error"}[loss]


def correctness_table(predictions: Mapping[str, Predictions] | Sequence[Predictions] | AlignedPredictions, *,
                      models: Sequence[str] | None = None, decision: Decision = Decision()) -> pd.DataFrame:
    """Per-sample correctness, one boolean column per model, rows aligned by sample id (index = ids or 0..n−1).

    Correct means ``y_pred == y_true``; for multi-label, the whole label set matches (exact match, ISO 4213 6.5).
    Labels come from ``decision`` (:mod:`assess.core.decision`). Regression, forecast and clustering
    predictions have no correctness: use Diebold–Mariano, the paired bootstrap or fold tests.
    """
    aligned = predictions if isinstance(predictions, AlignedPredictions) else align_predictions(predictions,
                                                                                                  models=models)
    if not aligned.task.is_classification:
        raise AssessError(f"per-sample correctness needs classification predictions (task is "
                          f"{aligned.task.value}); use diebold_mariano, paired_bootstrap or a fold test")
    cols = {m: _correct(aligned_labels(aligned, m, decision), aligned.y_true) for m in aligned.models}
    index = pd.Index(aligned.ids, name="id") if aligned.ids is not None else pd.RangeIndex(aligned.n, name="row")
    return pd.DataFrame(cols, index=index)


def contingency_table(correct: pd.DataFrame) -> pd.DataFrame:
    """Models × (correct, incorrect) counts from a :func:`correctness_table` (rows in column order)."""
    n_right = correct.sum(axis=0).astype(int)
    return pd.DataFrame({"correct": n_right, "incorrect": len(correct) - n_right}, index=list(correct.columns))


def fold_table(scores: pd.DataFrame, *, metric: str, models: Sequence[str] | None = None,
               model_col: str = "model", fold_col: str = "fold", repeat_col: str | None = "repeat",
               min_folds: int = 2, purpose: str = "this test") -> pd.DataFrame:
    """Wide table of one metric per fold: rows = folds (``(repeat, fold)`` when ``repeat_col`` is a column of
    ``scores``), columns = models in order. Paired fold tests need every model scored on the same folds.

    Errors name the missing column, the non-numeric value, the duplicated or missing fold, and the model with
    too few folds: "Friedman needs at least 2 folds per model; model `B` has 1" (``purpose="Friedman"``).
    """
    long = _long_scores(scores, metric=metric, models=models, model_col=model_col, fold_col=fold_col,
                        repeat_col=repeat_col, min_folds=min_folds, purpose=purpose)
    keys = [c for c in (repeat_col, fold_col) if c is not None and c in long.columns]
    names = list(dict.fromkeys(long[model_col]))
    blocks = {m: set(map(tuple, long.loc[long[model_col] == m, keys].to_numpy().tolist())) for m in names}
    reference = blocks[names[0]]
    for m in names[1:]:
        for x, y, miss in ((m, names[0], reference - blocks[m]), (names[0], m, blocks[m] - reference)):
            if miss:
                first = sorted(miss, key=str)[0]
                raise AssessError(f"model `{x}` is missing {_block_text(keys, first, fold_col)} that model `{y}` has; "
                                  f"{purpose} needs every model scored on the same folds")
    wide = long.pivot(index=keys, columns=model_col, values=metric)
    return wide[names].sort_index()


def fold_groups(scores: pd.DataFrame, *, metric: str, models: Sequence[str] | None = None,
                model_col: str = "model", fold_col: str = "fold", repeat_col: str | None = "repeat",
                min_folds: int = 2, purpose: str = "this test") -> dict[str, np.ndarray]:
    """One array of per-fold scores per model, not aligned (ANOVA, Kruskal–Wallis compare independent groups)."""
    long = _long_scores(scores, metric=metric, models=models, model_col=model_col, fold_col=fold_col,
                        repeat_col=repeat_col, min_folds=min_folds, purpose=purpose)
    names = list(dict.fromkeys(long[model_col]))
    return {m: long.loc[long[model_col] == m, metric].to_numpy(dtype=float) for m in names}


def fold_scores(aligned: AlignedPredictions, *, metric: Callable, metric_name: str = "score",
                use_scores: bool = False, decision: Decision = Decision()) -> pd.DataFrame:
    """Long table ``model, fold, <metric_name>`` of ``metric(y_true, y, sample_weight=w)`` on each fold's samples.

    ``y`` is the model's scores when ``use_scores``, the predictions themselves for numeric tasks, else its labels
    by ``decision`` (:func:`aligned_labels`). Forecasts without folds but with several series are scored per
    series (the blocks of Friedman's test); ``table.attrs["blocks"]`` says which (``"folds"`` or ``"series"``).
    Repeated cross-validation is scored per (repeat, fold), the table ``model, repeat, fold, <metric_name>``;
    ``table.attrs["test_train_ratio"]`` is then the mean over those folds of n_test / n_train, the fold's rows over
    the rest of its repeat's rows (Nadeau & Bengio 2003's n₂/n₁; 1/(k − 1) for k equal folds).
    """
    blocks, word = aligned.fold, "folds"
    if blocks is None and aligned.series is not None and not aligned.task.is_classification:
        blocks, word = aligned.series, "series"     # forecasts of several series: one block per series
    if blocks is None:
        raise AssessError("the predictions have no folds (`fold` column); fold tests need per-fold scores")
    # repeated cross-validation: a score per (repeat, fold); groups in the order the file first gives them
    repeated = aligned.repeat is not None and word == "folds"
    keys = pd.DataFrame({"repeat": aligned.repeat, "fold": blocks} if repeated else {"fold": blocks})
    groups = keys.groupby(list(keys.columns), sort=False, dropna=False).indices
    rows = []
    for m in aligned.models:
        if use_scores:
            y = aligned.scores[m]
            if y is None:
                raise AssessError(f"model `{m}` has no scores; the metric needs scores")
        elif not aligned.task.is_classification and aligned.task != Task.CLUSTERING:
            y = aligned.y_pred[m]           # numeric predictions: the metric takes them as they are
        else:
            y = aligned_labels(aligned, m, decision)
        y = np.asarray(y)
        for block, idx in groups.items():
            w = None if aligned.weight is None else aligned.weight[idx]
            rows.append({"model": m, **dict(zip(keys.columns, block if repeated else (block,))),
                         metric_name: float(metric(aligned.y_true[idx], y[idx], sample_weight=w))})
    table = pd.DataFrame(rows, columns=["model", *keys.columns, metric_name])
    table.attrs["blocks"] = word
    if repeated:   # n₂/n₁ of each fold: its rows over the other rows of its repeat
        per_repeat = keys.groupby("repeat", sort=False, dropna=False).size()
        ratios = [idx.size / (per_repeat[r] - idx.size) for (r, _), idx in groups.items() if per_repeat[r] > idx.size]
        table.attrs["test_train_ratio"] = float(np.mean(ratios)) if ratios else None
    return table


# ------------------------------------------------------------------------------------------------------ helpers


def fold_design(scores: pd.DataFrame, *, metric: str, models: Sequence[str] | None = None,
                model_col: str = "model", fold_col: str = "fold", repeat_col: str | None = "repeat") -> Design:
    """Paired when every model has the same folds (fold and repeat ids), else independent, with the reason."""
    long = _long_scores(scores, metric=metric, models=models, model_col=model_col, fold_col=fold_col,
                        repeat_col=repeat_col, min_folds=1, purpose="comparing folds")
    keys = [c for c in (repeat_col, fold_col) if c is not None and c in long.columns]
    names = list(dict.fromkeys(long[model_col]))
    blocks = {m: set(map(tuple, long.loc[long[model_col] == m, keys].to_numpy().tolist())) for m in names}
    reference = blocks[names[0]]
    for m in names[1:]:
        if blocks[m] != reference:
            return Design(INDEPENDENT, f"models `{names[0]}` and `{m}` were scored on different folds, so the folds "
                                       "cannot be paired")
    return Design(PAIRED, f"every model was scored on the same {plural(len(reference), 'fold')}")


def _select(preds: dict[str, Predictions], models: Sequence[str] | None) -> dict[str, Predictions]:
    if models is not None:
        unknown = [m for m in models if m not in preds]
        if unknown:
            raise AssessError(f"model `{unknown[0]}` is not among the predictions (models: {', '.join(preds)})")
        if len(set(models)) != len(models):
            raise AssessError(f"`models` names a model twice (got {list(models)})")
        preds = {m: preds[m] for m in models}
    if not preds:
        raise AssessError("no predictions given (got 0 models)")
    return preds


def _as_mapping(predictions) -> dict[str, Predictions]:
    if isinstance(predictions, Mapping):
        return dict(predictions)
    out: dict[str, Predictions] = {}
    for p in predictions:
        if not isinstance(p, Predictions):
            raise AssessError(f"predictions must be Predictions objects (got {type(p).__name__})")
        if p.model in out:
            raise AssessError(f"two predictions are named `{p.model}`; model names must be distinct")
        out[p.model] = p
    return out


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and bool(np.all(a == b))


def _unequal(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Where two arrays of one shape differ, missing values (NaN, NaT) counting as equal to each other."""
    return ~((a == b) | (pd.isna(a) & pd.isna(b)))


def _first_difference(a: np.ndarray, b: np.ndarray) -> int:
    diff = a != b
    if diff.ndim > 1:
        diff = diff.any(axis=tuple(range(1, diff.ndim)))
    return int(np.flatnonzero(diff)[0])


def _block_text(keys: list[str], block: tuple, fold_col: str) -> str:
    parts = dict(zip(keys, block))
    text = f"{fold_col} {shown(parts[fold_col])}"
    others = [f"{k} {shown(v)}" for k, v in parts.items() if k != fold_col]
    return text + (f" ({', '.join(others)})" if others else "")


def _long_scores(scores: pd.DataFrame, *, metric, models, model_col, fold_col, repeat_col, min_folds,
                 purpose) -> pd.DataFrame:
    if not isinstance(scores, pd.DataFrame):
        raise AssessError(f"the fold table must be a DataFrame (got {type(scores).__name__})")
    for role, col in (("model", model_col), ("fold", fold_col), ("metric", metric)):
        if col not in scores.columns:
            raise AssessError(f"the fold table has no {role} column `{col}` (columns: "
                              f"{', '.join(map(str, scores.columns))})")
    use_repeat = repeat_col is not None and repeat_col in scores.columns
    keys = [model_col] + ([repeat_col] if use_repeat else []) + [fold_col]
    long = scores[keys + [metric]].copy()
    for col in keys:
        if long[col].isna().any():
            i = int(np.flatnonzero(long[col].isna().to_numpy())[0])
            raise AssessError(f"column `{col}` has {int(long[col].isna().sum())} missing values (first at row {i})")
    values = pd.to_numeric(long[metric], errors="coerce")
    bad = values.isna() | ~np.isfinite(values.to_numpy(dtype=float, na_value=np.nan))
    if bad.any():
        i = int(np.flatnonzero(bad.to_numpy())[0])
        raise AssessError(f"column `{metric}` has {int(bad.sum())} missing or non-numeric values "
                          f"(first at row {i}: {shown(scores[metric].iloc[i])})")
    long[metric] = values.astype(float)
    long[model_col] = long[model_col].astype(str)
    present = list(dict.fromkeys(long[model_col]))
    if models is not None:
        models = [str(m) for m in models]
        for m in models:
            if m not in present:
                raise AssessError(f"model `{m}` is not in the fold table (models: {', '.join(present)})")
        long = long[long[model_col].isin(models)]
        long[model_col] = pd.Categorical(long[model_col], categories=models, ordered=True)
        long = long.sort_values(model_col, kind="stable")
        long[model_col] = long[model_col].astype(str)
        present = models
    dup = long.duplicated(subset=keys)
    if dup.any():
        row = long[dup].iloc[0]
        block = _block_text(keys[1:], tuple(row[k] for k in keys[1:]), fold_col)
        raise AssessError(f"model `{row[model_col]}` has more than one row for {block}")
    counts = long.groupby(model_col, sort=False).size()
    for m in present:
        got = int(counts.get(m, 0))
        if got < min_folds:
            raise AssessError(f"{purpose} needs at least {min_folds} folds per model; model `{m}` has {got}")
    return long.reset_index(drop=True)
