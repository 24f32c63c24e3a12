"""The settings file: everything a user chose for an assessment, as versioned JSON, re-applied to another file.

ISO/IEC TS 4213:2022 5.2 describes out-of-time comparisons — the same assessment on next quarter's predictions. The
settings saved from the app (Report page) or written by hand hold the roles, task, positive class, display names,
decision, metrics, interval method and level, resamples, seed, costs, tests, correction, report options and the
5.3 checklist answers; ``--config settings.json`` applies them in every command, and flags given on the command line
win over them.

Format (version 1)::

    {"format": "assess-settings", "version": 1,
     "task": "binary" | null, "roles": {"y_true": "label", "score": "p1", "class_scores": {"cat": "p_cat"}, ...},
     "positive": "1" | null, "class_order": [...] | null,
     "display_names": {"models": {"lr": "Logistic regression"}, "classes": {"1": "Fraud"}},
     "decision": {"labels_from": "auto" | "labels" | "scores", "threshold": 0.5, "label_thresholds": {"news": 0.3}},
     "models": [...] | null, "metrics": [...] | null, "ci": "auto", "confidence_level": 0.95, "resamples": 1000,
     "seed": 0, "beta": 1.0, "k": 2, "tests": [...] | null, "test_metric": null, "correction": "auto",
     "costs": [[0, 1], [5, 0]] | null, "checklist": {"representativeness": "…"}, "paper": "a4", "title": "…",
     "requirements": ["roc_auc>=0.85", "low(recall)>=0.7", "better(roc_auc, baseline)"] | null}

``costs`` is the cost of each decision, rows the true class and columns the predicted class, in the order of the
file's classes (binary: the other class, then the positive one); the report then has a costs section.
``requirements`` are the gates of ``python -m assess check`` (`assess.analyses.gates`: the grammar there), read with
its parser, so a requirement the command would refuse is refused here.

Every key but ``format`` and ``version`` is optional. One schema serves the app (Data page upload) and the command
line (``--config``), checked in two steps (issue 31):

- :meth:`Settings.loads` / :meth:`Settings.read` refuse, with one message naming the settings file, the key and the
  value: a file over `MAX_BYTES` or nested deeper than `MAX_DEPTH`, an integer of more than `MAX_DIGITS` digits,
  NaN, Infinity or a number too large for a float, an unknown version, key, test, correction, interval method or
  metric, a value of the wrong type, and a number outside its range — the ranges below, which the Report page's
  widgets and the command line's flags take from here (``resamples`` 100–100,000, ``confidence_level`` 0.5–0.999,
  ``seed`` 0–2³²−1, ``beta`` 0.05–20, ``k`` 1–10,000, ``title`` at most 200 characters).
- :meth:`Settings.overrides` refuses a column the file lacks, and :meth:`Settings.fit` a task other than the
  file's; an entry that is valid but does not apply to this file (a metric of another task, a cost matrix of
  another size, a threshold on a file without scores or of a task without one, a model or label the file lacks, a
  threshold outside the file's scores) is dropped, or kept and flagged, with a warning naming the key and the value
  that the Data page shows and the command line prints on stderr.
"""

from __future__ import annotations

import argparse
import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from assess.core.data import Task
from assess.core.decision import LABELS, SOURCES, Decision
from assess.core.errors import AssessError
from assess.inputs.names import DisplayNames
from assess.present.report.checklist import KEYS as CHECKLIST_KEYS
from assess.inputs.roles import Overrides
from assess.inputs.assessment import Assessment
from assess.core.defaults import DEFAULT_RESAMPLES

if TYPE_CHECKING:
    from assess.present.report.model import ReportOptions

FORMAT = "assess-settings"
VERSION = 1
#: Roles a settings file may set (those of `assess.inputs.roles.Overrides`).
ROLE_KEYS = ("y_true", "y_pred", "score", "model", "id", "fold", "weight", "cluster", "timestamp", "series",
             "horizon", "origin", "lower", "upper", "groups", "class_scores", "true_labels", "pred_labels",
             "label_scores")


@dataclass(frozen=True)
class Range:
    """The inclusive range of a number the user chooses. A settings file, the widget that shows the value and the
    command-line flag that sets it all take it from here, so a value one of them accepts never breaks another (a
    settings file's 10 resamples made every later visit to the Report page, whose widget starts at 100, an error)."""

    low: float
    high: float
    kind: type = float

    def __str__(self) -> str:
        return f"{self.low:,} to {self.high:,}" if self.kind is int else f"{self.low:g} to {self.high:g}"

    def holds(self, value) -> bool:
        return self.low <= value <= self.high


#: Bootstrap resamples (the Report page's widget, ``--resamples`` of ``metrics`` and ``report``, the settings'
#: "resamples"): below 100 a percentile interval's tails rest on a handful of replicates; above 100,000 a bootstrap of
#: a large file holds the machine for minutes (the audit's 1,000,000 through ``--config`` did).
RESAMPLES = Range(100, 100_000, int)
#: The Metrics page's (and the clustering view's) resamples: they recompute on every change of a widget, for every
#: session of a shared server, so their top is lower; the report, built on a click, takes `RESAMPLES`.
PAGE_RESAMPLES = Range(RESAMPLES.low, 20_000, int)
#: Level of every interval (``--confidence-level``; the pages offer 80–99 %).
CONFIDENCE_LEVEL = Range(0.5, 0.999)
#: Bootstrap seed (the pages' widgets, ``--seed``): what NumPy's legacy seeding takes (0 to 2³² − 1).
SEED = Range(0, 2**32 - 1, int)
#: β of F-beta (the Metrics page's widget and the Curves page's max Fβ, ``--beta``).
BETA = Range(0.05, 20.0)
#: k of top-k accuracy (``--k``; the Metrics page bounds it by the file's classes, which `Settings.fit` checks).
K = Range(1, 10_000, int)
#: Longest report title (the Report page's field).
MAX_TITLE = 200
#: A settings file's size, nesting and integers: a saved file is a few kB, 3 levels deep, with numbers of at most 10
#: digits; the limits refuse a hostile file with a message before Python's parser meets its own limits (recursion
#: for deep nesting, "Exceeds the limit (4300 digits) for integer string conversion" for long integers).
MAX_BYTES = 1_000_000
MAX_DEPTH = 10
MAX_DIGITS = 20


def _shown(value) -> str:
    """A value in a message: its ``repr``, cut (a hostile file's value may be a megabyte of text)."""
    text = repr(value)
    return text if len(text) <= 60 else f"{text[:50]}… ({len(text):,} characters)"


def _is_name(value) -> bool:
    """Text, or a number standing for it (a class ``1``); never a truth value."""
    return isinstance(value, (str, int, float)) and not isinstance(value, bool)


class _Matrix(int):
    """A cost matrix in a message: its size."""

    def __str__(self) -> str:
        return f"a {int(self)}×{int(self)} matrix"


class _Refused:
    """What the parser puts in place of a number a settings file may not hold; `_parse` then names its key."""

    __slots__ = ("what",)

    def __init__(self, what: str) -> None:
        self.what = what


def _int(literal: str):
    digits = len(literal.lstrip("-"))
    return int(literal) if digits <= MAX_DIGITS else _Refused(f"an integer of {digits:,} digits (at most "
                                                              f"{MAX_DIGITS})")


def _float(literal: str):
    value = float(literal)
    return value if math.isfinite(value) else _Refused(f"{_shown(literal)}, a number too large for a float")


def _constant(name: str):
    return _Refused(f"{name}, which is not a number (JSON has no {name}; Python's writer adds it)")


#: The tokens that give a JSON text its shape: strings (whose brackets do not count), brackets, colons and commas.
_SHAPE = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}:,]')


def _key_path(path) -> str:
    """``[("{", "decision"), ("{", "threshold")]`` → ``decision.threshold``; ``[("{", "costs"), ("[", 0)]`` →
    ``costs[0]``."""
    out = ""
    for kind, at in path:
        out += f"[{at}]" if kind == "[" else f".{at}" if out else str(at)
    out = out or "(the whole file)"
    return out if len(out) <= 80 else f"{out[:70]}…"


def _too_deep(text: str) -> str | None:
    """The key path of the first value nested deeper than `MAX_DEPTH`, else None — found by one pass over the text's
    brackets before the parser recurses into them (Python's parser raises RecursionError near 1,000 levels)."""
    path: list[list] = []
    last = None
    for token in _SHAPE.finditer(text):
        tok = token.group()
        if tok[0] == '"':
            last = tok
        elif tok == ":" and path and path[-1][0] == "{" and last is not None:
            try:
                path[-1][1] = json.loads(last)
            except ValueError:
                path[-1][1] = last[1:-1]
        elif tok == "," and path and path[-1][0] == "[":
            path[-1][1] += 1
        elif tok in "[{":
            if len(path) >= MAX_DEPTH:
                return _key_path(path)
            path.append([tok, 0 if tok == "[" else ""])
        elif tok in "]}" and path:
            path.pop()
    return None


def _refused_value(value, path: list) -> tuple[str, str] | None:
    """(key path, what) of the first value ``value`` may not hold, else None (depth ≤ `MAX_DEPTH`): a number the
    parser refused, or text with a lone surrogate ("\\ud800" is valid JSON, but no UTF-8 file, page or PDF can hold
    it: the report failed while writing)."""
    if isinstance(value, _Refused):
        return _key_path(path), value.what
    for text in [value] if isinstance(value, str) else value if isinstance(value, dict) else ():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            return _key_path(path), (f"{'text' if text is value else 'a key'} with a lone surrogate "
                                     f"({ascii(text)[:40]}), which UTF-8 cannot hold")
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for at, item in items:
        found = _refused_value(item, [*path, ("[" if isinstance(value, list) else "{", at)])
        if found:
            return found
    return None


def _parse(data: bytes | str, source: str):
    """The JSON of a settings file, or AssessError naming ``source`` and the key: over `MAX_BYTES`, nested deeper
    than `MAX_DEPTH`, not UTF-8, not JSON, an integer of more than `MAX_DIGITS` digits, NaN, Infinity, a lone
    surrogate."""
    size = len(data) if isinstance(data, bytes) else len(data.encode("utf-8", "surrogatepass"))
    if size > MAX_BYTES:
        raise AssessError(f"{source}: over {MAX_BYTES:,} bytes; a settings file is smaller (one saved from the app "
                          "is a few kB)")
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise AssessError(f"{source}: not a UTF-8 text file") from None
    deep = _too_deep(data)
    if deep is not None:
        raise AssessError(f"{source}: {deep!r} is nested more than {MAX_DEPTH} levels deep (one saved from the app "
                          "has 3)")
    try:
        doc = json.loads(data, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except json.JSONDecodeError as exc:
        raise AssessError(f"{source}: not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})") from None
    except RecursionError:   # _too_deep counts the brackets the parser recurses into; this is its backstop
        raise AssessError(f"{source}: nested too deeply to read (at most {MAX_DEPTH} levels)") from None
    refused = _refused_value(doc, [])
    if refused:
        raise AssessError(f"{source}: {refused[0]!r} holds {refused[1]}")
    return doc


@dataclass(frozen=True)
class Settings:
    """One assessment's choices (see the module docstring for the JSON)."""

    source: str = "settings"               # where they were read from, for messages
    task: str | None = None
    roles: Mapping[str, object] = field(default_factory=dict)
    positive: str | None = None
    class_order: tuple[str, ...] | None = None
    display_names: DisplayNames = DisplayNames()
    labels_from: str = "auto"
    threshold: float | None = None
    label_thresholds: Mapping[str, float] = field(default_factory=dict)
    models: tuple[str, ...] | None = None
    metrics: tuple[str, ...] | None = None
    ci: str | None = "auto"
    confidence_level: float = 0.95
    n_resamples: int = DEFAULT_RESAMPLES
    seed: int = 0
    beta: float = 1.0
    k: int = 2
    tests: tuple[str, ...] | None = None
    test_metric: str | None = None
    correction: str = "auto"
    costs: tuple[tuple[float, ...], ...] | None = None
    checklist: Mapping[str, str] = field(default_factory=dict)
    paper: str = "a4"
    title: str = "Model assessment report"
    requirements: tuple[str, ...] | None = None

    # --- JSON ------------------------------------------------------------------------------------------------------
    def to_dict(self) -> dict:
        return {
            "format": FORMAT, "version": VERSION, "task": self.task, "roles": dict(self.roles),
            "positive": self.positive, "class_order": list(self.class_order) if self.class_order else None,
            "display_names": self.display_names.to_dict(),
            "decision": {"labels_from": self.labels_from, "threshold": self.threshold,
                         "label_thresholds": dict(self.label_thresholds)},
            "models": list(self.models) if self.models else None,
            "metrics": list(self.metrics) if self.metrics else None, "ci": self.ci,
            "confidence_level": self.confidence_level, "resamples": self.n_resamples, "seed": self.seed,
            "beta": self.beta, "k": self.k, "tests": list(self.tests) if self.tests else None,
            "test_metric": self.test_metric, "correction": self.correction,
            "costs": [list(row) for row in self.costs] if self.costs else None,
            "checklist": {k: v for k, v in self.checklist.items() if v}, "paper": self.paper, "title": self.title,
            "requirements": list(self.requirements) if self.requirements else None,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False)

    @classmethod
    def from_dict(cls, doc, *, source: str = "settings") -> Settings:  # noqa: C901 - one check per key, flat
        # here: the registries import SciPy, and the command line starts before it needs them
        from assess.metrics.evaluate import CI_METHODS
        from assess.metrics.registry import REGISTRY
        from assess.stats.corrections import CORRECTIONS
        from assess.stats.registry import TEST_NAMES

        where = source

        def bad(message: str) -> AssessError:
            return AssessError(f"{where}: {message}")

        if not isinstance(doc, Mapping):
            raise bad(f"a settings file holds one JSON object (got {type(doc).__name__})")
        if doc.get("format") != FORMAT:
            raise bad(f"not an assess settings file (\"format\" is {_shown(doc.get('format'))}, expected {FORMAT!r})")
        version = doc.get("version")
        if version != VERSION or isinstance(version, bool):
            raise bad(f"settings version {_shown(version)} is not supported: this version of assess reads version "
                      f"{VERSION}; save the settings again from the app")
        known = {"format", "version", "task", "roles", "positive", "class_order", "display_names", "decision",
                 "models", "metrics", "ci", "confidence_level", "resamples", "seed", "beta", "k", "tests",
                 "test_metric", "correction", "costs", "checklist", "paper", "title", "requirements"}
        unknown = sorted(set(doc) - known)
        if unknown:
            raise bad(f"unknown key {_shown(unknown[0])} (keys: {', '.join(sorted(known))})")

        def text(key, value, *, optional=True):
            if value is None and optional:
                return None
            if not _is_name(value):
                raise bad(f"{key!r} must be text (got {_shown(value)})")
            return str(value)

        def texts(key, value):
            if value is None:
                return None
            if not isinstance(value, list) or not all(_is_name(v) for v in value):
                raise bad(f"{key!r} must be a list of names (got {_shown(value)})")
            return tuple(str(v) for v in value) or None

        def one_of(key, value, allowed):
            if value not in allowed:
                raise bad(f"{key!r} names {_shown(value)}, which is not one of {', '.join(allowed)}")
            return value

        def number(key, value, rng: Range | None = None):
            kind = rng.kind if rng else float
            if isinstance(value, bool) or not isinstance(value, (int, float)) or (
                    isinstance(value, float) and not math.isfinite(value)) or (kind is int and int(value) != value):
                raise bad(f"{key!r} must be {'a whole number' if kind is int else 'a number'} (got {_shown(value)})")
            if rng is not None and not rng.holds(value):
                raise bad(f"{key!r} must be from {rng} (got {_shown(value)})")
            try:
                return kind(value)
            except OverflowError:   # an integer beyond a float, given as a Python object rather than JSON
                raise bad(f"{key!r} must be a number a float holds (got {_shown(value)})") from None

        def mapping(key, value, allowed=None):
            if value is None:
                return {}
            if not isinstance(value, Mapping):
                raise bad(f"{key!r} must be an object (got {_shown(value)})")
            extra = sorted(set(value) - set(allowed)) if allowed is not None else ()
            if extra:
                raise bad(f"{key!r} holds {', '.join(map(repr, allowed))}; not {_shown(extra[0])}")
            return value

        kw: dict = {"source": source}
        if doc.get("task") is not None:
            kw["task"] = one_of("task", text("task", doc["task"]), tuple(t.value for t in Task))
        roles = mapping("roles", doc.get("roles"))
        for role, value in roles.items():
            if role not in ROLE_KEYS:
                raise bad(f"unknown role {_shown(role)} (roles: {', '.join(ROLE_KEYS)})")
            if not (value is None or _is_name(value) and isinstance(value, str)
                    or isinstance(value, list) and all(_is_name(v) for v in value)
                    or isinstance(value, Mapping) and all(_is_name(v) for v in value.values())):
                raise bad(f"role {role!r} must name a column, a list of columns or an object of them "
                          f"(got {_shown(value)})")
        kw["roles"] = dict(roles)
        kw["positive"] = text("positive", doc.get("positive"))
        kw["class_order"] = texts("class_order", doc.get("class_order"))
        names = mapping("display_names", doc.get("display_names"), ("models", "classes"))
        given = {}
        for kind in ("models", "classes"):
            given[kind] = mapping(f"display_names.{kind}", names.get(kind))
            for old, new in given[kind].items():
                text(f"display_names.{kind}.{old}", new)
        kw["display_names"] = DisplayNames.of(given["models"], given["classes"])
        decision = mapping("decision", doc.get("decision"), ("labels_from", "threshold", "label_thresholds"))
        kw["labels_from"] = one_of("decision.labels_from", decision.get("labels_from", "auto"), SOURCES)
        if decision.get("threshold") is not None:
            kw["threshold"] = number("decision.threshold", decision["threshold"])
        kw["label_thresholds"] = {str(k): number(f"decision.label_thresholds.{k}", v)
                                  for k, v in mapping("decision.label_thresholds",
                                                      decision.get("label_thresholds")).items()}
        kw["models"] = texts("models", doc.get("models"))
        kw["metrics"] = texts("metrics", doc.get("metrics"))
        every_metric = {m.key for m in REGISTRY}
        for key in kw["metrics"] or ():   # a metric of another task is the file's question (`fit`); no task's: a typo
            if key not in every_metric:
                raise bad(f"'metrics' names {_shown(key)}, which is no metric of any task (the keys are listed by "
                          "python -m assess metrics --help and on the Metrics page)")
        kw["tests"] = texts("tests", doc.get("tests"))
        for test in kw["tests"] or ():
            one_of("tests", test, TEST_NAMES)
        if "ci" in doc:
            kw["ci"] = text("ci", doc["ci"])
            if kw["ci"] is not None:
                one_of("ci", kw["ci"], tuple(m for m in CI_METHODS if m))
        for key, rng in (("confidence_level", CONFIDENCE_LEVEL), ("resamples", RESAMPLES), ("seed", SEED),
                         ("beta", BETA), ("k", K)):
            if doc.get(key) is not None:   # the file's "resamples" is the field n_resamples (SciPy's name)
                kw["n_resamples" if key == "resamples" else key] = number(key, doc[key], rng)
        kw["test_metric"] = text("test_metric", doc.get("test_metric"))
        if doc.get("correction") is not None:
            kw["correction"] = one_of("correction", text("correction", doc["correction"]), ("auto", *CORRECTIONS))
        if doc.get("costs") is not None:
            costs = doc["costs"]
            if not isinstance(costs, list) or not costs or not all(isinstance(r, list) and len(r) == len(costs)
                                                                   for r in costs):
                raise bad(f"'costs' must be a square list of lists (true class by predicted class; got "
                          f"{_shown(costs)})")
            kw["costs"] = tuple(tuple(number(f"costs[{i}][{j}]", v) for j, v in enumerate(row))
                                for i, row in enumerate(costs))
        answers = mapping("checklist", doc.get("checklist"))
        unknown = sorted(set(answers) - set(CHECKLIST_KEYS))
        if unknown:
            raise bad(f"unknown checklist item {_shown(unknown[0])} (items: {', '.join(CHECKLIST_KEYS)})")
        kw["checklist"] = {k: text(f"checklist.{k}", v) or "" for k, v in answers.items()}
        if doc.get("paper") is not None:
            from assess.present.report.render import PAPERS   # here: the renderer imports Jinja2 and the charts
            kw["paper"] = one_of("paper", text("paper", doc["paper"]).lower(), tuple(PAPERS))
        if doc.get("title") is not None:
            kw["title"] = text("title", doc["title"])
            if len(kw["title"]) > MAX_TITLE:
                raise bad(f"'title' is {len(kw['title']):,} characters long; at most {MAX_TITLE}")
        if doc.get("requirements") is not None:
            from assess.analyses.gates import parse_requirement

            given = doc["requirements"]
            if not isinstance(given, list) or not all(isinstance(r, str) for r in given):
                raise bad(f"'requirements' must be a list of texts such as \"roc_auc>=0.85\" (got {_shown(given)})")
            for text_ in given:
                try:
                    parse_requirement(text_)
                except AssessError as exc:
                    raise bad(f"'requirements': {exc}") from None
            kw["requirements"] = tuple(given) or None
        return cls(**kw)

    @classmethod
    def read(cls, path: str | Path) -> Settings:
        path = Path(path)
        try:
            with path.open("rb") as file:
                data = file.read(MAX_BYTES + 1)   # no more: a huge file (or a device) is refused by its size
        except OSError as exc:
            raise AssessError(f"{path.name}: cannot read the settings file ({exc.strerror or exc})") from None
        return cls.loads(data, source=path.name)

    @classmethod
    def loads(cls, data: bytes | str, *, source: str = "settings") -> Settings:
        return cls.from_dict(_parse(data, source), source=source)

    # --- applying ---------------------------------------------------------------------------------------------------
    def overrides(self, base: Overrides, columns) -> Overrides:
        """``base`` (what the command line or the page set) completed with these settings' roles, task, positive
        class, class order and display names; ``base`` wins. A column the file lacks is a clear error."""
        columns = {str(c) for c in columns}
        given = dict(base.roles)
        out = base
        for role, value in self.roles.items():
            if role in given:
                continue
            named = ([] if not value else [value] if isinstance(value, str) else
                     list(value.values()) if isinstance(value, Mapping) else list(value))
            missing = [c for c in named if str(c) not in columns]
            if missing:
                raise AssessError(f"{self.source} names column {missing[0]!r} for the role {role!r}, which this "
                                  f"file does not have (columns: {', '.join(sorted(columns)[:12])})")
            out = out.with_role(role, tuple(value) if isinstance(value, list) else value)
        # The task is not forced: `check` compares it with the file's, so settings of another task are refused.
        return replace(out, positive=base.positive if base.positive is not None else self.positive,
                       class_order=base.class_order or self.class_order,
                       names=base.names or self.display_names)

    def check(self, assessment: Assessment) -> None:
        """Refuse settings made for another task than ``assessment``'s."""
        if self.task and self.task != assessment.task.value:
            raise AssessError(f"{self.source} is for a {self.task} assessment; {assessment.table.name} is "
                              f"{assessment.task.value} (use settings saved from a {assessment.task.value} file, or "
                              "set the task with --task)")

    def fit(self, assessment: Assessment, *, all_rows: bool = True) -> tuple[Settings, tuple[str, ...]]:  # noqa: C901
        """These settings for ``assessment``, and one warning per entry that does not apply to it.

        Settings of another task are refused (`check`). An entry valid in itself that this file cannot use is dropped
        — a metric or test metric of another task, a model or display name the file lacks, a cost matrix of another
        size or on a task without classes, a threshold where labels do not come from scores, a label threshold of a
        label the file lacks — or, when it applies but decides nothing (a threshold beyond every score, k at least
        the number of classes), kept; each warning names the settings file, the key and the value. Values equal to
        the defaults (a saved file always holds ``k`` 2 and ``beta`` 1) are not mentioned. The app's Data page and
        the command line's ``--config`` both call this. ``all_rows`` False: ``assessment`` describes the first rows
        only (out of core), so the threshold is not compared with its scores.
        """
        from assess.metrics.registry import metrics_for   # here: the registry imports SciPy

        self.check(assessment)
        task, notes, changes = assessment.task, [], {}

        def ignored(key: str, value, why: str) -> None:
            what = value if isinstance(value, _Matrix) else _shown(value)
            notes.append(f"{self.source}: {key!r}: {what} is ignored: {why}")

        task_metrics = {m.key for m in metrics_for(task)}
        if self.metrics:
            for key in self.metrics:
                if key not in task_metrics:
                    ignored("metrics", key, f"it is not a metric of {task.value} files")
            changes["metrics"] = tuple(k for k in self.metrics if k in task_metrics) or None
        if self.test_metric is not None and self.test_metric not in task_metrics:
            ignored("test_metric", self.test_metric, f"it is not a metric of {task.value} files")
            changes["test_metric"] = None
        names = assessment.names
        file_models = [names.file_model(m) for m in assessment.models]
        if self.models:
            known = [m for m in self.models if m in assessment.models or m in file_models]
            for model in self.models:
                if model not in known:
                    ignored("models", model, f"the file has no such model (models: {', '.join(file_models)})")
            changes["models"] = tuple(known) or None
        file_classes = [names.file_class(c) for c in assessment.classes]
        for kind, one, given, present in (("models", "model", self.display_names.models, file_models),
                                          ("classes", "class", self.display_names.classes, file_classes)):
            for old, _ in given:
                if old not in present:
                    ignored(f"display_names.{kind}", old, f"the file has no such {one}")
        self._fit_decision(assessment, ignored, notes, changes, all_rows=all_rows)
        if self.costs is not None:
            n = len(self.costs)
            if task not in (Task.BINARY, Task.MULTICLASS):
                ignored("costs", _Matrix(n), f"costs of decisions apply to binary and multi-class files; this one "
                                             f"is {task.value}")
                changes["costs"] = None
            elif n != len(assessment.classes):
                size = len(assessment.classes)
                ignored("costs", _Matrix(n), f"this {task.value} file has {size} classes, so its matrix is "
                                             f"{size}×{size}")
                changes["costs"] = None
        if self.k != Settings.k:
            if task is not Task.MULTICLASS:
                ignored("k", self.k, f"top-k accuracy is a multi-class metric; this file is {task.value}")
            elif self.k >= len(assessment.classes):
                notes.append(f"{self.source}: 'k': {self.k} is not below the file's {len(assessment.classes)} "
                             "classes: top-k accuracy counts every sample right")
        if self.beta != Settings.beta and not task.is_classification:
            ignored("beta", self.beta, f"F-beta is a classification metric; this file is {task.value}")
        return replace(self, **changes), tuple(notes)

    def _fit_decision(self, assessment: Assessment, ignored, notes: list, changes: dict, *, all_rows: bool) -> None:
        """`fit`'s rules for the decision: a threshold only where labels come from scores, in the scores' range."""
        import numpy as np   # here: ``--help`` loads no NumPy (tests/cli/test_lazy_imports.py)

        task = assessment.task
        given = [("decision.threshold", self.threshold)] if self.threshold is not None else []
        given += [(f"decision.label_thresholds.{k}", v) for k, v in self.label_thresholds.items()]
        if not given:
            return
        scores = [] if assessment.errors else [p.scores for p in map(assessment.predictions, assessment.models)
                                                if p.scores is not None]
        why = (f"a {task.value} file has no threshold" + (" (labels are the class with the highest score)"
                                                           if task is Task.MULTICLASS else "")
               if task not in (Task.BINARY, Task.MULTILABEL) else
               "labels come from the predicted-label column ('decision.labels_from' is 'labels')"
               if self.labels_from == LABELS else
               "the file has no scores" if not scores else None)
        if why:
            for key, value in given:
                ignored(key, value, why)
            changes.update(threshold=None, label_thresholds={})
            return
        labels = {str(c) for c in assessment.classes}   # the decision's per-label keys are the labels shown
        kept = {k: v for k, v in self.label_thresholds.items() if task is Task.MULTILABEL and k in labels}
        for label, value in self.label_thresholds.items():
            if label not in kept:
                ignored(f"decision.label_thresholds.{label}", value, "the file has no such label"
                        if task is Task.MULTILABEL else "label thresholds apply to multi-label files")
        changes["label_thresholds"] = kept
        finite = [s[np.isfinite(s)] for s in map(np.asarray, scores)]
        if not all_rows or not any(f.size for f in finite):
            return
        low, high = min(float(f.min()) for f in finite if f.size), max(float(f.max()) for f in finite if f.size)
        for key, value in [*given[:1 if self.threshold is not None else 0],
                           *((f"decision.label_thresholds.{k}", v) for k, v in kept.items())]:
            if not low <= value <= high:
                side = ("above every score of this file (highest {:g}): every sample is predicted negative" if
                        value > high else "below every score of this file (lowest {:g}): every sample is predicted "
                        "positive").format(high if value > high else low)
                notes.append(f"{self.source}: {key!r}: {_shown(value)} is {side}")

    def decision(self) -> Decision:
        if self.threshold is None and not self.label_thresholds:
            return Decision(self.labels_from)
        return Decision("scores" if self.labels_from == "auto" else self.labels_from,
                        0.5 if self.threshold is None else self.threshold, tuple(self.label_thresholds.items()))


# --- the command line ---------------------------------------------------------------------------------------------

#: args attribute → settings field, for options that commands share; filled from the settings when not given.
_ARG_FIELDS = (("models", "models"), ("metrics", "metrics"), ("ci", "ci"), ("confidence_level", "confidence_level"),
               ("n_resamples", "n_resamples"), ("seed", "seed"), ("beta", "beta"), ("k", "k"),
               ("correction", "correction"), ("tests", "tests"), ("test_metric", "test_metric"),
               ("metric", "test_metric"), ("title", "title"), ("requirements", "requirements"))
#: argparse defaults of those options in the commands (a value equal to its default counts as not given).
#: Options that are test options in ``compare`` (given only by its own flags).
_TEST_OPTIONS = {"seed", "n_resamples"}
_DEFAULTS = {"confidence_level": 0.95, "n_resamples": DEFAULT_RESAMPLES, "seed": 0, "beta": 1.0, "k": 2,
             "correction": "auto", "labels_from": "auto"}


def add_config_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="SETTINGS.json",
                        help="apply a settings file saved from the app (roles, task, positive class, display names, "
                             "decision, intervals, tests, checklist); flags given here win over it")


def settings_from_args(args: argparse.Namespace) -> Settings:
    """The settings of ``--config`` (defaults without it), with the command's own options filled in from them
    where the command line did not give them."""
    if getattr(args, "_settings", None) is not None:
        return args._settings
    settings = Settings.read(args.config) if getattr(args, "config", None) else Settings()
    args._filled = []   # the options the settings gave, which `fit_args` makes follow the settings fitted to the file
    if getattr(args, "config", None):
        for attr, name in _ARG_FIELDS:
            if getattr(args, "command", None) == "compare" and attr in _TEST_OPTIONS:
                continue  # compare's test options: a flag the chosen test does not take is an error there
            if hasattr(args, attr) and getattr(args, attr) in (None, _DEFAULTS.get(attr)):
                args._filled.append((attr, name))
        if hasattr(args, "labels_from") and args.labels_from == "auto" and args.threshold is None \
                and not args.label_threshold:
            args._filled.append(("decision", "decision"))
    _fill(args, settings)
    return settings


def _fill(args: argparse.Namespace, settings: Settings) -> None:
    for attr, name in args._filled:
        if attr == "decision":
            args.labels_from = settings.labels_from
            args.threshold = settings.threshold
            args.label_threshold = [f"{k}={v}" for k, v in settings.label_thresholds.items()] or None
            continue
        value = getattr(settings, name)
        if value is not None:
            setattr(args, attr, list(value) if isinstance(value, tuple) else value)
        elif attr in ("models", "metrics", "tests", "test_metric", "metric", "requirements"):  # fitted away: the command's default
            setattr(args, attr, None)
    args._settings = settings


def fit_args(args: argparse.Namespace, assessment: Assessment, *, all_rows: bool = True) -> tuple[str, ...]:
    """``--config``'s settings fitted to ``assessment`` (`Settings.fit`: another task refused, what does not apply
    dropped); the options they gave follow. Returns the warnings, for stderr."""
    settings = settings_from_args(args)
    if not getattr(args, "config", None):
        return ()   # the defaults fit every file (and `inspect` then loads no metric registry)
    fitted, notes = settings.fit(assessment, all_rows=all_rows)
    _fill(args, fitted)
    return notes


def ranged(rng: Range):
    """An argparse ``type`` taking a number of ``rng`` (the range a settings file and the widgets take): a usage
    error naming the range otherwise."""
    what = "a whole number" if rng.kind is int else "a number"

    def parse(text: str):
        try:
            value = rng.kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what} from {rng} expected (got {text!r})") from None
        if not (rng.kind is int or math.isfinite(value)) or not rng.holds(value):
            raise argparse.ArgumentTypeError(f"must be from {rng} (got {text})")
        return value

    return parse


def report_options(settings: Settings, assessment: Assessment, *, decision: Decision | None = None,
                   command: str = "") -> ReportOptions:
    """`ReportOptions` of ``settings`` for ``assessment`` (the app's Report page and the CLI share this)."""
    from assess.present.report.model import ReportOptions   # here: the report imports the charts and tests (slow start)
    settings.check(assessment)
    models = tuple(assessment.names.model(m) if m not in assessment.models else m for m in settings.models or ())
    models = tuple(m for m in models if m in assessment.models) or None
    record = replace(settings, task=assessment.task.value)
    return ReportOptions(models=models, metrics=settings.metrics, decision=decision or settings.decision(),
                         ci=settings.ci or "", confidence_level=settings.confidence_level,
                         n_resamples=settings.n_resamples, seed=settings.seed, beta=settings.beta, k=settings.k,
                         tests=settings.tests, test_metric=settings.test_metric, correction=settings.correction,
                         checklist=dict(settings.checklist), costs=settings.costs, title=settings.title,
                         command=command, settings=record.to_dict())


__all__ = ["BETA", "CONFIDENCE_LEVEL", "FORMAT", "K", "MAX_BYTES", "MAX_DEPTH", "MAX_DIGITS", "MAX_TITLE",
           "PAGE_RESAMPLES", "RESAMPLES", "SEED", "VERSION", "Range", "Settings", "add_config_option", "fit_args",
           "ranged", "report_options", "settings_from_args"]
