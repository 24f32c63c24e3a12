"""One command of the command line run in memory and on an out-of-core engine, for the tests that compare the two
(the in-memory path is their oracle)."""

from __future__ import annotations

from tests.engine.test_engine import run_cli


def memory_and_engine(command: str, path, engine: str, *args) -> tuple[dict, dict]:
    """The JSON of ``python -m assess COMMAND PATH ARGS`` with ``--engine memory`` and with ``--engine ENGINE``; both
    runs must succeed (their stderr is the assertion's message)."""
    code_m, memory, err_m = run_cli(command, path, *args, "--engine", "memory")
    code_e, other, err_e = run_cli(command, path, *args, "--engine", engine)
    assert code_m == 0 and code_e == 0, (err_m, err_e)
    return memory, other
