"""One exit-status convention for every subcommand: 0 success, 2 bad input or blocking problems, 70 internal error."""

import pytest

from assess.cli import SUBCOMMANDS, main

#: Each subcommand with the options it requires besides the file.
COMMANDS = {"inspect": [], "metrics": [], "compare": ["--test", "mcnemar"], "controls": [],
            "report": ["--out", "never_written.html"]}  # every case here fails before the report is written


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
    path.write_text("y_true,y_pred\n1,1\n,0\n")
    code = main([command, str(path), *COMMANDS[command]])
    err = capsys.readouterr().err
    assert code == 2
    assert err == ("error: gap.csv: column `y_true` has 1 missing value (row 2) in the ground truth; every evaluated "
                   "row needs its true label\n")


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
