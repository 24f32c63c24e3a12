"""The test registry is the one place facts about a significance test live: walk it and prove that `compare`, the
CLI (``--test`` choices and option flags), ``--test all`` (the suggestions) and the Compare page (one widget per
option) see every :class:`TestSpec` and every option."""

import dataclasses
import io

import numpy as np
import pandas as pd
import pytest

from assess.cli import build_parser
from assess.cli.compare import _options
from assess.core.data import Predictions, Task
from assess.stats import DESIGNS, QUESTIONS, TEST_NAMES, TESTS, Comparison, cli_options, compare, suggest_tests
from assess.stats.registry import FOLDS, OMNIBUS, PAIRWISE, PREDICTIONS
from tests.conftest import open_app


def compare_parser():
    parser = build_parser()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    return sub.choices["compare"]


def flag(parser, option):
    return next(a for a in parser._actions if option.cli_flag in a.option_strings)


def test_every_spec_is_complete():
    for key, spec in TESTS.items():
        assert spec.key == key and spec.title and spec.doc and spec.reference
        assert spec.design in DESIGNS and spec.kind in (PAIRWISE, OMNIBUS)
        assert spec.data and set(spec.data) <= {PREDICTIONS, FOLDS} and set(spec.metric_on) <= {PREDICTIONS, FOLDS}
        assert dataclasses.is_dataclass(spec.details) and callable(spec.runner)
        names = [o.name for o in spec.options]
        assert len(names) == len(set(names)), key
        for opt in spec.options:
            assert opt.check(opt.default, key) == opt.default   # every default passes its own check
            if opt.shown_if is not None:
                assert opt.shown_if[0] in names


def test_cli_offers_every_test_and_every_option_with_its_type():
    parser = compare_parser()
    test = flag(parser, type("T", (), {"cli_flag": "--test"})())
    assert list(test.choices) == [*TEST_NAMES, "all"]
    merged = cli_options()
    for spec in TESTS.values():
        for opt in spec.options:
            action = flag(parser, opt)
            assert action.dest == opt.name and merged[opt.name][1][spec.key] is opt
            if opt.kind is str:
                assert set(opt.choices) <= set(action.choices)
            elif opt.kind is bool:
                assert list(action.choices) == ["on", "off"]
            else:
                assert action.type is opt.kind
            assert spec.key in action.help


def test_cli_flags_reach_compare_as_typed_options():
    parser = build_parser()
    argv = ["compare", "f.csv", "--test", "mcnemar", "--method", "midp", "--continuity", "off", "--resamples", "300",
            "--test-train-ratio", "0.25", "--horizon", "2"]
    options = _options(parser.parse_args(argv))
    assert options == {"method": "midp", "continuity": False, "n_resamples": 300, "test_train_ratio": 0.25, "h": 2}


def independent_binary():
    rng = np.random.default_rng(0)
    out = {}
    for name, start in (("A", 0), ("B", 1000)):
        y = (rng.random(120) < 0.4).astype(np.int8)
        s = 1 / (1 + np.exp(-(2 * y - 1 + rng.normal(0, 1, 120))))
        out[name] = Predictions(Task.BINARY, ("n", "p"), y, (s >= 0.5).astype(np.int8), s,
                                ids=np.arange(start, start + 120), model=name)
    return out


def paired_binary():
    rng = np.random.default_rng(1)
    y = (rng.random(150) < 0.4).astype(np.int8)
    out = {}
    for name, strength in (("A", 1.0), ("B", 1.4), ("C", 0.7)):
        s = 1 / (1 + np.exp(-(strength * (2 * y - 1) + rng.normal(0, 1, 150))))
        out[name] = Predictions(Task.BINARY, ("n", "p"), y, (s >= 0.5).astype(np.int8), s, ids=np.arange(150),
                                fold=np.arange(150) % 5, model=name)
    return out


def fold_table(repeats=1, folds=10):
    rng = np.random.default_rng(2)
    rows = [{"model": m, "repeat": r, "fold": f, "acc": 0.8 + 0.01 * j + rng.normal(0, 0.01)}
            for r in range(repeats) for f in range(folds) for j, m in enumerate("ABC")]
    return pd.DataFrame(rows)


def forecasts():
    rng = np.random.default_rng(3)
    y = rng.normal(size=60)
    return [Predictions(Task.FORECAST, (), y, y + rng.normal(0, s, 60), model=m) for m, s in (("A", 1), ("B", 0.5))]


def regression():
    rng = np.random.default_rng(4)
    y = rng.normal(size=60)
    ids = np.arange(60).astype(str).astype(object)
    return [Predictions(Task.REGRESSION, (), y, y + rng.normal(0, s, 60), ids=ids, model=m)
            for m, s in (("A", 1), ("B", 0.5))]


def paired_multilabel():
    rng = np.random.default_rng(6)
    y = rng.random((120, 3)) < 0.4
    return [Predictions(Task.MULTILABEL, ("x", "y", "z"), y, None, rng.random((120, 3)) * 0.6 + 0.4 * y,
                        ids=np.arange(120), model=m) for m in ("A", "B")]


def clusterings():
    rng = np.random.default_rng(6)
    y = rng.integers(0, 3, 90)
    ids = np.arange(90).astype(str).astype(object)
    return [Predictions(Task.CLUSTERING, ("a", "b", "c"), y, np.where(rng.random(90) < p, y, rng.integers(0, 3, 90)),
                        ids=ids, model=m) for m, p in (("A", 0.8), ("B", 0.3))]


def data_for(spec):
    if spec.key == "mcnemar_per_label":
        return paired_multilabel(), None
    if spec.key == "diebold_mariano":
        return forecasts(), None
    if spec.key == "better_than_random":
        return clusterings(), "adjusted_rand_index"
    if spec.per_sample:      # per-sample errors of numeric predictions (per-fold metrics: test_stats_compare)
        return regression(), None
    if spec.key == "cv_5x2_t":
        return fold_table(repeats=5, folds=2)[lambda f: f.model != "C"], "acc"
    if spec.data == (FOLDS,):
        return fold_table(), "acc"
    if spec.design == "independent":
        return independent_binary(), ("accuracy" if PREDICTIONS in spec.metric_on else None)
    return paired_binary(), ("accuracy" if PREDICTIONS in spec.metric_on else None)


@pytest.mark.parametrize("key", TEST_NAMES)
def test_compare_runs_every_test_with_every_option_at_its_default(key):
    spec = TESTS[key]
    data, metric = data_for(spec)
    kind = FOLDS if isinstance(data, pd.DataFrame) else PREDICTIONS
    options = {o.name: o.default for o in spec.options_for(kind) if o.default is not None}
    if "n_resamples" in options:
        options["n_resamples"] = 50
    result = compare(data, test=key, metric=metric, **options)
    assert isinstance(result, Comparison) and result.test == key and result.design is not None
    first = result.result or result.pairs[0].result
    if first.test == key:
        assert isinstance(first.details, spec.details)


def test_test_all_can_suggest_every_test():
    seen = set()
    for question in QUESTIONS:
        for data in ("predictions", "folds"):
            for paired in (True, False):
                for task in (None, "binary", "multiclass", "multilabel", "regression", "forecast", "clustering"):
                    for n_models in (1, 2, 3):
                        for folds in ((None, None), (2, 5)):
                            try:
                                found = suggest_tests(question=question, n_models=n_models, data=data, paired=paired,
                                                      task=task, has_scores=True, n_folds=folds[0],
                                                      n_repeats=folds[1])
                            except Exception:   # noqa: BLE001 - combinations that make no sense are refused
                                continue
                            seen |= {s.test for s in found}
    assert set(TESTS) <= seen
    assert seen - set(TESTS) == {"error_rate_ci"}   # an interval of one model, not a comparison


# -------------------------------------------------------------------------------------------------------- page

def page_option_labels(at) -> set[str]:
    return {w.label for kind in ("selectbox", "toggle", "number_input") for w in at.get(kind)}


def expected_labels(spec, kind, task=None) -> set[str]:
    shown = set()
    for opt in spec.options_for(kind, task):
        if opt.shown_if is not None and spec.option(opt.shown_if[0]).default not in opt.shown_if[1]:
            continue
        shown.add(opt.label)
    return shown


def choose_test(at, key):
    [test] = [s for s in at.selectbox if s.label == "Test"]
    assert TESTS[key].title in test.options, (key, test.options)   # shown by its title, chosen by its key
    test.set_value(key).run()
    assert not at.exception


def check_tests(at, keys, kind, reached, task=None):
    for key in keys:
        choose_test(at, key)
        labels = page_option_labels(at)
        assert expected_labels(TESTS[key], kind, task) <= labels, key
        reached.add(key)


def set_radio(at, label, value):
    [radio] = [r for r in at.radio if r.label == label]
    radio.set_value(value).run()
    assert not at.exception


def test_the_page_shows_every_reachable_test_with_a_widget_per_option():
    reached: set[str] = set()
    at = open_app("views/compare.py")
    check_tests(at, ["mcnemar", "delong", "paired_bootstrap"], PREDICTIONS, reached)
    set_radio(at, "Question", "several_models")
    check_tests(at, ["cochran_q", "mcnemar"], PREDICTIONS, reached)
    set_radio(at, "Question", "cv_folds")
    check_tests(at, ["friedman", "corrected_resampled_t", "paired_t"], PREDICTIONS, reached, "binary")   # 5 folds: no Wilcoxon
    assert "Per-sample error" not in page_option_labels(at)      # classification: a metric per fold, no error

    set_radio(at, "Question", "subgroups")
    check_tests(at, ["chi2", "fisher_exact"], PREDICTIONS, reached)

    # two models on two different test sets, uploaded on the Data page
    rng = np.random.default_rng(5)
    rows = []
    for model, start in (("old", 0), ("new", 500)):
        y = rng.random(150) < 0.4
        s = 1 / (1 + np.exp(-(2 * y - 1 + rng.normal(0, 1, 150))))
        rows += [{"id": start + i, "model": model, "y_true": "yes" if y[i] else "no", "score": round(float(s[i]), 5)}
                 for i in range(150)]
    buf = io.StringIO()
    pd.DataFrame(rows).to_csv(buf, index=False)
    at = open_app()
    at.radio[0].set_value("Upload a file").run()
    at.file_uploader[0].upload("two_sets.csv", buf.getvalue().encode(), "text/csv").run()
    at.switch_page("views/compare.py").run()
    assert not at.exception
    assert any("Independent samples" in i.value for i in at.info)
    check_tests(at, ["chi2", "fisher_exact", "unpaired_delong", "unpaired_bootstrap", "mann_whitney", "welch_t"],
                PREDICTIONS, reached)

    # per-fold scores of 5 × 2-fold cross-validation, uploaded on the page
    at = open_app("views/compare.py")
    set_radio(at, "Compare models from", "per-fold scores I upload")
    frame = fold_table(repeats=5, folds=2)[lambda f: f.model != "C"]
    at.file_uploader(key="fold_upload").upload("cv.csv", frame.to_csv(index=False).encode(), "text/csv").run()
    assert not at.exception
    check_tests(at, ["cv_5x2_t"], FOLDS, reached)

    # per-fold scores of three models each cross-validated on its own folds: independent runs
    at = open_app("views/compare.py")
    set_radio(at, "Compare models from", "per-fold scores I upload")
    own = fold_table().assign(fold=lambda f: f["model"] + f["fold"].astype(str)).drop(columns="repeat")
    at.file_uploader(key="fold_upload").upload("own.csv", own.to_csv(index=False).encode(), "text/csv").run()
    assert not at.exception
    check_tests(at, ["kruskal", "anova"], FOLDS, reached)

    # the regression and forecast samples: tests of per-sample errors and Diebold–Mariano
    at = open_app("views/compare.py", sample="Diabetes — regression, 3 models, 5 folds")
    check_tests(at, ["paired_bootstrap", "paired_t", "wilcoxon"], PREDICTIONS, reached, "regression")
    at = open_app("views/compare.py", sample="CO₂ and El Niño — monthly forecasts, 3 models, 1–12 months ahead")
    check_tests(at, ["diebold_mariano"], PREDICTIONS, reached, "forecast")
    at = open_app("views/compare.py", sample="Digits — multi-label, 5 properties, 2 models, 5 folds")
    check_tests(at, ["mcnemar_per_label"], PREDICTIONS, reached, "multilabel")
    at = open_app("views/compare.py", sample="Iris — clustering, 3 clusterings with species and features")
    check_tests(at, ["paired_bootstrap", "better_than_random"], PREDICTIONS, reached, "clustering")

    assert set(TESTS) == reached


def test_options_check_their_values_and_name_what_arrived():
    from assess.core.errors import AssessError
    spec = TESTS["paired_bootstrap"]
    assert spec.option("n_resamples").check(np.int64(300), "paired_bootstrap") == 300
    assert TESTS["mcnemar"].option("continuity").check(np.bool_(False), "mcnemar") is False
    with pytest.raises(AssessError, match=r"option `n_resamples` of test `paired_bootstrap` must be a whole number "
                                          r"\(got 2.5\)"):
        compare(paired_binary(), test="paired_bootstrap", metric="accuracy", n_resamples=2.5)
    with pytest.raises(AssessError, match=r"option `method` of test `mcnemar` must be one of 'exact', 'asymptotic', "
                                          r"'midp' \(got 'chi2'\)"):
        compare(paired_binary(), test="mcnemar", method="chi2")
    with pytest.raises(AssessError, match=r"option `continuity` of test `chi2` must be True or False \(got 'on'\)"):
        compare(independent_binary(), test="chi2", continuity="on")
    with pytest.raises(AssessError, match=r"option `seed` of test `paired_bootstrap` must be ≥ 0 \(got -1\)"):
        compare(paired_binary(), test="paired_bootstrap", metric="accuracy", seed=-1)
