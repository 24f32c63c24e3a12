"""The package installs as a wheel with an `assess` command, and the requirement files cannot drift from pyproject.toml.

Issue 34 §1: requirements.txt (``make run``) and requirements-test.txt (``make test``) stay for the README's two
commands; pyproject.toml is what ``pip install .`` reads. These tests hold the two equal and install the built wheel
into a fresh virtual environment, offline: the environment sees the already-installed third-party packages through a
``.pth`` file, and ``assess`` itself only from the wheel.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "assets" / "samples" / "breast_cancer_binary.csv"


def _pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def _requirement_lines(name: str) -> set[str]:
    """The requirements a requirements file lists itself (not through ``-r``), normalised by `packaging`."""
    lines = (ROOT / name).read_text().splitlines()
    kept = (line.split("#", 1)[0].strip() for line in lines)
    return {str(Requirement(line)) for line in kept if line and not line.startswith("-")}


def _normalised(requirements: list[str]) -> set[str]:
    return {str(Requirement(text)) for text in requirements}


def test_requirements_txt_lists_exactly_the_packages_dependencies():
    assert _requirement_lines("requirements.txt") == _normalised(_pyproject()["dependencies"])


def test_requirements_test_txt_lists_exactly_the_test_extra():
    assert _requirement_lines("requirements-test.txt") == _normalised(_pyproject()["optional-dependencies"]["test"])


def test_every_optional_extra_is_also_installed_for_the_tests():
    """`make test` exercises the Spark engine, MLflow logging and the docs build, so each extra's packages are in the
    test extra too (by name; the test extra may ask for a higher floor)."""
    extras = _pyproject()["optional-dependencies"]
    tested = {Requirement(text).name for text in extras["test"]}
    for extra, requirements in extras.items():
        missing = {Requirement(text).name for text in requirements} - tested
        assert not missing, f"extra {extra!r}: {sorted(missing)} not in the test extra"


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A fresh virtual environment with the built wheel installed; its ``bin`` folder."""
    work = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "--no-index",
                    "-w", str(work / "dist"), str(ROOT)], check=True, capture_output=True)
    wheel = next((work / "dist").glob("assess-*.whl"))
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             check=True, capture_output=True, text=True).stdout.strip()
    # the third-party packages already installed here, without the repository (which holds another `assess`)
    Path(purelib, "_installed_packages.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps", "--no-index",
                    str(wheel)], check=True, capture_output=True)
    return venv / "bin"


def _clean_env() -> dict:
    return {key: value for key, value in os.environ.items() if key not in {"PYTHONPATH", "PYTHONHOME"}}


def test_the_installed_assess_command_is_python_m_assess(installed, tmp_path):
    help_text = subprocess.run([str(installed / "assess"), "--help"], cwd=tmp_path, env=_clean_env(),
                               capture_output=True, text=True, check=True).stdout
    for command in ("metrics", "compare", "report"):
        assert command in help_text
    where = subprocess.run([str(installed / "python"), "-c", "import assess; print(assess.__file__)"], cwd=tmp_path,
                           env=_clean_env(), capture_output=True, text=True, check=True).stdout
    assert str(installed.parent) in where  # the wheel's copy, not the repository's

    args = ["metrics", str(SAMPLE), "--metrics", "accuracy", "roc_auc", "--format", "json"]
    from_wheel = subprocess.run([str(installed / "assess"), *args], cwd=tmp_path, env=_clean_env(),
                                capture_output=True, text=True, check=True).stdout
    from_clone = subprocess.run([sys.executable, "-m", "assess", *args], cwd=ROOT, capture_output=True, text=True,
                                check=True).stdout
    assert json.loads(from_wheel) == json.loads(from_clone)
    assert json.loads(from_wheel)  # a document, not an empty answer


def test_the_wheel_ships_the_report_template(installed):
    templates = list(installed.parent.glob("lib/python*/site-packages/assess/present/report/templates/*.j2"))
    assert templates
