"""Interval methods in words (`assess.intervals.IntervalMethod.words`): the Metrics page's per-model tables show "Wilson score"
and "Bootstrap percentile, 1,000 resamples", never a method key ("wilson", "bootstrap-percentile (1000 resam…").

Oracles: the method names of the literature (Wilson 1927's score interval; Clopper & Pearson 1934; DeLong, DeLong &
Clarke-Pearson 1988; Efron 1987's BCa) written out by hand, and every method string `evaluate` produces on the
samples of every task with every interval choice of the Metrics page (none may fall through to the key itself).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from assess.inputs.assessment import describe
from assess.inputs.read import read_table
from assess.intervals import METHOD_NAMES, ConfidenceInterval, IntervalMethod, method_name
from assess.metrics.reports import compute_reports
from assess.present.summary import model_frame

SAMPLES = Path(__file__).resolve().parents[2] / "assets" / "samples"


M = IntervalMethod


@pytest.mark.parametrize("method, machine, words", [
    (M("wilson"), "wilson", "Wilson score"),
    (M("wilson", effective_n=True), "wilson (Kish effective n)", "Wilson score, Kish effective n"),
    (M("clopper-pearson"), "clopper-pearson", "Clopper–Pearson exact"),
    (M("normal"), "normal", "Normal approximation"),
    (M("delong"), "delong", "DeLong"),
    (M("delong-logit"), "delong-logit", "DeLong, logit scale"),
    (M("t", of="mean of per-row losses"), "t, mean of per-row losses", "Student t, mean of per-row losses"),
    (M("bootstrap-percentile", n_resamples=1000, seed=0, scheme="multinomial", rows="stratified"),
     "bootstrap-percentile (1000 resamples, seed 0, multinomial, stratified)", "Bootstrap percentile, 1,000 resamples"),
    (M("bootstrap-bca", n_resamples=500, seed=7, scheme="poisson", rows="stratified", dropped=3),
     "bootstrap-bca (500 resamples, seed 7, poisson, stratified; 3 undefined resamples dropped)",
     "Bootstrap BCa, 500 resamples, 3 undefined dropped"),
    (M("block-bootstrap-studentized", n_resamples=2000, seed=0, scheme="moving-block(l=3.2)", block_rule="Politis–White"),
     "block bootstrap (studentized, moving-block(l=3.2), Politis–White; 2000 resamples, seed 0)",
     "Studentized block bootstrap, 2,000 resamples"),
    (M("t-interval", samples=20, sample_rows=2000, seed=0),
     "t-interval over 20 seeded samples of 2,000 rows (seed 0)", "Student t, 20 seeded samples"),
    (M("exact conditional (Cornfield)"), "exact conditional (Cornfield)", "Exact conditional (Cornfield)"),
])
def test_method_in_words(method, machine, words):
    """The exports' machine string and the table's words, both from the same facts."""
    assert (str(method), method.words) == (machine, words)


def test_a_key_given_as_text_is_only_a_key():
    """A plain string is a key, never parsed: "t" is Student t, "delong" is not "delong-logit", and a method named
    in words already stays as it is; no interval, no words."""
    assert method_name("two-sample thing") == "Two-sample thing"
    assert method_name("t") == "Student t"
    assert method_name("delong-logit") != method_name("delong")
    assert method_name(None) == ""
    assert ConfidenceInterval(0.1, 0.2, 0.95, "Welch t").how == M("Welch t")


#: (sample, the Metrics page's interval choices that apply to its task)
CASES = [("breast_cancer_binary.csv", ("auto", "wilson", "clopper-pearson", "normal", "delong", "bootstrap")),
         ("wine_multiclass.csv", ("auto", "wilson", "bootstrap")),
         ("digits_multilabel.csv", ("auto", "bootstrap")),
         ("diabetes_regression.csv", ("auto",)),
         ("iris_clustering.csv", ("auto",))]


@pytest.mark.parametrize("sample, choices", CASES)
def test_every_method_of_the_samples_has_a_name(sample, choices):
    """What the per-model table shows: each method starts with a display name of `METHOD_NAMES` and no cell is a key
    (lower-case words joined by hyphens)."""
    assessment = describe(read_table(str(SAMPLES / sample)))
    names = set(METHOD_NAMES.values())
    seen = set()
    for ci in choices:
        for bootstrap_method in ("percentile", "bca") if ci == "bootstrap" else ("percentile",):
            reports = compute_reports(assessment, ci=ci, n_resamples=50, bootstrap_method=bootstrap_method,
                                      models=list(assessment.models)[:1])
            for report in reports.values():
                methods = [r.how for r in report.results if r.how]
                cells = model_frame(report)["method"]
                for method in methods:
                    assert method.words.split(",")[0] in names, method
                for cell in cells:
                    assert not re.search(r"\b[a-z]+-[a-z]+\b", cell.split(",")[0]), cell
                seen.update(methods)
    assert seen, f"{sample}: no interval computed, so nothing was checked"
