"""AppTest of the Slices page: the breast-cancer sample by `group` (values checked with scikit-learn), crossed
columns, the folds and learning-curve sections, a regression file, and a file with nothing to slice by."""

import json

import numpy as np
import pandas as pd
from sklearn.metrics import accuracy_score, mean_absolute_error

from tests.conftest import ROOT, joined_table, open_app


def _subheaders(at):
    return [s.value for s in at.subheader]


def slice_tests(at) -> pd.DataFrame:
    """The "Tests across slices" table, which the page shows as two (each naming its slices) to fit 1024 px."""
    first, second = (at.dataframe[i].value.set_index("Slice") for i in (1, 2))
    assert not set(first.columns) & set(second.columns)
    return first.join(second)


def test_binary_sample_by_group():
    at = open_app("views/slices.py")
    assert not at.exception and not at.error
    assert at.multiselect(key="slice_columns").value == ["group"]
    assert _subheaders(at) == ["Where the model fails", "Tests across slices", "Fairness gaps", "Find weak slices",
                               "Across cross-validation folds"]
    table = slice_tests(at)
    data = pd.read_csv(ROOT / "assets/samples/breast_cancer_binary.csv")
    logistic = data[data.model == "logistic"]
    for group, rows in logistic.groupby("group"):
        assert table.loc[group, "Accuracy"] == f"{accuracy_score(rows.y_true, rows.y_pred):.3f}"
        assert table.loc[group, "Rows"] == f"{len(rows):,}"
    assert set(table["Test"]) <= {"χ² test", "Fisher's exact test"}
    shown = json.loads(at.dataframe[2].proto.columns)   # the p column under the project's "p-value", never "P"
    assert shown["p"]["label"] == "p-value"
    worst = [m.value for m in at.markdown if "Worst slices of" in m.value]
    assert len(worst) == 1
    # "worst" names only slices below all rows (the first model's, the page's default)
    overall = accuracy_score(logistic.y_true, logistic.y_pred)
    below = {g for g, r in logistic.groupby("group") if accuracy_score(r.y_true, r.y_pred) < overall}
    listed = worst[0].split(": ", 1)[1]
    assert below and all(f"{g} " in listed for g in below)
    assert not any(f"{g} " in listed for g in set(logistic.group) - below)
    every = at.dataframe[0].value.set_index("Model")          # each model's worst slice, before the chart
    tree = data[data.model == "tree"]
    by_group = {g: accuracy_score(r.y_true, r.y_pred) for g, r in tree.groupby("group")}
    assert every.loc["tree", "Worst slice"] == min(by_group, key=by_group.get)
    assert every.loc["tree", "Accuracy"] == f"{min(by_group.values()):.3f}"
    # no raw keys on screen: the metric's display name, lower-cased mid-sentence as the product's other sentences
    # say it ("by accuracy", not "by Accuracy"), never the key `accuracy` in code; the fairness gaps by their display
    # names, not fairlearn's function names ("Demographic parity difference", not demographic_parity_difference)
    assert not any("`accuracy`" in m.value for m in at.markdown)
    assert worst[0].startswith(r"Worst slices of model logistic by accuracy \(all rows")
    [gaps] = [d.value for d in at.dataframe if "Gap" in d.value.columns]
    assert "Demographic parity difference" in set(gaps["Gap"]) and not gaps["Gap"].str.contains("_").any()


def test_two_columns_are_crossed_and_the_model_can_change():
    at = open_app("views/slices.py")
    at.multiselect(key="slice_columns").set_value(["group", "fold"]).run()
    at.selectbox(key="slice_model").set_value("tree").run()
    assert not at.exception and not at.error
    assert "Fairness gaps" not in _subheaders(at)          # fairness needs one protected column
    assert any("need one slice column" in c.value for c in at.caption)
    table = slice_tests(at)
    assert len(table) == 15 and "large × 1" in set(table.index)


def test_learning_curve_sample_shows_the_curve_and_a_verdict():
    at = open_app("views/slices.py", sample="Breast cancer — learning curve, 2 models, 6 training sizes")
    assert not at.exception and not at.error
    assert "Learning curve" in _subheaders(at)
    verdicts = [m.value for m in at.markdown if "per doubling" in m.value]
    assert len(verdicts) == 2


def test_regression_sample_tests_mae_with_kruskal_wallis():
    at = open_app("views/slices.py", sample="Diabetes — regression, 3 models, 5 folds")
    assert not at.exception and not at.error
    at.multiselect(key="slice_columns").set_value(["fold"]).run()
    assert not at.exception
    table = slice_tests(at)
    data = pd.read_csv(ROOT / "assets/samples/diabetes_regression.csv")
    first = data[data.model == data.model.iloc[0]]
    rows = first[first.fold == 1]
    assert table.loc["1", "Mean absolute error"] == f"{mean_absolute_error(rows.y_true, rows.y_pred):.2f}"
    assert set(table["Test"]) == {"Kruskal–Wallis"}


def test_nothing_to_slice_by_is_said():
    at = open_app()
    at.radio[0].set_value("Upload a file").run()
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"y_true": rng.integers(0, 2, 50), "y_pred": rng.integers(0, 2, 50)})
    at.file_uploader[0].upload("plain.csv", frame.to_csv(index=False).encode(), "text/csv").run()
    at.switch_page("views/slices.py").run()
    assert not at.exception
    assert any("no column to slice by" in i.value for i in at.info)


def test_errors_page_shows_the_error_per_fold_beside_the_curves_per_fold():
    import json

    at = open_app("views/errors.py", sample="Diabetes — regression, 3 models, 5 folds")
    assert not at.exception
    assert "Per cross-validation fold" in _subheaders(at)
    figure = json.loads(at.get("plotly_chart")[-1].proto.spec)
    data = pd.read_csv(ROOT / "assets/samples/diabetes_regression.csv")
    first = data[data.model == data.model.iloc[0]]
    expected = [mean_absolute_error(f.y_true, f.y_pred) for _, f in first.groupby("fold")]
    y = figure["data"][0]["y"]
    if isinstance(y, dict):      # plotly's typed-array encoding of a numpy array
        import base64
        y = np.frombuffer(base64.b64decode(y["bdata"]), dtype=y["dtype"])
    assert np.allclose(sorted(y), sorted(expected))


def test_find_weak_slices_searches_the_other_columns():
    """The sample's only other column is `group`: naive Bayes is worst where it is "medium". The found slice's
    accuracy is scikit-learn's, its p SciPy's one-sided Fisher test against the rest, and the adjustment statsmodels'
    Benjamini–Hochberg over the three groups looked at."""
    from scipy.stats import fisher_exact
    from statsmodels.stats.multitest import multipletests

    at = open_app("views/slices.py")
    at.selectbox(key="slice_model").set_value("naive_bayes_3f").run()
    at.toggle(key="discover_on").set_value(True).run()
    assert not at.exception and not at.error
    [sentence] = [m.value for m in at.markdown if m.value.startswith("Searched")]
    assert "3 slices were looked at" in sentence and "1 slice is worse" in sentence
    first = next(i for i, d in enumerate(at.dataframe)
                 if "Slice" in d.value.columns and d.value["Slice"].str.startswith("group = ").any())
    found = joined_table(at, first, "Slice").reset_index()
    data = pd.read_csv(ROOT / "assets/samples/breast_cancer_binary.csv")
    nb = data[data.model == "naive_bayes_3f"]
    right = nb.y_true == nb.y_pred
    p = {g: fisher_exact([[right[nb.group == g].sum(), (~right)[nb.group == g].sum()],
                          [right[nb.group != g].sum(), (~right)[nb.group != g].sum()]], alternative="less")[1]
         for g in ("large", "medium", "small")}
    adjusted = dict(zip(p, multipletests(list(p.values()), method="fdr_bh")[1]))
    row = found.set_index("Slice").loc["group = medium"]
    medium = nb[nb.group == "medium"]
    assert row["Accuracy"] == f"{accuracy_score(medium.y_true, medium.y_pred):.3f}"
    assert row["Rows"] == f"{len(medium):,}"
    assert adjusted["medium"] < 0.001 and row["Adjusted p (BH)"] == "< 0.001"
    assert all(adjusted[g] > 0.05 for g in ("large", "small")) and len(found) == 1
    # the found slice's rows (issue 36 → 35's drill-down): exactly the file's rows of naive Bayes in group medium
    [pick] = [s for s in at.selectbox if s.key == "found_rows_slice"]
    assert pick.options == [f"group = medium ({len(medium):,} rows)"]
    caption = next(c.value.replace("\\", "") for c in at.caption if c.value.startswith("Rows "))
    assert caption.startswith(f"Rows 1–25 of {len(medium):,}")
    shown = [d.value for d in at.dataframe if "id" in d.value.columns][-1]   # the found slice's, after the declared
    assert shown["id"].tolist() == medium.id.head(25).tolist()


def test_find_weak_slices_says_when_there_is_nothing_to_search():
    at = open_app("views/slices.py", sample="Diabetes — regression, 3 models, 5 folds")
    at.toggle(key="discover_on").set_value(True).run()
    assert not at.exception and not at.error
    assert any(i.value.startswith("This file has no column to search") for i in at.info)


def test_the_rows_of_a_slice_are_the_files_rows_of_that_slice_worst_first():
    """The rows behind a slice (issue 35 §1): the slices offered worst first by the page's accuracy (scikit-learn per
    group) with their row counts, and a slice's rows exactly the file's rows of that group and model (pandas)."""
    at = open_app("views/slices.py")
    at.selectbox(key="slice_model").set_value("naive_bayes_3f").run()
    data = pd.read_csv(ROOT / "assets/samples/breast_cancer_binary.csv").query("model == 'naive_bayes_3f'")
    accuracy = {g: accuracy_score(part.y_true, part.y_pred) for g, part in data.groupby("group")}
    order = sorted(accuracy, key=accuracy.get)
    [pick] = [s for s in at.selectbox if s.key == "slice_rows_slice"]
    assert pick.options == [f"{g} ({(data.group == g).sum():,} rows)" for g in order]
    pick.set_value(order.index("small")).run()
    assert not at.exception
    shown = [d.value for d in at.dataframe if "id" in d.value.columns][0]
    assert shown["id"].tolist() == data.id[data.group == "small"].head(25).tolist()


def test_fairness_gaps_table_fits_1024_with_its_methods_wrapped_and_remarks_said_once():
    """Issue-36 walk at 1024 px: the fairness gaps table scrolled sideways, "Interval method" cut at its edge and "Near
    no gap" out of view. Its columns now fit the table's room at 1024 px (`ui.widgets.TABLE_FIT_PX`), its rows as
    tall as the longest method's lines; each remark (the same paragraph on every difference, on every ratio) is a
    caption naming its gaps. Oracle for the remarks: the analysis' own NEAR_ZERO texts, one per kind."""
    from assess.analyses.slices import NEAR_ZERO
    from ui import widgets

    at = open_app("views/slices.py")
    [table] = [t for t in at.dataframe if "Interval method" in t.value.columns and "Gap" in t.value.columns]
    columns = json.loads(table.proto.columns)
    shown = [c for c in table.value.columns if columns.get(c, {}).get("width")]
    assert sum(columns[c]["width"] for c in shown) <= widgets.TABLE_FIT_PX
    lines = max(widgets.wrapped_lines(m, columns["Interval method"]["width"]) for m in table.value["Interval method"])
    assert lines > 1 and table.proto.row_height >= widgets.wrapped_row_height(lines)
    said = [c.value.replace("\\", "") for c in at.caption if c.value.startswith("Near no gap")]
    assert said == [f"Near no gap, Demographic parity difference, Equalised odds difference and Equal opportunity "
                    f"difference: {NEAR_ZERO['difference']}.",
                    f"Near no gap, Demographic parity ratio, Equalised odds ratio and Equal opportunity ratio: "
                    f"{NEAR_ZERO['ratio']}."]
