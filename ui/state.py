"""Session state of the app: every key (`Key`), `init_state`, loading, the decision, the one cache (`cached`), the page guard
and safe rendering of file text.

Everything a user loads lives in ``st.session_state`` only, so one session never sees another's data. The sample
tables are cached (they are the same for everyone); uploads are not. State changes happen in widget callbacks, which
Streamlit runs before the script, so the sidebar (drawn before the page) already shows the new state.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from assess.core.decision import Decision
from assess.core.errors import AssessError
from assess.inputs.assessment import Assessment, describe
from assess.inputs.columns import quote
from assess.inputs.read import Limits, LoadedTable, read_table
from assess.inputs.roles import Overrides
from ui.store import ServerBusy, SharedResults, forget_widget_callbacks, keep_tidy

ROOT = Path(__file__).resolve().parents[1]
SAMPLES_DIR = ROOT / "assets" / "samples"
SAMPLES = {
    "Breast cancer — binary, 3 models, 5 folds": "breast_cancer_binary.csv",
    "Wine — multi-class, 2 models": "wine_multiclass.csv",
    "Diabetes — regression, 3 models, 5 folds": "diabetes_regression.csv",
    "CO₂ and El Niño — monthly forecasts, 3 models, 1–12 months ahead": "monthly_forecasts.csv",
    "Breast cancer — learning curve, 2 models, 6 training sizes": "breast_cancer_learning_curve.csv",
    "Breast cancer with measured latencies — binary, 4 models": "breast_cancer_latency.csv",
    "Digits — multi-label, 5 properties, 2 models, 5 folds": "digits_multilabel.csv",
    "Iris — clustering, 3 clusterings with species and features": "iris_clustering.csv",
    "Customer churn over 2024 — binary, 2 models, daily dates, a drop from July": "churn_over_time.csv",
}
DEFAULT_SAMPLE = next(iter(SAMPLES))
DATA_PAGE = "views/data.py"


class Key:
    """Session-state keys, one place for all of them (widget keys are made by the functions below)."""

    SOURCE = "source"                  # sample title, or UPLOAD
    TABLE = "table"                    # LoadedTable
    OVERRIDES = "overrides"            # Overrides chosen on the Data page
    ASSESSMENT = "assessment"          # Assessment, or None when it cannot be described
    LOAD_ERROR = "load_error"          # message of the last failed read
    DESCRIBE_ERROR = "describe_error"  # message when roles/task cannot be described
    REVISION = "revision"              # bumps when overrides change, so role widgets redraw from the new state
    DECISION = "decision"              # assess.core.decision.Decision shared by every page (set on Curves or Metrics)
    RESULTS = "results"                # {page: (params, result)}: what a button last computed, see `keep_result`
    UPLOADER = "uploader"              # the Data page's file-uploader widget
    SOURCE_CHOICE = "source_choice"    # the Data page's source radio
    DECIMAL_CHOICE = "decimal_choice"  # the Data page's decimal-mark select
    UPLOAD = "upload"                  # Upload: the bytes of the uploaded file, kept to re-read with other options
    FIGURES = "figures"                # {page: [figures]} drawn in fragments, for the page's all-charts PDF
    LABELS_FROM = "labels_from"        # the Metrics page's label-source radio (mirrors DECISION)
    METRICS_THRESHOLD = "metrics_threshold"  # the Metrics page's threshold input (mirrors DECISION)
    ENGINE_RUN = "engine_run"          # (path, EngineRun) of a data-directory file opened out of core
    PENDING_READ = "pending_read"      # PendingRead: a read of the upload asked for and not finished yet
    LOADED_SETTINGS = "loaded_settings"    # Settings applied from a settings file (the Report page starts from them)
    SETTINGS_UPLOADER = "settings_uploader"  # the Data page's settings-file uploader
    SETTINGS_MESSAGE = "settings_message"  # [(kind, text), …] said after applying a settings file
    DATA_DIR_CHOICE = "data_dir_choice"    # the file picked from the data directory (ui/data_directory.py)
    PRESENTATION = "presentation_mode"     # the sidebar's presentation-mode toggle


UPLOAD = "Upload a file"
#: The browser sends a file while the Data page's uploader is on screen, and stops when another page is opened: the
#: server never hears of a file left behind (a file that has arrived is loaded whichever page opens, `PendingRead`).
STAY_WHILE_UPLOADING = ("Stay on the Data page until the file's upload bar has gone: a file still uploading when you "
                        "open another page is not sent.")


def init_state() -> None:
    """Set every key once per session; load the default sample so the app opens on data."""
    defaults = {Key.SOURCE: DEFAULT_SAMPLE, Key.TABLE: None, Key.OVERRIDES: Overrides(), Key.ASSESSMENT: None,
                Key.LOAD_ERROR: None, Key.DESCRIBE_ERROR: None, Key.REVISION: 0, Key.DECISION: Decision(),
                Key.RESULTS: {}, Key.FIGURES: {}}
    for key, value in defaults.items():
        st.session_state.setdefault(key, value)
    if st.session_state[Key.TABLE] is None and st.session_state[Key.SOURCE] == DEFAULT_SAMPLE \
            and st.session_state[Key.LOAD_ERROR] is None:
        set_table(sample_table(SAMPLES[DEFAULT_SAMPLE]))
    pending = st.session_state.get(Key.PENDING_READ)
    if pending is not None or _description_cut_short():   # a click on another page stopped it: see PendingRead
        name = pending.upload.name if pending is not None else st.session_state[Key.TABLE].name
        with st.spinner(md(f"Still reading {quote(name)}: this page follows when it is loaded."), show_time=True):
            finish_reading()


@st.cache_data(show_spinner=False, max_entries=8)
def sample_table(filename: str) -> LoadedTable:
    return read_table(SAMPLES_DIR / filename)


@st.cache_resource(show_spinner=False)
def shared_results() -> SharedResults:
    """The one store of results for every session of this server (see :mod:`ui.store`), kept tidy."""
    store = SharedResults()
    keep_tidy(store)
    return store


def session_id() -> str | None:
    """This session's id (None outside a Streamlit script run)."""
    ctx = get_script_run_ctx()
    return None if ctx is None else ctx.session_id


def forget_stale_widgets() -> None:
    """At the start of a run, drop the records of widgets that left the page (`ui.store.forget_widget_callbacks`):
    their callbacks would keep an earlier run's page globals — an earlier upload's assessment — alive."""
    ctx = get_script_run_ctx()
    state = getattr(getattr(ctx, "session_state", None), "_state", None)   # SafeSessionState → SessionState
    if state is not None:
        forget_widget_callbacks(state)


def _held_sha256() -> str | None:
    table = st.session_state.get(Key.TABLE)
    return None if table is None else table.sha256


def read_upload(data: bytes, name: str, *, sheet=None, decimal=None, main: bool = False) -> LoadedTable:
    """The file read once per content, name and reading options for the whole server (a second session uploading
    the same bytes gets the same table, which nothing modifies). ``main``: the predictions file of the Data page,
    whose entry leaves when no session holds it; any other file (fold scores, costs) leaves with the predictions
    file it was read beside."""
    limits = Limits.from_env()
    sha256 = hashlib.sha256(data).hexdigest()
    key = ("read", sha256, name, sheet, decimal, limits)
    return shared_results().get(key, lambda: read_table(data, name=name, sheet=sheet, decimal=decimal, limits=limits),
                                tag=sha256 if main else _held_sha256())


@dataclass(frozen=True)
class Upload:
    """An uploaded file as the user gave it (the uploader widget forgets it when the page is left)."""

    name: str
    data: bytes


def current_upload() -> Upload | None:
    return st.session_state.get(Key.UPLOAD)


def set_upload(upload: Upload | None) -> None:
    st.session_state[Key.UPLOAD] = upload
    if upload is None:   # the file was removed or another source chosen: a read cut short must not bring it back
        st.session_state[Key.PENDING_READ] = None


@dataclass(frozen=True)
class PendingRead:
    """A read of an uploaded file (with its reading options) asked for and not finished yet.

    Streamlit stops a callback at its next use of ``st.session_state`` as soon as another run is requested: a click
    on another page while a large upload is being read and described (seconds for a million rows) left the upload
    kept but no table — "No data loaded" on the page clicked, the file lost. The request is therefore kept first
    (`read_kept_upload`) and removed last (`finish_reading`), and every run finishes one cut short (`init_state`):
    the file ends up loaded whichever page the user went to. Finishing again is cheap, as reads and descriptions
    are kept by content for the whole server (`read_upload`, `shared_describe`)."""

    upload: Upload
    sheet: str | None = None
    decimal: str | None = None


def read_kept_upload(request: PendingRead) -> None:
    """Read an upload (a failure becomes the Data page's message), so that a run stopped midway is finished by the
    next one."""
    st.session_state[Key.PENDING_READ] = request   # first: whatever stops this run from here on, the next finishes
    finish_reading()


def finish_reading() -> None:
    """Finish the pending read (`PendingRead`), or a description of the table that a page change cut short."""
    request = st.session_state.get(Key.PENDING_READ)
    if request is None:
        if _description_cut_short():
            rebuild()
        return
    set_upload(request.upload)
    try:
        set_table(read_upload(request.upload.data, request.upload.name, sheet=request.sheet, decimal=request.decimal,
                              main=True))
    except (AssessError, ServerBusy) as exc:
        set_table(None, error=str(exc))
    st.session_state[Key.PENDING_READ] = None   # last: until here a stopped run is finished by the next


def _description_cut_short() -> bool:
    """A table without its assessment and without the message saying why: `rebuild` was stopped before its end (a
    role changed, then another page clicked), which it never is otherwise."""
    return (st.session_state.get(Key.TABLE) is not None and st.session_state.get(Key.ASSESSMENT) is None
            and st.session_state.get(Key.DESCRIBE_ERROR) is None)


def set_table(table: LoadedTable | None, error: str | None = None) -> None:
    """The session's table (None: none); the results of the file it held before leave the server unless another
    session holds that file too (:meth:`ui.store.SharedResults.hold`)."""
    st.session_state[Key.TABLE] = table
    shared_results().hold(session_id(), None if table is None else table.sha256)
    st.session_state[Key.LOAD_ERROR] = error
    st.session_state[Key.ENGINE_RUN] = None   # another source: a file opened out of core is closed
    st.session_state[Key.OVERRIDES] = Overrides()
    # A settings file was fitted to the file it was applied to (its roles are gone with the overrides above): the
    # Report page no longer starts from it, and the Data page no longer says it applies.
    st.session_state[Key.LOADED_SETTINGS] = None
    st.session_state[Key.SETTINGS_MESSAGE] = None
    rebuild()


def set_overrides(overrides: Overrides) -> None:
    st.session_state[Key.OVERRIDES] = overrides
    rebuild()


def rebuild() -> None:
    """Describe the current table with the current overrides; a failure is kept as a message, never raised."""
    st.session_state[Key.REVISION] = st.session_state.get(Key.REVISION, 0) + 1
    st.session_state[Key.RESULTS] = {}
    st.session_state[Key.FIGURES] = {}
    st.session_state[Key.DECISION] = Decision()
    table = st.session_state[Key.TABLE]
    st.session_state[Key.ASSESSMENT] = None
    st.session_state[Key.DESCRIBE_ERROR] = None
    if table is None:
        return
    overrides = st.session_state[Key.OVERRIDES]
    try:
        st.session_state[Key.ASSESSMENT] = shared_describe(table, overrides)
    except (AssessError, ServerBusy) as exc:
        st.session_state[Key.DESCRIBE_ERROR] = str(exc)


def table_key(table: LoadedTable) -> tuple:
    """What identifies a read table for the whole server: the SHA-256 of its bytes and how they were read (the same
    bytes read with another decimal mark or sheet are another frame)."""
    return (table.sha256, table.name, table.format, table.compression, table.delimiter, table.decimal, table.sheet)


def shared_describe(table: LoadedTable, overrides: Overrides) -> Assessment:
    """`describe` once per table and overrides for the whole server: roles, task and validation of a million rows
    take seconds, and every session holding the same bytes gets the same immutable assessment (its encoded arrays,
    kept in it, are then shared too). ``repr``: overrides may hold a dict (per-class score columns)."""
    return shared_results().get(("describe", table_key(table), repr(overrides)), lambda: describe(table, overrides),
                                tag=table.sha256)


def fingerprint(assessment: Assessment) -> tuple:
    """What results depend on besides their own settings: the file, the roles, task, positive class and classes."""
    return (table_key(assessment.table), repr(assessment.roles), assessment.task, assessment.positive,
            assessment.classes, assessment.names)


def cached(compute, assessment: Assessment, *args, light: bool = False, **kwargs):
    """``compute(assessment, *args, **kwargs)`` once per assessment :func:`fingerprint` (the file's SHA-256, roles,
    task, positive class) and those arguments, shared by every session holding the same data (:mod:`ui.store`). The
    key is the call itself: ``compute``'s qualified name and every argument it is given, so no key can leave out an
    input that changes the result (a hand-written key could, and serve one setting's result for another).

    Over the server's memory budget (:class:`ui.store.ServerBusy`) the page says so where the result would have
    been and stops. A Plotly figure may be returned: it is stored as its dict and each caller gets its own figure
    (:func:`ui.store._frozen`). ``light``: a small result of a setting that changes often (a figure at one
    threshold), kept apart so it never evicts a costly one.

    ``compute`` must be a module-level function of `assess` (or of `ui`), not a lambda or a closure, whose values
    the key would not see; every argument must be hashable (a tuple, not a list), a read table (an upload: it stands
    in the key as its :func:`table_key`), a NumPy array (as its shape, type and SHA-256: a cost matrix of 2,000
    classes is 4 million cells) or bytes (as their SHA-256)."""
    name = f"{compute.__module__}.{compute.__qualname__}"
    if "<lambda>" in name or "<locals>" in name:
        raise TypeError(f"cached() needs a module-level function, not {name}: the key sees only its arguments")

    def part(value):   # a LoadedTable hashes by identity: each session's read of one upload would be its own key
        if isinstance(value, LoadedTable):
            return "table", table_key(value)
        if isinstance(value, np.ndarray):
            return "array", value.shape, value.dtype.str, hashlib.sha256(np.ascontiguousarray(value).data).hexdigest()
        if isinstance(value, bytes):   # an upload's bytes: the key keeps their digest, not 200 MB alive in the store
            return "bytes", len(value), hashlib.sha256(value).hexdigest()
        return value

    key = (fingerprint(assessment), name, tuple(map(part, args)), tuple(sorted((k, part(v)) for k, v in kwargs.items())))
    hash(key)   # an unhashable argument fails here, with its type in the message, not deep in the store
    return _shared_or_busy(key, lambda: compute(assessment, *args, **kwargs), assessment, light)


def _shared_or_busy(key: tuple, compute, assessment: Assessment, light: bool):
    try:
        return shared_results().get(key, compute, tag=assessment.table.sha256, light=light)
    except ServerBusy as busy:
        st.warning(str(busy), icon=BUSY_ICON)
        st.stop()


BUSY_ICON = ":material/hourglass_top:"


def keep_result(page: str, params: tuple, result) -> None:
    """Keep what a button computed on ``page`` with the settings it was computed for (None forgets it)."""
    st.session_state.setdefault(Key.RESULTS, {})[page] = None if result is None else (params, result)


def kept_result(page: str, params: tuple):
    """The result ``page`` kept for exactly these settings, else None (a stale result is never shown)."""
    stored = st.session_state.setdefault(Key.RESULTS, {}).get(page)
    return stored[1] if stored is not None and stored[0] == params else None


def current_decision() -> Decision:
    return st.session_state.setdefault(Key.DECISION, Decision())


def set_decision(decision: Decision) -> None:
    st.session_state[Key.DECISION] = decision


#: Blocking problems the page guard lists (the Data page lists them all).
GUARD_ERRORS = 3


def current_assessment() -> Assessment | None:
    return st.session_state.get(Key.ASSESSMENT)


def require_assessment() -> Assessment:
    """The page guard: the usable assessment, or the blocking problems, a pointer back to the Data page and a stop.

    Every page stops here on a file with blocking errors (all-zero weights, too many classes, a model without usable
    predictions …), with the same sentences as the Data page and ``python -m assess`` (shown as errors, at most
    `GUARD_ERRORS` of them), instead of failing later inside a metric or a chart.
    """
    assessment = current_assessment()
    if assessment is None and st.session_state.get(Key.ENGINE_RUN) is not None:   # ui/data_directory.py
        st.info("This page needs the file's rows; the file opened from the data directory was assessed out of core. "
                "The Metrics page shows its metrics.", icon=":material/info:")
        st.page_link("views/metrics.py", label="Go to Metrics", icon=":material/table_chart:")
        st.stop()
    if assessment is None or assessment.errors:
        if assessment is not None:
            for problem in assessment.errors[:GUARD_ERRORS]:
                st.error(md(problem.message), icon=":material/error:")
        if st.session_state.get(Key.SOURCE) == UPLOAD and current_upload() is None \
                and not st.session_state.get(Key.LOAD_ERROR):
            st.info(f"No file uploaded yet: choose it on the Data page. {STAY_WHILE_UPLOADING}")
        else:
            st.info("Load a predictions file without blocking errors first.")
        st.page_link(DATA_PAGE, label="Go to Data", icon=":material/upload_file:")
        st.stop()
    return assessment


#: What Markdown, GFM, KaTeX and Streamlit's directives read (CommonMark lets a backslash escape any ASCII punctuation):
#: emphasis, links and images, HTML, entities (``&#60;``), headings (``#``, a line of ``=``), lists, tables, ``$``
#: formulas, ``~`` strikethrough and ``:`` for ``:red[...]``, ``:material/...:`` and emoji shortcodes.
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>$~:&=])")
#: A code span as `assess.inputs.columns.quote` writes it: one backtick each side, none inside or next to it, one line.
_CODE_SPAN = re.compile(r"((?<!`)`[^`\n]+`(?!`))")
#: GFM links bare URLs and e-mail addresses *after* escapes are resolved (remark-gfm's autolink-literal pass runs on
#: the parsed text), so ``http\://x`` still becomes a link. A word joiner (U+2060, invisible) after ``:`` and ``@``
#: and before the dot of ``www.`` leaves nothing that pass recognises (nor an emoji or icon shortcode).
_AUTOLINK = re.compile(r"(?<=[:@])(?=\S)|(?i:(?<=www)(?=\.))")
WORD_JOINER = "\u2060"


def md(text: str) -> str:
    """Text for anything Streamlit renders as Markdown (st.markdown, captions, alerts, widget labels and help, tab
    labels) that may hold file-derived strings: the one way file text reaches Markdown.

    Messages from `assess` put file-derived values inside inline code spans (`assess.inputs.columns.quote` strips backticks
    from them), where Markdown renders nothing; everything outside the spans is escaped here and cut where GFM would
    autolink, so no label or column name can become a link, an image, bold text, LaTeX or HTML.
    """
    parts = _CODE_SPAN.split(str(text))
    return "".join(part if i % 2 else _MD_SPECIAL.sub(r"\\\1", _AUTOLINK.sub(WORD_JOINER, part))
                   for i, part in enumerate(parts))
