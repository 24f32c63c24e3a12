r"""Binary metrics out of core: two GROUP BY scans by the engine, then the registry's formulas on the grouped table.

Scan 1 (`summarise`) — per model, raw truth value and predicted label: the row count, the sums of the weight and its
square, the score range, an approximate count of distinct scores, and the sums of each row's log loss and squared
error (ISO/IEC TS 4213 6.3.6–6.3.7; the per-row losses of :func:`assess.metrics.binary.per_row_losses`, clipped the
same way). It also checks the whole file (`check_profile`): empty truth or scores, more classes than the first rows
showed; a non-finite score or a NaN or negative weight shows in those sums and extremes, and only then is counted.

Scan 2 (`curve_table`) — per model, truth (positive or not) and *score key*: the rows and the weight. The key is
the score itself when the scores have at most ``exact_limit`` distinct values (default 2 million): then the table
is exactly what :func:`assess.curves.threshold_counts` builds from the rows (one point per distinct score) and every
metric equals the in-memory one up to the order of floating-point sums. Beyond it the key is one of ``bins``
(default :math:`2^{16}`, `GRID_BINS`) equal-width bins of the score range — its threshold the bin's lower edge —
and the ranking metrics carry an error bound from the mass tied inside bins (`grid_bounds`); label metrics (the
decision is taken on the raw score in the scan), log loss and Brier stay exact.

Why two scans and not one: a single ``GROUP BY (model, truth, predicted, bin)`` carrying scan 1's sums and each
bin's score range (exact when every bin holds one score) was built and measured (1e7 rows, two models, 2 cores):
2.6-3.0 CPU seconds against 1.9-2.2 for the two scans. Reading the file costs ~0.1 s of that; the work is in the
aggregate updates, and five sums per row into a table of ~10^5-10^6 bins cost more than the same sums into 8
cells plus a row count per bin. Measured again with every later cut in (coded keys; the score range known before
the scan, so no min/max; the predicted label folded into the key as ``bin + (s >= threshold)``, so the threshold's
bin splits in two and no label column is needed; rows, log-loss and Brier sums per key): 2.95-3.4 CPU seconds at
1e7 rows against 1.4-1.5 for the two scans; the same with ``GROUPING SETS ((model, truth, predicted), (key))``, which
leaves the perfect hash table, 2.6-3.2. At 1e8 rows (bench/bench_engine.py's file, the two plans' SQL alone, two
runs in one process at load 8-14): one scan 15.6 / 13.8 CPU seconds (17.1 / 11.7 s wall) against 13.3 / 11.7
(20.9 / 10.2 s wall) for the two, a scan summing the score 1.4 / 0.9. Each sum in the big table is one more
random-access pass over it per row (rows and one sum alone at 1e7: 1.5-1.9); the second read of the file is the
cheaper part.

What the scans cost (DuckDB 2.0, 1e8 rows of two models, 2 cores; CPU seconds, a loaded machine): a scan summing
the score column 0.75; per-row expressions and the aggregates' updates are the rest. Measured cuts, each keeping
every number: the positive class by ``=`` rather than ``IN`` (-0.6 per use), the log loss without its clip unless
a row needs it (`summarise`, -1.5), no distinct count when the first rows already show the grid is needed
(`head_says_grid`, -1.3), scan 1 keyed by small integers (`coded`; the perfect hash table, -1.5), and scan 2's bin
cast to a 16-bit integer instead of clamped (`Plan.bin`; that scan's wall time -35 %). Streaming
scan 2's keys to NumPy's bincount instead of DuckDB's perfect hash table was tried: less CPU (4.1 against 6.2 s)
but more wall time (4.1 against 3.4 s), the NumPy side being one thread.

From the two tables, `binary_states` builds one :class:`~assess.metrics.binary.BinaryState` per model — the same
object the in-memory path builds from the rows — and `assess.engine.reports` evaluates the registry on it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from assess import curves, intervals
from assess.core.errors import AssessError
from assess.engine import expressions
from assess.inputs.columns import label_strings
from assess.metrics import binary
from assess.metrics.binary import LOG_LOSS_EPS

#: Beyond this many distinct scores (approximate count) the scan groups by a score grid instead of by score. The
#: grouped table costs ~100 bytes per distinct score and model between the engine's hash table and the arrays here:
#: 2 million keeps a run inside 1 GiB (the issue's "e.g. 10 million" would need several).
EXACT_LIMIT = 2_000_000
#: Bins of the score grid: 2^16. Measured on 1e7 rows of two models with ~all-distinct scores (bench/bench_engine.py's
#: file; CPU seconds of the whole aggregation, best of 3, 2 cores, the bin clamped by least): 2^16 1.69 s, 2^18 1.91 s,
#: 2^20 2.94 s, with worst bounds (ROC AUC / average precision) 4.7e-6 / 4.4e-5, 1.2e-6 / 1.4e-5 and 2.9e-7 / 5.5e-6.
#: At 2^16 the bin fits DuckDB's USMALLINT, which needs no clamp (`Plan.bin`) and keeps the key of two models within
#: 2^18 values, 2 MB of perfect hash table per thread that stays in cache: the curve scan at 1e8 rows 0.85 s wall
#: against 1.31-1.39 s for 2^18 bins with the clamp. The bounds stay two orders below the third decimal shown.
GRID_BINS = 2 ** 16


@dataclass(frozen=True)
class Columns:
    """The SQL expressions of one model's rows: name (an SQL expression), truth, predicted label, score, weight."""

    model: str
    y_true: str
    y_pred: str | None
    score: str | None
    weight: str | None


def model_columns(backend, assessment) -> list[Columns]:
    """One `Columns` per model source: a long file's model column, each model of a wide file, or the one model."""
    r, q = assessment.roles, backend.ident
    weight = q(r.weight) if r.weight else None
    score = _score_expr(backend, assessment, r.score)
    if r.wide_models:
        return [Columns(backend.literal(wm.name), q(r.y_true), q(wm.y_pred) if wm.y_pred else None,
                        f"CAST({q(wm.score)} AS DOUBLE)" if wm.score else None, weight) for wm in r.wide_models]
    return [Columns(model_sql(backend, assessment), q(r.y_true), q(r.y_pred) if r.y_pred else None, score, weight)]


def file_order(assessment, seen) -> list[str]:
    """The models ``seen`` in the whole file, in the in-memory path's order: the first rows' (a wide file's columns
    from left to right, a long file's names in order of first appearance), then any seen only later, sorted."""
    seen = {str(m) for m in seen}
    return [m for m in map(str, assessment.models) if m in seen] + sorted(seen - set(map(str, assessment.models)))


def model_sql(backend, assessment) -> str:
    """The SQL of a row's model name: a long file's model column as text, else the one model's name."""
    r, q = assessment.roles, backend.ident
    return f"CAST({q(r.model)} AS VARCHAR)" if r.model and backend.name == "duckdb" else (
        f"CAST({q(r.model)} AS STRING)" if r.model else backend.literal(assessment.models[0]))


def _score_expr(backend, assessment, score_col):
    r, q = assessment.roles, backend.ident
    if score_col:
        return f"CAST({q(score_col)} AS DOUBLE)"
    if r.class_scores:   # two probability columns: P(positive), or 1 - P(other) when only that one is given
        by_class = dict(r.class_scores)
        if assessment.positive in by_class:
            return f"CAST({q(by_class[assessment.positive])} AS DOUBLE)"
        other = next(c for c in by_class if c != assessment.positive)
        return f"(1.0 - CAST({q(by_class[other])} AS DOUBLE))"
    return None


def _rows(sources: list[Columns], select: str) -> str:
    """UNION ALL of one SELECT per model source; ``select`` is formatted with the source's fields."""
    parts = [f"SELECT {select.format(c=c)} FROM predictions" for c in sources]
    return "\nUNION ALL\n".join(parts)


def head_positives(assessment) -> list:
    """The raw truth values of the first rows that read as the positive class: scan 1's guess, checked against the
    whole file's values after it (`summarise`)."""
    values = pd.Series(assessment.table.frame[assessment.roles.y_true].dropna().unique())
    return [v.item() if hasattr(v, "item") else v for v, lab in zip(values, label_names(values))
            if lab == assessment.positive]


@dataclass(frozen=True)
class SummaryShape:
    """What shapes scan 1's SQL besides its rows (`summary_sql`): how the predicted label is formed, whether the
    weights, the log loss's clip, the distinct count and the problem counts are in it."""

    labels_from_scores: bool
    threshold: float
    weighted: bool = False
    count_distinct: bool = True
    clip: bool | None = True
    problems: bool = False


def summary_sql(backend, sources: list[Columns], positive: list, shape: SummaryShape) -> str:
    """The one SQL of scan 1 (`summarise`), whatever the rows are keyed by: ``sources`` by value or `coded`, and
    ``positive`` the truth values (or codes) of the positive class in the same terms."""
    has_score = sources[0].score is not None
    weighted = shape.weighted
    score = "{c.score}" if has_score else "CAST(NULL AS DOUBLE)"
    weight = "CAST({c.weight} AS DOUBLE)" if weighted else "CAST(1.0 AS DOUBLE)"
    yp_raw = "CAST(NULL AS DOUBLE)" if shape.labels_from_scores or sources[0].y_pred is None else "{c.y_pred}"
    rows = _rows(sources, f"{{c.model}} AS model, {{c.y_true}} AS y, {yp_raw} AS yp_raw, {score} AS s, "
                          f"{weight} AS w")
    # 0/1 (2 without a score): a small integer whose range the SQL states keeps the perfect hash table (`coded`)
    yp = expressions.threshold_code("s", shape.threshold) if shape.labels_from_scores else "yp_raw"
    p_true = expressions.p_true(is_positive(backend, "y", positive), "s")
    w = "w * " if weighted else ""
    # each loss with the sum of its squares: the t interval of a mean of per-row losses (`assess.engine.reports`)
    losses = {"log_loss": expressions.log_loss(p_true, clip=bool(shape.clip)), "brier": expressions.binary_brier(p_true)}
    sums = [f"sum({w}{x}) AS {k}, sum({w}({x}) * ({x})) AS {k}_sq" for k, x in losses.items()] if has_score else \
        [f"CAST(NULL AS DOUBLE) AS {k}, CAST(NULL AS DOUBLE) AS {k}_sq" for k in losses]
    if weighted:
        sums += ["count(w) AS w_present", "sum(w) AS w", "sum(w * w) AS w2", "min(w) AS w_min", "max(w) AS w_max"]
    if shape.problems:
        bad_s = backend.non_finite("s")
        sums += [f"sum(CASE WHEN {bad_s} THEN 1 ELSE 0 END) AS s_nonfinite",
                 f"min(CASE WHEN {bad_s} THEN NULL ELSE s END) AS s_min",
                 f"max(CASE WHEN {bad_s} THEN NULL ELSE s END) AS s_max",
                 f"sum(CASE WHEN w < 0 OR {backend.is_nan('w')} THEN 1 ELSE 0 END) AS w_bad"]
    else:
        sums += ["min(s) AS s_min", "max(s) AS s_max"]
    distinct = "approx_count_distinct(s)" if shape.count_distinct and has_score else "CAST(0 AS BIGINT)"
    return f"""
        SELECT model, y, {yp} AS yp, count(*) AS n_rows, count(s) AS s_present, {distinct} AS s_distinct,
               {", ".join(sums)}
        FROM ({rows}) AS r GROUP BY 1, 2, 3"""


def summarise(backend, sources: list[Columns], positive: list, *, labels_from_scores: bool, threshold: float,
              count_distinct: bool = True, weighted: bool = False, problems: bool = False,
              clip: bool | None = True, models: list[str] | None = None, truths=None) -> pd.DataFrame:
    """Scan 1: per model, raw truth value and predicted label — the cell sums (rows, weight, squared weight, log
    loss, squared error), the score range and approximate distinct count, and what could block the assessment.
    ``positive`` are the raw truth values taken as the positive class for the losses; the caller checks them against
    the whole file's (`check_profile`).

    The scan keeps to the aggregates every run needs: a non-finite score shows as a non-finite Brier sum, a NaN or
    negative weight in the weights' max or min. Only then does ``problems=True`` count them per cell (a second scan,
    on the way to an error message), as ``s_nonfinite`` and ``w_bad``; otherwise those columns are 0.

    ``clip``: True clips the probability of the true class to [eps, 1 - eps] before its logarithm, as scikit-learn's
    log_loss does; None leaves the clip out and counts again with it only when a cell's score range shows it would
    have changed a row (`_clip_matters`) — a clip that changes nothing is a third of the scan's CPU time (two
    comparisons per row: 6.7 -> 5.2 CPU seconds at 1e8 rows, DuckDB 2.0).

    ``models``: the model names the first rows show (`head_models`). The scan then groups by each row's position in
    that list (`coded`) and the predicted label as 0/1 — small integers whose range DuckDB knows, so it aggregates
    in its perfect hash table rather than hashing a name per row (5.1 -> 3.4-4.0 CPU seconds at 1e8 rows); a row of
    any other model shows as the extra position, and the scan is counted again by name. ``truths``: likewise the
    first rows' distinct raw truth values (`head_truths`), for a truth column of text (whose values DuckDB would
    hash per row) or of numbers; ``positive`` stays in raw values.

    Every scan, coded or by name, first or recount, is `summary_sql` of a `SummaryShape`; the recounts differ from
    the first scan only in the shape's fields (``problems``, ``clip``) or in the rows' keys."""
    shape = SummaryShape(labels_from_scores, float(threshold), weighted, count_distinct, clip, problems)
    if models is None:
        return _scan_summary(backend, sources, positive, shape)
    truths = truths if truths is not None and len(truths) else None
    keyed, codes = _summary_codes(backend, sources, positive, models, truths)
    prof = _scan_summary(backend, keyed, codes, shape)
    code = prof["model"].to_numpy(np.int64)
    y_code = prof["y"].to_numpy(np.int64) if truths is not None else None
    if (code >= len(models)).any() or (y_code is not None and (y_code >= len(truths)).any()):
        # a model or a truth value the first rows did not show (or an empty truth): group by value after all
        return _scan_summary(backend, sources, positive, shape)
    prof["model"] = np.asarray(models, dtype=object)[code]
    if y_code is not None:
        prof["y"] = truths[y_code]           # the raw values, in the first rows' dtype
    return prof


def _summary_codes(backend, sources: list[Columns], positive: list, models: list[str], truths) -> tuple[list, list]:
    """(sources, positive) keyed by small integers: the model's position in ``models`` (`coded`) and, with
    ``truths``, the truth's position among them (``len(truths)`` for any other value or an empty cell)."""
    sources = coded(backend, sources, models)
    if truths is None:
        return sources, positive
    values = [v.item() if hasattr(v, "item") else v for v in truths]
    sources = [Columns(c.model, "CASE " + " ".join(f"WHEN {c.y_true} = {backend.literal(v)} THEN {i}"
                                                    for i, v in enumerate(values)) + f" ELSE {len(values)} END",
                       c.y_pred, c.score, c.weight) for c in sources]
    wanted = {repr(v) for v in positive}
    return sources, [i for i, v in enumerate(values) if repr(v) in wanted]


def _scan_summary(backend, sources: list[Columns], positive: list, shape: SummaryShape) -> pd.DataFrame:
    """One scan of `summary_sql` and the recounts its sums call for: with the problems counted when a sum shows a
    non-finite score or a bad weight, or with the clip when a cell's score range shows a row it changes."""
    has_score = sources[0].score is not None
    prof = backend.query(summary_sql(backend, sources, positive, shape))
    if not shape.weighted:
        prof["w_present"] = prof["n_rows"]
        prof["w"] = prof["w2"] = prof["n_rows"].astype(np.float64)
    if shape.problems:
        return prof
    # (a NULL sum — no score in the cell — reads as NaN too: only cells with scores count)
    suspect = has_score and bool((~np.isfinite(prof["brier"].to_numpy(np.float64)) & (prof["s_present"] > 0)).any())
    if shape.weighted:
        w_max = prof["w_max"].astype(np.float64)
        suspect |= bool((prof["w_min"].astype(np.float64) < 0).any() or (w_max.isna() & (prof["w_present"] > 0)).any())
    if suspect:
        return _scan_summary(backend, sources, positive, replace(shape, problems=True, clip=True))
    if has_score and not shape.clip and _clip_matters(prof, positive):
        return _scan_summary(backend, sources, positive, replace(shape, clip=True))
    prof["s_nonfinite"] = 0
    prof["w_bad"] = 0
    return prof


def _clip_matters(prof: pd.DataFrame, positive: list) -> bool:
    """Whether clipping the true class's probability to [eps, 1 - eps] changes any row's log loss: a positive row's
    probability is its score, a negative row's 1 - score (monotone in the score, in floating point too), so each
    cell's score range bounds them. Scores outside [0, 1] leave the log loss undefined (`binary_states`): no clip
    can matter then."""
    s_min, s_max = prof["s_min"].to_numpy(np.float64), prof["s_max"].to_numpy(np.float64)
    if np.nanmin(s_min, initial=0.0) < 0 or np.nanmax(s_max, initial=1.0) > 1:
        return False
    pos = prof["y"].isin(positive).to_numpy()
    p_low = np.where(pos, s_min, 1.0 - s_max)
    p_high = np.where(pos, s_max, 1.0 - s_min)
    return bool(((p_low < LOG_LOSS_EPS) | (p_high > 1 - LOG_LOSS_EPS)).any())


def head_clips(assessment) -> bool | None:
    """`summarise`'s ``clip`` from the first rows: True when a score there would be clipped (a model that gives
    exact 0 or 1 probabilities: clip at once rather than count twice), else None (leave the clip out, check after)."""
    r, frame = assessment.roles, assessment.table.frame
    columns = [r.score] + [c for _, c in (r.class_scores or ())] + [wm.score for wm in r.wide_models]
    for col in filter(None, columns):
        values = pd.to_numeric(frame[col], errors="coerce").to_numpy(np.float64)
        if ((values < LOG_LOSS_EPS) | (values > 1 - LOG_LOSS_EPS)).any():
            return True
    return None


def head_says_grid(backend, assessment, exact_limit: int) -> bool:
    r"""Whether the first rows already show that the file's scores are too many to group exactly, so scan 1 need not
    count them (``approx_count_distinct`` is a fifth of its CPU time: 5.2 -> 3.8 CPU seconds at 1e8 rows).

    Of :math:`h` rows drawn from :math:`D` equally frequent scores, about :math:`h^2 / 2D` repeat an earlier one: at
    most :math:`D` = ``exact_limit`` the first rows would show about :math:`h^2 / (2\,\text{limit})` repeats (625
    for 50,000 rows and 2 million; its spread is ~25), and uneven frequencies only add repeats. So fewer than half
    that many (and a file longer than ``exact_limit`` rows, as its Parquet footers state) means more distinct scores
    than the limit. Only first rows unlike the rest (say a long file sorted by model whose first model's scores are
    continuous and the others' few) could mislead it, and then towards the grid, whose error bounds are reported —
    never towards an exact table too large for memory."""
    r, frame = assessment.roles, assessment.table.frame
    if r.wide_models:
        pairs = [frame[wm.score].dropna() for wm in r.wide_models if wm.score]
        h = sum(len(p) for p in pairs)
        distinct = sum(int(p.nunique()) for p in pairs)
    elif r.score:
        cols = [c for c in (r.model, r.score) if c]
        scored = frame[cols].dropna()
        h, distinct = len(scored), len(scored.drop_duplicates())
    else:
        return False
    if h < 10_000 or (h - distinct) * 4 * exact_limit >= h * h:
        return False
    rows = backend.stored_rows()
    return rows is not None and rows > exact_limit


def is_positive(backend, column: str, positive: list) -> str:
    """SQL true where ``column`` holds one of the raw ``positive`` values: ``=`` for the usual single value (DuckDB
    evaluates ``IN (v)`` as a list search, ~0.6 CPU seconds per 1e8 rows more)."""
    if len(positive) == 1:
        return f"{column} = {backend.literal(positive[0])}"
    return f"{column} IN ({', '.join(backend.literal(v) for v in positive) or 'NULL'})"


def check_profile(prof: pd.DataFrame, assessment, name: str) -> tuple[list, float, float, int]:
    """Refuse what the in-memory validation refuses; return (positive raw values, score min, max, distinct)."""
    r = assessment.roles
    missing = prof["y"].isna()
    if missing.any():
        raise AssessError(f"{name}: column {r.y_true!r} has {int(prof.loc[missing, 'n_rows'].sum()):,} empty cells; "
                          "every row needs a true label")
    labels = label_names(prof["y"])
    classes = sorted(set(labels))
    if len(classes) > 2 or assessment.positive not in assessment.classes:
        raise AssessError(f"{name}: column {r.y_true!r} holds {len(classes):,} classes ({', '.join(classes[:5])}"
                          f"{', …' if len(classes) > 5 else ''}) in the whole file; the first rows looked binary. "
                          "Use --task to say what the file is")
    unknown = [c for c in classes if c not in assessment.classes]
    if unknown:
        raise AssessError(f"{name}: column {r.y_true!r} holds {unknown[0]!r}, which the first rows did not show; "
                          f"the classes are {', '.join(assessment.classes)} (use --positive to choose)")
    positive = list(dict.fromkeys(v.item() if hasattr(v, "item") else v for v, lab in zip(prof["y"], labels)
                                  if lab == assessment.positive))
    n_rows = int(prof["n_rows"].sum())
    if prof["s_present"].notna().all() and "score" in _score_roles(assessment):
        empty = n_rows - int(prof["s_present"].sum())
        if empty:
            raise AssessError(f"{name}: the score column has {empty:,} empty (or non-numeric) cells; every row needs "
                              "a score")
        bad = int(prof["s_nonfinite"].sum())
        if bad:
            raise AssessError(f"{name}: the score column has {bad:,} NaN or infinite values")
    if assessment.roles.weight:
        if int(prof["w_present"].sum()) < n_rows:
            raise AssessError(f"{name}: column {r.weight!r} has empty weights; every row needs one")
        if int(prof["w_bad"].sum()):
            raise AssessError(f"{name}: column {r.weight!r} has {int(prof['w_bad'].sum()):,} negative or NaN weights")
    return (positive, float(prof["s_min"].min()), float(prof["s_max"].max()),
            int(prof["s_distinct"].fillna(0).sum()))


def _score_roles(assessment) -> set:
    r = assessment.roles
    return {"score"} if (r.score or r.class_scores or any(wm.score for wm in r.wide_models)) else set()


@dataclass(frozen=True)
class Plan:
    """How scan 2 keys the scores: exactly (by score) or on a grid of ``bins`` bins over [lo, hi]."""

    exact: bool
    lo: float = 0.0
    hi: float = 0.0
    bins: int = GRID_BINS

    @property
    def scale(self) -> float:
        """``bins / (hi - lo)``, lowered by ulps until the top score's ``(hi - lo) * scale`` falls below ``bins``:
        then ``floor((s - lo) * scale)`` lies in [0, bins) for every score in [lo, hi] without a clamp (IEEE
        subtraction and multiplication by a positive constant are monotone, and the engines compute them as Python
        does), so every engine puts a score in the same bin."""
        if not self.hi > self.lo:
            return 0.0
        width = self.hi - self.lo
        scale = self.bins / width
        while width * scale >= self.bins:
            scale = float(np.nextafter(scale, 0.0))
        return scale

    def bin(self, backend_name: str = "") -> str:
        """The SQL of a row's bin: b holds [lo + b/scale, lo + (b+1)/scale).

        On DuckDB, up to 2^16 bins, the bin is cast to USMALLINT: DuckDB counts a key of a 16-bit type in its
        perfect hash table (an array indexed by the key) without knowing its range, so the key needs no clamp. A
        clamp by least cost a quarter of the scan (1e8 rows, two models: the curve scan 1.31 -> 0.85 s wall at
        2^16 bins, best of 5; 2^18 bins with the clamp took 1.31-1.39 s). Elsewhere the clamps state the range."""
        if not self.hi > self.lo:
            return "CAST(0 AS BIGINT)"
        b = f"floor((s - {self.lo!r}) * {self.scale!r})"
        if backend_name == "duckdb" and self.bins <= 2 ** 16:
            return f"CAST({b} AS USMALLINT)"
        return f"least(greatest(CAST({b} AS BIGINT), 0), {self.bins - 1})"

    def edges(self) -> np.ndarray:
        """Each bin's lower edge: its threshold (every row of bin b and above has a score >= the edge)."""
        if not self.hi > self.lo:
            return np.array([self.lo])
        return self.lo + np.arange(self.bins) / self.scale


def head_models(assessment) -> list[str]:
    """The model names of the first rows as the engine writes a row's model (`model_sql`: the model column as
    text, each wide model's name, the one model's name), in order of first appearance."""
    r = assessment.roles
    if r.wide_models:
        return [str(wm.name) for wm in r.wide_models]
    if r.model:
        return [str(v) for v in pd.unique(assessment.table.frame[r.model].dropna())]
    return [str(assessment.models[0])]


def head_truths(assessment) -> np.ndarray:
    """The first rows' distinct raw truth values, in order of first appearance and in the column's dtype."""
    return pd.unique(assessment.table.frame[assessment.roles.y_true].dropna())


def coded(backend, sources: list[Columns], models: list[str]) -> list[Columns]:
    """``sources`` with each row's model as its position in ``models`` (``len(models)`` for any other): a small
    integer whose range the SQL states, so DuckDB can count in its perfect hash table."""
    n = len(models)
    return [Columns("CASE " + " ".join(f"WHEN {c.model} = {backend.literal(m)} THEN {i}"
                                       for i, m in enumerate(models)) + f" ELSE {n} END",
                    c.y_true, c.y_pred, c.score, c.weight) for c in sources]


def curve_table(backend, sources: list[Columns], models: list[str], positive: list, plan: Plan, *,
                weighted: bool) -> dict:
    """Scan 2: rows (and weights) per model, truth and score key, as numpy arrays.

    The groups are (model * 2 + positive, key): the key is the score itself (exact) or its bin (`Plan.bin`). Both
    grid columns are small integers whose range DuckDB knows — the group's from the CASE, the bin's from its 16-bit
    type — so it counts in a perfect hash table (an array indexed by the keys, no hashing), about 2x faster than a
    hash table of a million groups. (One key ``group * bins + bin`` loses the bin type's range and falls back to the
    hash table.)"""
    sources = coded(backend, sources, models)
    weight = "CAST({c.weight} AS DOUBLE)" if weighted else "CAST(1.0 AS DOUBLE)"
    # (braces of a label literal doubled: `_rows` formats the template)
    pos = is_positive(backend, "@y@", positive).replace("{", "{{").replace("}", "}}").replace("@y@", "{c.y_true}")
    rows = _rows(sources, f"{{c.model}} AS code, CASE WHEN {pos} THEN 1 ELSE 0 END AS pos, "
                          f"{{c.score}} AS s, {weight} AS w")
    sums = "count(*) AS n_rows" + (", sum(w) AS w" if weighted else "")
    key = "s" if plan.exact else f"{plan.bin(backend.name)} AS bin"
    return backend.arrays(f"SELECT code * 2 + pos AS g, {key}, {sums} FROM ({rows}) AS r GROUP BY 1, 2")


@dataclass(frozen=True)
class ModelTable:
    """One model's share of the grouped table, as numpy arrays (score keys descending)."""

    state: binary.BinaryState
    n_rows: int
    pos_in: np.ndarray | None      # (weighted) positives per score key, keys descending
    neg_in: np.ndarray | None
    rows_pos: np.ndarray | None     # row counts per key (DeLong's frequencies)
    rows_neg: np.ndarray | None
    loss_squares: dict | None = None   # {"log_loss"/"brier_score": Σ w·loss²}, with W and Σ w² (the t interval)


def _curve_keys(curve: dict, code: int, plan: Plan, weighted: bool):
    """(thresholds, positives' weight, negatives' weight, positive rows, negative rows) of model ``code`` per score
    key, keys descending; keys holding no weight are dropped (they contribute no threshold). ``curve`` is sorted by
    its group (`_sorted_curve`), so a model's positive and negative rows are two contiguous slices."""
    rows, bounds = curve["n_rows"], curve["bounds"]
    w = curve["w"] if weighted else rows
    neg, pos = slice(bounds[2 * code], bounds[2 * code + 1]), slice(bounds[2 * code + 1], bounds[2 * code + 2])
    if plan.exact:
        thresholds, key = np.unique(curve["s"][bounds[2 * code]:bounds[2 * code + 2]], return_inverse=True)
        key_neg, key_pos = key[:neg.stop - neg.start], key[neg.stop - neg.start:]
    else:
        thresholds = plan.edges()
        key_neg, key_pos = curve["bin"][neg], curve["bin"][pos]
    size = thresholds.shape[0]
    columns = [np.bincount(key_pos, weights=w[pos], minlength=size),
               np.bincount(key_neg, weights=w[neg], minlength=size),
               np.bincount(key_pos, weights=rows[pos], minlength=size),
               np.bincount(key_neg, weights=rows[neg], minlength=size)]
    present = (columns[0] + columns[1]) > 0
    return tuple(np.ascontiguousarray(a[present][::-1]) for a in [thresholds, *columns])


def _sorted_curve(curve: dict, n_models: int, plan: Plan, weighted: bool) -> dict:
    """Scan 2's table as float arrays ordered by group (model * 2 + positive), with each group's slice bounds. The
    groups are few small integers: as int16 NumPy sorts them by radix in one pass (the bins inside a group stay in
    any order; `_curve_keys` counts them by bin)."""
    group = curve["g"].astype(np.int64)
    small = np.int16 if 2 * n_models + 2 < np.iinfo(np.int16).max else np.int64
    order = np.argsort(group.astype(small), kind="stable")
    group = group[order]
    out = {"s": curve["s"].astype(np.float64)[order]} if plan.exact else {"bin": curve["bin"].astype(np.int64)[order]}
    out["bounds"] = np.searchsorted(group, np.arange(2 * n_models + 1))
    out["n_rows"] = curve["n_rows"].astype(np.float64)[order]
    if weighted:
        out["w"] = curve["w"].astype(np.float64)[order]
    return out


def binary_states(cells: pd.DataFrame, curve: dict | None, models: list[str], assessment, plan: Plan, *,
                  labels_from: str, beta: float, weighted: bool, labels_from_scores: bool) -> dict[str, ModelTable]:
    """{model: ModelTable} from scan 1's cells and scan 2's curve table (None without scores): cells, threshold
    counts and loss sums per model."""
    if labels_from_scores:
        yhat = cells["yp"].astype(np.float64).to_numpy() == 1
    else:
        if cells["yp"].isna().any():
            raise AssessError(f"{assessment.table.name}: column {assessment.roles.y_pred!r} has empty cells; every "
                              "row needs a predicted label (or use --labels-from scores)")
        yhat = np.array([lab == assessment.positive for lab in label_names(cells["yp"])], dtype=bool)
    truth = np.array([lab == assessment.positive for lab in label_names(cells["y"])], dtype=bool)
    cell_model = cells["model"].astype(str).to_numpy()
    w_all = cells["w"].to_numpy(dtype=np.float64)
    w2_all = cells["w2"].to_numpy(dtype=np.float64)
    if curve is not None:
        curve = _sorted_curve(curve, len(models), plan, weighted)
    out = {}
    for code, model in enumerate(models):
        mine = cell_model == model
        if not mine.any():
            continue
        y, p = truth[mine], yhat[mine]
        w = w_all[mine]
        w2 = w2_all[mine] if weighted else w
        masks = {"tp": y & p, "fp": ~y & p, "tn": ~y & ~p, "fn": y & ~p}
        cell_sums = {k: float(w[m].sum()) for k, m in masks.items()}
        cells_sq = {k: float(w2[m].sum()) for k, m in masks.items()}
        n_rows = int(cells["n_rows"].to_numpy(dtype=np.int64)[mine].sum())
        kw, pos_in, neg_in, rows_pos, rows_neg = {}, None, None, None, None
        if curve is not None:
            thresholds, pos_in, neg_in, rows_pos, rows_neg = _curve_keys(curve, code, plan, weighted)
            d = thresholds.shape[0]
            tps, fps = np.cumsum(pos_in), np.cumsum(neg_in)
            for a in (tps, fps, thresholds):
                a.setflags(write=False)
            counts = curves.ThresholdCounts(thresholds, tps, fps, float(tps[-1]) if d else 0.0,
                                            float(fps[-1]) if d else 0.0, n_rows, weighted=weighted)
            lo = float(cells["s_min"].to_numpy(dtype=np.float64)[mine].min())
            hi = float(cells["s_max"].to_numpy(dtype=np.float64)[mine].max())
            reason = None
            if lo < 0 or hi > 1:
                reason = f"scores are not probabilities (some outside [0, 1], e.g. {lo if lo < 0 else hi:g})"
            kw = dict(counts=counts, tps=counts.tps, fps=counts.fps,
                      log_loss_sum=float("nan") if reason else float(cells["log_loss"].to_numpy(np.float64)[mine].sum()),
                      brier_sum=float("nan") if reason else float(cells["brier"].to_numpy(np.float64)[mine].sum()),
                      weight_sum=float(w.sum()), proba_reason=reason)
        state = binary.BinaryState(**cell_sums, beta=beta, labels_from=labels_from, cells_sq=cells_sq, **kw)
        squares = None
        if curve is not None and not kw["proba_reason"]:
            squares = {"log_loss": float(cells["log_loss_sq"].to_numpy(np.float64)[mine].sum()),
                       "brier_score": float(cells["brier_sq"].to_numpy(np.float64)[mine].sum()),
                       "weight": float(w.sum()), "weight_sq": float(w2.sum())}
        out[model] = ModelTable(state, n_rows, pos_in, neg_in, rows_pos, rows_neg, squares)
    return out


def label_names(values) -> list[str]:
    """The class names of raw label values read back from an engine, as the in-memory path names them
    (`assess.inputs.columns.label_strings`, applied to the distinct values), one per value."""
    values = pd.Series(values).reset_index(drop=True)
    distinct = values.drop_duplicates().reset_index(drop=True)
    mapping = dict(zip(distinct, label_strings(distinct)))
    return [mapping[v] for v in values]


def grid_bounds(t: ModelTable) -> dict[str, float]:
    r"""Largest possible error of the ranking metrics of a grid table, from the mass tied inside each bin b
    (:math:`p_b` positives, :math:`n_b` negatives; :math:`T_0, F_0` the cumulative counts above the bin, :math:`T_1
    = T_0 + p_b`; P, N the totals). The grid treats a bin as one tie; the rows' true order inside it is unknown:

    - ROC AUC: only pairs inside one bin can change their contribution (from ½ to 0 or 1), so
      :math:`|\Delta| \le \sum_b p_b n_b / (2PN)`.
    - Average precision: each positive of bin b is credited the bin's precision :math:`T_1/(T_1+F_1)`; its true
      precision lies in :math:`[T_0/(T_0+F_0+n_b),\; T_1/(T_1+F_0)]`, so
      :math:`|\Delta| \le \frac{1}{P}\sum_b p_b \max(\text{hi}_b - v_b, v_b - \text{lo}_b)`. PR AUC: the same bound
      (its trapezoids average two precisions of that interval).
    - KS: the true maximum of TPR − FPR (or FPR − TPR) can peak inside a bin, at most at
      :math:`\max(T_1/P - F_0/N,\; F_1/N - T_0/P)`; the bound is that maximum minus the grid's KS.
    """
    pos, neg = t.pos_in, t.neg_in
    P, N = float(pos.sum()), float(neg.sum())
    if P <= 0 or N <= 0:
        return {"roc_auc": float("nan"), "average_precision": float("nan"), "pr_auc": float("nan"),
                "ks_statistic": float("nan")}
    auc = float(np.dot(pos, neg) / (2 * P * N))
    T1, F1 = np.cumsum(pos), np.cumsum(neg)
    T0, F0 = T1 - pos, F1 - neg
    with np.errstate(divide="ignore", invalid="ignore"):
        v = T1 / (T1 + F1)
        lo = np.where(T0 + F0 + neg > 0, T0 / (T0 + F0 + neg), 0.0)
        hi = np.where(T1 + F0 > 0, T1 / (T1 + F0), 1.0)
    has_pos = pos > 0
    ap = float(np.dot(pos[has_pos], np.maximum(hi - v, v - lo)[has_pos]) / P)
    ks_grid = float(np.max(np.abs(T1 / P - F1 / N)))
    ks_top = float(max(np.max(T1 / P - F0 / N), np.max(F1 / N - T0 / P)))
    return {"roc_auc": auc, "average_precision": ap, "pr_auc": ap, "ks_statistic": max(0.0, ks_top - ks_grid)}


def delong_from_table(t: ModelTable, confidence_level: float) -> tuple[float, float]:
    """DeLong interval of the ROC AUC from the grouped table (unweighted rows, keys descending): the AUC and variance
    of :func:`assess.intervals.delong_grouped` — the in-memory path's own — :math:`\\mathrm{AUC} \\pm z\\,\\mathrm{se}`,
    truncated to [0, 1]; NaN with fewer than 2 rows in a class."""
    auc, variance = intervals.delong_grouped(t.rows_pos, t.rows_neg)
    if not np.isfinite(variance):
        return float("nan"), float("nan")
    z = intervals.normal_quantile(confidence_level)
    se = float(np.sqrt(variance))
    return max(0.0, auc - z * se), min(1.0, auc + z * se)
