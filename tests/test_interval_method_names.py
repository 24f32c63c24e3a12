"""Interval methods in words (`assess.intervals.method_name`): the Metrics page's per-model tables show "Wilson score"
and "Bootstrap percentile, 1,000 resamples", never a method key ("wilson", "bootstrap-percentile (1000 resam…").

Oracles: the method names of the literature (Wilson 1927's score interval; Clopper & Pearson 1934; DeLong, DeLong &
Clarke-Pearson 1988; Efron 1987's BCa) written out by hand, and every method string `evaluate` produces on the
samples of every task with every interval choice of the Metrics page (none may fall through to the key itself).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from assess.intervals import METHOD_NAMES, method_name
from assess.io import read_table
from assess.metrics.reports import compute_reports
from assess.schema import describe
from assess.summary import model_frame

SAMPLES = Path(__file__).resolve().parents[1] / "assets" / "samples"


@pytest.mark.parametrize("method, words", [
    ("wilson", "Wilson score"),
    ("wilson (Kish effective n)", "Wilson score, Kish effective n"),
    ("clopper-pearson", "Clopper–Pearson exact"),
    ("normal", "Normal approximation"),
    ("delong", "DeLong"),
    ("delong-logit", "DeLong, logit scale"),
    ("t, mean of per-row losses", "Student t, mean of per-row losses"),
    ("bootstrap-percentile (1000 resamples, seed 0, multinomial, stratified)", "Bootstrap percentile, 1,000 resamples"),
    ("bootstrap-bca (500 resamples, seed 7, poisson, stratified; 3 undefined resamples dropped)",
     "Bootstrap BCa, 500 resamples, 3 undefined dropped"),
    ("block bootstrap (studentized, moving-block(l=3.2), Politis–White; 2000 resamples, seed 0)",
     "Studentized block bootstrap, 2,000 resamples"),
    ("t-interval over 20 seeded samples of 2,000 rows (seed 0)", "Student t, 20 seeded samples"),
    (None, ""),
    ("exact conditional (Cornfield)", "Exact conditional (Cornfield)"),   # no key of its own: the words as they are
])
def test_method_in_words(method, words):
    assert method_name(method) == words


def test_a_key_is_matched_whole():
    """"t" names the Student t interval, not every method starting with a t; "delong" is not "delong-logit"."""
    assert method_name("two-sample thing") == "Two-sample thing"
    assert method_name("delong-logit") != method_name("delong")


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
            reports = compute_reports(assessment, ci=ci, resamples=50, bootstrap_method=bootstrap_method,
                                      models=list(assessment.models)[:1])
            for report in reports.values():
                methods = [r.method for r in report.results if r.method]
                cells = model_frame(report)["method"]
                for method in methods:
                    assert method_name(method).split(",")[0] in names, method
                for cell in cells:
                    assert not re.search(r"\b[a-z]+-[a-z]+\b", cell.split(",")[0]), cell
                seen.update(methods)
    assert seen, f"{sample}: no interval computed, so nothing was checked"
