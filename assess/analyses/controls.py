r"""The assessment controls of ISO/IEC TS 4213 5.3 (reference 000) that the app can check from the files themselves.

* Test and training data disjoint (5.3.5) and information leakage (5.3.7): given a second file of training ids (or
  a ``split`` column marking train and test rows), the sample ids found in both, and test rows whose feature values
  (``x_*`` columns, or the columns both files share) exactly repeat a training row — with examples.
* The same test data for every model compared (5.3.5): whether the models were scored on the same sample ids.
* Ground truth (5.3.9): with several annotators' labels (``y_true_<annotator>`` columns holding class labels, not
  numbers — numeric ``y_true_<name>``/``y_pred_<name>`` pairs are a multi-output regression), their agreement:
  Cohen's κ per pair, Fleiss' κ, Krippendorff's α (nominal); the majority label; each model scored against each
  annotator and the majority.
* Data representativeness (5.3.2): the distribution shift between the groups of a column (splits, folds, time
  periods): label distributions (KL divergence, Jensen–Shannon distance, total variation, PSI, and a χ² test of
  homogeneity) and score distributions (two-sample Kolmogorov–Smirnov test), each group against the first.

`checklist` turns the results into plain data for the report's 5.3 checklist: one `ControlOutcome` (key, clause,
title, "checked by the app: …", status) per control.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats as sps

from assess.core.data import Task
from assess.core.decision import Decision, predicted_labels
from assess.core.errors import AssessError, InputError, shorten
from assess.core.formatting import UNDEFINED, code_as_quotes, in_words, listing, number, p_value, proportion
from assess.inputs.assessment import Assessment, annotator_columns
from assess.inputs.columns import label_strings, normalise_name, quote, sort_labels, time_values
from assess.inputs.read import read_table
from assess.inputs.roles import SYNONYMS, detect_roles
from assess.stats.corrections import adjust_pvalues
from assess.stats.counts import chi2_independence

#: Statuses of a control, for the report's checklist.
OK, ATTENTION, PROBLEM, NOT_CHECKED = "ok", "attention", "problem", "not checked"
#: Values of a split column that mean "training data" and "test data" (lower case).
TRAIN_VALUES = frozenset({"train", "training", "trn", "fit"})
TEST_VALUES = frozenset({"test", "testing", "tst", "holdout", "eval", "evaluation", "validation", "valid", "val"})
#: Krippendorff (2004, Content Analysis, 2nd ed., 12.7): α ≥ 0.800 reliable, 0.667–0.800 for tentative conclusions.
ALPHA_RELIABLE, ALPHA_TENTATIVE = 0.800, 0.667
#: PSI rules of thumb used in credit scoring (Siddiqi 2006): < 0.1 stable, 0.1–0.25 some shift, > 0.25 major shift.
PSI_SHIFT = 0.25
#: Examples listed per finding.
EXAMPLES = 5


@dataclass(frozen=True)
class ControlOutcome:
    """One line of the ISO 5.3 checklist: what the app checked itself and what it found."""

    key: str
    clause: str
    title: str
    checked: str          # "checked by the app: …"
    status: str           # OK | ATTENTION | PROBLEM | NOT_CHECKED

    def to_dict(self) -> dict:
        return {"key": self.key, "clause": self.clause, "title": self.title, "checked": self.checked,
                "status": self.status}


# --- 5.3.5 / 5.3.7: disjointness and leakage -------------------------------------------------------------------------

@dataclass(frozen=True)
class Overlap:
    """Training against test data. ``source`` says where the training rows came from; ids are compared as text
    (``1.0`` and ``1`` are one id); ``duplicate_examples`` pairs a test row number with a training row number (file
    rows, header = row 1) whose feature values are identical."""

    source: str
    n_test_ids: int | None
    n_train_ids: int | None
    n_shared_ids: int | None
    shared_examples: tuple[str, ...]
    feature_columns: tuple[str, ...]
    n_test_rows: int
    n_duplicate_rows: int | None
    duplicate_examples: tuple[tuple[int, int], ...]


@dataclass(frozen=True, eq=False)
class Training:
    """The training data as given: a file's name and its table (ids, optionally feature columns)."""

    name: str
    frame: pd.DataFrame


_ONE_FIELD = re.compile(r"^[^,;\t|\s]+$")


def read_training(source, *, name: str | None = None) -> Training:
    """A training-id file: any table `assess.inputs.read.read_table` reads, or a plain list of ids, one per line (a first
    line naming an id column, e.g. ``id``, is its header)."""
    try:
        table = read_table(source, name=name)
        return Training(table.name, table.frame)
    except InputError as exc:
        try:
            raw = Path(source).read_bytes() if isinstance(source, (str, Path)) else bytes(source)
            lines = [ln.strip() for ln in raw.decode("utf-8-sig").splitlines() if ln.strip()]
        except (OSError, UnicodeDecodeError):
            raise exc from None
        name = name or (Path(source).name if isinstance(source, (str, Path)) else "training ids")
        if not lines or not all(_ONE_FIELD.match(ln) for ln in lines):
            raise
        header = normalise_name(lines[0]) in SYNONYMS["id"]
        column = lines[0] if header else "id"
        return Training(name, pd.DataFrame({column: lines[1:] if header else lines}))


def split_column(assessment: Assessment) -> str | None:
    """The column marking train/test rows (role ``split``: ``split``, ``subset``, …), if the file has one."""
    return assessment.roles.split


def _id_kind(ids: pd.Series) -> str:
    """"whole numbers", "numbers" or "text": what a column of ids looks like, to catch files of another id type."""
    text = ids.astype(str).str.strip()
    if text.str.fullmatch(r"[+-]?\d+").all():
        return "whole numbers"
    if pd.to_numeric(text, errors="coerce").notna().all():
        return "numbers"
    return "text"


def _train_id_column(table: Training) -> str:
    roles = detect_roles(table.frame)
    if roles.id:
        return roles.id
    if table.frame.shape[1] == 1:
        return table.frame.columns[0]
    raise InputError(f"has no id column: name it {' or '.join(map(quote, SYNONYMS['id'][:3]))}, or give a file "
                     f"with one column of ids (columns: {', '.join(map(quote, list(table.frame.columns)[:8]))})",
                     file=table.name)


def _feature_columns(assessment: Assessment, other: pd.DataFrame | None, exclude: set) -> tuple[str, ...]:
    """``x_*`` feature columns, else columns no role uses; with a training file, only those it has too."""
    r = assessment.roles
    features = list(r.features)
    if not features:
        used = r.used_columns() | exclude
        features = [c for c in assessment.frame.columns if c not in used
                    and not normalise_name(c).startswith(("y_true_", "y_pred_", "true_", "pred_"))]
    if other is not None:
        features = [c for c in features if c in other.columns]
    return tuple(features)


def _row_hashes(frame: pd.DataFrame, columns) -> np.ndarray:
    """One 64-bit hash per row of ``columns``: identical values (as text, so ``1`` and ``1.0`` differ only if
    written differently in both files) give identical hashes."""
    return pd.util.hash_pandas_object(frame[list(columns)].astype(str), index=False).to_numpy()


def train_test_overlap(assessment: Assessment, *, train: Training | None = None) -> Overlap | None:
    """Ids and feature rows shared by training and test data: from ``train`` (a file of training ids, optionally
    with the feature columns), else from the file's split column. None when neither exists.

    Raises `InputError` when the training ids are of another type than the test ids (text against numbers) and no
    id matches, and `AssessError` when the test file has no id column to compare.
    """
    frame = assessment.frame
    split = split_column(assessment)
    if train is not None:
        train_frame, source = train.frame, f"training-id file {train.name}"
        test_rows = np.arange(len(frame))
        train_ids_col = _train_id_column(train)
        train_ids = label_strings(train_frame[train_ids_col]).dropna()
    elif split is not None:
        kind = frame[split].astype(str).str.strip().str.lower()
        is_train, is_test = kind.isin(TRAIN_VALUES).to_numpy(), ~kind.isin(TRAIN_VALUES).to_numpy()
        if not is_train.any():
            return Overlap(f"split column {quote(split)}", None, None, None, (), (), int(is_test.sum()), None, ())
        train_frame, source = frame[is_train], f"the training rows of split column {quote(split)}"
        test_rows = np.flatnonzero(is_test)
        train_ids = label_strings(train_frame[assessment.roles.id]).dropna() if assessment.roles.id else None
    else:
        return None

    n_test_ids = n_train_ids = n_shared = None
    shared_examples: tuple[str, ...] = ()
    if assessment.roles.id and train_ids is not None:
        test_ids = label_strings(frame[assessment.roles.id].iloc[test_rows]).dropna()
        test_set, train_set = set(test_ids), set(train_ids)
        shared = sort_labels(test_set & train_set)
        if not shared and train is not None and len(test_set) and len(train_set):
            test_kind, train_kind = _id_kind(pd.Series(sorted(test_set)[:1000])), \
                _id_kind(pd.Series(sorted(train_set)[:1000]))
            if test_kind != train_kind:
                raise InputError(
                    f"holds ids that are {train_kind} (first: {quote(train_ids.iloc[0])}) while the ids of "
                    f"{assessment.table.name} in {quote(assessment.roles.id)} are {test_kind} (first: "
                    f"{quote(test_ids.iloc[0])}): no id can match; give the training ids of the same kind",
                    file=train.name, column=train_ids_col)
        n_test_ids, n_train_ids, n_shared = len(test_set), len(train_set), len(shared)
        shared_examples = tuple(shorten(s) for s in shared[:EXAMPLES])
    elif train is not None:
        raise AssessError(f"{assessment.table.name} has no id column to compare with the training ids of "
                          f"{train.name}: mark one as the sample id (canonical name: `id`)")

    exclude = {split} if split else set()
    features = _feature_columns(assessment, train_frame if train is not None else None, exclude)
    n_dup, dup_examples = None, ()
    test_unique = frame.iloc[test_rows]
    if assessment.roles.id:   # a long file repeats each sample once per model: count each sample once
        keep = ~test_unique[assessment.roles.id].duplicated().to_numpy()
        test_rows, test_unique = test_rows[keep], test_unique[keep]
    if features:
        test_hash, train_hash = _row_hashes(test_unique, features), _row_hashes(train_frame, features)
        first_train = pd.Series(np.arange(len(train_hash))).groupby(train_hash).first()
        found = np.isin(test_hash, first_train.index.to_numpy())
        n_dup = int(found.sum())
        train_positions = train_frame.index.to_numpy() if train is None else np.arange(len(train_frame))
        dup_examples = tuple((int(test_rows[i]) + 2, int(train_positions[first_train[test_hash[i]]]) + 2)
                             for i in np.flatnonzero(found)[:EXAMPLES])
    return Overlap(source, n_test_ids, n_train_ids, n_shared, shared_examples, features, len(test_rows), n_dup,
                   dup_examples)


# --- 5.3.9: ground truth -------------------------------------------------------------------------------------------

def cohen_kappa(a, b) -> float:
    r"""Cohen's κ of two raters' labels (rows where either is missing left out): :math:`(p_o - p_e)/(1 - p_e)`,
    :math:`p_o` the share of agreement, :math:`p_e` the agreement expected from each rater's label frequencies.
    NaN when :math:`p_e = 1` (both raters gave one and the same label throughout)."""
    a, b = np.asarray(a, dtype=object), np.asarray(b, dtype=object)
    ok = pd.notna(a) & pd.notna(b)
    a, b = a[ok], b[ok]
    if a.size == 0:
        return float("nan")
    codes, uniques = pd.factorize(np.concatenate([a, b]))
    k, n = len(uniques), a.size
    table = np.bincount(codes[:n] * k + codes[n:], minlength=k * k).reshape(k, k) / n
    p_o = np.trace(table)
    p_e = float(table.sum(axis=1) @ table.sum(axis=0))
    return float((p_o - p_e) / (1 - p_e)) if p_e < 1 else float("nan")


def fleiss_kappa(counts) -> float:
    r"""Fleiss' κ from an (items × categories) table of how many raters put each item in each category; every item
    needs the same number of raters m ≥ 2 (Fleiss 1971):
    :math:`\bar P = \frac1N\sum_i \frac{\sum_j n_{ij}^2 - m}{m(m-1)}`, :math:`P_e = \sum_j p_j^2` with
    :math:`p_j = \frac{1}{Nm}\sum_i n_{ij}`, :math:`\kappa = (\bar P - P_e)/(1 - P_e)`. NaN when :math:`P_e = 1`."""
    counts = np.asarray(counts, dtype=float)
    m = counts.sum(axis=1)
    if counts.shape[0] == 0 or np.any(m != m[0]) or m[0] < 2:
        raise ValueError("`counts` needs at least one item and the same number (≥ 2) of raters for every item")
    m = m[0]
    p_bar = float(np.mean(((counts ** 2).sum(axis=1) - m) / (m * (m - 1))))
    p_j = counts.sum(axis=0) / counts.sum()
    p_e = float(p_j @ p_j)
    return (p_bar - p_e) / (1 - p_e) if p_e < 1 else float("nan")


def krippendorff_alpha_nominal(counts) -> float:
    r"""Krippendorff's α for nominal data from an (items × categories) table of values per item (raters may be
    missing; items with fewer than two values are not pairable and left out; Krippendorff 2011, "Computing
    Krippendorff's alpha-reliability"): the coincidence matrix :math:`o_{ck} = \sum_u \frac{n_{uc} n_{uk} -
    [c=k] n_{uc}}{m_u - 1}`, :math:`n_c = \sum_k o_{ck}`, :math:`n = \sum_c n_c`, and
    :math:`\alpha = 1 - (n - 1)\frac{\sum_{c \ne k} o_{ck}}{\sum_{c \ne k} n_c n_k}`. NaN when every value is the
    same category (no expected disagreement)."""
    counts = np.asarray(counts, dtype=float)
    m = counts.sum(axis=1)
    counts, m = counts[m >= 2], m[m >= 2]
    if counts.size == 0:
        return float("nan")
    scaled = counts / (m - 1)[:, None]
    o = scaled.T @ counts - np.diag(scaled.sum(axis=0))
    n_c = o.sum(axis=1)
    n = n_c.sum()
    observed = o.sum() - np.trace(o)
    expected = n_c.sum() ** 2 - (n_c ** 2).sum()
    return float(1 - (n - 1) * observed / expected) if expected > 0 else float("nan")


@dataclass(frozen=True)
class Agreement:
    """Agreement of the annotators on the items (the rows of one model), and each model scored against each."""

    annotators: tuple[str, ...]
    n_items: int
    n_complete: int                      # items every annotator labelled (Fleiss' κ uses these)
    pairs: pd.DataFrame                  # annotator_a, annotator_b, n, agreement, cohen_kappa
    fleiss_kappa: float
    krippendorff_alpha: float
    n_no_majority: int                   # items whose annotators tie: no majority label
    models: pd.DataFrame                 # model, reference, n, accuracy, cohen_kappa
    reasons: dict = field(default_factory=dict)


def ground_truth_agreement(assessment: Assessment, *, decision: Decision = Decision()) -> Agreement | None:
    """Inter-annotator agreement and the models against each annotator and the majority label; None without at
    least two categorical ``y_true_<annotator>`` columns."""
    columns = annotator_columns(assessment)
    if not columns:
        return None
    names = tuple(n for n, _ in columns)
    # Every row's annotations, counted per label (all rows: each model's rows need their majority label).
    labels_all = np.column_stack([label_strings(assessment.frame[c]).to_numpy(dtype=object) for _, c in columns])
    codes, categories = pd.factorize(labels_all.ravel())                 # -1 for missing
    codes = codes.reshape(labels_all.shape)
    k = max(len(categories), 1)
    counts_all = np.zeros((labels_all.shape[0], k))
    for j in range(labels_all.shape[1]):
        ok = codes[:, j] >= 0
        np.add.at(counts_all, (np.flatnonzero(ok), codes[ok, j]), 1)
    top = counts_all.max(axis=1)
    unique_top = (counts_all == top[:, None]).sum(axis=1) == 1
    majority_all = np.where(unique_top & (top > 0),
                            np.asarray(categories, dtype=object)[counts_all.argmax(axis=1)] if len(categories)
                            else None, None)
    # The items: the rows of the first model (a long file repeats each sample once per model).
    rows = next(iter(assessment.model_rows.values()))
    labels, counts = labels_all[rows], counts_all[rows]
    complete = counts.sum(axis=1) == len(names)
    reasons = {}
    fleiss = fleiss_kappa(counts[complete]) if complete.any() else float("nan")
    if not np.isfinite(fleiss):
        reasons["fleiss_kappa"] = ("no item was labelled by every annotator" if not complete.any() else
                                   "every annotator gave one and the same label: no disagreement to expect")
    alpha = krippendorff_alpha_nominal(counts)
    if not np.isfinite(alpha):
        reasons["krippendorff_alpha"] = "every value is the same label, or no item has two labels"
    pairs = []
    for i in range(len(names)):
        for j in range(i + 1, len(names)):
            a, b = labels[:, i], labels[:, j]
            both = pd.notna(a) & pd.notna(b)
            pairs.append({"annotator_a": names[i], "annotator_b": names[j], "n": int(both.sum()),
                          "agreement": float(np.mean(a[both] == b[both])) if both.any() else float("nan"),
                          "cohen_kappa": cohen_kappa(a, b)})

    model_rows = []
    if assessment.task in (Task.BINARY, Task.MULTICLASS):
        for model in assessment.models:
            pred = assessment.predictions(model)
            codes_m = np.asarray(predicted_labels(pred.task, pred.y_pred, pred.scores, decision, model=model))
            classes = np.asarray(pred.classes, dtype=object)
            predicted = np.where(codes_m >= 0, classes[np.clip(codes_m, 0, len(classes) - 1)], None)
            mrows = assessment.model_rows[model]
            references = {n: labels_all[mrows, j] for j, n in enumerate(names)} | {"majority": majority_all[mrows]}
            for ref, truth in references.items():
                both = pd.notna(truth) & pd.notna(predicted)
                model_rows.append({"model": model, "reference": ref, "n": int(both.sum()),
                                   "accuracy": float(np.mean(truth[both] == predicted[both])) if both.any()
                                   else float("nan"),
                                   "cohen_kappa": cohen_kappa(truth, predicted)})
    return Agreement(names, int(labels.shape[0]), int(complete.sum()), pd.DataFrame(pairs), float(fleiss), alpha,
                     int((~unique_top[rows]).sum()), pd.DataFrame(model_rows), reasons)


# --- 5.3.2: distribution shift -------------------------------------------------------------------------------------

def label_shift(p_counts, q_counts) -> dict[str, float]:
    r"""How the label distribution p (counts per class of a group) differs from q (the reference group's):

    * ``kl_divergence`` :math:`\sum_c p_c \ln(p_c/q_c)` (nats; NaN when a class of p is absent from q),
    * ``js_distance`` :math:`\sqrt{\tfrac12 KL(p\|m) + \tfrac12 KL(q\|m)}` with :math:`m = (p+q)/2`, natural
      logarithm, in :math:`[0, \sqrt{\ln 2}]` (as ``scipy.spatial.distance.jensenshannon(p, q)``) — the metric
      ``js_distance``'s convention, so one distance has one scale on every page,
    * ``total_variation`` :math:`\tfrac12\sum_c |p_c - q_c|`,
    * ``psi`` (population stability index) :math:`\sum_c (p_c - q_c)\ln(p_c/q_c)` (NaN when a class is in one
      group only), i.e. KL(p‖q) + KL(q‖p).
    """
    p, q = np.asarray(p_counts, float), np.asarray(q_counts, float)
    p, q = p / p.sum(), q / q.sum()
    m = (p + q) / 2

    def kl(a, b):
        present = a > 0
        return float(np.sum(a[present] * np.log(a[present] / b[present]))) if np.all(b[present] > 0) else np.nan

    js = np.sqrt(max(0.5 * kl(p, m) + 0.5 * kl(q, m), 0.0))
    both = (p > 0) & (q > 0)
    psi = float(np.sum((p - q) * np.log(p / q), where=both)) if np.array_equal(p > 0, q > 0) else float("nan")
    return {"kl_divergence": kl(p, q), "js_distance": float(js), "total_variation": float(0.5 * np.abs(p - q).sum()),
            "psi": psi}


@dataclass(frozen=True)
class Shift:
    """Each group of column ``by`` against the reference group (the first in sort order, or in time): label-
    distribution differences with a χ² test of homogeneity, and a two-sample KS test of the scores (binary) or of
    the predictions and of the actual values (regression, forecasts), with Holm-adjusted p-values across groups. ``samples`` holds each group's scores
    for the chart."""

    by: str
    model: str
    reference: str
    table: pd.DataFrame
    samples: dict
    sample_name: str
    reasons: dict = field(default_factory=dict)


#: Most groups a shift column may have (a column with more distinct values is not a split, fold or period).
MAX_SHIFT_GROUPS = 50


def shift_columns(assessment: Assessment) -> list[str]:
    """Columns that can split the data into groups for the shift check: the split column, folds, slices, time."""
    r = assessment.roles
    candidates = [split_column(assessment), r.fold, *r.groups, r.repeat, r.timestamp, r.series]
    return [c for c in dict.fromkeys(candidates) if c and (2 <= assessment.frame[c].nunique() <= MAX_SHIFT_GROUPS
                                                           or (c == r.timestamp and assessment.frame[c].nunique() > 1))]


#: A time-stamp column with more distinct stamps than `MAX_SHIFT_GROUPS` is cut into this many periods.
PERIODS = 4


def _periods(stamps: pd.Series) -> tuple[np.ndarray, list[str]]:
    """Consecutive periods of about equal row counts (cut between distinct time stamps, so one stamp stays in one
    period), each named by its first and last stamp; in time order."""
    times = time_values(stamps.reset_index(drop=True))
    order = np.argsort(times.to_numpy(), kind="stable")
    distinct, inverse = np.unique(times.to_numpy()[order], return_inverse=True)
    cut = pd.qcut(inverse, PERIODS, labels=False, duplicates="drop")   # ranks of the rows' stamps in time order
    labels = np.empty(len(times), dtype=object)
    names = []

    def stamp(value):
        return pd.Timestamp(value).strftime("%Y-%m-%d") if isinstance(value, (np.datetime64, pd.Timestamp)) \
            else shorten(value, 20)

    for period in np.unique(cut):
        members = order[cut == period]
        sorted_times = times.to_numpy()[members]
        name = f"{period + 1}: {stamp(sorted_times.min())} to {stamp(sorted_times.max())}"
        labels[members] = name
        names.append(name)
    return labels, names


def distribution_shift(assessment: Assessment, *, by: str, model: str | None = None) -> Shift:
    """Distribution shift between the groups of column ``by`` for ``model`` (default: the first). Raises
    `AssessError` for an unknown column or one with fewer than 2 or more than `MAX_SHIFT_GROUPS` groups."""
    frame = assessment.frame
    if by not in frame.columns:
        raise AssessError(f"{assessment.table.name} has no column {quote(by)}")
    model = model or assessment.models[0]
    rows = assessment.model_rows[model]
    if by == assessment.roles.timestamp and frame[by].nunique() > MAX_SHIFT_GROUPS:    # time: cut into periods
        groups, names = _periods(frame[by].iloc[rows])
    else:
        groups = label_strings(frame[by].iloc[rows]).to_numpy(dtype=object)
        names = sort_labels({g for g in groups if g is not None})
    if not 2 <= len(names) <= MAX_SHIFT_GROUPS:
        raise AssessError(f"column {quote(by)} has {len(names):,} groups; comparing distributions needs 2 to "
                          f"{MAX_SHIFT_GROUPS}")
    pred = assessment.predictions(model)
    classification = assessment.task in (Task.BINARY, Task.MULTICLASS)
    numeric_truth = assessment.task in (Task.REGRESSION, Task.FORECAST)
    if classification:
        sample_name = "score" if pred.scores is not None and pred.scores.ndim == 1 else None
        values = pred.scores if sample_name else None
    elif assessment.task in (Task.REGRESSION, Task.FORECAST) and pred.y_pred is not None:
        sample_name, values = "prediction", pred.y_pred
    else:
        sample_name, values = None, None
    reference = names[0]
    ref_mask = groups == reference
    k = len(pred.classes) if classification else 0
    ref_counts = np.bincount(pred.y_true[ref_mask], minlength=k) if classification else None
    out, samples = [], {}
    for name in names:
        mask = groups == name
        row = {"group": name, "n": int(mask.sum())}
        if classification:
            counts = np.bincount(pred.y_true[mask], minlength=k)
            row |= {f"share_{c}": float(counts[i] / counts.sum()) for i, c in enumerate(pred.classes)}
            if name != reference:
                row |= label_shift(counts, ref_counts)
                table = np.vstack([counts, ref_counts])
                table = table[:, table.sum(axis=0) > 0]
                row["chi2_pvalue"] = chi2_independence(table).pvalue if table.shape[1] > 1 else float("nan")
        if values is not None:
            samples[name] = np.asarray(values)[mask]
            if name != reference:
                ks = sps.ks_2samp(samples[name], np.asarray(values)[ref_mask])
                row |= {"ks_statistic": float(ks.statistic), "ks_pvalue": float(ks.pvalue)}
        if assessment.task is Task.MULTILABEL:   # labels are not exclusive: each label's prevalence in the group
            truth = np.asarray(pred.y_true)[mask]
            row |= {f"share_{c}": float(truth[:, i].mean()) for i, c in enumerate(pred.classes)}
        if numeric_truth and name != reference:   # numeric truth: its shift is the label shift of regression
            truth = np.asarray(pred.y_true, dtype=float)
            ks = sps.ks_2samp(truth[mask], truth[ref_mask], nan_policy="omit")
            row |= {"ks_true_statistic": float(ks.statistic), "ks_true_pvalue": float(ks.pvalue)}
        out.append(row)
    table = pd.DataFrame(out)
    for col in ("chi2_pvalue", "ks_pvalue", "ks_true_pvalue"):
        if col in table:
            p = table[col].to_numpy(dtype=float)
            adjusted = np.full(p.shape, np.nan)
            ok = np.isfinite(p)
            if ok.any():
                adjusted[ok] = adjust_pvalues(p[ok], method="holm")
            table[col.replace("_pvalue", "_pvalue_holm")] = adjusted
    # The reference group's own row has no divergence from itself (its cells are empty, not undefined): only the
    # compared groups can make a measure undefined, and the reason names them.
    compared = table[table["group"] != reference]
    reasons = {}
    for key, why in (("kl_divergence", "a class of the group is absent from the reference group (division by zero)"),
                     ("psi", "a class is present in one group only (log of zero)")):
        if key in compared and compared[key].isna().any():
            undefined = [quote(str(g)) for g in compared.loc[compared[key].isna(), "group"]]
            reasons[key] = f"for group{'s' if len(undefined) > 1 else ''} {listing(undefined)}: {why}"
    return Shift(by, model, reference, table, samples, sample_name or "", reasons)


# --- the checklist -------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Controls:
    """Every control's result (None where it could not run) and the checklist lines built from them."""

    overlap: Overlap | None
    agreement: Agreement | None
    shift: Shift | None
    same_test_data: tuple[bool, str] | None
    outcomes: tuple[ControlOutcome, ...]

    def to_dict(self) -> dict:
        """JSON-ready (what ``python -m assess controls`` prints)."""
        def frame(f):
            return None if f is None else f.replace({np.nan: None}).to_dict(orient="records")
        doc = {"checklist": [o.to_dict() for o in self.outcomes]}
        if self.overlap is not None:
            o = self.overlap
            doc["overlap"] = {"source": o.source, "test_ids": o.n_test_ids, "train_ids": o.n_train_ids,
                              "shared_ids": o.n_shared_ids, "shared_id_examples": list(o.shared_examples),
                              "feature_columns": list(o.feature_columns), "test_rows": o.n_test_rows,
                              "duplicate_feature_rows": o.n_duplicate_rows,
                              "duplicate_examples": [{"test_row": t, "train_row": r} for t, r in
                                                     o.duplicate_examples]}
        if self.agreement is not None:
            a = self.agreement
            doc["ground_truth"] = {"annotators": list(a.annotators), "items": a.n_items, "complete_items":
                                   a.n_complete, "fleiss_kappa": a.fleiss_kappa,
                                   "krippendorff_alpha": a.krippendorff_alpha, "no_majority": a.n_no_majority,
                                   "pairs": frame(a.pairs), "models": frame(a.models), "undefined": a.reasons}
        if self.shift is not None:
            s = self.shift
            doc["shift"] = {"by": s.by, "model": s.model, "reference": s.reference, "compared": s.sample_name or None,
                            "groups": frame(s.table), "undefined": s.reasons}
        if self.same_test_data is not None:
            doc["same_test_data"] = {"same": self.same_test_data[0], "reason": self.same_test_data[1]}
        return doc


def controls_with_training(assessment: Assessment, training: bytes | None, training_name: str | None, *,
                           shift_by: str | None = None, decision: Decision = Decision()):
    """`run_controls` with the training data an upload holds: ``training`` (its bytes, read by `read_training` as
    ``training_name``), or none."""
    train = None if training is None else read_training(training, name=training_name)
    return run_controls(assessment, train=train, shift_by=shift_by, decision=decision)


def run_controls(assessment: Assessment, *, train: Training | None = None, shift_by: str | None = None,
                 decision: Decision = Decision()) -> Controls:
    """Every control the data allows: overlap (with ``train`` or a split column), the same test data for every
    model, annotator agreement, and the shift between the groups of ``shift_by`` (default: the first of
    `shift_columns`)."""
    from assess.stats.compare import data_design

    overlap = train_test_overlap(assessment, train=train)
    agreement = ground_truth_agreement(assessment, decision=decision)
    by = shift_by or next(iter(shift_columns(assessment)), None)
    shift = distribution_shift(assessment, by=by) if by else None
    same = None
    if len(assessment.models) > 1:
        try:
            design = data_design({m: assessment.predictions(m) for m in assessment.models})
            same = (design.kind == "paired", design.reason)
        except AssessError as exc:   # e.g. one id with two ground truths: itself the finding
            same = (False, str(exc))
    partial = Controls(overlap, agreement, shift, same, ())
    return Controls(overlap, agreement, shift, same, tuple(checklist(partial)))


def checklist(controls: Controls) -> list[ControlOutcome]:
    """The ISO 5.3 lines the app can fill itself, each "checked by the app: …" with a status."""
    out = []
    o = controls.overlap
    if o is None:
        out.append(ControlOutcome("test_train_disjoint", "5.3.5", "Test data disjoint from training data",
                                  "not checked by the app: give the training ids (a second file) or a `split` column",
                                  NOT_CHECKED))
        out.append(ControlOutcome("leakage_duplicates", "5.3.7", "No test sample duplicated in the training data",
                                  "not checked by the app: give the training data (a second file with the feature "
                                  "columns) or a `split` column", NOT_CHECKED))
    else:
        if o.n_shared_ids is None:
            text, status = f"not checked by the app: no ids to compare ({o.source})", NOT_CHECKED
        else:
            text = (f"checked by the app: {o.n_shared_ids:,} of {o.n_test_ids:,} test ids also in {o.source}"
                    + (f" (e.g. {', '.join(o.shared_examples)})" if o.shared_examples else ""))
            status = OK if o.n_shared_ids == 0 else PROBLEM
        out.append(ControlOutcome("test_train_disjoint", "5.3.5", "Test data disjoint from training data", text,
                                  status))
        if o.n_duplicate_rows is None:
            text, status = "not checked by the app: no feature columns in both sets", NOT_CHECKED
        else:
            examples = "; ".join(f"test row {t} = training row {r}" for t, r in o.duplicate_examples)
            text = (f"checked by the app: {o.n_duplicate_rows:,} of {o.n_test_rows:,} test samples repeat a "
                    f"training row exactly on {len(o.feature_columns):,} feature column"
                    f"{'s' if len(o.feature_columns) != 1 else ''}" + (f" ({examples})" if examples else ""))
            status = OK if o.n_duplicate_rows == 0 else PROBLEM
        out.append(ControlOutcome("leakage_duplicates", "5.3.7", "No test sample duplicated in the training data",
                                  text, status))
    if controls.same_test_data is not None:
        same, reason = controls.same_test_data
        out.append(ControlOutcome("same_test_data", "5.3.5", "The same test data for every model compared",
                                  f"checked by the app: {reason}", OK if same else ATTENTION))
    a = controls.agreement
    if a is None:
        out.append(ControlOutcome("ground_truth", "5.3.9", "Ground-truth agreement",
                                  "not checked by the app: needs two or more annotators' labels (`y_true_<name>`)",
                                  NOT_CHECKED))
    else:
        alpha = a.krippendorff_alpha
        status = NOT_CHECKED if not np.isfinite(alpha) else OK if alpha >= ALPHA_RELIABLE else \
            ATTENTION if alpha >= ALPHA_TENTATIVE else PROBLEM
        kappas = a.pairs["cohen_kappa"].to_numpy(dtype=float)
        kappa_text = f"Cohen's κ per pair {np.nanmin(kappas):.2f}–{np.nanmax(kappas):.2f}, " \
            if np.isfinite(kappas).any() else ""
        out.append(ControlOutcome(
            "ground_truth", "5.3.9", "Ground-truth agreement",
            f"checked by the app: {len(a.annotators)} annotators on {a.n_items:,} items: Krippendorff's α "
            f"{in_words(proportion(alpha))}, Fleiss' κ {in_words(proportion(a.fleiss_kappa))}, {kappa_text}{a.n_no_majority:,} items without a "
            f"majority label (α ≥ {ALPHA_RELIABLE:.3f} is reliable, ≥ {ALPHA_TENTATIVE:.3f} tentative)", status))
    s = controls.shift
    if s is None:
        out.append(ControlOutcome("distribution_shift", "5.3.2", "Similar distributions across splits",
                                  "not checked by the app: no split, fold, slice or time column", NOT_CHECKED))
    else:
        t = s.table
        parts, worst = [], []
        if "psi" in t:
            psi = t["psi"].to_numpy(dtype=float)
            if np.isfinite(psi).any():
                parts.append(f"largest label PSI {np.nanmax(psi):.3f}")
                worst.append(np.nanmax(psi) > PSI_SHIFT)
        for test, col in (("χ² test of the labels", "chi2_pvalue_holm"), (f"KS test of the {s.sample_name}s",
                                                                           "ks_pvalue_holm"),
                          ("KS test of the actual values", "ks_true_pvalue_holm")):
            if col in t:
                p = t[col].to_numpy(dtype=float)
                if np.isfinite(p).any():
                    parts.append(f"smallest Holm-adjusted p of the {test} {np.nanmin(p):.3g}")
                    worst.append(np.nanmin(p) < 0.05)
        status = ATTENTION if any(worst) else OK
        out.append(ControlOutcome(
            "distribution_shift", "5.3.2", "Similar distributions across splits",
            f"checked by the app: {len(t):,} groups of {quote(s.by)} against {quote(s.reference)}"
            + (": " + ", ".join(parts) if parts else ""), status if parts else NOT_CHECKED))
    return out


# --- display tables (names for screens, never raw keys) --------------------------------------------------------------

#: Text glyphs, not emoji: Debian's Chromium (screenshots, PDF export through kaleido) has no emoji font and drew
#: ✅ ❌ ➖ as boxes; ✓ ⚠ ✗ are in DejaVu Sans (installed by scripts/setup.sh) and – in every font
#: (tests/present/test_glyphs.py).
STATUS_WORDS = {OK: "✓ ok", ATTENTION: "⚠ attention", PROBLEM: "✗ problem", NOT_CHECKED: "– not checked"}
SHIFT_NAMES = {"group": "Group", "n": "Samples", "kl_divergence": "KL divergence (nats)",
               "js_distance": "Jensen–Shannon distance (nats)", "total_variation": "Total variation", "psi": "PSI",
               "chi2_pvalue": "χ² p", "chi2_pvalue_holm": "χ² p (Holm)", "ks_statistic": "KS statistic",
               "ks_pvalue": "KS p", "ks_pvalue_holm": "KS p (Holm)", "ks_true_statistic": "KS statistic (actual)",
               "ks_true_pvalue": "KS p (actual)", "ks_true_pvalue_holm": "KS p (actual, Holm)"}


def checklist_frame(outcomes) -> pd.DataFrame:
    return pd.DataFrame([{"Control": o.title, "ISO 4213": o.clause, "Status": STATUS_WORDS[o.status],
                          "What the app checked": code_as_quotes(o.checked)} for o in outcomes])


def shift_frame(shift: Shift) -> pd.DataFrame:
    """The shift table for reading: display names, shares as %, counts with separators, p-values to 3 digits."""
    rows = []
    for rec in shift.table.to_dict(orient="records"):
        row = {}
        for key, value in rec.items():
            if key == "group":
                row["Group"] = value + (" (reference)" if value == shift.reference else "")
            elif key == "n":
                row["Samples"] = f"{int(value):,}"
            elif key.startswith("share_"):
                row[f"Share of {key[6:]}"] = number(100 * value) + " %" if np.isfinite(value) else UNDEFINED
            else:
                row[SHIFT_NAMES[key]] = p_value(value, cell=True) if "pvalue" in key else number(value)
        rows.append(row)
    return pd.DataFrame(rows)


def agreement_frames(agreement: Agreement) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(annotator pairs, models against each annotator and the majority) for reading."""
    pairs = pd.DataFrame([{"Annotators": f"{r.annotator_a} and {r.annotator_b}", "Items": f"{r.n:,}",
                           "Agreement": number(r.agreement), "Cohen's κ": number(r.cohen_kappa)}
                          for r in agreement.pairs.itertuples()])
    models = pd.DataFrame([{"Model": r.model, "Against": "majority label" if r.reference == "majority" else
                            r.reference, "Items": f"{r.n:,}", "Accuracy": number(r.accuracy),
                            "Cohen's κ": number(r.cohen_kappa)} for r in agreement.models.itertuples()])
    return pairs, models
