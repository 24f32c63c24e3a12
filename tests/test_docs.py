"""The manual: it builds with ``mkdocs build --strict`` (no broken link, page or anchor), its reference pages are
generated from the code (the metric registry, the test registry, the argparse parsers), every command it shows
parses, and the README stays a newcomer's page with the two commands CI and the browser tests rely on."""

from __future__ import annotations

import html
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted((ROOT / "docs").rglob("*.md"))


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The site built as `make docs` serves it, into a temporary directory, by the `mkdocs` command run from another
    directory (the hook must find the package by itself). Strict: a warning aborts the build."""
    out = tmp_path_factory.mktemp("site")
    build = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-f",
                            str(ROOT / "mkdocs.yml"), "-d", str(out)], cwd=out.parent, capture_output=True, text=True,
                           env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert build.returncode == 0, build.stderr[-3000:]
    return out


def test_the_site_builds_strictly_with_every_page_of_the_nav(site):
    for page in ("index.html", "getting-started/index.html", "statistics/index.html", "tasks/forecast/index.html",
                 "reference/metrics/index.html", "reference/cli/index.html", "reference/tests/index.html",
                 "screenshots/data_page.png"):
        assert (site / page).is_file(), page


def test_the_metric_reference_has_every_registry_entry(site):
    from assess.metrics.registry import REGISTRY

    page = html.unescape((site / "reference" / "metrics" / "index.html").read_text())
    for spec in REGISTRY:
        anchor = f'id="{spec.task.value}-{spec.key}"'
        assert anchor in page, anchor
        entry = page[page.index(anchor):][:6000]
        for text in (spec.name, spec.meaning, spec.source, f"<code>{spec.key}</code>"):
            assert text in entry, (spec.key, text)
        assert "<math" in entry, spec.key     # the formula, rendered


@pytest.mark.parametrize("task, key, words", [
    # What docs/statistics.md's table promises, per kind of metric (hand-picked, one per row of that table).
    ("binary", "accuracy", "Wilson score"),              # a proportion
    ("binary", "roc_auc", "DeLong"),                     # an AUC
    ("binary", "log_loss", "Student t"),                 # a mean of per-row losses
    ("regression", "r2", "Delta method"),                # a smooth function of means
    ("regression", "median_absolute_error", "Order statistics"),
    ("binary", "ece", "Simultaneous Clopper–Pearson bins"),
    ("regression", "max_error", "none"),                 # a maximum
    ("binary", "tp", "none"),                            # a count
    ("binary", "f1", "Bootstrap percentile"),
    ("forecast", "mae", "Block bootstrap percentile"),
])
def test_the_metric_reference_names_the_interval_ci_auto_gives(site, task, key, words):
    page = (site / "reference" / "metrics" / "index.html").read_text()
    entry = page[page.index(f'id="{task}-{key}"'):]
    assert re.search(r"<em>Interval</em>\s*([^·<]*?)\s*·", entry).group(1) == words


def test_the_cli_reference_has_every_option_of_every_subcommand(site):
    import argparse

    from assess.cli import SUBCOMMANDS, build_parser

    page = html.unescape((site / "reference" / "cli" / "index.html").read_text())
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    for name in SUBCOMMANDS:
        section = page[page.index(f'id="{name}"'):]
        for action in sub.choices[name]._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            for flag in action.option_strings:
                assert f"<code>{flag}</code>" in section, (name, flag)


def test_the_test_reference_has_every_test(site):
    from assess.stats.registry import TESTS

    page = html.unescape((site / "reference" / "tests" / "index.html").read_text())
    for key, spec in TESTS.items():
        assert f"<code>{key}</code>" in page and spec.title in page, key


def _commands(text: str) -> list[str]:
    """Each `python -m assess …` (or installed `assess …`) command of a page's code blocks, continuation lines
    joined, comments dropped."""
    blocks = re.findall(r"```[a-z]*\n(.*?)```", text, flags=re.S)
    lines = "\n".join(blocks).replace("\\\n", " ").splitlines()
    command = re.compile(r"^(?:\$ )?(?:[A-Z_]+=\S+ )*(?:(?:\.venv/bin/)?python -m assess|assess) (.*)$")
    return [m.group(1).split(" #")[0] for m in map(command.match, lines) if m]


@pytest.mark.parametrize("path", [ROOT / "README.md", *PAGES], ids=lambda p: str(p.relative_to(ROOT)))
def test_every_command_shown_parses(path, capsys):
    """An example whose subcommand or option was renamed fails here, not in a reader's terminal."""
    from assess.cli import build_parser

    for command in _commands(path.read_text()):
        argv = shlex.split(command)
        try:
            build_parser(argv).parse_args(argv)
        except SystemExit:
            pytest.fail(f"{path.name}: `python -m assess{command}` does not parse: {capsys.readouterr().err}")


def test_the_readme_is_a_newcomers_page():
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) <= 200
    # the two commands, exactly (CI runs `make test`; tests/browser start the app as `make run`)
    assert "```bash\nmake run\n```" in readme and "```bash\nmake test\n```" in readme
    assert "assets/screenshots/" in readme and "](docs/" in readme


HISTORY = re.compile(r"\bused to\b|\bformer(?:ly)?\b|\bno longer\b|\(before:|\bit replaces\b", flags=re.I)


@pytest.mark.parametrize("path", [ROOT / "README.md", *PAGES], ids=lambda p: str(p.relative_to(ROOT)))
def test_no_page_narrates_history(path):
    """A manual says what is, not what was: no "used to", "former name", "no longer", "before:"."""
    assert not HISTORY.findall(path.read_text())


def test_no_generated_page_narrates_history(site):
    """The generated pages too: the registry's texts and every option's help, which the reference quotes."""
    for page in ("metrics", "tests", "cli"):
        text = html.unescape((site / "reference" / page / "index.html").read_text())
        assert not HISTORY.findall(text), page


def test_make_docs_serves_the_manual():
    makefile = (ROOT / "Makefile").read_text()
    target = makefile[makefile.index("\ndocs:"):]
    assert "mkdocs serve" in target.split("\n\n")[0]
