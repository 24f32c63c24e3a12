"""One exit-status convention for every subcommand: 0 success, 2 bad input or blocking problems, 70 internal error."""

import pytest

from assess.cli import SUBCOMMANDS, main
from tests.conftest import ROOT

#: Each subcommand with the options it requires besides the file.
COMMANDS = {"inspect": [], "metrics": [], "compare": ["--test", "mcnemar"], "controls": [],
            "report": ["--out", "never_written.html"], "plan": [],
            "check": ["--require", "accuracy>=0.5"],
            "rows": ["--worst", "3"],
            "slices": ["--discover"]}  # every case here fails before the report is written


def test_every_subcommand_is_covered():
    assert set(COMMANDS) == set(SUBCOMMANDS)


@pytest.mark.parametrize("command", COMMANDS)
def test_help_states_the_exit_status(capsys, command):
    with pytest.raises(SystemExit) as stop:
        main([command, "--help"])
    text = " ".join(capsys.readouterr().out.split())  # argparse re-wraps the epilog
    assert stop.value.code == 0
    assert ("Exit status: 0 on success; 2 on bad input (a file that cannot be read, an unknown column, model or option "
            "value, or data with blocking problems)") in text
    assert "70 on an internal error (please report it)" in text


@pytest.mark.parametrize("command", COMMANDS)
def test_blocking_problems_exit_2_with_one_line(capsys, tmp_path, command):
    path = tmp_path / "gap.csv"
    path.write_text("y_true,y_pred\n1,1\n0,\n")
    code = main([command, str(path), *COMMANDS[command]])
    err = capsys.readouterr().err
    assert code == 2
    assert err == ("error: gap.csv: column `y_pred` has 1 missing value (row 2) in the predicted label\n")


@pytest.mark.parametrize("command", COMMANDS)
def test_unknown_column_exits_2(capsys, tmp_path, command):
    path = tmp_path / "p.csv"
    path.write_text("y_true,y_pred\n1,1\n0,0\n")
    assert main([command, str(path), "--y-true", "truth", *COMMANDS[command]]) == 2
    assert capsys.readouterr().err.startswith("error: p.csv has no column `truth`")


@pytest.mark.parametrize("command", COMMANDS)
def test_bad_usage_exits_2(capsys, command):
    with pytest.raises(SystemExit) as stop:
        main([command, "--no-such-option"])
    assert stop.value.code == 2


@pytest.mark.parametrize("command", COMMANDS)
def test_internal_error_exits_70_without_traceback(capsys, monkeypatch, tmp_path, command):
    def broken(*args):
        raise RuntimeError("boom")

    monkeypatch.setattr(f"assess.cli.{command}.load_assessment", broken)
    path = tmp_path / "p.csv"
    path.write_text("y_true,y_pred\n1,1\n0,0\n")
    assert main([command, str(path), *COMMANDS[command]]) == 70
    assert capsys.readouterr().err == "internal error (please report it): RuntimeError: boom\n"


# --- our bugs are not called the user's (issue 31, item 4) ---------------------------------------------------------

@pytest.mark.parametrize("error", [ValueError("too many values to unpack (expected 1)"),
                                   TypeError("'NoneType' object is not subscriptable"),
                                   OSError(5, "Input/output error")])
@pytest.mark.parametrize("command", COMMANDS)
def test_a_plain_value_error_from_inside_is_an_internal_error_naming_its_type(capsys, monkeypatch, tmp_path, command,
                                                                             error):
    """The class-score crash of item 3 said "error: too many values to unpack" with exit 2, blaming the file: a
    ValueError or TypeError from the package is our bug (the package raises AssessError for bad input), and so is
    an OSError that names no file."""
    def broken(table, overrides=None):
        raise error

    monkeypatch.setattr("assess.cli.common.describe", broken)
    path = tmp_path / "p.csv"
    path.write_text("y_true,y_pred\n1,1\n0,0\n")
    assert main([command, str(path), *COMMANDS[command]]) == 70
    err = capsys.readouterr().err
    assert err == f"internal error (please report it): {type(error).__name__}: {error}\n"
    assert "Traceback" not in err


def test_an_os_error_on_the_users_file_is_bad_input(capsys, tmp_path):
    missing = tmp_path / "report_dir_missing" / "r.html"
    assert main(["report", "assets/samples/breast_cancer_binary.csv", "--out", str(missing)]) == 2
    last = capsys.readouterr().err.splitlines()[-1]   # after the report's progress lines
    assert last.startswith(f"error: {missing.parent}") and last.endswith("No such file or directory")


SAMPLE = "assets/samples/breast_cancer_binary.csv"
FORECASTS = "assets/samples/monthly_forecasts.csv"


@pytest.mark.parametrize("argv, message", [
    (["metrics", SAMPLE, "--beta", "0"], "argument --beta: must be from 0.05 to 20 (got 0)"),
    (["metrics", SAMPLE, "--beta", "nan"], "argument --beta: must be from 0.05 to 20 (got nan)"),
    (["metrics", SAMPLE, "--k", "0"], "argument --k: must be from 1 to 10,000 (got 0)"),
    (["metrics", SAMPLE, "--confidence-level", "1.5"],
     "argument --confidence-level/--ci-level: must be from 0.5 to 0.999 (got 1.5)"),
    (["metrics", SAMPLE, "--ci", "bootstrap", "--resamples", "0"],
     "argument --resamples: must be from 100 to 100,000 (got 0)"),
    (["metrics", SAMPLE, "--seed", "-1"], "argument --seed: must be from 0 to 4,294,967,295 (got -1)"),
    (["metrics", FORECASTS, "--season", "0"], "argument --season: must be a whole number ≥ 1 (got '0')"),
    (["metrics", FORECASTS, "--interval-level", "90"],
     "argument --interval-level: must be between 0 and 1, both excluded, e.g. 0.95 (got '90')"),
    # out of core these were not checked at all: the run printed its numbers and exited 0
    (["metrics", SAMPLE, "--engine", "duckdb", "--confidence-level", "3"],
     "argument --confidence-level/--ci-level: must be from 0.5 to 0.999 (got 3)"),
    (["metrics", SAMPLE, "--engine", "duckdb", "--beta", "-2"], "argument --beta: must be from 0.05 to 20 (got -2)"),
    (["metrics", SAMPLE, "--engine", "duckdb", "--exact-limit", "-1"],
     "argument --exact-limit: must be a whole number ≥ 0 (got '-1')"),
    (["inspect", SAMPLE, "--max-mb", "-1"], "argument --max-mb: must be > 0 (got '-1')"),
    (["inspect", SAMPLE, "--max-rows", "0"], "argument --max-rows: must be a whole number ≥ 1 (got '0')"),
    (["inspect", SAMPLE, "--max-columns", "0"], "argument --max-columns: must be a whole number ≥ 1 (got '0')"),
    (["metrics", SAMPLE, "--max-memory-mb", "0"], "argument --max-memory-mb: must be > 0 (got '0')"),
    (["report", SAMPLE, "--out", "never_written.html", "--confidence-level", "7"],
     "argument --confidence-level: must be from 0.5 to 0.999 (got 7)"),
    (["compare", SAMPLE, "--test", "mcnemar", "--confidence-level", "0"],
     "argument --confidence-level: must be from 0.5 to 0.999 (got 0)"),
])
def test_an_option_value_out_of_range_is_a_usage_error_naming_the_option(capsys, argv, message):
    """Each used to reach a plain ValueError of the package (`beta` must be > 0 …), which is now exit 70."""
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1].endswith(f"error: {message}")


@pytest.mark.parametrize("command, extra", [("metrics", []), ("metrics", ["--engine", "duckdb"]),
                                            ("report", ["--out", "never_written.html"]),
                                            ("metrics", ["--slice", "group", "--slice-test", "nope"])])
def test_an_unknown_metric_key_is_bad_input_listing_the_keys(capsys, command, extra):
    metrics = [] if "--slice-test" in extra else ["--metrics", "nope"]
    assert main([command, SAMPLE, *metrics, *extra]) == 2
    last = capsys.readouterr().err.splitlines()[-1]   # the report says its progress first
    assert last.startswith("error: unknown binary metric 'nope'; valid keys: tp, fp, tn, fn")


@pytest.mark.parametrize("value", ["abc", "-5", "inf"])
def test_a_bad_size_limit_in_the_environment_is_bad_input_naming_the_variable(capsys, monkeypatch, value):
    monkeypatch.setenv("ASSESS_MAX_MB", value)
    assert main(["inspect", SAMPLE]) == 2
    assert capsys.readouterr().err == ("error: environment variable ASSESS_MAX_MB must be a positive, finite number "
                                       f"of megabytes (got '{value}')\n")


def test_a_class_score_of_a_class_the_truth_lacks_is_bad_input_naming_file_and_column(capsys, tmp_path):
    """``--score 2=p`` on a 0/1 file was exit 70 (KeyError '0' while encoding); see
    tests/inputs/test_validation_class_scores.py."""
    path = tmp_path / "ov.csv"
    path.write_text("y_true,y_pred,p\n0,0,0.2\n1,1,0.7\n0,1,0.5\n")
    assert main(["metrics", str(path), "--score", "2=p"]) == 2
    assert capsys.readouterr().err.startswith("error: ov.csv: no probability column for the positive class `1`, "
                                              "only `p` for `2`")


def test_an_internal_error_is_one_bounded_line_whatever_its_message(capsys, monkeypatch):
    """DuckDB's messages span lines (the SQL under a caret line) and can be long: the internal-error line is one."""
    def broken(table, overrides=None):
        raise ValueError("Invalid Input Error\n\nLINE 1: SELECT *\n        ^^^^^" + " x" * 2000)

    monkeypatch.setattr("assess.cli.common.describe", broken)
    assert main(["inspect", SAMPLE]) == 70
    err = capsys.readouterr().err
    assert err.startswith("internal error (please report it): ValueError: Invalid Input Error LINE 1: SELECT * ^^^^^ x")
    assert err.count("\n") == 1 and len(err) < 1100


@pytest.mark.parametrize("value", ["lots", "-1", "nan"])
def test_a_bad_engine_threshold_in_the_environment_is_bad_input_not_ignored(capsys, monkeypatch, value):
    """``--engine auto`` read a bad ASSESS_ENGINE_MEMORY_MB as 100 MB without a word; the help still shows 100."""
    monkeypatch.setenv("ASSESS_ENGINE_MEMORY_MB", value)
    assert main(["metrics", SAMPLE, "--metrics", "accuracy"]) == 2
    assert capsys.readouterr().err == ("error: environment variable ASSESS_ENGINE_MEMORY_MB must be a finite number of "
                                       f"megabytes ≥ 0 (got '{value}')\n")
    with pytest.raises(SystemExit):
        main(["metrics", "--help"])
    assert "memory below 100 MB" in " ".join(capsys.readouterr().out.split())


def test_the_clustering_task_for_a_file_without_clusters_is_bad_input_naming_the_option(capsys):
    """It was exit 70 (KeyError: None in validation) before and after the new mapping."""
    assert main(["metrics", SAMPLE, "--task", "clustering"]) == 2
    assert capsys.readouterr().err == ("error: breast_cancer_binary.csv: no cluster-assignment column for the "
                                       "clustering task: name one `cluster` (or `cluster_id`, or one `cluster_<name>` "
                                       "per clustering), or name it with --cluster-col\n")


def test_step_numbers_beside_origins_of_dates_are_bad_input_naming_both_columns(capsys):
    """It was exit 70 (numpy's DTypePromotionError in the baselines); see tests/inputs/test_forecast_checks.py."""
    assert main(["metrics", FORECASTS, "--timestamp-col", "id"]) == 2
    assert capsys.readouterr().err == ("error: monthly_forecasts.csv: column `id` holds step numbers but the origins "
                                       "in `origin` hold dates; a forecast's origin and its target time must be of "
                                       "one kind\n")


@pytest.mark.parametrize("argv", [["compare", SAMPLE, "--test", "all", "--metric", "nope"],
                                  ["report", SAMPLE, "--out", "never_written.html", "--test-metric", "nope", "--quiet"]])
def test_an_unknown_test_metric_is_bad_input_not_a_test_skipped_in_silence(capsys, argv, tmp_path, monkeypatch):
    """Both exited 0: `--test all` listed the bootstrap as skipped, the report left its tests out."""
    monkeypatch.chdir(tmp_path)
    assert main([str(ROOT / a) if a == SAMPLE else a for a in argv]) == 2
    assert "unknown binary metric 'nope'; valid keys:" in capsys.readouterr().err
    assert not (tmp_path / "never_written.html").exists()
