r"""The decision rule and the per-row losses as SQL text (DuckDB and Spark alike): the one place the engines spell them.

Each function takes SQL expressions (column references, casts, CASEs) and returns one, to be placed in a SELECT list
or an aggregate. Their in-memory twins, which the tests compare them with row for row:

- the decision rule, :func:`assess.core.decision.predicted_labels`: binary and multi-label positive when
  :math:`s \ge t` (`at_threshold`, `threshold_code`, `threshold_indicator`), multi-class the arg-max of the scores
  with a tie going to the first class in class order (`argmax`);
- the per-row losses: :func:`assess.metrics.binary.per_row_losses` (`log_loss`, `binary_brier` of `p_true`),
  :func:`assess.metrics.multiclass.per_row_losses` (`log_loss`, `multiclass_brier`),
  :func:`assess.metrics.multiclass.top_k_hits` (`true_class_rank`),
  :func:`assess.metrics.regression.row_values` (`regression_terms`), and the prediction intervals' ``coverage``,
  :func:`assess.metrics.forecast.winkler_scores` and :func:`assess.metrics.forecast.pinball_losses` (`covered`,
  `winkler`, `pinball`), and :func:`assess.metrics.multilabel.row_values` (`multilabel_row_values`).

A row without a score (SQL NULL) has no decision: NULL (or the code 2 of `threshold_code`); the engines refuse such
rows, as the in-memory validation does. NaN is refused too, and must be: DuckDB and Spark order NaN above every
number, so ``NaN >= t`` is true in SQL where NumPy's comparison is false.
"""

from __future__ import annotations

from assess.metrics.binary import LOG_LOSS_EPS


def at_threshold(score: str, threshold: float) -> str:
    """SQL true where the row's ``score`` reaches ``threshold`` (binary: positive; multi-label: the label is
    predicted); NULL without a score."""
    return f"({score} >= {float(threshold)!r})"


def threshold_code(score: str, threshold: float) -> str:
    """The binary decision as a small integer: 1 positive, 0 negative, 2 no score. An integer whose range the CASE
    states, not a boolean that can be NULL, keeps DuckDB's perfect hash table when it is a group key."""
    return f"CASE WHEN {at_threshold(score, threshold)} THEN 1 WHEN {score} < {float(threshold)!r} THEN 0 ELSE 2 END"


def threshold_indicator(score: str, threshold: float) -> str:
    """The decision as a 0/1 double (1.0 predicted), NULL without a score: a multi-label row's predicted label."""
    return f"CASE WHEN {at_threshold(score, threshold)} THEN 1.0 WHEN {score} < {float(threshold)!r} THEN 0.0 END"


def argmax(scores: list[str], results: list[str]) -> str:
    r"""The multi-class decision: ``results[i]`` (an SQL literal, e.g. the class label) for the row whose class i
    scores highest, ``scores`` in class order. Class i wins when :math:`s_i > s_j` for every earlier class j and
    :math:`s_i \ge s_j` for every later one, so a tie goes to the first class, as ``numpy.argmax`` breaks it. NULL
    when a score is NULL (no comparison holds)."""
    whens = []
    for i, result in enumerate(results):
        beats = [f"{scores[i]} > {scores[j]}" for j in range(i)] + \
                [f"{scores[i]} >= {scores[j]}" for j in range(i + 1, len(scores))]
        whens.append(f"WHEN {' AND '.join(beats) or 'TRUE'} THEN {result}")
    return f"(CASE {' '.join(whens)} END)"


def p_true(is_positive: str, score: str) -> str:
    """The probability a binary row's score gives its true class: the score for a positive row (``is_positive``, an
    SQL condition), one minus it for a negative one."""
    return f"CASE WHEN {is_positive} THEN {score} ELSE 1.0 - {score} END"


def log_loss(p: str, *, clip: bool = True) -> str:
    r"""A row's log loss :math:`-\ln p` of the probability ``p`` of its true class, ``p`` clipped to
    :math:`[\epsilon, 1 - \epsilon]` (`assess.metrics.binary.LOG_LOSS_EPS`). ``clip=False`` leaves the clip out, for
    a caller that knows no row needs it (`assess.engine.binary.summarise`: two comparisons a row)."""
    if clip:
        p = f"greatest(least({p}, {1 - LOG_LOSS_EPS!r}), {LOG_LOSS_EPS!r})"
    return f"-ln({p})"


def binary_brier(p: str) -> str:
    """A binary row's squared error :math:`(1 - p)^2` of the probability ``p`` of its true class."""
    return f"(1.0 - {p}) * (1.0 - {p})"


def multiclass_brier(scores: list[str], p: str) -> str:
    r"""A multi-class row's Brier score :math:`\sum_k s_k^2 - 2 p + 1`, ``p`` the score of its true class."""
    squares = " + ".join(f"{s} * {s}" for s in scores)
    return f"(({squares}) - 2 * {p} + 1.0)"


def true_class_rank(scores: list[str], y: str, p: str) -> str:
    """The rank (0 = first) of a multi-class row's true class ``y`` (its class index) of score ``p``: the classes
    scoring strictly higher plus the later classes scoring the same, scikit-learn's tie order
    (`assess.metrics.multiclass.top_k_hits`); the row is a top-k hit when the rank is below k."""
    return " + ".join([f"CASE WHEN {s} > {p} THEN 1 ELSE 0 END" for s in scores]
                      + [f"CASE WHEN {s} = {p} AND {j} > {y} THEN 1 ELSE 0 END" for j, s in enumerate(scores)])


def regression_terms(y: str, yp: str) -> dict[str, str]:
    """A regression row's terms, by the state field their weighted sums go to (`assess.metrics.regression.row_values`):
    the error e = ŷ - y, |e|, e², the relative errors |e / y| and (e / y)² (0 where y = 0: those metrics are then
    undefined, which the zero-truth count says) and the sMAPE term 2|e| / (|y| + |ŷ|) (0 where y = ŷ = 0)."""
    e = f"({yp} - {y})"
    return {"sum_error": e, "sum_abs": f"abs({e})", "sum_sq": f"{e} * {e}",
            "sum_abs_rel": f"CASE WHEN {y} <> 0 THEN abs({e} / {y}) ELSE 0.0 END",
            "sum_sq_rel": f"CASE WHEN {y} <> 0 THEN ({e} / {y}) * ({e} / {y}) ELSE 0.0 END",
            "sum_smape": f"CASE WHEN abs({y}) + abs({yp}) > 0 THEN 2.0 * abs({e}) / (abs({y}) + abs({yp})) "
                         "ELSE 0.0 END"}


def covered(y: str, lo: str, hi: str) -> str:
    """1.0 when the interval [``lo``, ``hi``] holds the actual ``y``, else 0.0 (a row's share of the coverage)."""
    return f"CASE WHEN {y} >= {lo} AND {y} <= {hi} THEN 1.0 ELSE 0.0 END"


def winkler(y: str, lo: str, hi: str, level: float) -> str:
    r"""A row's Winkler interval score :math:`(u - l) + \tfrac{2}{\alpha}(\max(l - y, 0) + \max(y - u, 0))` of the
    central interval of coverage ``level`` = 1 - α."""
    alpha = 1.0 - float(level)
    return f"(({hi} - {lo}) + ({2.0 / alpha!r}) * (greatest({lo} - {y}, 0.0) + greatest({y} - {hi}, 0.0)))"


def pinball(y: str, q: str, quantile: float) -> str:
    r"""A row's pinball loss of the τ = ``quantile`` forecast ``q``: :math:`\tau (y - q)` when :math:`y \ge q`, else
    :math:`(\tau - 1)(y - q)`."""
    tau = float(quantile)
    return f"(CASE WHEN {y} - {q} >= 0 THEN {tau!r} * ({y} - {q}) ELSE ({tau - 1.0!r}) * ({y} - {q}) END)"


def multilabel_row_values(t: list[str], p: list[str], s: list[str] | None) -> dict[str, str]:
    """A multi-label row's values of `assess.metrics.multilabel.row_values` by their column (``ROW_COLUMNS``), over
    its 0/1 truth ``t``, 0/1 predictions ``p`` and (or None) scores ``s``, one expression per label each: exact match,
    the sample-wise Jaccard, precision, recall and F1 with their "defined" flags (0 where undefined), and with scores
    the coverage, label-ranking average precision and ranking loss (label m counts against label l when
    :math:`s_m \\ge s_l`, scikit-learn's definitions)."""
    L = len(t)
    inter = " + ".join(f"{t[j]} * {p[j]}" for j in range(L))
    nt = " + ".join(t)
    npred = " + ".join(p)
    union = f"(({nt}) + ({npred}) - ({inter}))"

    def frac(num, den):
        return f"CASE WHEN {den} > 0 THEN ({num}) / ({den}) ELSE 0.0 END", f"CASE WHEN {den} > 0 THEN 1.0 ELSE 0.0 END"
    out = {"exact": "CASE WHEN " + " AND ".join(f"{t[j]} = {p[j]}" for j in range(L)) + " THEN 1.0 ELSE 0.0 END"}
    out["jac"], out["jac_def"] = frac(f"({inter})", union)
    out["prec"], out["prec_def"] = frac(f"({inter})", f"({npred})")
    out["rec"], out["rec_def"] = frac(f"({inter})", f"({nt})")
    out["f1"], out["f1_def"] = frac(f"2.0 * ({inter})", f"(({nt}) + ({npred}))")
    if s is not None:
        ge = {(l, m): f"CASE WHEN {s[m]} >= {s[l]} THEN 1.0 ELSE 0.0 END" for l in range(L) for m in range(L)}
        lowest = [f"CASE WHEN {t[j]} = 1 THEN {s[j]} ELSE CAST('Infinity' AS DOUBLE) END" for j in range(L)]
        mins = f"least({', '.join(lowest)})" if L > 1 else lowest[0]      # the lowest score of a true label
        covered_ = " + ".join(f"CASE WHEN {s[m]} >= {mins} THEN 1.0 ELSE 0.0 END" for m in range(L))
        out["coverage"] = f"CASE WHEN ({nt}) > 0 THEN {covered_} ELSE 0.0 END"
        per = " + ".join(f"{t[l]} * ({' + '.join(f'{t[m]} * {ge[l, m]}' for m in range(L))}) / "
                         f"({' + '.join(ge[l, m] for m in range(L))})" for l in range(L))
        informative = f"({nt}) > 0 AND ({nt}) < {L}"
        out["lrap"] = f"CASE WHEN {informative} THEN ({per}) / ({nt}) ELSE 1.0 END"
        bad_pairs = " + ".join(f"{t[r]} * (1 - {t[f]}) * {ge[r, f]}" for r in range(L) for f in range(L) if r != f)
        out["rloss"] = (f"CASE WHEN {informative} THEN ({bad_pairs or '0.0'}) / (({nt}) * ({L} - ({nt}))) "
                        "ELSE 0.0 END")
    return out
