r"""Paired tests out of core: McNemar, Cochran's Q and DeLong from tables an engine groups, never from the rows.

The models are first aligned sample by sample *in the engine*: a long file (one row per sample and model) is
pivoted by its id column (``GROUP BY id``, one conditional aggregate per model), a wide file (one column per model)
already has one row per sample. The same scan checks what :func:`assess.stats.shaping.align_predictions` checks in
memory — every id once per model, every model on every id (or, when no id is shared at all, the independent design,
which the paired tests refuse as in memory), the same truth for an id in every model — and answers with a
clear message naming an example id.

- McNemar and Cochran's Q (ISO/IEC TS 4213 7.9; Cochran 1950) need only the *agreement counts*: per sample, which
  models are right is a bit pattern :math:`b = \sum_j 2^j [\hat y_j = y]`, and ``GROUP BY b`` gives at most
  :math:`2^k` counts, from which :math:`n_{10}`, :math:`n_{01}` of every pair and Cochran's column and row totals
  follow (:func:`assess.stats.counts.mcnemar_from_counts`, :func:`assess.stats.counts.cochran_q` with
  ``frequency``).
- DeLong (DeLong, DeLong & Clarke-Pearson 1988) needs each model's placement values and their covariances across
  models. Per model the placements are a function of the score alone —
  :math:`V_{10}(s) = (\#\{\text{neg} < s\} + \tfrac12\#\{\text{neg} = s\})/n` for a positive,
  :math:`V_{01}(s) = (\#\{\text{pos} > s\} + \tfrac12\#\{\text{pos} = s\})/m` for a negative — so the engine
  groups by (model, score), turns the grouped table into placements with two running sums (window functions over
  the grouped table, not over the rows), centres them by the model's AUC (their mean), joins them back to the
  samples and sums the cross products per class: the 2 × 2 covariance matrices :math:`S_{10}`, :math:`S_{01}` of
  :func:`assess.stats.scores.delong_from_placements`. Exact: no grid. When a long file's scores are mostly distinct
  the grouped table is as long as the file, and each row's placement comes instead from running counts over its
  model's rows sorted by score (`_delong_by_row_windows`; `ROW_WINDOWS_SHARE` has the measurements).

The result is the same :class:`~assess.stats.Comparison` as :func:`assess.stats.compare`, built with the
same pairing, p-value correction and design wording (`assess.stats.runners.pairwise`). Every other test needs the
rows (bootstraps, losses, folds) or independent samples: refused with the test named and ``--engine memory``;
`engine_compare_all` (``--test all``) runs the suggested tests the engines can and lists the others as skipped.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from assess.core.data import Task
from assess.core.decision import LABELS, SCORES, Decision
from assess.core.errors import AssessError
from assess.engine import binary as grouped
from assess.engine import expressions
from assess.engine.backends import DEFAULT_PERFECT_HASH_BITS, open_backend
from assess.engine.reports import head_assessment
from assess.engine.source import Source
from assess.metrics.registry import headline_of
from assess.stats import Comparison, ComparisonSet, Design, counts, runners, scores
from assess.stats.compare import checked_arguments, checked_options, with_design
from assess.stats.registry import INDEPENDENT, PREDICTIONS, TESTS
from assess.stats.shaping import DISJOINT_IDS_DESIGN, same_ids_design, same_rows_design
from assess.stats.verdict import one_verdict
from assess.stats.suggest import suggest_tests

#: The tests the engines run from grouped tables.
ENGINE_TESTS = ("mcnemar", "cochran_q", "delong")
#: Bit patterns of right/wrong per model are BIGINT sums: at most this many models at once.
MAX_MODELS = 30


def refuse_unsupported(test: str, engine: str) -> None:
    """A clear refusal of a test the engines cannot run from grouped tables."""
    if test in ENGINE_TESTS:
        return
    why = ("needs independent samples, which the out-of-core path does not assess" if test in TESTS and
           TESTS[test].design == INDEPENDENT else "needs the rows (per-sample values, resamples or folds)")
    raise AssessError(f"--engine {engine}: test `{test}` {why}; out of core: {', '.join(ENGINE_TESTS)}. Use "
                      "--engine memory for the others")


def engine_compare(source: Source, engine: str, overrides, *, test: str, models=None, correction="auto",
                   alternative: str = "two-sided", confidence_level: float = 0.95, decision: Decision = Decision(),
                   options: dict | None = None, spark_master: str | None = None) -> Comparison:
    """Run ``test`` (one of :data:`ENGINE_TESTS`) between the models of ``source`` on ``engine`` ("duckdb" or
    "spark"); arguments as :func:`assess.stats.compare`. Same result as in memory on the same file."""
    refuse_unsupported(test, engine)
    spec, correction, confidence_level = checked_arguments(test, correction, confidence_level, alternative)
    with open_backend(engine, source, spark_master=spark_master) as backend:
        backend.perfect_hash_bits(DEFAULT_PERFECT_HASH_BITS)     # the pivot by id: see the constant
        assessment = head_assessment(backend, source, overrides)
        task = assessment.task
        if task not in (Task.BINARY, Task.MULTICLASS) or (test == "delong" and task is not Task.BINARY):
            what = "ROC AUCs of binary scores" if test == "delong" else "per-sample correctness of binary or " \
                                                                          "multi-class labels"
            raise AssessError(f"{source.name}: out of core, `{test}` compares {what}; this file is {task.value} "
                              "(use --engine memory)")
        options = checked_options(spec, dict(options or {}), PREDICTIONS, task)
        aligner = _Aligner(backend, assessment, models)
        names = aligner.names
        runners.check_model_count(test, names)
        if test == "delong":
            result = _delong(aligner, alternative=alternative, correction=correction,
                             confidence_level=confidence_level)
        else:
            result = _counts_test(aligner, test, decision, correction=correction, alternative=alternative,
                                  confidence_level=confidence_level, **options)
    return with_design(result, spec, aligner.design, False)


class _Aligner:
    """The SQL that puts each sample's models side by side (see the module docstring) and checks the pairing."""

    def __init__(self, backend, assessment, models):
        self.backend, self.assessment = backend, assessment
        r, q = assessment.roles, backend.ident
        name = assessment.table.name
        # a NaN or infinite score reads as an empty one, which every test refuses as memory does: DuckDB and Spark
        # order NaN above every number, so `NaN >= t` would count a positive and DeLong would rank NaN highest
        self.sources = [replace(c, score=None if c.score is None else
                                f"CASE WHEN {backend.non_finite(c.score)} THEN NULL ELSE {c.score} END")
                        for c in grouped.model_columns(backend, assessment)]
        self.wide = bool(r.wide_models) or not r.model
        if self.wide:
            found = [str(wm.name) for wm in r.wide_models] or list(assessment.models)
        else:
            if not r.id:
                raise AssessError(f"{name}: out of core, paired tests align the models' rows by a sample id; the "
                                  "file has no id column (name it with --id-col, or use --engine memory to pair "
                                  "rows by position)")
            frame = backend.query(f"SELECT DISTINCT {self.sources[0].model} AS m FROM predictions")
            seen = [str(m) for m in frame["m"] if m is not None and not pd.isna(m)]
            found = grouped.file_order(assessment, seen)
        if len(found) < 2:
            raise AssessError(f"{name}: comparing models needs at least 2 models; it has {len(found)} "
                              f"({', '.join(map(repr, found))}): name the model-name column with --model-col (one "
                              "row per sample and model), or give one `y_pred_<model>`/`score_<model>` column per "
                              "model")
        chosen = list(models or found)
        unknown = [m for m in chosen if m not in found]
        if unknown:
            raise AssessError(f"{name}: no model {unknown[0]!r} (models: {', '.join(found)})")
        if len(chosen) > MAX_MODELS:
            raise AssessError(f"{name}: out of core, paired tests compare at most {MAX_MODELS} models at once (got "
                              f"{len(chosen)}); choose some with --models")
        self.names = chosen
        self.id = q(r.id) if r.id else None
        self._design = None

    @property
    def design(self) -> Design:
        return self._design

    # ---------------------------------------------------------------------------------------------- per sample

    def id_sql(self) -> str:
        return self.id or "CAST(NULL AS STRING)"

    def bit(self) -> str:
        """Long files: the model's bit, ``2^j`` for the j-th chosen model (NULL for the others)."""
        return f"CASE {self.sources[0].model} " + " ".join(f"WHEN {self.backend.literal(m)} THEN {1 << j}"
                                                           for j, m in enumerate(self.names)) + " END"

    def chosen_rows(self) -> str:
        """Long files: the WHERE clause keeping the chosen models' rows."""
        return f"{self.sources[0].model} IN ({', '.join(self.backend.literal(m) for m in self.names)})"

    def per_sample(self, values: dict[str, str], y: str) -> str:
        """SQL of one row per sample: the checks (``n_rows``, ``n_models``, ``mask``, ``y_lo``/``y_hi`` of the truth
        expression ``y``), ``id`` and one column ``v<j>`` per chosen model with the SQL ``values[model]``."""
        if self.wide:
            cols = ", ".join(f"{values[m]} AS v{j}" for j, m in enumerate(self.names))
            return (f"SELECT {len(self.names)} AS n_rows, {(1 << len(self.names)) - 1} AS mask, {y} AS y_lo, "
                    f"{y} AS y_hi, {self.id_sql()} AS id, {cols} FROM predictions")
        # every model's expression is evaluated on every row (a long file has one set of columns); the row's own
        # model picks its value when the rows of a sample are grouped
        rows = (f"SELECT {self.id} AS id, {self.bit()} AS mbit, {y} AS y, "
                + ", ".join(f"{values[m]} AS e{j}" for j, m in enumerate(self.names))
                + f" FROM predictions WHERE {self.chosen_rows()}")
        cols = ", ".join(f"max(CASE WHEN mbit = {1 << j} THEN e{j} END) AS v{j}" for j in range(len(self.names)))
        # the models present are the bits of sum(mbit) when each occurs once: a sum of n powers of two has n bits
        # set only when they are distinct, so n_rows > bits(mask) is a duplicated id (`check`)
        return (f"SELECT id, count(*) AS n_rows, sum(mbit) AS mask, min(y) AS y_lo, max(y) AS y_hi, {cols} "
                f"FROM ({rows}) AS r GROUP BY id")

    def by_name(self) -> dict:
        """{model name: its `assess.engine.binary.Columns`} of a wide file (or a one-model file); {} for a long
        file, whose models share one set of columns."""
        if not self.wide:
            return {}
        if len(self.sources) == 1:   # one model per file: its name is the file's
            return {self.names[0]: self.sources[0]}
        return {str(wm.name): c for wm, c in zip(self.assessment.roles.wide_models, self.sources)}

    def check(self, table: pd.DataFrame, test: str) -> None:
        """Refuse what `align_predictions`/`sample_design` refuse, from the grouped checks of `per_sample`;
        set the design."""
        name, k = self.assessment.table.name, len(self.names)
        full = (1 << k) - 1
        total = int(table["cnt"].sum())
        bits = table["mask"].astype(np.int64).map(lambda v: bin(int(v)).count("1"))
        dup = table[table["n_rows"].astype(np.int64) != bits]
        if len(dup):
            raise AssessError(f"{name}: some sample ids occur more than once for one model (e.g. id "
                              f"{_shown(dup['example'].iloc[0])}); paired tests need one row per sample and model")
        masks = table["mask"].astype(np.int64)
        if (masks != full).any():
            single = masks.map(lambda v: bin(int(v)).count("1") == 1)
            if single.all():
                self._design = DISJOINT_IDS_DESIGN
                others = ", ".join(key for key, s in TESTS.items() if s.design == INDEPENDENT and PREDICTIONS in s.data)
                raise AssessError(f"test `{test}` compares models on the same samples, but "
                                  f"{DISJOINT_IDS_DESIGN.reason}; tests for independent samples: {others} (with "
                                  "--engine memory)")
            row = table[masks != full].iloc[0]
            lacking = [m for j, m in enumerate(self.names) if not int(row["mask"]) >> j & 1]
            raise AssessError(f"{name}: model `{lacking[0]}` lacks sample ids that other models have (e.g. id "
                              f"{_shown(row['example'])}); paired tests need every model on the same samples")
        differs = table[table["y_differs"].astype(bool)]
        if len(differs):
            raise AssessError(f"{name}: the models give id {_shown(differs['example'].iloc[0])} different true "
                              "labels; the models must be assessed against the same ground truth")
        self._design = same_ids_design(total) if self.id else same_rows_design(total)


def _shown(value) -> str:
    return "None" if value is None else repr(value.item() if hasattr(value, "item") else value)


def _check_sql(per_sample: str, columns: str, group: str) -> str:
    """Group the per-sample rows by ``group`` plus the pairing checks (counted once per distinct outcome)."""
    return (f"SELECT {columns}, n_rows, mask, CASE WHEN y_lo = y_hi THEN 0 ELSE 1 END AS y_differs, "
            f"count(*) AS cnt, min(id) AS example FROM ({per_sample}) AS s "
            f"GROUP BY {group}, n_rows, mask, CASE WHEN y_lo = y_hi THEN 0 ELSE 1 END")


# ---------------------------------------------------------------------------------------------- McNemar, Cochran


def _class_codes(backend, assessment, column_sql: str, classes: dict[str, int]) -> str:
    """``CASE <column> WHEN <raw value> THEN <class index> … END``: the raw values of a label column mapped to the
    classes as the in-memory path names them (`assess.inputs.columns.label_strings` per distinct value)."""
    frame = backend.query(f"SELECT DISTINCT {column_sql} AS v FROM predictions")
    raw = frame["v"][frame["v"].notna()].reset_index(drop=True)
    if raw.empty:
        return "CAST(NULL AS INTEGER)"
    labels = grouped.label_names(raw)
    for label in labels:
        classes.setdefault(label, len(classes))
    whens = " ".join(f"WHEN {backend.literal(v.item() if hasattr(v, 'item') else v)} THEN {classes[lab]}"
                     for v, lab in zip(raw, labels))
    return f"CASE {column_sql} {whens} END"


def _correct_expressions(aligner: _Aligner, decision: Decision) -> tuple[dict[str, str], str]:
    """({model: SQL of 1 when right, 0 when wrong, NULL when a label is missing}, SQL of the true class code)."""
    backend, assessment = aligner.backend, aligner.assessment
    task, name = assessment.task, assessment.table.name
    c0 = aligner.sources[0]
    has_labels, has_scores = c0.y_pred is not None, c0.score is not None
    source_of_labels = decision.source_for(task, has_labels=has_labels, has_scores=has_scores)
    classes: dict[str, int] = {label: i for i, label in enumerate(assessment.classes)}
    y_code = _class_codes(backend, assessment, c0.y_true, classes)
    if source_of_labels == SCORES:
        if task is not Task.BINARY or not has_scores:
            raise AssessError(f"{name}: out of core, labels from the scores are taken for binary files with a score "
                              "column (multi-class arg-max: use --engine memory)")
        by_name = aligner.by_name()
        positive = classes[assessment.positive]
        out = {}
        for m in aligner.names:
            score = by_name.get(m, c0).score
            out[m] = (f"CASE WHEN {score} IS NULL OR ({y_code}) IS NULL THEN NULL WHEN "
                      f"{expressions.at_threshold(score, decision.threshold)} = (({y_code}) = {positive}) "
                      "THEN 1 ELSE 0 END")
        return out, y_code
    if source_of_labels == LABELS and not has_labels:
        raise AssessError(f"{name}: the file has no predicted-label column; use --labels-from scores")
    by_name = aligner.by_name()
    out, codes = {}, {}
    for j, m in enumerate(aligner.names):
        c = by_name.get(m, c0)
        if c.y_pred not in codes:     # a long file's models share one column: one DISTINCT scan, not one per model
            codes[c.y_pred] = _class_codes(backend, assessment, c.y_pred, classes)
        pred = codes[c.y_pred]
        out[m] = (f"CASE WHEN ({y_code}) IS NULL OR ({pred}) IS NULL THEN NULL "
                  f"WHEN ({y_code}) = ({pred}) THEN 1 ELSE 0 END")
    if task is Task.BINARY and len(classes) > 2:
        raise AssessError(f"{name}: the labels hold {len(classes):,} classes ({', '.join(list(classes)[:5])}) in "
                          "the whole file; the first rows looked binary. Use --task to say what the file is")
    return out, y_code


def _counts_test(aligner: _Aligner, test: str, decision: Decision, *, correction, alternative, confidence_level,
                 method="exact", continuity=True) -> Comparison:
    """McNemar (pairs) or Cochran's Q (omnibus and McNemar pairs) from the counts of right/wrong patterns."""
    names, k = aligner.names, len(aligner.names)
    correct, y_code = _correct_expressions(aligner, decision)
    per_sample = aligner.per_sample(correct, y_code)
    pattern = " + ".join(f"CASE WHEN v{j} = 1 THEN {1 << j} ELSE 0 END" for j in range(k))
    missing = " OR ".join(f"v{j} IS NULL" for j in range(k))
    table = aligner.backend.query(_check_sql(
        f"SELECT *, {pattern} AS pattern, CASE WHEN {missing} THEN 1 ELSE 0 END AS missing FROM ({per_sample}) "
        "AS p", "pattern, missing", "pattern, missing"))
    aligner.check(table, test)
    if table["missing"].astype(int).any():
        bad = table[table["missing"].astype(int) == 1]
        raise AssessError(f"{aligner.assessment.table.name}: {int(bad['cnt'].sum()):,} samples have an empty true "
                          "or predicted label (or an empty, NaN or infinite score); every row needs them")
    freq = table.groupby("pattern")["cnt"].sum()
    patterns = freq.index.to_numpy(dtype=np.int64)
    f = freq.to_numpy(dtype=np.int64)
    right = ((patterns[:, None] >> np.arange(k)) & 1).astype(bool)      # patterns × models
    n = int(f.sum())

    def pair(a, b):
        ia, ib = names.index(a), names.index(b)
        n10 = int(f[right[:, ia] & ~right[:, ib]].sum())
        n01 = int(f[~right[:, ia] & right[:, ib]].sum())
        kw = {} if test == "cochran_q" else {"alternative": alternative}
        return counts.mcnemar_from_counts(n10, n01, n, int(f[right[:, ia]].sum()), int(f[right[:, ib]].sum()),
                                          method=method, continuity=continuity, confidence_level=confidence_level,
                                          names=(a, b), **kw)
    omnibus = None
    if test == "cochran_q":
        omnibus = counts.cochran_q(right, frequency=f, names=names, confidence_level=confidence_level)
    return runners.pairwise(test, names, pair, correction, confidence_level, omnibus=omnibus)


# ---------------------------------------------------------------------------------------------------- DeLong


def _delong(aligner: _Aligner, *, alternative, correction, confidence_level) -> Comparison:
    backend, assessment = aligner.backend, aligner.assessment
    name, names, k = assessment.table.name, aligner.names, len(aligner.names)
    c0 = aligner.sources[0]
    if c0.score is None:
        raise AssessError(f"DeLong needs scores; model `{names[0]}` has none")
    classes: dict[str, int] = {label: i for i, label in enumerate(assessment.classes)}
    y_code = _class_codes(backend, assessment, c0.y_true, classes)
    if len(classes) > 2:
        raise AssessError(f"{name}: the labels hold {len(classes):,} classes in the whole file; DeLong compares "
                          "binary scores")
    pos = f"CASE WHEN ({y_code}) = {classes[assessment.positive]} THEN 1 ELSE 0 END"
    # 1. the grouped table per (model, score) and its placements, centred by each model's AUC (window functions
    #    over the grouped table): v10c for a positive of that score, v01c for a negative
    by_name = aligner.by_name()
    if aligner.wide:
        rows = "\nUNION ALL\n".join(f"SELECT {1 << j} AS mbit, {pos} AS pos, {by_name[m].score} AS s FROM predictions"
                                     for j, m in enumerate(names))
    else:
        rows = f"SELECT {aligner.bit()} AS mbit, {pos} AS pos, {c0.score} AS s FROM predictions WHERE " \
               f"{aligner.chosen_rows()}"
    below = "ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING"
    placements = f"""
        SELECT mbit, s, v10 - sum(p * v10) OVER (PARTITION BY mbit) / m_pos AS v10c,
               v01 - sum(q * v01) OVER (PARTITION BY mbit) / n_neg AS v01c,
               sum(p * v10) OVER (PARTITION BY mbit) / m_pos AS auc
        FROM (SELECT mbit, s, p, q, m_pos, n_neg,
                     (coalesce(sum(q) OVER (PARTITION BY mbit ORDER BY s {below}), 0) + 0.5 * q) / n_neg AS v10,
                     (coalesce(sum(p) OVER (PARTITION BY mbit ORDER BY s DESC {below}), 0) + 0.5 * p) / m_pos AS v01
              FROM (SELECT mbit, s, p, q, sum(p) OVER (PARTITION BY mbit) AS m_pos,
                           sum(q) OVER (PARTITION BY mbit) AS n_neg
                    FROM g) AS t) AS u"""
    grouped_scores = (f"SELECT mbit, s, CAST(sum(pos) AS DOUBLE) AS p, CAST(count(*) - sum(pos) AS DOUBLE) AS q "
                      f"FROM ({rows}) AS r WHERE s IS NOT NULL GROUP BY mbit, s")
    # 2. each sample's centred placement per model (a join on (model, score)), then per class the sums of the
    #    cross products: (m - 1) S10 over the positives, (n - 1) S01 over the negatives
    if aligner.wide:
        joins = " ".join(f"LEFT JOIN pl p{j} ON p{j}.mbit = {1 << j} AND p{j}.s = {by_name[m].score}"
                         for j, m in enumerate(names))
        per_sample = (f"SELECT {k} AS n_rows, {(1 << k) - 1} AS mask, {pos} AS y_lo, "
                      f"{pos} AS y_hi, {aligner.id_sql()} AS id, "
                      + ", ".join(f"CASE WHEN {pos} = 1 THEN p{j}.v10c ELSE p{j}.v01c END AS v{j}"
                                  for j in range(k))
                      + f" FROM predictions {joins}")
    else:
        # per id only the centred placements: each model's AUC is one number (`aucs` below), and every aggregate
        # here is a column of the hash table over all the ids
        cols = ", ".join(f"max(CASE WHEN r.mbit = {1 << j} THEN CASE WHEN r.pos = 1 THEN p.v10c ELSE p.v01c END "
                         f"END) AS v{j}" for j in range(k))
        per_sample = (f"SELECT r.id, count(*) AS n_rows, sum(r.mbit) AS mask, "
                      f"min(r.pos) AS y_lo, max(r.pos) AS y_hi, {cols} "
                      f"FROM (SELECT {aligner.id} AS id, {aligner.bit()} AS mbit, {pos} AS pos, {c0.score} AS s "
                      f"FROM predictions WHERE {aligner.chosen_rows()}) AS r "
                      "LEFT JOIN pl p ON p.mbit = r.mbit AND p.s = r.s GROUP BY r.id")
    products = ", ".join(f"sum(v{i} * v{j}) AS x{i}_{j}" for i in range(k) for j in range(i, k))
    aucs = ", ".join(f"max(auc{j}) AS auc{j}" for j in range(k))
    auc_row = "SELECT " + ", ".join(f"max(CASE WHEN mbit = {1 << j} THEN auc END) AS auc{j}" for j in range(k)) + \
        " FROM pl"
    missing = " OR ".join(f"v{j} IS NULL" for j in range(k))
    # the grouped scores once: DuckDB would otherwise group the rows again for the windows' partition totals
    sql = (f"WITH {backend.materialized('g', grouped_scores)}, pl AS ({placements}) "
           + _check_sql(f"SELECT q.*, a.*, y_lo AS pos, CASE WHEN {missing} THEN 1 ELSE 0 END AS missing FROM "
                        f"({per_sample}) AS q CROSS JOIN ({auc_row}) AS a", f"pos, missing, {products}, {aucs}",
                        "pos, missing"))
    if not aligner.wide and _mostly_distinct(backend, rows):
        sql = _delong_by_row_windows(aligner, pos)
    table = backend.query(sql)
    aligner.check(table, "delong")
    if table["missing"].astype(int).any():
        raise AssessError(f"{name}: {int(table.loc[table['missing'].astype(int) == 1, 'cnt'].sum()):,} samples have "
                          "an empty, non-numeric, NaN or infinite score or an empty true label; every row needs them")
    by_class = {int(p): part for p, part in table.groupby("pos")}
    m = int(by_class[1]["cnt"].sum()) if 1 in by_class else 0
    n = int(by_class[0]["cnt"].sum()) if 0 in by_class else 0
    if m < 2 or n < 2:
        raise AssessError(f"DeLong needs at least 2 positives and 2 negatives in `y_true` (got {m} positives, "
                          f"{n} negatives)")

    def covariance(part, size) -> np.ndarray:
        s = np.empty((k, k))
        for i in range(k):
            for j in range(i, k):
                s[i, j] = s[j, i] = float(part[f"x{i}_{j}"].astype(float).sum()) / (size - 1)
        return s
    s10, s01 = covariance(by_class[1], m), covariance(by_class[0], n)
    auc = [float(table[f"auc{j}"].astype(float).max()) if f"auc{j}" in table else   # (row windows: the mean
           float(by_class[1][f"mean{j}"].astype(float).iloc[0]) for j in range(k)]   # placement of the positives)

    def pair(a, b):
        ia, ib = names.index(a), names.index(b)
        sel = np.ix_([ia, ib], [ia, ib])
        return scores.delong_from_placements(auc[ia], auc[ib], s10[sel], s01[sel], m, n, alternative=alternative,
                                             confidence_level=confidence_level, names=(a, b))
    return runners.pairwise("delong", names, pair, correction, confidence_level)


#: Above this share of distinct scores among the rows, DeLong's placements come from window functions over the rows
#: (`_delong_by_row_windows`) instead of the table grouped by score joined back to the rows. Measured at 2e6 rows
#: (CPU seconds, 2 cores): all-distinct scores 6.7 s grouped and joined against 4.4 s by row windows (at 1e7 rows:
#: 43.6 s against 33.9 s, peak RSS 1.36 against 1.27 GiB); scores of 4 decimals (~1% distinct) 1.8 s against 3.1 s.
ROW_WINDOWS_SHARE = 0.25


def _mostly_distinct(backend, rows: str) -> bool:
    """Whether the scores are mostly distinct (approximately counted: one scan of the score column)."""
    frame = backend.query(f"SELECT count(*) AS n, approx_count_distinct(s) AS d FROM ({rows}) AS r")
    n, d = int(frame["n"].iloc[0]), int(frame["d"].iloc[0] or 0)
    return n > 0 and d > ROW_WINDOWS_SHARE * n


def _delong_by_row_windows(aligner: _Aligner, pos: str) -> str:
    r"""DeLong's grouped checks and products for a long file whose scores are mostly distinct: each row's placement
    from running counts over its model's rows sorted by score — with :math:`L`, :math:`E` the rows of the other
    class with a score :math:`\le s`, :math:`= s`, :math:`\#\{<s\} + \tfrac12\#\{=s\} = (2L - E)/2` and
    :math:`\#\{>s\} + \tfrac12\#\{=s\} = (2N - 2L + E)/2` among :math:`N` — so no table as long as the file is
    grouped by score and joined back to the rows. Every window shares one partition and order (``RANGE ... CURRENT
    ROW`` frames: the running total and the ties), so the rows are sorted once (not once ascending and once
    descending), and the counts are DOUBLE (exact below 2^53; a sum of integers is a 16-byte HUGEINT in DuckDB): at
    1e7 all-distinct rows 27.7 -> 22.4 CPU seconds (loaded machine). Per class the sample covariances of the
    placements (``covar_samp``, a stable one-pass sum; times ``cnt - 1``, as the grouped path's sums of centred
    products) and their means (over the positives: the AUCs)."""
    k = len(aligner.names)
    c0 = aligner.sources[0]
    neg = "CASE WHEN s IS NULL THEN 0.0 ELSE 1.0 - pos END"
    posv = "CASE WHEN s IS NULL THEN 0.0 ELSE CAST(pos AS DOUBLE) END"
    order = "PARTITION BY mbit ORDER BY s ASC NULLS LAST"
    upto, ties = f"{order} RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW", \
        f"{order} RANGE BETWEEN CURRENT ROW AND CURRENT ROW"
    whole = f"{order} ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING"
    counted = (f"SELECT id, mbit, pos, s, sum({neg}) OVER ({upto}) AS le_neg, sum({neg}) OVER ({ties}) AS eq_neg, "
               f"sum({posv}) OVER ({upto}) AS le_pos, sum({posv}) OVER ({ties}) AS eq_pos, "
               f"sum({neg}) OVER ({whole}) AS n_neg, sum({posv}) OVER ({whole}) AS m_pos "
               f"FROM (SELECT {aligner.id} AS id, {aligner.bit()} AS mbit, {pos} AS pos, {c0.score} AS s "
               f"FROM predictions WHERE {aligner.chosen_rows()}) AS r")
    placed = ("SELECT id, mbit, pos, CASE WHEN s IS NULL THEN NULL "
              "WHEN pos = 1 THEN (2.0 * le_neg - eq_neg) / (2.0 * n_neg) "
              f"ELSE (2.0 * m_pos - 2.0 * le_pos + eq_pos) / (2.0 * m_pos) END AS v FROM ({counted}) AS c")
    cols = ", ".join(f"max(CASE WHEN mbit = {1 << j} THEN v END) AS v{j}" for j in range(k))
    per_sample = (f"SELECT id, count(*) AS n_rows, sum(mbit) AS mask, min(pos) AS y_lo, max(pos) AS y_hi, {cols} "
                  f"FROM ({placed}) AS p GROUP BY id")
    products = ", ".join(f"covar_samp(v{i}, v{j}) * (count(*) - 1) AS x{i}_{j}" for i in range(k) for j in range(i, k))
    means = ", ".join(f"avg(v{j}) AS mean{j}" for j in range(k))
    missing = " OR ".join(f"v{j} IS NULL" for j in range(k))
    return _check_sql(f"SELECT *, y_lo AS pos, CASE WHEN {missing} THEN 1 ELSE 0 END AS missing FROM ({per_sample}) "
                      "AS q", f"pos, missing, {products}, {means}", "pos, missing")


def engine_compare_all(source: Source, engine: str, overrides, *, models=None, tests=None, correction="auto",
                       confidence_level: float = 0.95, decision: Decision = Decision(), options: dict | None = None,
                       spark_master: str | None = None) -> ComparisonSet:
    """``--test all`` out of core: the tests :func:`assess.stats.suggest.suggest_tests` finds suitable for paired
    samples (or the ``tests`` named) that the engines run, each with :func:`engine_compare`; the others are
    ``skipped`` with the reason (they need the rows), as are those the data refuse."""
    with open_backend(engine, source, spark_master=spark_master) as backend:
        assessment = head_assessment(backend, source, overrides)
        names = _Aligner(backend, assessment, models).names if assessment.task in (Task.BINARY, Task.MULTICLASS) \
            else list(models or assessment.models)
    r = assessment.roles
    has_scores = assessment.task is Task.BINARY and bool(r.score or r.class_scores or
                                                         any(wm.score for wm in r.wide_models))
    suggestions = suggest_tests(question="two_models" if len(names) == 2 else "several_models",
                                n_models=len(names), data="predictions", task=assessment.task, has_scores=has_scores,
                                paired=True, blocks=bool(r.fold or r.series), weighted=bool(r.weight),
                                metric=(options or {}).get("metric") or headline_of(assessment))
    wanted = list(tests) if tests is not None else [s.test for s in suggestions]
    done, skipped = [], {}
    for test in wanted:
        if test not in ENGINE_TESTS:
            skipped[test] = (f"needs the rows; out of core: {', '.join(ENGINE_TESTS)} (use --engine memory for "
                             "this test)")
            continue
        spec = TESTS[test]
        allowed = {o.name for o in spec.options_for(PREDICTIONS, assessment.task)}
        try:
            done.append(engine_compare(source, engine, overrides, test=test, models=names, correction=correction,
                                       confidence_level=confidence_level, decision=decision,
                                       options={k: v for k, v in (options or {}).items() if k in allowed},
                                       spark_master=spark_master))
        except AssessError as exc:
            skipped[test] = str(exc)
    # the one verdict of `assess.stats.compare_all`, by the same rule (the headline metric when none was named), from
    # the tests that ran here
    verdict = one_verdict(done, metric=(options or {}).get("metric") or headline_of(assessment),
                          weighted=bool(r.weight), confidence_level=confidence_level)
    return ComparisonSet(comparisons=tuple(done), suggestions=suggestions, skipped=skipped,
                         design=done[0].design if done else None, verdict=verdict)
