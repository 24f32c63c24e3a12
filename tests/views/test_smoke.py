"""Every page on a matrix of legal but awkward uploads: nothing may raise (the SPEC's "nothing crashes").

Each case is a file a real user could bring; each page must either show its content or say plainly why not.
"""

import numpy as np
import pandas as pd
import pytest

from tests.conftest import open_app

RNG = np.random.default_rng(2026)
N = 80
Y = RNG.integers(0, 2, N)


def _csv(frame: pd.DataFrame) -> bytes:
    return frame.to_csv(index=False).encode()


CASES = {
    "labels_only.csv": _csv(pd.DataFrame({"y_true": Y, "y_pred": RNG.integers(0, 2, N)})),
    "logits_weights.csv": _csv(pd.DataFrame({"label": np.where(Y, "yes", "no"), "score": RNG.normal(Y * 2.0, 1.5),
                                             "weight": RNG.uniform(0.5, 2, N)})),
    "single_class.csv": _csv(pd.DataFrame({"y_true": np.ones(N, int), "score": RNG.random(N)})),
    "constant_score.csv": _csv(pd.DataFrame({"y_true": Y, "score": np.full(N, 0.5)})),
    "multiclass_labels.csv": _csv(pd.DataFrame({"y_true": RNG.choice(list("abc"), N),
                                                "y_pred": RNG.choice(list("abc"), N)})),
    "multilabel_sets.csv": _csv(pd.DataFrame({"y_true": RNG.choice(["a|b", "b", "c", "a|c", ""], N),
                                              "y_pred": RNG.choice(["a", "b|c", "c", "a|b|c"], N)})),
    "multilabel_indicators.csv": _csv(pd.DataFrame({"true_x": Y, "true_y": 1 - Y, "score_x": RNG.random(N),
                                                    "score_y": RNG.random(N)})),
    "regression.csv": _csv(pd.DataFrame({"y_true": RNG.normal(size=N), "y_pred": RNG.normal(size=N)})),
    "wide_models.csv": _csv(pd.DataFrame({"id": range(N), "y_true": Y, "y_pred_a": RNG.integers(0, 2, N),
                                          "y_pred_b": RNG.integers(0, 2, N), "score_a": RNG.random(N),
                                          "score_b": RNG.random(N)})),
    "two_models_no_ids.csv": _csv(pd.DataFrame({"model": np.repeat(["m1", "m2"], N // 2),
                                                "y_true": Y, "score": RNG.random(N)})),
    # issue 15: refused at validation (every page stops at the guard with the reason) or summarised (many classes)
    "zero_weights.csv": _csv(pd.DataFrame({"y_true": Y, "score": RNG.random(N), "weight": 0.0})),
    "classes_10000.csv": _csv(pd.DataFrame({"y_true": [f"c{i % 10_000}" for i in range(10_000)],
                                            "y_pred": [f"c{(7 * i) % 10_000}" for i in range(10_000)]})),
    "proba_1500.csv": _csv(pd.DataFrame(RNG.dirichlet(np.ones(1500), size=20).round(6),
                                        columns=[f"proba_c{j}" for j in range(1500)])
                           .assign(y_true=[f"c{j}" for j in RNG.integers(0, 1500, 20)])),
}
PAGES = ("views/data.py", "views/metrics.py", "views/confusion.py", "views/curves.py", "views/compare.py", "views/slices.py",
         "views/over_time.py", "views/cost.py", "views/controls.py")


@pytest.fixture(scope="module", params=sorted(CASES))
def loaded(request):
    at = open_app()
    at.radio[0].set_value("Upload a file").run()
    at.file_uploader[0].upload(request.param, CASES[request.param], "text/csv").run()
    assert not at.exception, request.param
    return request.param, at


@pytest.mark.parametrize("page", PAGES)
def test_page_never_raises(loaded, page):
    name, at = loaded
    at.switch_page(page).run()
    assert not at.exception, f"{page} raised on {name}"
    shown = [*at.dataframe, *at.get("plotly_chart"), *at.info, *at.error, *at.warning, *at.success]
    assert shown, f"{page} showed nothing on {name}"
    for table in at.dataframe:   # the grid shows a missing cell as "None": an undefined value reads "—"
        if isinstance(table.value, pd.DataFrame):
            assert not table.value.isna().to_numpy().any(), f"{page} on {name}: a table shows None"
