"""Fuzzing the whole pipeline in-process: a small hostile CSV either gives results or the project's own `AssessError`.

Hypothesis writes random small CSV texts: column names from the synonym table (`assess.inputs.roles.SYNONYMS`), the
per-class and multi-label prefixes and noise; cells from a palette of hostile values (empty, NA, None, -1, 1e308,
inf, nan, integers beyond 64 bits, ``=1+1``, unicode, whitespace, labels that look like numbers …), duplicated
column names included. Each text goes through everything a page or ``python -m assess metrics`` does: reading
(`assess.inputs.read.read_table`), roles, task and validation (`assess.inputs.assessment.describe`), the decision rule and the metrics
(`assess.metrics.reports.compute_reports`, which calls `evaluate`). What may come out is a result, a list of
validation problems, or an `AssessError`; anything else (a `ValueError` from deep inside `evaluate`, a `KeyError`)
is a page crash and an exit status 70 of the CLI.

Every bad input must be stopped at validation time: when `describe` finds no blocking problem, encoding and
computing must succeed (the only `AssessError` accepted after validation is the decision rule asking for what a
model lacks, e.g. labels from scores when the file has no score column, which is the user's choice).

The audit of issue 15 found four kinds of escape; each is pinned below with ``@example`` (see `FOUND`). Run with
``HYPOTHESIS_PROFILE=dev`` and a ``--hypothesis-seed`` to hunt for new ones; pin what is found.
"""

from __future__ import annotations

import csv
import io

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from assess.core.data import Task
from assess.core.decision import AUTO, LABELS, SCORES, Decision
from assess.core.errors import AssessError
from assess.inputs.assessment import describe
from assess.inputs.read import read_table
from assess.inputs.roles import SYNONYMS
from assess.metrics.evaluate import evaluate
from assess.metrics.reports import compute_reports

#: Roles whose synonyms the fuzzer draws column names from (the ones `compute_reports` reads, and a few others).
_ROLES = ("y_true", "y_pred", "score", "model", "id", "fold", "weight", "group", "cluster", "timestamp")
NAMES = sorted({name for role in _ROLES for name in SYNONYMS[role][:4]}
               | {"proba_cat", "proba_dog", "proba_1", "proba_0", "prob_NA", "p_a", "score_cat",
                  "true_a", "true_b", "pred_a", "pred_b", "y_pred_m1", "y_pred_m2", "score_m1",
                  "x_1", "notes", "Unnamed: 0", "", " ", "y_true ", "Y_TRUE", "=cmd", "ünï"})

#: Hostile cell values; labels are drawn from a smaller set so that classes repeat across rows.
CELLS = ("", "NA", "N/A", "None", "null", "nan", "NaN", "-", "?", "-1", "0", "1", "2", "1.0", "0.5", "0.25", "1e308",
         "-1e308", "inf", "-inf", "99999999999999999999999", "-99999999999999999999999", "=1+1", "@SUM(A1)", "cat",
         "dog", "Cat", " cat ", "ünïcödé", "🐈", "a|b", "|", "true", "False", "yes", "0x1F", "1,5", "01", "1e3",
         "\t", "  ", "007", "m1", "m2")

#: Failures the audit of issue 15 and the hunts found (at commit f773faa), each a CSV text; pinned below with @example.
FOUND = {
    # compute_reports → evaluate: "`pred` has neither `y_pred` nor `scores`" (139× in the audit). A multi-class file
    # with one score column (one score cannot rank three classes) …
    "neither y_pred nor scores: multi-class, one score": "y_score,y_true\n1,m1\n1, cat \n1,dog\n",
    # … a label-set (multi-label) truth with a score column of a wide model …
    "neither y_pred nor scores: label sets, a score": "y_true,prob_NA\na|b,0.5\na|b,0.25\n",
    # … and multi-label indicators with a prediction for one label of two.
    "neither y_pred nor scores: a label without pred_": "true_a,true_b,pred_a\n1,0,1\n0,1,0\n",
    # "`y_pred` must hold codes 0..k-1" (16×): decimals in a predicted-label column are not read as labels, so their
    # codes were -1 ("no class").
    "y_pred codes out of range": "y_true,prediction\ncat,0.25\ndog,1\ncow,0.25\n",
    # every weight zero: evaluate's check_weight raised ValueError (2×)
    "all-zero weights": "y_true,y_pred,weight\n1,0,0\n0,0,0\n1,1,0\n",
    # IndexError in Assessment.predictions: a model column with no value at all gives no model
    "no model at all": "classifier,y_true\n  ,-\n",
    # ValueError in np.bincount (the stray-class note of "one score cannot rank k classes"): a missing truth's code
    # is -1
    "missing truth beside a stray class": "cv_fold,date,prob,target,=cmd\n" + ",,,,\n" * 9 + ",,,NA,\n,,,N/A,\n"
                                          ",,,None,\n",
    # issue 31: ValueError "too many values to unpack" in validation (a page crash): a binary truth (0, 1) whose
    # predicted labels and `proba_<class>` columns add a class 2, and no column for the positive class 1.
    "class scores of three classes on a binary truth": "y_true,y_pred,proba_0,proba_2\n0,0,0.8,0.1\n1,2,0.2,0.1\n",
}
#: Found later, and now assessed rather than refused: `KeyError: None` in schema.py (CI's run after the wide
#: clusterings): a clustering file whose one model is a classifier's wide score column read that model's (absent)
#: cluster column instead of `cluster`.
CLUSTER_BESIDE_A_WIDE_SCORE = "cluster_id,prob_NA,cluster\n,,NA\n"
#: `KeyError: 'NA'` in schema.py (1×): a label `NA` in one column and an empty cell elsewhere. It no longer
#: reproduced at f773faa (a binary file's one class column is read as its complement); kept as a pin. Refused at
#: first for its empty truth, now assessed: that row is unlabelled (issue 35 §3), the other two are measured.
KEY_ERROR_NA = "y_true,proba_NA\nNA,0.3\ncat,0.8\n,0.5\n"


def _csv_text(header: list[str], rows: list[list[str]]) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return buf.getvalue()


# The strategies are built once: a `sampled_from` built per cell (up to 72 a text) cost Hypothesis more time than
# the pipeline it feeds. The law of a text is the same (each cell uniform over its column's palette).
_NAME = st.sampled_from(NAMES)
_PALETTE = st.lists(st.sampled_from(CELLS), min_size=1, max_size=4)
_PICK = {size: st.integers(0, size - 1) for size in range(1, 5)}


@st.composite
def csv_texts(draw) -> str:
    """A CSV text of 1–6 columns (names from `NAMES`, maybe duplicated) and 1–12 rows of hostile cells."""
    n_cols = draw(st.integers(1, 6))
    header = draw(st.lists(_NAME, min_size=n_cols, max_size=n_cols))
    n_rows = draw(st.integers(1, 12))
    # Each column draws from its own small palette, so labels repeat and files are often assessable.
    palettes = [draw(_PALETTE) for _ in header]
    rows = [[p[draw(_PICK[len(p)])] for p in palettes] for _ in range(n_rows)]
    return _csv_text(header, rows)


def run_pipeline(text: str, decision: Decision = Decision()) -> None:
    """Read, describe, validate and compute as the Metrics page does; only results or an `AssessError` may leave."""
    try:
        table = read_table(text.encode("utf-8"), name="fuzz.csv")
        assessment = describe(table)
    except AssessError:
        return
    if assessment.errors:
        with pytest.raises(AssessError):
            assessment.predictions()
        return
    if not assessment.task.is_classification:
        for model in assessment.models:
            assessment.predictions(model)
        return
    try:
        if assessment.task is Task.MULTILABEL:
            # The multi-label baselines are simulated (about 2 s a file whatever its size): the same metrics without
            # them, through `evaluate` directly, keep thousands of examples within a minute.
            reports = {m: evaluate(assessment.predictions(m), decision=decision, baselines=False)
                       for m in assessment.models}
        else:
            reports = compute_reports(assessment, decision=decision)
    except AssessError as exc:
        # After validation only the user's decision rule may be refused: labels asked of a model without them.
        assert decision.source != AUTO, f"validation passed, yet: {exc}"
        return
    assert set(reports) == set(assessment.models)


@pytest.mark.parametrize("found", sorted(FOUND))
def test_found_failures_are_stopped_at_validation(found):
    """Each failure found is now an error of `describe`'s validation, with a message, before any metric runs."""
    assessment = describe(read_table(FOUND[found].encode(), name="found.csv"))
    assert assessment.errors, [p.message for p in assessment.problems]
    with pytest.raises(AssessError, match=r"^found\.csv: "):
        assessment.predictions()


@settings(max_examples=2000)
@given(csv_texts(), st.sampled_from([AUTO, LABELS, SCORES]))
@example(FOUND["neither y_pred nor scores: multi-class, one score"], AUTO)
@example(FOUND["missing truth beside a stray class"], AUTO)
@example(FOUND["neither y_pred nor scores: label sets, a score"], AUTO)
@example(FOUND["neither y_pred nor scores: a label without pred_"], AUTO)
@example(FOUND["y_pred codes out of range"], AUTO)
@example(FOUND["all-zero weights"], AUTO)
@example(FOUND["no model at all"], AUTO)
@example(KEY_ERROR_NA, AUTO)
@example(FOUND["class scores of three classes on a binary truth"], AUTO)
@example(CLUSTER_BESIDE_A_WIDE_SCORE, AUTO)
def test_pipeline_gives_results_or_an_assess_error(text, source):
    run_pipeline(text, Decision(source))
