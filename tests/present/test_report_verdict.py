"""The report's verdict with more than two models names the test and the metric (issue 33 §2): it quoted the pairs'
summary, '3 of 3 pairs differ significantly …', which says neither."""

from pathlib import Path

import pytest

from assess.inputs.assessment import describe
from assess.inputs.read import read_table
from assess.present.report import ReportOptions, build_report

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("sample, lead", [
    ("breast_cancer_binary.csv", "DeLong's test on ROC AUC: "),          # 3 models, ROC AUC the headline
    ("diabetes_regression.csv", "Paired bootstrap on mean absolute error: "),
])
def test_the_verdict_of_three_models_names_its_test_and_metric(sample, lead):
    path = ROOT / "assets/samples" / sample
    assessment = describe(read_table(path.read_bytes(), name=sample))
    report = build_report(assessment, ReportOptions(charts=False, n_resamples=200))
    assert len(report.models) == 3
    assert report.verdict.startswith(lead), report.verdict
