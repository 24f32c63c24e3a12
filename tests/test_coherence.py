"""One answer per question: the same question asked through every surface gets the same answer (issue 33 §3).

The surfaces are the Metrics and Compare pages (AppTest), ``python -m assess metrics`` and ``compare``, the report's
``report.json`` (the document every report format is rendered from), and the DuckDB engine where the task runs out of
core. Each is asked with its defaults, which are one set of defaults (`assess.core.defaults`): intervals ``auto`` at
95 %, 1,000 resamples, seed 0. The oracle of each test is another surface, never a number written here: these tests
hold the surfaces together; the numbers themselves are checked against scikit-learn, SciPy and statsmodels in the
tests of each module.

The files: every built-in sample, and generated files for what the samples lack — weights, string labels, slices and
folds in one binary file; a multi-output regression whose average and first output disagree on the better model.
"""

from __future__ import annotations

import json
import re
import tempfile
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from tests.conftest import open_app
from tests.engine.test_engine import run_cli
from ui.state import SAMPLES, SAMPLES_DIR

# --- the files -----------------------------------------------------------------------------------------------------


def _binary_with_everything() -> pd.DataFrame:
    """Two models, labels ``yes``/``no``, sample weights, a slice column and five folds; the scores of the better
    model are shifted further apart."""
    rng = np.random.default_rng(7)
    n = 400
    truth = rng.random(n) < 0.35
    frames = []
    for model, shift in (("gradient boosting with a long name", 1.6), ("logistic", 0.9)):
        score = 1 / (1 + np.exp(-(rng.normal(0, 1, n) + shift * (2 * truth - 1))))
        frames.append(pd.DataFrame({
            "id": np.arange(n), "model": model, "fold": np.arange(n) % 5,
            "region": np.where(np.arange(n) % 3 == 0, "north", "south"),
            "weight": 1 + (np.arange(n) % 4), "y_true": np.where(truth, "yes", "no"),
            "score": score.round(4), "y_pred": np.where(score >= 0.5, "yes", "no")}))
    return pd.concat(frames, ignore_index=True)


def _two_outputs() -> pd.DataFrame:
    """Issue 33 §1.1's case, at 60 rows: model ``a`` is exact on output ``u`` and 10 off on ``v``; ``b`` is about 1
    off on ``u`` and exact on ``v``. On the average of the outputs (what `metrics` reports) ``b`` is better by about
    4.5; on the first output alone ``a`` is."""
    rng = np.random.default_rng(3)
    n = 60
    u, v = rng.normal(50, 10, n), rng.normal(20, 5, n)
    rows = []
    for model, (eu, ev) in {"a": (rng.normal(0, 0.05, n), 10 + rng.normal(0, 1, n)),
                            "b": (1 + rng.normal(0, 0.3, n), rng.normal(0, 0.05, n))}.items():
        rows.append(pd.DataFrame({"id": np.arange(n), "model": model, "y_true_u": u, "y_pred_u": u + eu,
                                  "y_true_v": v, "y_pred_v": v + ev}))
    return pd.concat(rows, ignore_index=True)


GENERATED = {"binary, weights, yes/no, slices, folds": _binary_with_everything, "multi-output regression": _two_outputs}
SAMPLE_FILES = {title: SAMPLES_DIR / name for title, name in SAMPLES.items()}


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict:
    folder = tmp_path_factory.mktemp("coherence")
    out = dict(SAMPLE_FILES)
    for title, make in GENERATED.items():
        path = folder / (re.sub(r"\W+", "_", title) + ".csv")
        make().to_csv(path, index=False)
        out[title] = path
    return out


def _cli(*argv) -> dict:
    code, out, err = run_cli(*argv, "--quiet")
    assert code == 0, err
    return out


_ASKED: dict = {}


def _asked(surface: str, path) -> dict:
    """``metrics --ci auto``'s JSON or the report's report.json for ``path``, asked once per test process (each is
    the same answer every time: seeded)."""
    if (surface, path) not in _ASKED:
        if surface == "metrics":
            _ASKED[surface, path] = _cli("metrics", path, "--ci", "auto")
        else:
            out = path.with_name(path.name + ".report.zip") if path.parent != SAMPLES_DIR else None
            out = out or (Path(tempfile.mkdtemp()) / "report.zip")
            _cli("report", path, "--out", out)
            with zipfile.ZipFile(out) as z:
                _ASKED[surface, path] = json.loads(z.read("report.json"))
    return _ASKED[surface, path]


# --- numbers: metrics, report.json, the engine ---------------------------------------------------------------------

ALL = [*SAMPLE_FILES, *GENERATED]


@pytest.mark.parametrize("title", ALL)
def test_the_report_carries_every_number_of_metrics(title, files):
    """report.json's ``metrics`` is ``metrics --ci auto``'s JSON: every model, key, value and interval, and every
    breakdown the command gives (per horizon, per series, per output, variance-weighted, per class, the notes)."""
    cli = _asked("metrics", files[title])
    report = _asked("report", files[title])["metrics"]
    for part, value in cli.items():
        if part in ("settings", "n", "positive", "classes"):   # the report says these once, at its top
            continue
        assert part in report, f"report.json lacks the metrics' {part!r}"
        assert report[part] == value, part


# the engines refuse clustering and multi-output files with a clear message (tests/engine); a learning curve is a
# binary file of several training sizes, asked above
ENGINE_TASKS = [t for t in ALL if t not in ("Iris — clustering, 3 clusterings with species and features",
                                            "Breast cancer — learning curve, 2 models, 6 training sizes",
                                            "multi-output regression")]


@pytest.mark.parametrize("title", ENGINE_TASKS)
def test_the_duckdb_engine_gives_the_in_memory_numbers_and_intervals(title, files):
    """Out of core, every value of ``--ci auto`` that the rows give in memory, and the same interval wherever the
    engine computes one (the analytic ones: Wilson, DeLong, t, delta method, order statistics — and the label
    metrics' bootstrap); where it cannot (a bootstrap that needs the rows), a note that says so, never a silent
    gap."""
    pytest.importorskip("duckdb")
    memory = _asked("metrics", files[title])
    duck = _cli("metrics", files[title], "--ci", "auto", "--engine", "duckdb")
    for model, keys in memory["models"].items():
        for key, m in keys.items():
            d = duck["models"][model][key]
            m, d = (m, d) if isinstance(m, dict) else ({"value": m}, {"value": d})
            assert _close(m["value"], d["value"], 1e-9), (model, key, m, d)
            if m.get("low") is not None and d.get("low") is None:
                assert "use --engine memory" in duck.get("notes", {}).get(model, {}).get(key, ""), (model, key)
            elif m.get("low") is not None and not _drawn_otherwise(duck, model, key):
                for part in ("low", "high"):
                    assert _close(m[part], d[part], 1e-9), (model, key, part, m, d)


def _drawn_otherwise(duck: dict, model: str, key: str) -> bool:
    """Whether the engine's interval is a bootstrap of its own draws: the KS statistic resamples the engine's grouped
    score table, not the rows (tests/engine/test_bootstrap.py holds it to the in-memory one in distribution)."""
    return key == "ks_statistic"


def _close(x, y, rel) -> bool:
    if x is None or y is None:
        return x is None and y is None
    return abs(x - y) <= rel * max(1.0, abs(x), abs(y))


# --- numbers: the Metrics page ---------------------------------------------------------------------------------------

NUMBER = re.compile(r"-?\d[\d,]*(?:\.(\d+))?(?:e[-+]?\d+)?")


def _shown_numbers(cell: str) -> list[tuple[float, float]]:
    """Each number of a page cell as (value, half a unit of its last shown digit)."""
    cell = cell.replace("−", "-").replace("★", "")
    out = []
    for match in NUMBER.finditer(cell):
        text = match.group(0)
        decimals = len(match.group(1) or "")
        exponent = int(text.lower().split("e")[1]) if "e" in text.lower() else 0
        out.append((float(text.replace(",", "")), 0.5 * 10.0 ** (exponent - decimals)))
    return out


def _page_table(at) -> pd.DataFrame:
    """The Metrics page's table of all models (split into parts to fit the page), indexed by metric key."""
    parts = [d.value.set_index("key") for d in at.dataframe if "key" in d.value.columns and "better" in d.value.columns]
    table = parts[0]
    for part in parts[1:]:
        new = [c for c in part.columns if c not in table.columns]
        if not new:
            break
        table = table.join(part[new])
    return table


def _open_metrics(title, files):
    if title in SAMPLE_FILES:
        return open_app("views/metrics.py", sample=title)
    at = open_app()
    [upload] = [r for r in at.radio if "Upload" in str(r.options)]
    upload.set_value(next(o for o in upload.options if "Upload" in o)).run()
    path = files[title]
    at.file_uploader[0].upload(path.name, path.read_bytes(), "text/csv").run()
    at.switch_page("views/metrics.py").run()
    assert not at.exception
    return at


PAGE_FILES = [t for t in ALL if t != "Iris — clustering, 3 clusterings with species and features"]


@pytest.mark.parametrize("title", PAGE_FILES)
def test_the_metrics_page_shows_the_numbers_of_metrics(title, files):
    """Every value and interval bound on the page is the command's, to the last digit shown."""
    cli = _asked("metrics", files[title])["models"]
    table = _page_table(_open_metrics(title, files))
    models = [c for c in table.columns if c in cli]
    assert models, list(table.columns)
    for key in table.index:
        for model in models:
            shown = _shown_numbers(str(table.loc[key, model]))
            if not shown:
                continue
            expected = cli[model][key]
            expected = expected if isinstance(expected, dict) else {"value": expected}
            wanted = [expected["value"]] + ([expected["low"], expected["high"]]
                                             if expected.get("low") is not None else [])
            assert len(shown) == len(wanted), (key, model, table.loc[key, model], expected)
            for (value, half_unit), want in zip(shown, wanted):
                assert abs(value - want) <= half_unit * 1.0001, (key, model, table.loc[key, model], expected)


# --- verdicts: compare, the Compare page, the report ----------------------------------------------------------------

VERDICT_FILES = ["Breast cancer — binary, 3 models, 5 folds", "Wine — multi-class, 2 models",
                 "CO₂ and El Niño — monthly forecasts, 3 models, 1–12 months ahead", "multi-output regression"]


@pytest.mark.parametrize("title", VERDICT_FILES)
def test_the_reports_tests_are_the_compare_commands(title, files):
    """The report runs every suitable test, as ``compare --test all`` does at the same defaults: the same tests,
    statistics, p-values, effects and sentences."""
    report = _asked("report", files[title])
    alone = _cli("compare", files[title], "--test", "all")
    assert report["tests"], report["skipped_tests"]
    # the report puts the test of its verdict first, and leaves out why each test suits the design
    ran = {t["test"]: {k: v for k, v in t.items() if k != "why"} for t in alone["tests"]}
    assert {t["test"]: t for t in report["tests"]} == ran
    assert report["skipped_tests"] == alone["skipped"]


def test_a_multi_output_comparison_tests_the_average_that_metrics_reports(files):
    """Issue 33 §1.1: `metrics` averages the outputs, so `compare` and the report's verdict compare that average —
    the paired difference of the mean absolute errors is the difference of the two models' averaged MAE."""
    path = files["multi-output regression"]
    mae = {m: r["mae"] for m, r in _cli("metrics", path)["models"].items()}
    mae = {m: v["value"] if isinstance(v, dict) else v for m, v in mae.items()}
    assert mae["b"] < mae["a"]                                  # the file is made so: b is better on average
    result = _cli("compare", path, "--test", "paired_t", "--loss", "absolute")
    result = result[0] if isinstance(result, list) else result
    assert result["effect"]["value"] == pytest.approx(mae["a"] - mae["b"], rel=1e-9)
    report = _asked("report", path)
    assert report["verdict"].startswith("b's mean absolute error is lower than a's"), report["verdict"]
    assert report["recommendation"].startswith("Model b is best on mean absolute error"), \
        report["recommendation"]


def test_the_compare_page_gives_the_commands_p_value_and_sentence(files):
    """The Compare page's default test on the binary sample against `compare --test` of that test and models."""
    at = open_app("views/compare.py")
    [test] = [s for s in at.selectbox if s.label == "Test"]
    [models] = [m for m in at.multiselect if "models" in m.label.lower()]
    [button] = [b for b in at.button if b.label == "Run test"]
    button.click().run()
    assert not at.exception
    page_sentence = at.success[0].value.replace("\\", "")
    alone = _cli("compare", SAMPLE_FILES["Breast cancer — binary, 3 models, 5 folds"], "--test", test.value,
                 "--models", *models.value)
    assert alone["sentence"].replace("\\", "") in page_sentence


# --- one convention per test ------------------------------------------------------------------------------------------

def test_a_two_slice_chi_square_is_one_number_for_the_omnibus_and_the_slice_against_the_rest(files):
    """With two slices, each slice-against-the-rest table is the omnibus table (issue 33 §1.2): one p-value, the
    Pearson χ² without Yates' correction that every χ² of the package uses."""
    from assess.analyses.slices import analyse_slices
    from assess.inputs.assessment import describe
    from assess.inputs.read import read_table

    path = files["binary, weights, yes/no, slices, folds"]
    frame = pd.read_csv(path).drop(columns="weight")
    assessment = describe(read_table(frame.to_csv(index=False).encode(), name="two_slices.csv"))
    analysis = analyse_slices(assessment, ["region"], keys=["accuracy"], test_keys=["accuracy"], ci=None)
    for model in assessment.models:
        tests = analysis.tests[analysis.tests.model == model]
        omnibus = analysis.omnibus[analysis.omnibus.model == model]
        assert len(tests) == 2 and len(omnibus) == 1
        assert tests.pvalue.to_numpy() == pytest.approx([omnibus.pvalue.iloc[0]] * 2, rel=1e-12)


def test_the_engines_run_all_gives_the_in_memory_verdict(files):
    """``compare --test all`` out of core runs the tests the engine can and gives the verdict by the same rule: on the
    binary sample, DeLong's test of ROC AUC in both, with the same sentence."""
    pytest.importorskip("duckdb")
    path = SAMPLE_FILES["Breast cancer — binary, 3 models, 5 folds"]
    memory = _cli("compare", path, "--test", "all")
    duck = _cli("compare", path, "--test", "all", "--engine", "duckdb")
    assert duck["verdict"] is not None
    assert duck["verdict"]["test"] == memory["verdict"]["test"] == "delong"
    assert duck["verdict"]["sentence"] == memory["verdict"]["sentence"]


@pytest.mark.parametrize("title", ["Breast cancer — learning curve, 2 models, 6 training sizes",
                                   "binary, weights, yes/no, slices, folds", "Wine — multi-class, 2 models",
                                   "Diabetes — regression, 3 models, 5 folds"])
def test_an_interval_does_not_depend_on_which_other_metrics_were_asked(title, files):
    """The Metrics page asks for the metrics a user picked, the command line for all of them: each metric's interval
    must be the same either way — its bootstrap draws the same resamples and stops by its own precision, never by
    another metric's."""
    every = _asked("metrics", files[title])["models"]
    keys = sorted({k for r in every.values() for k, v in r.items() if isinstance(v, dict) and v.get("low") is not None})
    for part in (keys[::2], keys[1::2]):      # two halves: each metric asked with other company than all of them
        alone = _cli("metrics", files[title], "--ci", "auto", "--metrics", *part)["models"]
        for model, report in every.items():
            for key in part:
                assert alone[model][key] == report[key], (model, key)
