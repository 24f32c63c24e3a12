"""The command line on the files and habits of real users (issue 11, "Command line"): bootstrap progress on stderr,
a default metric for ``compare --test all`` that it names, advice that fits one model, CLI options in messages
instead of the Data page, and ``--flip-score``. Oracles: scikit-learn for the numbers."""

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import roc_auc_score

from assess.cli import main

ROOT = Path(__file__).resolve().parents[2]
BINARY = str(ROOT / "assets/samples/breast_cancer_binary.csv")
WINE = str(ROOT / "assets/samples/wine_multiclass.csv")


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out.strip().startswith("{") else out), err


def test_bootstrap_progress_goes_to_stderr_in_tenths(capsys, monkeypatch):
    monkeypatch.setattr("assess.cli.progress.SHOW_AFTER_SECONDS", 0.0)     # as if the intervals took long
    code, doc, err = run(capsys, "metrics", BINARY, "--models", "tree", "--ci", "auto", "--resamples", "100")
    assert code == 0 and doc["models"]["tree"]["f1"]["low"] is not None  # stdout stays pure JSON
    shares = [int(m) for m in re.findall(r"intervals \(up to 100 bootstrap resamples where no analytic interval "
                                         r"exists\): (\d+) % \(\d+ s\)", err)]
    assert shares and shares == sorted(set(shares)) and shares[-1] == 100
    assert doc["settings"]["resamples"] == 100               # under auto the most drawn; each method gives the count
    assert doc["settings"]["resampling"].startswith("sequential")


def test_intervals_of_a_small_file_print_no_progress(capsys):
    """A 569-row file's intervals take well under the 2 s after which progress is shown: no ten lines of it."""
    code, _, err = run(capsys, "metrics", BINARY, "--models", "tree", "--ci", "auto")
    assert code == 0 and "intervals" not in err and "%" not in err


def test_progress_is_shown_from_the_first_tenth_after_its_delay(monkeypatch):
    import io

    from assess.cli import progress
    now = [0.0]
    monkeypatch.setattr(progress.time, "monotonic", lambda: now[0])
    out = io.StringIO()
    bar = progress.StderrProgress("x", out, after=2.0)                  # started at 0 s
    for fraction, at in ((0.1, 0.5), (0.2, 1.0), (0.3, 2.5), (0.6, 3.0), (1.0, 4.0)):
        now[0] = at
        bar(fraction)
    assert out.getvalue().splitlines() == ["x: 30 % (2 s)", "x: 60 % (3 s)", "x: 100 % (4 s)"]


def test_quiet_and_no_interval_print_no_progress(capsys):
    assert run(capsys, "metrics", BINARY, "--models", "tree", "--ci", "auto", "--resamples", "100", "--quiet")[2] == ""
    assert run(capsys, "metrics", BINARY, "--models", "tree")[2] == ""


def test_compare_all_names_the_metric_it_chose_for_the_bootstrap(capsys):
    code, doc, _ = run(capsys, "compare", BINARY, "--test", "all")
    assert code == 0
    assert doc["metric"] == "roc_auc" and "ROC AUC" in doc["metric_reason"]
    # unweighted ROC AUC: DeLong's test answers it, the bootstrap of the same difference is skipped with the reason
    assert "DeLong's test above compares the same ROC AUC difference" in doc["skipped"]["paired_bootstrap"]
    assert [t["test"] for t in doc["tests"]][0] == "delong"    # the test of the metric compared comes first
    code, explicit, _ = run(capsys, "compare", BINARY, "--test", "paired_bootstrap", "--metric", "roc_auc")
    # and the bootstrap's observed difference is scikit-learn's difference of AUCs
    data = pd.read_csv(BINARY)
    auc = {m: roc_auc_score(g.y_true == "malignant", g.score) for m, g in data.groupby("model")}
    first = explicit["pairs"][0]
    assert abs(first["effect"]["value"]) == pytest.approx(abs(auc[first["model_a"]] - auc[first["model_b"]]))


def test_an_explicit_metric_leaves_no_metric_reason(capsys):
    code, doc, _ = run(capsys, "compare", BINARY, "--test", "all", "--metric", "f1")
    assert code == 0 and "metric_reason" not in doc


def test_one_model_gets_advice_that_fits(capsys, tmp_path):
    path = tmp_path / "one.csv"
    data = pd.read_csv(BINARY)
    data[data.model == "tree"].drop(columns="model").to_csv(path, index=False)
    code, _, err = run(capsys, "compare", str(path), "--test", "all")
    assert code == 2
    assert "needs at least 2 models" in err and "--model-col" in err and "two_models" not in err


@pytest.mark.parametrize("csv,option", [
    ("a,b\n1,2\n3,4\n", "--y-true"),                  # no ground truth found
    ("y_true,x\n1.5,2\n2.5,3\n", "--y-pred"),          # regression without a prediction
    ("y_true,weight\n1,1\n0,1\n", "--score"),          # classification without a prediction
    ("y_true,y_pred\na,0.5\nb,0.75\nc,0.25\n", "--score"),  # decimals where labels belong
])
def test_messages_name_the_cli_option_not_the_data_page(capsys, tmp_path, csv, option):
    path = tmp_path / "f.csv"
    path.write_text(csv)
    code, _, err = run(capsys, "metrics", str(path))
    assert code == 2 and option in err
    assert "Data page" not in err and "choose it" not in err and "choose them" not in err


def test_inspect_problems_use_the_cli_words(capsys, tmp_path):
    path = tmp_path / "f.csv"
    path.write_text("y_true,weight\n1,1\n0,1\n")
    code, doc, _ = run(capsys, "inspect", str(path))
    assert code == 2 and "--score" in doc["problems"][0]["message"]


@pytest.fixture
def inverted(tmp_path):
    rng = np.random.default_rng(11)
    y = rng.integers(0, 2, 400)
    p = 1 / (1 + np.exp(-(2.5 * y - 1.25 + rng.normal(0, 1, 400))))  # a good model's P(positive)
    path = tmp_path / "inverted.csv"
    pd.DataFrame({"y_true": y, "score": 1 - p}).to_csv(path, index=False)  # saved: P(negative)
    return path, y, p


def test_inverted_score_warns_on_stderr_and_flip_score_fixes_it(capsys, inverted):
    path, y, p = inverted
    code, doc, err = run(capsys, "metrics", str(path), "--metrics", "roc_auc")
    assert code == 0 and doc["models"]["inverted"]["roc_auc"] == pytest.approx(roc_auc_score(y, 1 - p))
    assert err.startswith("warning: inverted.csv: the score `score` looks inverted") and "--flip-score" in err
    code, doc, err = run(capsys, "metrics", str(path), "--metrics", "roc_auc", "--flip-score")
    assert code == 0 and err == ""
    assert doc["models"]["inverted"]["roc_auc"] == pytest.approx(roc_auc_score(y, p))


def test_flip_score_refuses_a_multiclass_file(capsys):
    code, _, err = run(capsys, "metrics", WINE, "--flip-score")
    assert code == 2 and "--flip-score applies to a binary file" in err
