"""The score-distribution-per-group chart as data: shares per bin against numpy.histogram, the reference dashed."""

import numpy as np

from assess.present.charts.controls import BINS, distribution_by_group_chart


def test_shares_per_group_match_numpy_and_the_reference_is_dashed():
    rng = np.random.default_rng(1)
    a, b = rng.random(200), rng.random(50) * 0.5
    fig = distribution_by_group_chart(samples={"2023": a, "2024 <i>": b}, reference="2023")
    lines = {t.name: t for t in fig.data}
    assert set(lines) == {"2023 (n = 200) — reference", "2024 &lt;i&gt; (n = 50)"}
    lo, hi = min(a.min(), b.min()), max(a.max(), b.max())
    edges = np.linspace(lo, hi, BINS + 1)
    np.testing.assert_allclose(lines["2023 (n = 200) — reference"].y, np.histogram(a, edges)[0] / 200)
    np.testing.assert_allclose(lines["2024 &lt;i&gt; (n = 50)"].y, np.histogram(b, edges)[0] / 50)
    assert lines["2023 (n = 200) — reference"].line.dash == "dash"
    assert fig.layout.template.layout.font.family is not None
