"""`assess.present.report_view`: the Report page's settings, cost classes and costs, on the samples and by hand."""

import json

import numpy as np
import pytest

from assess.core.decision import Decision
from assess.inputs.assessment import describe
from assess.inputs.read import read_table
from assess.inputs.roles import Overrides
from assess.core.errors import AssessError
from assess.present.report_view import cost_classes, costs_from_grid, report_settings
from assess.present.settings import Settings
from tests.conftest import ROOT

SAMPLES = ROOT / "assets" / "samples"


@pytest.fixture(scope="module")
def binary():
    return describe(read_table(SAMPLES / "breast_cancer_binary.csv"))


def test_cost_classes_only_for_one_label_per_sample(binary):
    assert len(cost_classes(binary)) == 2
    assert cost_classes(describe(read_table(SAMPLES / "diabetes_regression.csv"))) == []
    assert len(cost_classes(describe(read_table(SAMPLES / "wine_multiclass.csv")))) == 3


def test_costs_from_grid_keeps_the_confusion_pages_rule():
    """The Report page's grid takes what the Confusion page and the report take (one rule,
    `decision_costs.cost_matrix`): a benefit as a negative cost; an empty cell is refused, named."""
    assert costs_from_grid([[0, 1], [5, 0]], ["a", "b"]) == ((0.0, 1.0), (5.0, 0.0))
    assert costs_from_grid([[0, -1], [5, 0]], ["a", "b"]) == ((0.0, -1.0), (5.0, 0.0))
    with pytest.raises(AssessError, match="first: true `a`, predicted `b`"):
        costs_from_grid([[0, np.nan], [5, 0]], ["a", "b"])


def test_settings_carry_the_data_page_roles_the_decision_and_the_answers(binary):
    overrides = Overrides().with_role("groups", ("id",)).with_role("fold", "fold")
    by_scores = report_settings(binary, Settings(), overrides, Decision(source="scores", threshold=0.3),
                                title="T", paper="letter", ci="wilson", n_resamples=500, costs=None,
                                checklist={"a": " ", "b": "yes"})
    doc = json.loads(by_scores.to_json())
    assert doc["roles"]["groups"] == ["id"] and doc["roles"]["fold"] == "fold"
    assert (by_scores.threshold, by_scores.labels_from, by_scores.paper, by_scores.title) == (0.3, "scores", "letter", "T")
    assert by_scores.checklist == {"b": "yes"}              # blank answers are not answers
    by_labels = report_settings(binary, Settings(), Overrides(), Decision(source="labels", threshold=0.3),
                                title="T", paper="a4", ci="auto", n_resamples=1000, costs=None, checklist={})
    assert by_labels.threshold is None                      # a threshold only where scores decide
