"""Multiple-comparison corrections (ISO/IEC TS 4213 7.10: 7.10.2 Bonferroni, 7.10.3 false discovery rate) and
pairwise matrices of adjusted p-values.

Every adjusted p-value is capped at 1 (an adjusted p-value is a probability; ``min(1, ·)`` is applied after the
multiplication, as in R ``p.adjust`` and statsmodels ``multipletests``). A hypothesis is rejected at level α when its
adjusted p-value is ≤ α; for ``fdr_bh`` and ``fdr_by`` α is the false discovery rate q.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from assess.core.errors import AssessError

CORRECTIONS = ("bonferroni", "holm", "fdr_bh", "fdr_by")


def adjust_pvalues(pvalues, *, method: str = "holm") -> np.ndarray:
    r"""Adjusted p-values for m hypotheses, in the input order.

    With :math:`p_{(1)} \le \dots \le p_{(m)}`:

    - ``"bonferroni"`` (FWER; ISO 4213 7.10.2): :math:`\min(1, m p_i)`.
    - ``"holm"`` (FWER, step-down; Holm 1979, *Scand J Statist* 6:65–70):
      :math:`\tilde p_{(i)} = \max_{j \le i} \min(1, (m - j + 1) p_{(j)})`. Uniformly more powerful than
      Bonferroni, under any dependence.
    - ``"fdr_bh"`` (FDR, step-up; Benjamini & Hochberg 1995, *JRSS B* 57:289–300; ISO 4213 7.10.3):
      :math:`\tilde p_{(i)} = \min_{j \ge i} \min(1, m p_{(j)} / j)`. Valid under independence or positive
      dependence.
    - ``"fdr_by"`` (FDR under any dependence; Benjamini & Yekutieli 2001, *Ann Statist* 29:1165–1188): as BH
      with :math:`m` replaced by :math:`m \sum_{i=1}^m 1/i`.

    NaN p-values (tests undefined on their data) stay NaN and do not count in m.

    >>> adjust_pvalues([0.01, 0.04, 0.03], method="holm").tolist()
    [0.03, 0.06, 0.06]
    """
    if method not in CORRECTIONS:
        raise AssessError(f"`method` must be one of {', '.join(repr(c) for c in CORRECTIONS)} (got {method!r})")
    try:
        p = np.asarray(pvalues, dtype=float)
    except (TypeError, ValueError):
        raise AssessError(f"`pvalues` must hold numbers (got {type(pvalues).__name__})") from None
    if p.ndim != 1:
        raise AssessError(f"`pvalues` must be one-dimensional (got shape {p.shape})")
    bad = ~np.isnan(p) & ((p < 0) | (p > 1))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        count = int(bad.sum())
        raise AssessError(f"`pvalues` must be in [0, 1]; {count} {'is' if count == 1 else 'are'} not "
                          f"(first at index {i}: {p[i]})")
    out = np.full(p.shape, np.nan)
    keep = np.flatnonzero(~np.isnan(p))
    m = keep.size
    if m == 0:
        return out
    q = p[keep]
    if method == "bonferroni":
        out[keep] = np.minimum(1.0, m * q)
        return out
    order = np.argsort(q, kind="stable")
    sorted_p = q[order]
    rank = np.arange(1, m + 1)
    if method == "holm":
        adj = np.maximum.accumulate(np.minimum(1.0, (m - rank + 1) * sorted_p))
    else:
        scale = m * (np.sum(1.0 / rank) if method == "fdr_by" else 1.0)
        adj = np.minimum.accumulate(np.minimum(1.0, scale * sorted_p / rank)[::-1])[::-1]
    result = np.empty(m)
    result[order] = adj
    out[keep] = result
    return out


def pvalue_matrix(pvalues: Mapping[tuple[str, str], float], *, models: Sequence[str] | None = None,
                  correction: str | None = "holm") -> pd.DataFrame:
    """Symmetric k × k DataFrame of (adjusted) p-values from one p-value per pair of models.

    ``pvalues`` maps ``(model_a, model_b)`` to the raw p-value of their test; the m pairs are adjusted together
    with ``correction`` (None keeps them raw, e.g. for Nemenyi p-values that are already family-wise). The
    diagonal is NaN. ``models`` fixes the row/column order (default: order of first appearance).
    """
    if correction is not None and correction not in CORRECTIONS:
        raise AssessError(f"`correction` must be one of {', '.join(repr(c) for c in CORRECTIONS)} or None "
                          f"(got {correction!r})")
    pairs = list(pvalues)
    if models is None:
        seen: dict[str, None] = {}
        for a, b in pairs:
            seen.setdefault(a)
            seen.setdefault(b)
        models = list(seen)
    models = list(models)
    index = {m: i for i, m in enumerate(models)}
    for a, b in pairs:
        for x in (a, b):
            if x not in index:
                raise AssessError(f"pair ({a!r}, {b!r}) names model {x!r}, which is not in `models` {models}")
        if a == b:
            raise AssessError(f"pair ({a!r}, {b!r}) compares a model with itself")
    raw = np.array([pvalues[pair] for pair in pairs], dtype=float)
    adj = raw if correction is None else adjust_pvalues(raw, method=correction)
    mat = np.full((len(models), len(models)), np.nan)
    for (a, b), v in zip(pairs, adj):
        mat[index[a], index[b]] = mat[index[b], index[a]] = v
    return pd.DataFrame(mat, index=models, columns=models)
