"""AppTest of the "Planning" expander (ui/planning_panel.py) on the Metrics and Compare pages: the sentence for the
meeting from the loaded file, and the two planning forms, each checked against an oracle worked here from the sample
(Connor's formula by hand) or statsmodels."""

import math

import numpy as np
import pandas as pd
from scipy import stats as sps
from statsmodels.stats.power import NormalIndPower
from statsmodels.stats.proportion import proportion_effectsize

from tests.conftest import ROOT, open_app

TITLE = "Planning: is the test set large enough?"


def panel_text(at):
    [panel] = [e for e in at.expander if e.label == TITLE]
    return " ".join(m.value.replace("\\", "") for m in panel.markdown), panel


def test_metrics_page_says_what_the_sample_can_detect_between_its_first_two_models():
    at = open_app("views/metrics.py")
    text, panel = panel_text(at)
    # the oracle: Connor (1987) by hand on the sample's logistic and tree, paired by id
    data = pd.read_csv(ROOT / "assets/samples/breast_cancer_binary.csv")
    right = {m: (g.sort_values("id").y_true == g.sort_values("id").y_pred).to_numpy() for m, g in data.groupby("model")}
    a, b = right["logistic"], right["tree"]
    p10, p01 = np.mean(a & ~b), np.mean(~a & b)
    za, zb = sps.norm.ppf(0.975), sps.norm.ppf(0.8)
    psi, delta = p10 + p01, p10 - p01
    needed = math.ceil((za * math.sqrt(psi) + zb * math.sqrt(psi - delta ** 2)) ** 2 / delta ** 2)
    rounded = int(round(needed, -(len(str(needed)) - 2))) if needed >= 100 else needed
    assert f"With 569 cases you can detect a difference of about " in text
    assert f"in accuracy between these models; the observed {abs(delta) * 100:.1f} points would need about " \
           f"{rounded:,}" in text
    # the precision form's default (accuracy 0.9 ± 0.02, Wilson) and the independent-samples form
    assert "868 labelled rows give a 95% Wilson interval of ±2.0 points around an accuracy of 90.0%." in text
    [design] = [r for r in panel.radio if r.label == "Compare"]
    design.set_value("Accuracy, separate rows (two proportions)").run()
    assert not at.exception
    per_group = math.ceil(NormalIndPower().solve_power(proportion_effectsize(0.9, 0.85), alpha=0.05, power=0.8))
    assert f"{2 * per_group:,} labelled rows, {per_group:,} per model on separate rows" in panel_text(at)[0]


def test_compare_page_plans_on_its_metric_roc_auc():
    at = open_app("views/compare.py")
    text, _ = panel_text(at)
    assert "in ROC AUC for malignant between these models" in text
    assert "None" not in text and "_" not in text
    # the difference form starts from the two AUCs and their correlation observed in the file (logistic vs tree)
    assert "labelled rows" in text and "detect ROC AUCs of 0.990 and 0.950" in text


def test_a_regression_file_is_not_offered_accuracy_and_roc_auc_forms():
    """Walk of issue 36 on the diabetes sample: under the file's sentence on mean absolute error, the panel planned
    "868 labelled rows … around an accuracy of 90.0%" for a file that has no accuracy."""
    at = open_app("views/compare.py", sample="Diabetes — regression, 3 models, 5 folds")
    text, panel = panel_text(at)
    assert "in mean absolute error between these models" in text
    assert "accuracy" not in text and not [r for r in panel.radio if r.label in ("Metric", "Compare")]
    assert any("this file is regression" in c.value for c in panel.caption)
