"""A predictions file of repeated cross-validation (each sample id once per repeat) is read, not refused: the `repeat`
role, rows identified by (model, id, repeat), the design said once (r repeats × k folds) and duplicates within a
repeat still refused with the column and an example row. Oracle: the file as scikit-learn's RepeatedStratifiedKFold
wrote it (`tests.repeated_cv`) and its rows counted with pandas."""

from __future__ import annotations

import pandas as pd
import pytest

from assess.inputs.assessment import describe
from assess.inputs.read import read_table
from assess.inputs.roles import Overrides, detect_roles
from tests.repeated_cv import repeated_cv_frame


def described(frame: pd.DataFrame, name: str = "repeated_cv.csv"):
    return describe(read_table(frame.to_csv(index=False).encode(), name=name))


@pytest.mark.parametrize("name", ["repeat", "Repetition", "rep", "cv_repeat", "repeat_id"])
def test_the_names_of_a_cv_repeat_are_the_repeat_role(name):
    roles = detect_roles(pd.DataFrame({"id": [1], "fold": [1], name: [1], "y_true": [0], "y_pred": [0]}))
    assert roles.repeat == name


@pytest.mark.parametrize("name", ["run", "iteration", "epoch"])
def test_a_run_or_an_iteration_is_no_repeat(name):
    """An MLflow `run` names a trained configuration and an `iteration` a boosting round: reading either as a CV
    repeat would pair rows by (id, run) — so they keep no role unless chosen."""
    assert detect_roles(pd.DataFrame({"id": [1], name: [1], "y_true": [0], "y_pred": [0]})).repeat is None


def test_a_repeated_cv_file_is_assessed_and_its_design_said():
    frame = repeated_cv_frame()
    assessment = described(frame)
    assert assessment.roles.repeat == "repeat" and not assessment.errors
    [note] = [p for p in assessment.warnings if p.code == "repeated_cv"]
    blocks = frame.groupby("repeat")["fold"].nunique()
    assert (len(blocks), blocks.max()) == (5, 2)
    assert note.message.startswith("repeated cross-validation: 5 repeats × 2 folds (`repeat`, `fold`)")
    assert "every sample counted 5 times" in note.message and "5×2cv" in note.message
    logreg = assessment.predictions("logreg")
    rows = frame[frame["model"] == "logreg"]
    assert logreg.n == len(rows) == 5 * 569
    assert list(logreg.repeat[:3]) == [str(r) for r in rows["repeat"].iloc[:3]]


def test_a_sample_twice_in_one_repeat_is_refused_naming_the_column_and_row():
    frame = repeated_cv_frame()
    twice = frame.copy()
    first = twice.index[(twice["model"] == "logreg") & (twice["repeat"] == 3)][:2]
    twice.loc[first[1], "id"] = twice.loc[first[0], "id"]
    [error] = described(twice).errors
    row = int(first[1]) + 1                     # rows numbered from 1 for the first data row
    assert error.message == (f"column `id` has 1 duplicate id within a model and repeat (row {row}: "
                             f"`{twice.loc[first[0], 'id']}`); ids must be unique per model and repeat so rows can "
                             "be paired across models")
    assert (error.column, error.rows) == ("id", (row,))


def test_without_a_repeat_column_the_duplicates_say_how_to_read_repeated_cv():
    frame = repeated_cv_frame().rename(columns={"repeat": "run"})
    errors = described(frame).errors
    assert [e.code for e in errors] == ["duplicate_id"]
    assert errors[0].count == len(frame) - len(frame.drop_duplicates(["model", "id"]))   # 4 of 5 repeats
    assert "needs a `repeat` column (or choose it): rows then pair by id and repeat" in errors[0].message
    chosen = describe(read_table(frame.to_csv(index=False).encode(), name="run.csv"),
                      Overrides().with_role("repeat", "run"))
    assert not chosen.errors and chosen.roles.repeat == "run"


def test_without_ids_the_design_is_said_without_pairing_by_id():
    [note] = [p for p in described(repeated_cv_frame().drop(columns="id")).warnings if p.code == "repeated_cv"]
    assert note.message.startswith("repeated cross-validation: 5 repeats × 2 folds (`repeat`, `fold`), each sample "
                                   "scored once per repeat. Metrics pool")


def test_a_repeat_without_folds_is_said():
    frame = repeated_cv_frame().drop(columns="fold")
    codes = [p.code for p in described(frame).problems]
    assert "repeat_without_fold" in codes and "repeated_cv" not in codes
