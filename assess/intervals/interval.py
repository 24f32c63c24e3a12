"""The interval type of the package and how an interval was computed: `ConfidenceInterval`, `IntervalMethod` and the
methods' display names; the level check and normal quantile every method shares."""

from __future__ import annotations

from dataclasses import dataclass
from statistics import NormalDist

#: Display names of the interval methods by :attr:`IntervalMethod.key`: the words a table shows instead of the key.
METHOD_NAMES = {
    "wilson": "Wilson score",
    "clopper-pearson": "Clopper–Pearson exact",
    "normal": "Normal approximation",
    "delong": "DeLong",
    "delong-logit": "DeLong, logit scale",
    "t": "Student t",
    "t-interval": "Student t",
    "delta-method": "Delta method",
    "order-statistic": "Order statistics",
    "simultaneous-clopper-pearson-bins": "Simultaneous Clopper–Pearson bins",
    "block-t": "Block t",
    "bootstrap-percentile": "Bootstrap percentile",
    "bootstrap-bca": "Bootstrap BCa",
    "stationary-block-bootstrap-percentile": "Stationary block bootstrap percentile",
    "moving-block-bootstrap-percentile": "Moving block bootstrap percentile",
    "block-bootstrap-studentized": "Studentized block bootstrap",
    "block-bootstrap-percentile": "Block bootstrap percentile",
}


@dataclass(frozen=True)
class IntervalMethod:
    """How an interval was computed, as facts set where it is computed — never recovered from text.

    ``key`` names the method (:data:`METHOD_NAMES`; any other key is already words, e.g. "Welch t"). The facts a
    reader needs appear both in the machine string (``str(method)``: the exports' ``method``, a contract) and in the
    words of a table (:attr:`words`): ``effective_n`` (Kish's effective n replaced n: weighted rows), ``of`` (what
    the interval is of, e.g. "mean of per-row losses"), ``samples`` (seeded samples of ``sample_rows`` rows),
    ``n_resamples``, ``dropped`` (undefined resamples left out), ``fallback`` (why this method and not the one asked
    for). Only the machine string holds ``seed``, ``scheme`` (multinomial, Poisson, block scheme), ``rows`` (what is
    resampled: "stratified", "i.i.d. rows", …), ``block_rule`` and ``detail``. A bootstrap under the sequential
    stopping rule (:func:`assess.intervals.bootstrap_ci`, ``sequential``) also has ``mc_error``, the larger
    Monte-Carlo standard error of its two bounds, and ``stopped_below``, the tolerance that error met when the rule
    stopped before the maximum (None when it ran to it).
    """

    key: str
    n_resamples: int | None = None
    seed: object = None
    scheme: str | None = None
    rows: str | None = None
    dropped: int = 0
    effective_n: bool = False
    of: str | None = None
    fallback: str | None = None
    samples: int | None = None
    sample_rows: int | None = None
    block_rule: str | None = None
    detail: str | None = None
    mc_error: float | None = None
    stopped_below: float | None = None

    def _monte_carlo(self) -> str | None:
        """The Monte-Carlo error of the bounds in words, and why the resampling stopped where it did."""
        if self.mc_error is None:
            return None
        if self.stopped_below is not None:
            return f"stopped: Monte-Carlo error of the bounds {self.mc_error:.2g} < {self.stopped_below:g}"
        return f"Monte-Carlo error of the bounds {self.mc_error:.2g}"

    def __str__(self) -> str:
        """The machine string of the exports, e.g. ``"wilson (Kish effective n)"``,
        ``"bootstrap-percentile (1000 resamples, seed 0, multinomial, stratified)"``."""
        dropped = [f"{self.dropped} undefined resamples dropped"] if self.dropped else []
        if self.samples is not None:
            return f"{self.key} over {self.samples} seeded samples of {self.sample_rows:,} rows (seed {self.seed})"
        if self.key.startswith("block-bootstrap-"):
            head = ", ".join(x for x in (self.key.removeprefix("block-bootstrap-"), self.scheme, self.block_rule) if x)
            tail = "; ".join([f"{self.n_resamples} resamples, seed {self.seed}", *dropped])
            return f"block bootstrap ({head}; {tail})"
        if self.n_resamples is not None:
            inner = ", ".join(x for x in (f"{self.n_resamples} resamples", f"seed {self.seed}", self.scheme, self.rows)
                              if x)
            inner = "; ".join([inner, *dropped, *(x for x in (self.detail, self._monte_carlo()) if x)])
            of = f" of the {self.of}" if self.of else ""
            return f"{self.key}{of} ({inner})" + (f" — {self.fallback}" if self.fallback else "")
        return (self.key + (" (Kish effective n)" if self.effective_n else "")
                + (f" ({self.detail})" if self.detail else "") + (f", {self.of}" if self.of else ""))

    @property
    def words(self) -> str:
        """The method in words for a table: its display name and the facts a reader needs.

        >>> IntervalMethod("bootstrap-percentile", n_resamples=1000, seed=0, scheme="multinomial").words
        'Bootstrap percentile, 1,000 resamples'
        >>> IntervalMethod("wilson", effective_n=True).words
        'Wilson score, Kish effective n'
        >>> IntervalMethod("bootstrap-percentile", n_resamples=300, mc_error=0.00041, stopped_below=0.0005).words
        'Bootstrap percentile, 300 resamples (stopped: Monte-Carlo error of the bounds 0.00041 < 0.0005)'
        """
        name = METHOD_NAMES.get(self.key) or self.key[:1].upper() + self.key[1:]
        mc = f" ({self._monte_carlo()})" if self.mc_error is not None else ""
        facts = ["Kish effective n" if self.effective_n else None, self.of,
                 f"{self.samples:,} seeded samples" if self.samples is not None else None,
                 f"{self.n_resamples:,} resamples{mc}" if self.n_resamples is not None else None,
                 f"{self.dropped:,} undefined dropped" if self.dropped else None, self.fallback]
        return ", ".join([name, *(f for f in facts if f)])


def method_name(method: IntervalMethod | str | None) -> str:
    """How an interval was computed, in words for a table (:attr:`IntervalMethod.words`); a bare key such as
    "wilson" is read as :class:`IntervalMethod` of that key; ``None`` is ``""``."""
    if not method:
        return ""
    return (method if isinstance(method, IntervalMethod) else IntervalMethod(method)).words


@dataclass(frozen=True)
class ConfidenceInterval:
    """An interval ``[low, high]`` at ``confidence_level`` computed as ``how`` (NaN bounds when undefined; a one-sided
    interval has one infinite bound). ``how`` may be given as a key ("t", "Welch t"): it becomes
    ``IntervalMethod(key)``. ``method`` is its machine string."""

    low: float
    high: float
    confidence_level: float
    how: IntervalMethod

    def __post_init__(self):
        if not isinstance(self.how, IntervalMethod):
            object.__setattr__(self, "how", IntervalMethod(str(self.how)))

    @property
    def method(self) -> str:
        return str(self.how)

    def to_frame(self):
        import pandas as pd
        return pd.DataFrame([{"low": self.low, "high": self.high, "confidence_level": self.confidence_level,
                              "method": self.method}])


def check_confidence_level(confidence_level: float) -> float:
    if not (isinstance(confidence_level, (int, float)) and 0 < confidence_level < 1):
        raise ValueError(f"`confidence_level` must be in (0, 1) (got {confidence_level!r})")
    return float(confidence_level)


def normal_quantile(confidence_level: float) -> float:
    """The two-sided normal quantile. The standard library's (Wichura's AS 241, within 1e-15 of SciPy's ndtri) so
    that an interval does not import scipy.stats: over a second of a command-line run's start-up."""
    return NormalDist().inv_cdf(0.5 + confidence_level / 2)
