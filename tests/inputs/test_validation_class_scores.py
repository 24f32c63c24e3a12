"""A binary file whose per-class score columns give no score of the positive class: said as an error, not a crash.

The fuzzer of issue 31 found a 20-line CSV that crashed the Data page (and the command line, with exit 2 "bad input"
for our bug): the truth holds two classes, so the task is binary, but the predicted labels and the ``proba_<class>``
columns add a third class (``0``, ``1`` in ``y_true``; ``proba_0``, ``proba_2``). Validation unpacked the class-score
pairs as if there were exactly one, the other class's, to read P(positive) = 1 − P(other). With two pairs there is
no such reading (1 − P(0) is P(1) + P(2) for a three-class model), and with one pair of a class the truth lacks
neither: both are now a blocking problem naming the columns, and the one column of the other class is still read as
its complement (hand-worked: P(1) = 1 − P(0) holds only for a two-class model). At the end, a crash of the same
kind found while sweeping the command line: the clustering task chosen for a file without clusters.
"""

import pytest

from assess.core.errors import AssessError
from assess.inputs.assessment import describe
from assess.inputs.read import read_table
from assess.inputs.roles import Overrides

#: The fuzzer's shape: 19 data rows, truth 0/1, a prediction of class 2 in row 2, columns for classes 0 and 2.
THREE_CLASS_SCORES = ("y_true,y_pred,proba_0,proba_2\n"
                      + "".join(f"{i % 2},{2 if i == 1 else i % 2},{0.8 - 0.6 * (i % 2)},0.1\n" for i in range(19)))


def _describe(text: str, overrides: Overrides | None = None):
    return describe(read_table(text.encode(), name="found.csv"), overrides)


def test_two_class_score_columns_without_the_positive_class_are_one_error_naming_them():
    a = _describe(THREE_CLASS_SCORES)
    assert a.positive == "1" and a.roles.class_scores == (("0", "proba_0"), ("2", "proba_2"))
    [error] = a.errors
    assert error.code == "no_positive_score" and error.column == "proba_0" and error.count == 2
    assert error.message.startswith("no probability column for the positive class `1`, only `proba_0` for `0`, "
                                    "`proba_2` for `2`")
    with pytest.raises(AssessError, match=r"^found\.csv: no probability column for the positive class `1`"):
        a.predictions()


def test_one_column_of_a_class_the_truth_lacks_is_not_read_as_the_complement():
    """``--score 2=p`` on a 0/1 file: the old message said "read as 1 − `p`" and the encoder then raised KeyError."""
    text = "y_true,y_pred,p\n" + "".join(f"{i % 2},{i % 3 == 0:d},0.{i}\n" for i in range(10))
    a = _describe(text, Overrides().with_role("class_scores", {"2": "p"}))
    assert [p.code for p in a.errors] == ["no_positive_score"]
    assert not [p for p in a.problems if p.code == "complement_score"]
    assert "only `p` for `2`" in a.errors[0].message


def test_the_one_column_of_the_other_class_is_still_its_complement():
    text = "y_true,y_pred,proba_0\n" + "".join(f"{i % 2},{i % 3 == 0:d},0.{i}\n" for i in range(10))
    a = _describe(text)
    assert not a.errors
    [complement] = [p for p in a.problems if p.code == "complement_score"]
    assert "read as 1 − `proba_0`" in complement.message


def test_the_clustering_task_chosen_for_a_file_without_clusters_is_an_error_not_a_key_error():
    """Found while sweeping the command line for exit 70 (issue 31, item 4): ``--task clustering`` (or the Data
    page's task chooser) on a file with no cluster column read the column `None` in validation — KeyError."""
    from assess.core.data import Task

    text = "y_true,y_pred\n" + "".join(f"{i % 2},{i % 3 == 0:d}\n" for i in range(10))
    a = _describe(text, Overrides(task=Task.CLUSTERING))
    [error] = a.errors
    assert error.code == "no_clusters"
    assert error.message.startswith("no cluster-assignment column for the clustering task: name one `cluster`")
    with pytest.raises(AssessError, match=r"^found\.csv: no cluster-assignment column"):
        a.predictions()
