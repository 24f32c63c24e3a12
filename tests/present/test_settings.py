"""The settings file against hostile and misfitting input (issue 31, item 2): one schema, the widgets' ranges, a size
and depth limit, and a message naming the file, the key and the value for every refused or ignored entry — never
another exception, in the app (tests/views/test_report.py) and the command line alike.

Oracles: the ranges are the widgets' own (Streamlit checks a number_input's value against its min and max, so a value
outside them is the Report page's error box); the file's scores, read with pandas, for the threshold beyond them; the
classes of the sample files, counted by hand (breast cancer: benign, malignant; wine: 3 classes).
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given, settings as hsettings, strategies as st

from assess.cli import main
from assess.core.errors import AssessError
from assess.inputs.assessment import describe
from assess.inputs.read import read_table
from assess.inputs.roles import Overrides
from assess.present.settings import (BETA, CONFIDENCE_LEVEL, K, MAX_BYTES, MAX_DEPTH, MAX_TITLE, RESAMPLES, SEED,
                                     Settings)

ROOT = Path(__file__).resolve().parents[2]
BINARY = str(ROOT / "assets/samples/breast_cancer_binary.csv")
MULTICLASS = str(ROOT / "assets/samples/wine_multiclass.csv")
REGRESSION = str(ROOT / "assets/samples/diabetes_regression.csv")
HEAD = '{"format": "assess-settings", "version": 1, '


def doc(**keys) -> str:
    return json.dumps({"format": "assess-settings", "version": 1, **keys})


def refused(text: str, *parts: str) -> str:
    with pytest.raises(AssessError) as caught:
        Settings.loads(text, source="hostile.json")
    message = str(caught.value)
    assert message.startswith("hostile.json: "), message
    for part in parts:
        assert part in message, (part, message)
    return message


# --- refused: each crashed a page or ran away before ----------------------------------------------------------------

@pytest.mark.parametrize("value", [10, 99, 100_001, 1_000_000])
def test_resamples_outside_the_report_widget_are_refused(value):
    """10 was accepted and made every later Report page an error box (its widget starts at 100); 1,000,000 ran the
    command line for minutes."""
    refused(doc(resamples=value), "'resamples'", f"{value}", "100 to 100,000")


def test_the_widget_range_is_the_loader_range():
    assert (RESAMPLES.low, RESAMPLES.high) == (100, 100_000)
    for value in (RESAMPLES.low, RESAMPLES.high):
        assert Settings.loads(doc(resamples=value)).n_resamples == value


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 5_000, 100_000])
def test_deep_nesting_names_the_key_instead_of_recursing(depth):
    """100,000 nested lists raised RecursionError (exit 70 on the command line, an error box in the app)."""
    text = HEAD + '"roles": {"groups": ' + "[" * depth + "]" * depth + "}}"
    refused(text, "'roles.groups[0]", f"more than {MAX_DEPTH} levels")


def test_a_saved_file_is_well_within_the_depth():
    saved = Settings(roles={"class_scores": {"a": "p_a"}}, costs=((0.0, 1.0), (2.0, 0.0)))
    assert Settings.loads(saved.to_json()).to_dict() == saved.to_dict()


def test_a_long_integer_names_the_key():
    """5,000 digits gave Python's own 'Exceeds the limit (4300 digits) for integer string conversion'."""
    refused(HEAD + '"seed": ' + "9" * 5_000 + "}", "'seed'", "5,000 digits")
    refused(HEAD + '"costs": [[0, 1], [1, ' + "1" * 4_400 + "]]}", "'costs[1][1]'", "4,400 digits")


@pytest.mark.parametrize("literal, what", [("NaN", "NaN"), ("Infinity", "Infinity"), ("-Infinity", "-Infinity"),
                                           ("1e999", "too large")])
def test_numbers_json_does_not_have_name_the_key(literal, what):
    refused(HEAD + '"decision": {"threshold": ' + literal + "}}", "'decision.threshold'", what)


def test_an_oversized_file_is_refused_by_its_size(tmp_path):
    """A settings file of megabytes was parsed whole (its title cut silently to 200 characters)."""
    big = doc(title="x" * MAX_BYTES)
    refused(big, f"over {MAX_BYTES:,} bytes")
    path = tmp_path / "big.json"
    path.write_text(big, encoding="utf-8")
    with pytest.raises(AssessError, match=r"^big\.json: over"):
        Settings.read(path)


def test_a_title_longer_than_its_field_is_refused():
    refused(doc(title="t" * (MAX_TITLE + 1)), "'title'", f"{MAX_TITLE + 1:,} characters", f"at most {MAX_TITLE}")


@pytest.mark.parametrize("keys, parts", [
    ({"tests": ["mcnemar", "no_such_test"]}, ("'tests'", "'no_such_test'", "mcnemar, cochran_q")),
    ({"correction": "sidak"}, ("'correction'", "'sidak'", "auto, bonferroni, holm")),
    ({"ci": "jackknife"}, ("'ci'", "'jackknife'", "wilson")),
    ({"metrics": ["accuracy", "acuracy"]}, ("'metrics'", "'acuracy'", "no metric of any task")),
    ({"version": True}, ("settings version True",)),
    ({"display_names": {"models": {"lr": ["a", "list"]}}}, ("'display_names.models.lr'", "must be text")),
    ({"decision": {"threshold": 0.5, "cutoff": 1}}, ("'decision'", "'cutoff'")),
    ({"costs": [[0, 1], [1, "x"]]}, ("'costs[1][1]'", "'x'")),
    ({"k": 0}, ("'k'", "1 to 10,000")),
])
def test_entries_that_fit_no_file_are_refused(keys, parts):
    """An unknown test, correction, interval method or metric went through to the report or the command line, and
    failed there (or not at all) without naming the settings file."""
    refused(doc(**keys), *parts)


def test_the_command_line_refuses_the_runaway_through_config(tmp_path, capsys):
    config = tmp_path / "s.json"
    config.write_text(doc(resamples=1_000_000), encoding="utf-8")
    assert main(["metrics", BINARY, "--config", str(config), "--ci", "bootstrap"]) == 2
    err = capsys.readouterr().err
    assert "s.json: 'resamples' must be from 100 to 100,000 (got 1000000)" in err and err.count("\n") == 1


@pytest.mark.parametrize("command", ["metrics", "report"])
def test_resamples_flag_takes_the_same_range_and_says_it(command, capsys):
    with pytest.raises(SystemExit) as stopped:
        main([command, BINARY, "--resamples", "1000000", *(["--out", "r.zip"] if command == "report" else [])])
    assert stopped.value.code == 2
    assert "--resamples: must be from 100 to 100,000 (got 1000000)" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main([command, "--help"])
    assert "bootstrap resamples, 100 to 100,000" in " ".join(capsys.readouterr().out.split())


@pytest.mark.parametrize("flag, value, rng", [("--confidence-level", "0.3", CONFIDENCE_LEVEL), ("--beta", "0",
                                                                                                 BETA),
                                              ("--k", "0", K), ("--seed", "-1", SEED)])
def test_every_ranged_flag_is_checked(flag, value, rng, capsys):
    with pytest.raises(SystemExit):
        main(["metrics", BINARY, flag, value])
    assert f"must be from {rng}" in capsys.readouterr().err


# --- fitted to the file: what does not apply is ignored, and said -----------------------------------------------

def assessment_of(path: str):
    return describe(read_table(path), Overrides())


def test_entries_that_do_not_apply_to_the_file_are_dropped_with_a_warning_each():
    binary = assessment_of(BINARY)
    settings = Settings.loads(doc(metrics=["accuracy", "mae"], test_metric="rmse", models=["tree", "ridge"],
                                  costs=[[0, 1, 1], [1, 0, 1], [1, 1, 0]], k=5,
                                  display_names={"models": {"svm": "Support vectors"}},
                                  decision={"label_thresholds": {"news": 0.3}}), source="q2.json")
    fitted, notes = settings.fit(binary)
    assert fitted.metrics == ("accuracy",) and fitted.test_metric is None and fitted.models == ("tree",)
    assert fitted.costs is None and fitted.label_thresholds == {}
    assert all(note.startswith("q2.json: ") for note in notes)
    for key, value in (("'metrics'", "'mae'"), ("'test_metric'", "'rmse'"), ("'models'", "'ridge'"),
                       ("'costs'", "a 3×3 matrix"), ("'k'", "5"), ("'display_names.models'", "'svm'"),
                       ("'decision.label_thresholds.news'", "0.3")):
        assert any(f"{key}: {value} is ignored" in note for note in notes), (key, notes)
    assert len(notes) == 7


def test_a_fitting_file_has_nothing_to_say():
    saved = Settings(metrics=("accuracy", "roc_auc"), models=("tree",), costs=((0.0, 1.0), (5.0, 0.0)),
                     threshold=0.4, n_resamples=500)
    fitted, notes = Settings.loads(saved.to_json()).fit(assessment_of(BINARY))
    assert notes == () and fitted.to_dict() == saved.to_dict()


def test_a_threshold_beyond_every_score_is_kept_and_flagged():
    highest = pd.read_csv(BINARY)["score"].max()
    fitted, notes = Settings.loads(doc(decision={"threshold": 7})).fit(assessment_of(BINARY))
    assert fitted.threshold == 7
    assert notes == (f"settings: 'decision.threshold': 7.0 is above every score of this file (highest {highest:g}): "
                     "every sample is predicted negative",)


@pytest.mark.parametrize("path, why", [(MULTICLASS, "a multiclass file has no threshold"),
                                       (REGRESSION, "a regression file has no threshold")])
def test_a_threshold_where_none_applies_is_ignored(path, why):
    fitted, notes = Settings.loads(doc(decision={"threshold": 0.3})).fit(assessment_of(path))
    assert fitted.threshold is None and len(notes) == 1 and why in notes[0] and "'decision.threshold': 0.3" in notes[0]


def test_a_cost_matrix_of_the_files_size_is_kept():
    wine = assessment_of(MULTICLASS)
    assert len(wine.classes) == 3
    costs = [[0, 1, 2], [1, 0, 1], [2, 1, 0]]
    fitted, notes = Settings.loads(doc(costs=costs)).fit(wine)
    assert notes == () and fitted.costs == tuple(tuple(float(v) for v in row) for row in costs)


def test_the_command_line_prints_the_warnings_and_computes_the_rest(tmp_path, capsys):
    """A metric of another task failed the run ('unknown binary metric'); now it is ignored, said on stderr."""
    config = tmp_path / "s.json"
    config.write_text(doc(metrics=["mae", "accuracy"], ci=None), encoding="utf-8")
    assert main(["metrics", BINARY, "--config", str(config)]) == 0
    captured = capsys.readouterr()
    assert "warning: s.json: 'metrics': 'mae' is ignored: it is not a metric of binary files" in captured.err
    frame = pd.read_csv(BINARY)
    tree = frame[frame.model == "tree"]
    accuracy = (tree.y_true == tree.y_pred).mean()   # the file's own labels: the oracle
    assert json.loads(captured.out)["models"]["tree"] == {"accuracy": pytest.approx(accuracy)}


# --- property: any JSON value of any key loads inside the widgets' ranges, or is refused with AssessError ----------

JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
                    | st.text(max_size=20),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=12)
KEYS = ("task", "roles", "positive", "class_order", "display_names", "decision", "models", "metrics", "ci",
        "confidence_level", "resamples", "seed", "beta", "k", "tests", "test_metric", "correction", "costs",
        "checklist", "paper", "title", "requirements")
NESTED = {"decision": ("labels_from", "threshold", "label_thresholds"), "display_names": ("models", "classes"),
          "roles": ("y_true", "score", "class_scores", "groups"), "checklist": ("context", "baselines")}


def check_loaded(settings: Settings) -> None:
    """Every value a page puts in a widget is inside that widget's range."""
    assert RESAMPLES.holds(settings.n_resamples) and isinstance(settings.n_resamples, int)
    assert CONFIDENCE_LEVEL.holds(settings.confidence_level) and SEED.holds(settings.seed)
    assert BETA.holds(settings.beta) and K.holds(settings.k) and len(settings.title) <= MAX_TITLE
    assert settings.paper in ("a4", "letter") and settings.labels_from in ("auto", "labels", "scores")
    for row in settings.costs or ():
        assert len(row) == len(settings.costs) and all(isinstance(v, float) for v in row)
    assert settings.to_dict()   # and it saves again


def load_or_refuse(text: str) -> None:
    try:
        settings = Settings.loads(text, source="fuzz.json")
    except AssessError as exc:
        assert str(exc).startswith("fuzz.json: ")
        return
    check_loaded(settings)


#: Numbers around the ranges' ends, which the unbounded strategies above rarely reach.
NUMBERS = st.integers(-2_000_000, 2_000_000) | st.floats(-2e6, 2e6) | st.sampled_from([0, 1, 10, 99, 100_001, 2**32])


@hsettings(max_examples=400)
@given(st.sampled_from(KEYS), JSON | NUMBERS)
def test_any_json_value_of_a_key_loads_in_range_or_is_refused(key, value):
    load_or_refuse(doc(**{key: value}))


@hsettings(max_examples=200)
@given(st.sampled_from(sorted(NESTED)).flatmap(lambda key: st.tuples(st.just(key), st.sampled_from(NESTED[key]))),
       JSON)
def test_any_json_value_of_a_nested_key_loads_in_range_or_is_refused(keys, value):
    load_or_refuse(doc(**{keys[0]: {keys[1]: value}}))


@hsettings(max_examples=200)
@given(st.text(max_size=200) | st.binary(max_size=200))
def test_any_text_loads_or_is_refused(text):
    load_or_refuse(text)


@hsettings(max_examples=100)
@given(st.sampled_from(KEYS), st.text(alphabet='[]{}",:0123456789eE.-+ntrufalsNIiy', max_size=60))
def test_any_json_like_text_as_a_value_loads_or_is_refused(key, text):
    load_or_refuse(HEAD + json.dumps(key) + ": " + text + "}")


def test_k_not_below_the_classes_is_kept_and_flagged():
    """The wine sample has 3 classes: top-3 accuracy counts every sample right (the Metrics page caps k at 3)."""
    fitted, notes = Settings.loads(doc(k=3), source="w.json").fit(assessment_of(MULTICLASS))
    assert fitted.k == 3
    assert notes == ("w.json: 'k': 3 is not below the file's 3 classes: top-k accuracy counts every sample right",)


def test_config_out_of_core_is_checked_and_applied_not_skipped(tmp_path, capsys):
    """``metrics``/``compare`` with ``--engine duckdb`` never read ``--config``: a hostile file ran, and a valid
    one's options were silently dropped (all metrics, the default decision)."""
    bad = tmp_path / "bad.json"
    bad.write_text(doc(resamples=10), encoding="utf-8")
    for command in (["metrics"], ["compare", "--test", "mcnemar"]):
        assert main([*command[:1], BINARY, *command[1:], "--engine", "duckdb", "--config", str(bad)]) == 2
        assert "bad.json: 'resamples' must be from 100 to 100,000 (got 10)" in capsys.readouterr().err
    good = tmp_path / "good.json"
    good.write_text(doc(metrics=["accuracy"], ci=None, positive="malignant"), encoding="utf-8")
    assert main(["metrics", BINARY, "--engine", "duckdb", "--config", str(good)]) == 0
    captured = capsys.readouterr()
    frame = pd.read_csv(BINARY)
    tree = frame[frame.model == "tree"]
    accuracy = (tree.y_true == tree.y_pred).mean()   # the file's own labels: the oracle
    assert json.loads(captured.out)["models"]["tree"] == {"accuracy": pytest.approx(accuracy)}
    said = "warning: good.json: 'positive' ignored: with --engine duckdb only the settings' options apply"
    assert said in captured.err


_FILES: dict = {}


def _assessment(path: str):
    if path not in _FILES:
        _FILES[path] = assessment_of(path)
    return _FILES[path]


@hsettings(max_examples=150)
@given(st.sampled_from([BINARY, MULTICLASS, REGRESSION]), st.sampled_from(KEYS), JSON | NUMBERS)
def test_any_loaded_settings_fit_any_file_or_are_refused(path, key, value):
    """What loads, fits: each sample file takes it, with warnings, or refuses it with AssessError (another task)."""
    try:
        settings = Settings.loads(doc(**{key: value}), source="fuzz.json")
    except AssessError:
        return
    try:
        fitted, notes = settings.fit(_assessment(path))
    except AssessError as exc:
        assert str(exc).startswith("fuzz.json")
        return
    assert all(note.startswith("fuzz.json: ") for note in notes)
    check_loaded(fitted)


@pytest.mark.parametrize("text, parts", [
    (HEAD + '"title": "x\\ud800y"}', ("'title'", "text with a lone surrogate", "'x\\ud800y'")),
    (HEAD + '"display_names": {"models": {"t\\udfff": "Tree"}}}', ("'display_names.models'", "a key with a lone")),
])
def test_a_lone_surrogate_is_refused_where_it_is_read(text, parts):
    """"\\ud800" is valid JSON; it went through, and the report failed while writing ('utf-8' codec can't encode
    character '\\ud800' … surrogates not allowed, naming neither file nor key)."""
    refused(text, *parts)
