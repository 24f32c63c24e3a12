"""The one table widget (`ui.widgets.data_table`): what reaches ``st.dataframe``.

Oracles: Python's own format strings ("{:.3f}".format) for the cells, the registry's display names
(`assess.metrics.metrics_for`) for the headers, and the grid's rule that a missing cell shows "None" (so none may reach
it as None/NaN)."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pandas as pd
import pytest
import streamlit as st

from assess.core.data import Task
from assess.metrics import metrics_for
from ui import widgets


@pytest.fixture
def shown(monkeypatch):
    calls = []
    monkeypatch.setattr(st, "dataframe", lambda data, **kwargs: calls.append((data, kwargs)))
    return calls


@pytest.fixture
def styles(monkeypatch):
    sheets = []
    monkeypatch.setattr(st, "html", sheets.append)
    return sheets


def _layouts(shown, columns) -> list[list]:
    """The calls of one `data_table` grouped by layout (its parts at 1024 px first, then each wider layout): a
    layout ends when its parts have shown every column."""
    layouts, seen = [[]], set()
    for data, kwargs in shown:
        layouts[-1].append((data, kwargs))
        seen |= set(_cells(data).columns)
        if seen >= set(columns):
            layouts.append([])
            seen = set()
    assert not layouts[-1], "a layout without every column"
    return layouts[:-1]


def _split(shown, columns):
    """(the parts at 1024 px, the whole table) of one `data_table` call."""
    layouts = _layouts(shown, columns)
    (whole,) = layouts[-1]
    return layouts[0], whole


def _cells(data):
    return data.data if hasattr(data, "data") else data   # a Styler's frame, else the frame


def test_missing_cells_read_dash_in_the_columns_format_and_complete_columns_stay_numbers(shown):
    frame = pd.DataFrame({"model": ["a", "b"], "precision": [0.12345, math.nan], "recall": [0.5, 0.25]})
    widgets.data_table(frame, formats={"precision": "{:.3f}", "recall": "{:.3f}"})
    (data, kwargs), = shown
    cells = _cells(data)
    assert list(cells["precision"]) == ["{:.3f}".format(0.12345), "—"]
    assert pd.api.types.is_numeric_dtype(cells["recall"])                     # sorting and exports keep numbers
    assert data.to_html().count("0.500") == 1 and data.to_html().count("0.250") == 1   # the Styler's format
    assert kwargs["hide_index"] is True and kwargs["width"] == "stretch"


def test_headers_are_display_names_and_text_columns_fit_their_text(shown):
    names = {m.key: m.name for m in metrics_for(Task.BINARY)}
    frame = pd.DataFrame({"model": ["logistic", "a much longer model name"], "f1": [0.5, 0.6]})
    widgets.data_table(frame, headers=names)
    (_, kwargs), = shown
    config = kwargs["column_config"]
    assert config["f1"]["label"] == names["f1"] == "F1 score"
    assert config["model"]["label"] == "Model"
    assert config["model"]["width"] == widgets.text_column_width(frame["model"], header="Model")


def test_config_replaces_a_column_and_can_hide_one(shown):
    frame = pd.DataFrame({"key": ["f1"], "metric": ["F1 score"]})
    widgets.data_table(frame, config={"key": None})
    (_, kwargs), = shown
    assert kwargs["column_config"]["key"] is None


def test_no_page_calls_st_dataframe_itself():
    """Every table of every page goes through the widget (one place for dashes, headers and widths)."""
    root = Path(__file__).resolve().parents[2]
    scripts = [*(root / "views").glob("*.py"), *(root / "ui").glob("*.py")]
    assert len(scripts) > 10  # the folders were found: an empty glob would pass anything
    callers = [p.name for p in scripts if p.name != "widgets.py" and "st.dataframe(" in p.read_text()]
    assert callers == []


def test_model_columns_of_a_comparison_keep_the_files_names(shown):
    """Found on a user walk: the "All models" table headed models `gbm` and `logreg` as "Gbm" and "Logreg"."""
    frame = pd.DataFrame({"metric": ["Accuracy"], "better": ["higher ↑"], "key": ["accuracy"], "gbm": ["0.77"],
                          "logreg_v2": ["0.62"], "1": ["0.5"]})
    widgets.data_table(frame, config=widgets.comparison_config(frame))
    (_, kwargs), = shown
    config = kwargs["column_config"]
    assert [config[m]["label"] for m in ("gbm", "logreg_v2", "1")] == ["gbm", "logreg_v2", "1"]
    assert config["metric"]["label"] == "Metric" and config["key"] is None
#: The grid's own automatic widths (px) of one-cell columns, read from the data grid's column props in Chromium
#: (``st.dataframe(..., width="content")`` without widths, Streamlit 1.67, Source Sans): the text's ``measureText``
#: width plus 8 px padding on each side, rounded up. Oracle for the widget's estimate, which must show the same text
#: whole (never narrower) without taking room the grid would not (at most 3 px wider). The 40 px a header was given
#: and the 6.2 px per character made Compare's result table 4 px wider than its frame at 1024 px.
GRID_AUTO_WIDTHS = [((["33"], "Statistic"), 63), ((["1.084e-06"], "p-value"), 73),
                    (([], "Accuracy difference (A - B)"), 167), ((["[0.02976, 0.07182]"], "95% interval"), 122),
                    ((["abcdefghijklmnopqrstuvwxyz"], "a"), 188), ((["0123456789"], "b"), 86)]


@pytest.mark.parametrize("cells_and_header, grid_px", GRID_AUTO_WIDTHS)
def test_column_width_estimate_matches_the_grids_own_width(cells_and_header, grid_px):
    cells, title = cells_and_header
    assert grid_px <= widgets.text_column_width(cells, header=title) <= grid_px + 3


def test_the_compare_result_table_is_sized_within_the_frame_at_1024(shown):
    """The Compare page's result table (binary sample, McNemar): every column sized to its text, no flag to leave the
    widths to the grid, and together no wider than the frame at 1024 px (562 px, measured)."""
    frame = pd.DataFrame({"statistic": [33.0], "pvalue": [1.084e-06], "effect_value": [0.05097],
                          "effect_interval": ["[0.02976, 0.07182]"], "n": [569]})
    widgets.data_table(frame, formats={c: "{:.4g}".format for c in ("statistic", "pvalue", "effect_value")},
                       headers={"statistic": "Statistic", "pvalue": "p-value",
                                "effect_value": "Accuracy difference (A - B)", "effect_interval": "95% interval"})
    (_, kwargs), = shown
    widths = [kwargs["column_config"][c]["width"] for c in frame.columns]
    assert sum(widths) <= 562 and sum(widths) <= widgets.TABLE_FIT_PX


def test_named_widths_set_by_config_count_as_the_grids_pixels(shown):
    """A column set to "large" by ``config`` takes 400 px (Streamlit's named widths): the others fit the rest."""
    frame = pd.DataFrame({"remark": ["x" * 200], "name": ["a"]})
    widgets.data_table(frame, shrink=("remark",), config={"name": st.column_config.TextColumn("Name", width="large")})
    (_, kwargs), = shown
    assert kwargs["column_config"]["remark"]["width"] <= widgets.TABLE_FIT_PX - 400


def test_wrapped_columns_share_the_room_and_rows_show_every_line(shown):
    """The Controls checklist: its two sentence columns wrap within :data:`TABLE_FIT_PX` and the rows are tall
    enough for the most lines (the grid's line pitch, 18.2 px, measured on its wrapped text)."""
    sentence = ("checked by the app: 5 groups of fold against 1: largest label PSI 0.000, smallest Holm-adjusted p of "
                "the χ² test of the labels 1, smallest Holm-adjusted p of the KS test of the scores 0.467")
    frame = pd.DataFrame({"Control": ["Similar distributions across splits", "Ground-truth agreement"],
                          "Status": ["✓ ok", "– not checked"], "What the app checked": [sentence, "short"]})
    widgets.data_table(frame, wrap=("Control", "What the app checked"))
    (_, kwargs), = shown
    widths = {c: kwargs["column_config"][c]["width"] for c in frame.columns}
    assert sum(widths.values()) <= widgets.TABLE_FIT_PX
    lines = max(widgets.wrapped_lines(t, widths[c]) for c in ("Control", "What the app checked") for t in frame[c])
    assert lines > 1 and kwargs["row_height"] >= 13 + 18.2 * (lines - 1) + 6 and kwargs["row_height"] > 64
    assert kwargs["height"] == "content"
    # a word never broken: each column at least as wide as its longest word (the browser's measure, ±1 px)
    assert widths["Control"] >= 16 + max(widgets.text_px(w) for w in "Similar distributions across splits".split())


def test_a_wrapped_table_without_rows_is_shown(shown):
    """The Confusion page's "Most confused pairs" with no pair to list (every model right on every row of a class
    pair): the wrapped columns have no cell, and the table is shown with its headers (it ended the page on a
    ``ValueError`` from counting lines in no cell)."""
    frame = pd.DataFrame({"true_class": pd.Series([], dtype=object), "predicted_class": pd.Series([], dtype=object),
                          "count": pd.Series([], dtype="int64")})
    widgets.data_table(frame, wrap=("true_class", "predicted_class"))
    (_, kwargs), = shown
    assert "row_height" not in kwargs


@pytest.mark.parametrize("text, width, expected", [("aaa bbb", 10_000, 1), ("", 100, 1),
                                                   ("word " * 10, widgets.TABLE_CELL_PADDING + widgets.text_px("word word") + 0.5, 5)])
def test_wrapped_lines_break_between_words(text, width, expected):
    assert widgets.wrapped_lines(text, width) == expected


def test_a_table_too_wide_for_the_frame_is_split_repeating_its_group_column(shown):
    """The Controls page's shift table: 13 columns in one frame hid 649 px at 1024; split, each table fits and
    names its rows; every column shown once."""
    frame = pd.DataFrame({"Group": ["1 (reference)", "2"], **{f"Measure number {i}": ["0.000", "0.891"]
                                                             for i in range(10)}})
    widgets.data_table(frame, repeat=("Group",))
    parts, _ = _split(shown, frame.columns)
    assert len(parts) > 1
    seen = []
    for data, kwargs in parts:
        cells = _cells(data)
        assert list(cells.columns)[0] == "Group"
        assert sum(kwargs["column_config"][c]["width"] for c in cells.columns) <= widgets.TABLE_FIT_PX
        seen += list(cells.columns)[1:]
    assert seen == list(frame.columns)[1:]


def test_a_split_table_is_shown_in_fewer_parts_or_whole_where_the_page_has_the_room(shown, styles):
    """At 1024 px the parts; on a wider page fewer parts, then the whole table, each column at its own width: the
    style sheet shows one layout by the width of the table's container (the layout's widest part plus the grid's
    frame). It holds a digest and numbers only: a cell or a column name cannot write into it."""
    frame = pd.DataFrame({"Group": ["1 (reference)", "</style><script>alert(1)</script>"],
                          **{f"Measure number {i}": ["0.000", "0.891"] for i in range(10)}})
    widgets.data_table(frame, repeat=("Group",))
    layouts = _layouts(shown, frame.columns)
    assert [len(layout) for layout in layouts] == sorted({len(layout) for layout in layouts}, reverse=True)
    assert len(layouts) >= 2 and len(layouts[0]) > 1 and len(layouts[-1]) == 1
    sheet, = styles
    assert "script" not in sheet and "Measure" not in sheet
    key = re.search(r"\.st-key-(\w+) \{ container-type: inline-size; gap: 0; \}", sheet).group(1)
    shown_from = [0] + [int(re.search(rf"@container \(max-width: ([\d.]+)px\) \{{ \.st-key-{key}_{n} ", sheet)
                            .group(1).split(".")[0]) + 1 for n in range(1, len(layouts))]
    for n, layout in enumerate(layouts):
        widest = max(sum(kwargs["column_config"][c]["width"] for c in _cells(data).columns) for data, kwargs in layout)
        if n == 0:
            assert widest <= widgets.TABLE_FIT_PX
        else:   # its widest part fits the container from which it is shown; the narrower layout hides there
            assert widest + widgets.GRID_FRAME_EXTRA_PX <= shown_from[n] + len(frame.columns)   # (widths rounded up)
            assert f"@container (min-width: {shown_from[n]}px) {{ .st-key-{key}_{n - 1} {{ display: none; }} }}" \
                in sheet


def test_a_table_too_wide_for_any_screen_is_never_shown_whole(shown, styles):
    frame = pd.DataFrame({"Group": ["a"], **{f"Measure number {i}": ["0.000"] for i in range(60)}})
    widgets.data_table(frame, repeat=("Group",))
    layouts = _layouts(shown, frame.columns)
    assert len(layouts) == 2 and len(layouts[1]) < len(layouts[0])          # at 1024 px, and at 1440 px
    assert all(len(_cells(data).columns) < len(frame.columns) for data, _ in shown)


def test_wrapped_columns_split_only_when_even_wrapped_they_cannot_fit(shown):
    """The Metrics page's "All models": model columns wrap a value above its interval; three models fit wrapped and
    stay one table, six cannot (each column at least its longest word wide) and are split, the metric named in each
    part and the hidden registry key kept in each (exports and tests read it)."""
    def comparison(models: int) -> pd.DataFrame:
        return pd.DataFrame({"metric": ["Accuracy", "Matthews correlation"], "better": ["higher ↑", "higher ↑"],
                             "key": ["accuracy", "mcc"],
                             **{f"model_{i}": ["0.981 (0.966–0.989) ★", "0.874 (0.845–0.901)"] for i in range(models)}})
    for models, parts in ((3, 1), (6, 2)):
        shown.clear()
        frame = comparison(models)
        wrap = tuple(c for c in frame.columns if c.startswith("model_"))
        widgets.data_table(frame, wrap=wrap, repeat=("metric", "better"), config={"key": None})
        split = _split(shown, frame.columns)[0] if parts > 1 else shown
        assert len(split) == parts, models
        seen = []
        for data, kwargs in split:
            cells = _cells(data)
            assert list(cells.columns)[:2] == ["metric", "better"] and "key" in cells.columns
            assert kwargs["column_config"]["key"] is None
            widths = {c: kwargs["column_config"][c]["width"] for c in cells.columns if c != "key"}
            assert sum(widths.values()) <= widgets.TABLE_FIT_PX + 1
            assert all(widths[c] >= 16 + widgets.text_px("(0.966–0.989)") - 1 for c in cells.columns if c in wrap)
            seen += [c for c in cells.columns if c in wrap]
        assert seen == list(wrap)


def test_value_and_interval_share_a_column_and_methods_go_to_one_sentence():
    """The per-model table on screen: "0.981 (0.966–0.989)" from `model_frame`'s own value and interval cells (a
    value without an interval stands alone), the method and remark columns gone; each method named once with its
    metrics, the commonest "for the others"."""
    frame = pd.DataFrame({"metric": ["Rows", "Accuracy", "Precision", "F1 score", "ROC AUC"],
                          "value": ["569", "0.981", "0.986", "0.974", "0.995"],
                          "interval": ["", "0.966–0.989", "0.958–0.995", "0.957–0.988", "0.990–1.000"],
                          "method": ["", "Wilson score", "Wilson score", "Bootstrap percentile, 200 resamples",
                                     "DeLong"],
                          "majority": ["569", "0.627", "—", "0.000", "0.500"], "remark": ["", "", "", "", ""]})
    shown = widgets.value_with_interval(frame)
    assert list(shown.columns) == ["metric", "value", "majority"]
    assert list(shown["value"]) == ["569", "0.981 (0.966–0.989)", "0.986 (0.958–0.995)", "0.974 (0.957–0.988)",
                                    "0.995 (0.990–1.000)"]
    assert list(frame["value"]) == ["569", "0.981", "0.986", "0.974", "0.995"]    # the model frame is not changed
    assert widgets.interval_methods(frame) == ("Intervals: Bootstrap percentile, 200 resamples for F1 score; DeLong "
                                               "for ROC AUC; Wilson score for the others.")
    assert widgets.interval_methods(frame.iloc[:1]) == ""
    assert widgets.interval_methods(frame.iloc[1:3]) == "Intervals: Wilson score."


def test_per_model_table_of_each_sample_fits_1024(shown):
    """The binary, Wine and Diabetes samples' per-model tables (every registry metric): no wider than
    :data:`TABLE_FIT_PX`, long names and values wrapping instead (rows tall enough for their lines)."""
    from assess.inputs.assessment import describe
    from assess.inputs.read import read_table
    from assess.metrics.reports import compute_reports
    from assess.present.summary import model_frame
    samples = Path(__file__).resolve().parents[2] / "assets" / "samples"
    for name in ("breast_cancer_binary.csv", "wine_multiclass.csv", "diabetes_regression.csv"):
        report = next(iter(compute_reports(describe(read_table(samples / name)), ci="auto", n_resamples=100).values()))
        shown.clear()
        widgets.data_table(widgets.value_with_interval(model_frame(report)), headers={"value": "Value (interval)"},
                           wrap=("metric", "value"))
        (data, kwargs), = shown
        widths = {c: o["width"] for c, o in kwargs["column_config"].items()}
        assert sum(widths.values()) <= widgets.TABLE_FIT_PX, (name, widths)
        lines = max(widgets.wrapped_lines(t, widths[c]) for c in ("metric", "value") for t in _cells(data)[c])
        if lines > 1:
            assert kwargs["row_height"] >= 13 + 18.2 * (lines - 1) + 6, name


def test_presentation_mode_sizes_columns_for_the_larger_text(shown, monkeypatch):
    """Presenting, the grid's text and padding are 1.25 times larger (its theme: 17.5 px text, 10 px padding,
    measured): each column 1.25 times its normal width, and a table too wide for the presented frame split."""
    frame = pd.DataFrame({"metric": ["Accuracy"], "a": ["0.981 (0.966–0.989) ★"]})
    widgets.data_table(frame)
    normal = {c: o["width"] for c, o in shown[0][1]["column_config"].items()}
    monkeypatch.setitem(st.session_state, widgets.Key.PRESENTATION, True)
    shown.clear()
    widgets.data_table(frame)
    presented = {c: o["width"] for c, o in shown[0][1]["column_config"].items()}
    for c in frame.columns:
        assert presented[c] >= widgets.PRESENTATION_TEXT_SCALE * (normal[c] - 1)
        assert presented[c] >= 2 * 10 + 1.25 * widgets.text_px(frame[c][0])       # the grid's presented padding


def test_a_models_fold_spread_stays_beside_its_value_when_split(shown):
    frame = pd.DataFrame({"metric": ["Accuracy"], "better": ["higher ↑"],
                          **{c: ["0.981 (0.966–0.989) ★"] for m in ("logistic", "tree", "naive_bayes")
                             for c in (m, f"{m} · folds: mean ± SD")}})
    widgets.data_table(frame, repeat=("metric", "better"))
    parts = [list(_cells(data).columns) for data, _ in _split(shown, frame.columns)[0]]
    assert len(parts) > 1
    for part in parts:
        for c in part:
            if " · " in c:
                assert c.split(" · ")[0] in part


def test_the_widget_modules_examples_hold():
    """The examples in ui/widgets.py (the table split, the progress throttle): tests/ is where pytest looks."""
    import doctest

    result = doctest.testmod(widgets)
    assert result.attempted >= 4 and not result.failed


def test_bootstraps_stopped_each_on_its_own_precision_read_as_one_method():
    """Each bootstrap column stops on its own precision, so each carries its own Monte-Carlo error: the caption
    names the method once and gives each metric's error beside it (it repeated "Bootstrap percentile, 1,000
    resamples (…)" once per metric)."""
    frame = pd.DataFrame({
        "metric": ["F1 score", "Balanced accuracy", "ROC AUC", "Accuracy", "Precision", "Recall (sensitivity)"],
        "method": ["Bootstrap percentile, 1,000 resamples (Monte-Carlo error of the bounds 0.0013)",
                   "Bootstrap percentile, 1,000 resamples (stopped: Monte-Carlo error of the bounds 0.00041 < 0.0005)",
                   "DeLong", "Wilson score", "Wilson score", "Wilson score"]})
    assert widgets.interval_methods(frame) == (
        "Intervals: Bootstrap percentile, 1,000 resamples for F1 score (Monte-Carlo error of the bounds 0.0013), "
        "Balanced accuracy (Monte-Carlo error of the bounds 0.00041 < 0.0005); DeLong for ROC AUC; Wilson score "
        "for the others.")
