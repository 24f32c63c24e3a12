r"""ISO/IEC TS 4213 5.3.13 baselines: what a model that knows nothing about the rows would score on each metric.

Three baseline predictors, computed on the same true labels and weights as the model:

- ``majority`` — always predicts the majority class (ISO 4213 3.2.18; per label for multi-label: a label is
  predicted when more than half of the weight has it). Its probabilities are the class priors (scikit-learn's
  ``DummyClassifier(strategy="prior")``). Deterministic, so every value is exact.
- ``stratified`` — predicts class c at random with its prior probability :math:`\pi_c`, independently per row
  (per label with the label's prevalence for multi-label).
- ``uniform`` — predicts each of the k classes with probability 1/k (each label with probability ½).

How each value is obtained (:attr:`Baseline.method`):

- label metrics whose value at the *expected* confusion matrix :math:`E[C_{ab}] = W_a q_b` (:math:`W_a` the weight
  of class a, :math:`q` the prediction distribution) is their expected value — metrics linear in the cells with
  denominators fixed by the truth (accuracy, recall, specificity, balanced accuracy, …), and precision-type ratios,
  whose expectation given at least one prediction of the class equals that ratio because a random prediction is
  independent of the truth — are *analytic*: e.g. stratified accuracy :math:`\sum_c \pi_c^2`, stratified recall
  :math:`\pi_+`, stratified precision :math:`\pi_+`, uniform accuracy :math:`1/k`;
- other label metrics (F1, MCC, kappa, likelihood ratios, distribution distances, sample-averaged multi-label
  metrics, …) are the mean over a *seeded simulation* of the random predictor (200 draws; multinomial draws of each
  confusion-matrix row when unweighted, so the cost does not grow with n; with weights, and for multi-label,
  per-row draws on at most 100,000 rows — a seeded subsample above that, which moves these expectations by O(1/n)
  — and fewer draws when n·L is large, at least 20); undefined draws are left out of the mean;
- score metrics score the constant probability vectors — priors for ``majority`` and ``stratified``, 1/k for
  ``uniform`` — exactly: a constant score has ROC AUC 0.5 (the expected AUC of a random scorer), average precision
  equal to the prevalence, log loss equal to the entropy of the priors (resp. ln k). Uniform top-k accuracy is the
  analytic :math:`\min(k, K)/K` of a random ranking (a constant score would rank classes by position).

Regression: two constant predictors, scored exactly on the same truth and weights (forecasts have the naive,
seasonal naive and drift forecasts instead: :mod:`assess.metrics.forecast_baselines`, scored in `evaluate`) —

- ``mean`` — always predicts the (weighted) mean of ``y_true`` (scikit-learn's ``DummyRegressor(strategy="mean")``):
  its R² and explained variance are 0 by construction, so the model's ``r2`` *is* its skill score against this
  baseline, :math:`1 - \mathrm{MSE}/\mathrm{MSE}_\text{mean}`;
- ``median`` — always predicts the (weighted) median of ``y_true`` (``strategy="median"``; the averaged inverted
  CDF of :func:`assess.metrics.regression.weighted_median`): the constant with the smallest MAE.

:func:`baseline_columns` names the baselines of a task, in the order tables show them.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np

from assess.core.data import Task
from assess.metrics import binary, multiclass, multilabel, regression

SIMULATIONS = 200
MAX_SIM_ROWS = 100_000
#: Most confusion-matrix cells the simulated baselines hold at once (draws × k × k float64: 160 MB).
SIM_CELLS = 20_000_000


@dataclass(frozen=True)
class Baseline:
    """Baseline values of one metric (NaN when undefined for that baseline) and how they were obtained."""

    majority: float
    stratified: float
    uniform: float
    method: str

    def as_dict(self) -> dict[str, float]:
        return {"majority": self.majority, "stratified": self.stratified, "uniform": self.uniform}


@dataclass(frozen=True)
class ConstantBaselines:
    """Regression baselines of one metric: its value for each constant predictor (``mean``, ``median``)."""

    mean: float
    median: float
    method: str

    def as_dict(self) -> dict[str, float]:
        return {"mean": self.mean, "median": self.median}


def baseline_columns(task) -> tuple[str, ...]:
    """The baseline names of ``task``, in display order: the keys of ``MetricResult.baselines``.

    >>> baseline_columns(Task.BINARY), baseline_columns(Task.REGRESSION), baseline_columns(Task.FORECAST)
    (('majority', 'stratified', 'uniform'), ('mean', 'median'), ('naive', 'seasonal_naive', 'drift'))
    """
    if Task(task) is Task.FORECAST:
        return ("naive", "seasonal_naive", "drift")     # assess.metrics.forecast_baselines.BASELINES
    if Task(task) is Task.CLUSTERING:
        return ("random",)                              # assess.metrics.clustering.random_baselines
    return ("mean", "median") if Task(task) is Task.REGRESSION else ("majority", "stratified", "uniform")


def regression_baselines(specs, y: np.ndarray, weight: np.ndarray | None, parts) -> dict[str, ConstantBaselines]:
    """Each spec's value when the prediction is the constant (weighted) mean, resp. median, of ``y``; exact."""
    W = y.shape[0] if weight is None else weight.sum()
    mean = float(y.sum() / W if weight is None else np.dot(weight, y) / W)
    median = regression.weighted_median(y, weight)
    states = {name: regression.regression_state(y, np.full(y.shape, c), weight, parts)
              for name, c in (("mean", mean), ("median", median))}
    how = (f"exact: constant predictions, the {'weighted ' if weight is not None else ''}mean of y_true "
           f"({mean:.6g}) and its median ({median:.6g})")
    return {s.key: ConstantBaselines(float(_quiet(s.compute, states["mean"])),
                                     float(_quiet(s.compute, states["median"])), how) for s in specs}


def _quiet(fn, state):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            try:
                v = fn(state)
            except (ValueError, ZeroDivisionError):
                return float("nan")
    return v


def _nanmean(v) -> float:
    a = np.asarray(v, dtype=np.float64)
    a = a[np.isfinite(a)]
    return float(a.mean()) if a.size else float("nan")


def _class_weights(y: np.ndarray, k: int, w):
    return np.bincount(y, weights=w, minlength=k).astype(np.float64)


def _cm_state(task, template, cm, batch):
    if task == Task.BINARY:
        return binary.BinaryState(tp=cm[..., 1, 1], fp=cm[..., 0, 1], tn=cm[..., 0, 0], fn=cm[..., 1, 0],
                             beta=template.beta, labels_from=template.labels_from,
                             batch=batch)
    return multiclass.MulticlassState(cm=cm, classes=template.classes, beta=template.beta, top_k=template.top_k,
                              labels_from=template.labels_from, batch=batch)


def _simulate_cm(rng, y, k, w, q, sims):
    """(sims, k, k) confusion matrices of a random predictor with class probabilities q."""
    if w is None:
        nk = np.bincount(y, minlength=k)
        cm = np.zeros((sims, k, k))
        for a in range(k):
            if nk[a]:
                cm[:, a, :] = rng.multinomial(nk[a], q, size=sims)
        return cm
    cq = np.cumsum(q)
    cq[-1] = 1.0
    out = np.empty((sims, k, k))
    step = max(1, 2_000_000 // max(y.shape[0], 1))
    for s0 in range(0, sims, step):
        bb = min(step, sims - s0)
        yp = np.searchsorted(cq, rng.random((bb, y.shape[0])), side="right").clip(0, k - 1)
        codes = (y[None, :] * k + yp) + (np.arange(bb) * k * k)[:, None]
        out[s0:s0 + bb] = np.bincount(codes.ravel(), weights=np.tile(w, bb), minlength=bb * k * k).reshape(bb, k, k)
    return out


def baseline_values(pred, specs, point_state_for, template, *, seed=0, simulations: int = SIMULATIONS
                    ) -> dict[str, Baseline]:
    """Baselines of ``specs`` for the validated predictions ``pred``.

    ``point_state_for(y_pred, scores)`` builds the task's point state for substitute predictions (same truth and
    weights); ``template`` is the model's point state (parameters, class names).
    """
    task = pred.task
    w = pred.weight
    rng = np.random.default_rng(np.random.SeedSequence([int(seed) if isinstance(seed, (int, np.integer)) else 0,
                                                        5313]))
    out: dict[str, Baseline] = {}
    label_specs = [s for s in specs if s.needs == "labels"]
    score_specs = [s for s in specs if s.needs != "labels"]
    if task == Task.MULTILABEL:
        return _multilabel(pred, label_specs, score_specs, point_state_for, template, rng, simulations)
    k = 2 if task == Task.BINARY else len(pred.classes)
    y = np.asarray(pred.y_true, dtype=np.intp)
    n = y.shape[0]
    W = _class_weights(y, k, w)
    prior = W / W.sum()
    maj = int(np.argmax(prior))
    maj_labels = np.full(n, maj, dtype=np.intp if task == Task.MULTICLASS else np.int8)
    if task == Task.BINARY:  # a 0-d score: binary_state treats it as one constant score, in closed form
        prior_scores = np.float64(prior[1])
        unif_scores = np.float64(0.5)
    else:
        prior_scores = np.tile(prior, (n, 1))
        unif_scores = np.full((n, k), 1.0 / k)
    maj_state = point_state_for(maj_labels, prior_scores if score_specs else None)
    unif_state = point_state_for(maj_labels, unif_scores) if score_specs else None
    qs = {"stratified": prior, "uniform": np.full(k, 1.0 / k)}
    sims = {}
    # unweighted: one multinomial per confusion-matrix row (cost independent of n); weighted: per-row draws,
    # fewer when n is large (at least 20 draws; their mean's Monte-Carlo error is then ~1/sqrt(20 n))
    # and with many classes, fewer draws so the (draws, k, k) matrices stay within SIM_CELLS
    cells_cap = max(20, SIM_CELLS // (k * k))
    n_sims = min(cells_cap, simulations if w is None else int(min(simulations, max(20, 20_000_000 // max(n, 1)))))
    if any(s.baseline != "expected" for s in label_specs):
        ys, ws = y, w
        if w is not None and n > MAX_SIM_ROWS:
            keep = rng.choice(n, MAX_SIM_ROWS, replace=False)
            ys, ws = y[keep], w[keep]
            n_sims = min(cells_cap, simulations)
        sims = {name: _cm_state(task, template, _simulate_cm(rng, ys, k, ws, q, n_sims), True)
                for name, q in qs.items()}
    expected = {name: _cm_state(task, template, W[:, None] * q[None, :], False) for name, q in qs.items()}
    for s in label_specs:
        m = float(_quiet(s.compute, maj_state))
        if s.baseline == "expected":
            st, un = (float(_quiet(s.compute, expected[x])) for x in ("stratified", "uniform"))
            how = "majority exact; random baselines analytic (expected confusion matrix)"
        else:
            st, un = (_nanmean(_quiet(s.compute, sims[x])) for x in ("stratified", "uniform"))
            how = f"majority exact; random baselines by seeded simulation ({n_sims} draws)"
        out[s.key] = Baseline(m, st, un, how)
    for s in score_specs:
        m = float(_quiet(s.compute, maj_state))
        u = float(_quiet(s.compute, unif_state))
        how = "exact, constant probability vectors (priors; 1/k for uniform)"
        if s.uniform_baseline is not None:
            u = float(s.uniform_baseline(template))
            how += f"; uniform {s.uniform_baseline.__doc__}"
        out[s.key] = Baseline(m, m, u, how)
    return out


def _multilabel(pred, label_specs, score_specs, point_state_for, template, rng, simulations):
    y = np.asarray(pred.y_true, dtype=bool)
    n, L = y.shape
    w = pred.weight
    ww = np.ones(n) if w is None else w
    T = ww @ y
    Wt = ww.sum()
    prev = T / Wt
    maj = np.broadcast_to(prev > 0.5, (n, L)).copy()
    scores_prev = np.broadcast_to(prev, (n, L)).copy() if score_specs else None
    maj_state = point_state_for(maj, scores_prev)
    unif_state = point_state_for(maj, np.full((n, L), 0.5)) if score_specs else None
    qs = {"stratified": prev, "uniform": np.full(L, 0.5)}
    sims_n = int(min(simulations, max(20, 20_000_000 // max(min(n, MAX_SIM_ROWS) * L, 1))))
    out = {}

    def expected(q):
        tp, fp = T * q, (Wt - T) * q
        fn, tn = T * (1 - q), (Wt - T) * (1 - q)
        return multilabel.MultilabelState(cells=np.stack([tp, fp, fn, tn], axis=-1), rows=np.zeros(len(multilabel.ROW_COLUMNS)),
                                  weight_sum=float(Wt), labels=template.labels, beta=template.beta,
                                  labels_from="at random")

    sim_states = {}
    if any(s.baseline != "expected" for s in label_specs):
        ys, ws = y, w
        if n > MAX_SIM_ROWS:
            keep = rng.choice(n, MAX_SIM_ROWS, replace=False)
            ys, ws = y[keep], None if w is None else w[keep]
        for name, q in qs.items():
            states = []
            for _ in range(sims_n):
                yp = rng.random(ys.shape) < q[None, :]
                states.append(multilabel.multilabel_state(ys, yp, None, ws, template.labels, beta=template.beta))
            sim_states[name] = states
    for s in label_specs:
        m = float(_quiet(s.compute, maj_state))
        if s.baseline == "expected":
            st, un = (float(_quiet(s.compute, expected(qs[x]))) for x in ("stratified", "uniform"))
            how = "majority exact; random baselines analytic (expected label cells)"
        else:
            st, un = (_nanmean([_quiet(s.compute, st_) for st_ in sim_states[x]]) for x in ("stratified", "uniform"))
            how = f"majority exact; random baselines by seeded simulation ({sims_n} draws)"
        out[s.key] = Baseline(m, st, un, how)
    for s in score_specs:
        m = float(_quiet(s.compute, maj_state))
        u = float(_quiet(s.compute, unif_state))
        out[s.key] = Baseline(m, m, u, "exact, constant scores (label prevalences; 0.5 for uniform)")
    return out
