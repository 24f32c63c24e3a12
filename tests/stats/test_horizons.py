"""Diebold–Mariano per horizon and series against an independent implementation of the published formula.

The oracle below is written from the papers, not from the code under test: Diebold & Mariano (1995), *J Bus Econ
Stat* 13:253–263, eq. (5)–(6) — the loss differential's long-run variance from its sample autocovariances up to lag
h − 1 (divisor n) — and Harvey, Leybourne & Newbold (1997), *Int J Forecasting* 13:281–291, eq. (9) — the statistic
times sqrt((n + 1 − 2h + h(h − 1)/n)/n) against Student's t with n − 1 df. Loops and scipy.stats, no numpy dot
products, so a shared slip is unlikely. Holm is checked against statsmodels' ``multipletests``.
"""

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps
from statsmodels.stats.multitest import multipletests

from assess.core.data import Predictions, Task
from assess.core.errors import AssessError
from assess.stats import compare
from assess.stats.horizons import ALL_SERIES, diebold_mariano_by_horizon


def hln_oracle(d, h):
    """(DM*, two-sided p) of HLN (1997) for a loss differential d in time order at horizon h."""
    d = [float(x) for x in d]
    n = len(d)
    mean = sum(d) / n
    def gamma(k):
        return sum((d[t] - mean) * (d[t - k] - mean) for t in range(k, n)) / n
    variance = (gamma(0) + 2 * sum(gamma(k) for k in range(1, h))) / n
    dm = mean / math.sqrt(variance)
    dm_star = dm * math.sqrt((n + 1 - 2 * h + h * (h - 1) / n) / n)
    return dm_star, 2 * sps.t.sf(abs(dm_star), n - 1)


def panel(seed=0, n_origins=40, horizons=(1, 2, 3, 4), series=("north", "south")):
    """Two series forecast 1..4 months ahead from n_origins monthly origins by two models with MA(h−1) errors."""
    rng = np.random.default_rng(seed)
    rows = []
    start = pd.Timestamp("2001-01-01")
    for s_i, s in enumerate(series):
        shocks = {m: rng.normal(size=n_origins + 10) for m in "AB"}
        for o in range(n_origins):
            for h in horizons:
                target = start + pd.DateOffset(months=o + h)
                y = 10 * s_i + math.sin(o + h) + rng.normal()
                err = {m: sum(shocks[m][o + 1 + k] for k in range(h)) * (1.0 if m == "A" else 1.15) for m in "AB"}
                rows.append(dict(series=s, horizon=h, time=target, y=y, a=y + err["A"], b=y + err["B"]))
    frame = pd.DataFrame(rows).sample(frac=1.0, random_state=seed).reset_index(drop=True)   # shuffled rows
    return frame


def losses(frame, loss):
    ea, eb = frame.y - frame.a, frame.y - frame.b
    return (ea ** 2 - eb ** 2) if loss == "squared" else (ea.abs() - eb.abs())


@pytest.mark.parametrize("loss", ["squared", "absolute"])
def test_each_series_and_horizon_and_the_pooled_rows_match_the_hln_formula(loss):
    frame = panel(1)
    frame["d"] = losses(frame, loss)
    res = diebold_mariano_by_horizon(frame.y, frame.a, frame.b, horizon=frame.horizon, series=frame.series,
                                     time=frame.time.to_numpy(), loss=loss, names=("A", "B"))
    cells = {(r.series, r.horizon): r for r in res.details.by_series}
    assert len(cells) == 8
    for (s, h), cell in frame.groupby(["series", "horizon"]):
        d = cell.sort_values("time").d.to_numpy()
        stat, p = hln_oracle(d, int(h))
        row = cells[(s, float(h))]
        assert row.n == 40 and row.h_used == h
        assert row.statistic == pytest.approx(stat, rel=1e-9)
        assert row.pvalue == pytest.approx(p, rel=1e-8)
        assert row.difference == pytest.approx(d.mean(), rel=1e-12)
    # per horizon: DM on the mean differential per target month across the two series
    for row in res.details.by_horizon:
        assert row.series == ALL_SERIES
        d = frame[frame.horizon == row.horizon].groupby("time").d.mean().sort_index().to_numpy()
        stat, p = hln_oracle(d, int(row.horizon))
        assert row.statistic == pytest.approx(stat, rel=1e-9) and row.pvalue == pytest.approx(p, rel=1e-8)
    # Holm across horizons, and across series × horizons
    raw = [r.pvalue for r in res.details.by_horizon]
    np.testing.assert_allclose([r.pvalue_holm for r in res.details.by_horizon],
                               multipletests(raw, method="holm")[1], rtol=1e-12)
    raw = [r.pvalue for r in res.details.by_series]
    np.testing.assert_allclose([r.pvalue_holm for r in res.details.by_series],
                               multipletests(raw, method="holm")[1], rtol=1e-12)
    # overall: mean differential per target month over every horizon and series, lags up to H − 1 = 3
    d = frame.groupby("time").d.mean().sort_index().to_numpy()
    stat, p = hln_oracle(d, 4)
    assert res.statistic == pytest.approx(stat, rel=1e-9) and res.pvalue == pytest.approx(p, rel=1e-8)
    assert res.df == d.size - 1 and res.n == d.size
    assert res.effect.value == pytest.approx(d.mean(), rel=1e-12)
    table = res.details.table()
    assert list(table.series[:4]) == [ALL_SERIES] * 4 and len(table) == 12


def test_one_horizon_one_series_is_the_classic_test_in_time_order():
    frame = panel(2, horizons=(3,), series=("only",))
    frame["d"] = losses(frame, "squared")
    res = diebold_mariano_by_horizon(frame.y, frame.a, frame.b, horizon=frame.horizon, time=frame.time.to_numpy())
    stat, p = hln_oracle(frame.sort_values("time").d.to_numpy(), 3)
    assert res.statistic == pytest.approx(stat, rel=1e-9) and res.pvalue == pytest.approx(p, rel=1e-8)
    assert res.details.by_series == () and "one horizon and one series" in res.details.pooling


def test_h_selects_one_horizon():
    frame = panel(3)
    frame["d"] = losses(frame, "squared")
    res = diebold_mariano_by_horizon(frame.y, frame.a, frame.b, horizon=frame.horizon, series=frame.series,
                                     time=frame.time.to_numpy(), h=2)
    d = frame[frame.horizon == 2].groupby("time").d.mean().sort_index().to_numpy()
    stat, _ = hln_oracle(d, 2)
    assert res.statistic == pytest.approx(stat, rel=1e-9)
    assert [r.horizon for r in res.details.by_horizon] == [2.0]
    with pytest.raises(AssessError, match="no forecast has horizon 7"):
        diebold_mariano_by_horizon(frame.y, frame.a, frame.b, horizon=frame.horizon, h=7)


def test_compare_aligns_models_by_id_and_orders_by_time():
    frame = panel(4)
    frame["id"] = np.arange(len(frame)).astype(str)
    def model(col, name, order):
        f = frame.iloc[order]
        return Predictions(Task.FORECAST, (), f.y.to_numpy(), f[col].to_numpy(), ids=f.id.to_numpy(dtype=object),
                           time=f.time.to_numpy(), series=f.series.to_numpy(dtype=object),
                           horizon=f.horizon.to_numpy(dtype=float), model=name, target="sales")
    rng = np.random.default_rng(0)
    a = model("a", "A", np.arange(len(frame)))
    b = model("b", "B", rng.permutation(len(frame)))
    c = compare([a, b], test="diebold_mariano", loss="absolute")
    frame["d"] = losses(frame, "absolute")
    stat, p = hln_oracle(frame.groupby("time").d.mean().sort_index().to_numpy(), 4)
    assert c.result.statistic == pytest.approx(stat, rel=1e-9) and c.result.pvalue == pytest.approx(p, rel=1e-8)
    assert "(sales units)" in c.sentence and "By horizon (Holm across 4 horizons" in c.sentence


def test_bad_time_and_horizon_name_the_row():
    frame = panel(5)
    t = frame.time.to_numpy().copy()
    twin = frame.index[(frame.series == frame.series[0]) & (frame.horizon == frame.horizon[0])][1]
    t[twin] = t[0]
    with pytest.raises(AssessError, match=r"horizon \d has two forecasts for time .*one forecast per series, "
                                          r"horizon and time"):
        diebold_mariano_by_horizon(frame.y, frame.a, frame.b, horizon=frame.horizon, series=frame.series, time=t)
    hz = frame.horizon.to_numpy(dtype=float).copy()
    hz[5] = np.nan
    with pytest.raises(AssessError, match=r"1 forecasts have another value \(first at row 5: nan\)"):
        diebold_mariano_by_horizon(frame.y, frame.a, frame.b, horizon=hz)


def test_a_horizon_that_fell_back_to_h_1_is_named_by_the_assumption():
    """At horizon 2 the loss differential alternates (lag-1 autocovariance about −γ₀), so its long-run variance at
    h = 2 is negative and that row falls back to h = 1; the assumption said "positive at every horizon"."""
    rng = np.random.default_rng(5)
    t = pd.date_range("2001-01-01", periods=40, freq="MS")
    one = pd.DataFrame({"time": t, "horizon": 1, "y": 0.0, "a": rng.normal(size=40), "b": rng.normal(size=40)})
    two = pd.DataFrame({"time": t, "horizon": 2, "y": 0.0, "a": np.tile([1.0, 0.0], 20), "b": 0.6})
    frame = pd.concat([one, two], ignore_index=True)
    res = diebold_mariano_by_horizon(frame.y, frame.a, frame.b, horizon=frame.horizon, time=frame.time.to_numpy())
    rows = {r.horizon: r for r in res.details.by_horizon}
    assert (rows[1.0].h_used, rows[2.0].h_used) == (1, 1)
    assumption = next(a for a in res.assumptions if a.name == "variance estimate positive at horizon h")
    assert assumption.met is False
    assert assumption.detail == "not positive at horizon 2; fell back to h = 1 there"
