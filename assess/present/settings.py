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
     "costs": [[0, 1], [5, 0]] | null, "checklist": {"representativeness": "…"}, "paper": "a4", "title": "…"}

``costs`` is the cost of each decision, rows the true class and columns the predicted class, in the order of the
file's classes (binary: the other class, then the positive one); the report then has a costs section.

Every key but ``format`` and ``version`` is optional. An unknown version, an unknown key, a value of the wrong type,
a task other than the file's or a column the file lacks is refused with one message naming the settings file.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from assess.core.data import Task
from assess.core.decision import SOURCES, Decision
from assess.core.errors import AssessError
from assess.inputs.names import DisplayNames
from assess.present.report.checklist import KEYS as CHECKLIST_KEYS
from assess.inputs.roles import Overrides
from assess.inputs.assessment import Assessment

if TYPE_CHECKING:
    from assess.present.report.model import ReportOptions

FORMAT = "assess-settings"
VERSION = 1
#: Roles a settings file may set (those of `assess.inputs.roles.Overrides`).
ROLE_KEYS = ("y_true", "y_pred", "score", "model", "id", "fold", "weight", "cluster", "timestamp", "series",
             "horizon", "origin", "lower", "upper", "groups", "class_scores", "true_labels", "pred_labels",
             "label_scores")


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
    n_resamples: int = 1000
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
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False)

    @classmethod
    def from_dict(cls, doc, *, source: str = "settings") -> Settings:  # noqa: C901 - one check per key, flat
        where = source

        def bad(message: str) -> AssessError:
            return AssessError(f"{where}: {message}")

        if not isinstance(doc, Mapping):
            raise bad(f"a settings file holds one JSON object (got {type(doc).__name__})")
        if doc.get("format") != FORMAT:
            raise bad(f"not an assess settings file (\"format\" is {doc.get('format')!r}, expected {FORMAT!r})")
        version = doc.get("version")
        if version != VERSION:
            raise bad(f"settings version {version!r} is not supported: this version of assess reads version "
                      f"{VERSION}; save the settings again from the app")
        known = {"format", "version", "task", "roles", "positive", "class_order", "display_names", "decision",
                 "models", "metrics", "ci", "confidence_level", "resamples", "seed", "beta", "k", "tests",
                 "test_metric", "correction", "costs", "checklist", "paper", "title"}
        unknown = sorted(set(doc) - known)
        if unknown:
            raise bad(f"unknown key {unknown[0]!r} (keys: {', '.join(sorted(known))})")

        def text(key, value, *, optional=True):
            if value is None and optional:
                return None
            if not isinstance(value, (str, int, float)) or isinstance(value, bool):
                raise bad(f"{key!r} must be text (got {value!r})")
            return str(value)

        def texts(key, value):
            if value is None:
                return None
            if not isinstance(value, list) or not all(isinstance(v, (str, int, float)) for v in value):
                raise bad(f"{key!r} must be a list of names (got {value!r})")
            return tuple(str(v) for v in value) or None

        def number(key, value, kind=float, low=None, high=None):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or (
                    kind is int and int(value) != value):
                raise bad(f"{key!r} must be {'a whole number' if kind is int else 'a number'} (got {value!r})")
            if (low is not None and value < low) or (high is not None and value > high):
                raise bad(f"{key!r} must be between {low} and {high} (got {value!r})")
            return kind(value)

        def mapping(key, value):
            if value is None:
                return {}
            if not isinstance(value, Mapping):
                raise bad(f"{key!r} must be an object (got {value!r})")
            return value

        kw: dict = {"source": source}
        if doc.get("task") is not None:
            task = text("task", doc["task"])
            if task not in {t.value for t in Task}:
                raise bad(f"unknown task {task!r} (tasks: {', '.join(t.value for t in Task)})")
            kw["task"] = task
        roles = mapping("roles", doc.get("roles"))
        for role, value in roles.items():
            if role not in ROLE_KEYS:
                raise bad(f"unknown role {role!r} (roles: {', '.join(ROLE_KEYS)})")
            if not (value is None or isinstance(value, (str, list, Mapping))):
                raise bad(f"role {role!r} must name a column (got {value!r})")
        kw["roles"] = dict(roles)
        kw["positive"] = text("positive", doc.get("positive"))
        kw["class_order"] = texts("class_order", doc.get("class_order"))
        names = mapping("display_names", doc.get("display_names"))
        if set(names) - {"models", "classes"}:
            raise bad("'display_names' holds 'models' and 'classes'")
        kw["display_names"] = DisplayNames.of(mapping("display_names.models", names.get("models")),
                                              mapping("display_names.classes", names.get("classes")))
        decision = mapping("decision", doc.get("decision"))
        if set(decision) - {"labels_from", "threshold", "label_thresholds"}:
            raise bad("'decision' holds 'labels_from', 'threshold' and 'label_thresholds'")
        labels_from = decision.get("labels_from", "auto")
        if labels_from not in SOURCES:
            raise bad(f"'decision.labels_from' must be one of {', '.join(SOURCES)} (got {labels_from!r})")
        kw["labels_from"] = labels_from
        if decision.get("threshold") is not None:
            kw["threshold"] = number("decision.threshold", decision["threshold"])
        kw["label_thresholds"] = {str(k): number(f"decision.label_thresholds.{k}", v)
                                  for k, v in mapping("decision.label_thresholds",
                                                      decision.get("label_thresholds")).items()}
        kw["models"] = texts("models", doc.get("models"))
        kw["metrics"] = texts("metrics", doc.get("metrics"))
        kw["tests"] = texts("tests", doc.get("tests"))
        if "ci" in doc:
            kw["ci"] = text("ci", doc["ci"])
        for key, kind, low, high in (("confidence_level", float, 0.5, 0.999), ("resamples", int, 10, 1_000_000),
                                     ("seed", int, 0, 2**32 - 1), ("beta", float, 1e-6, 1e6), ("k", int, 1, 10_000)):
            if doc.get(key) is not None:   # the file's "resamples" is the field n_resamples (SciPy's name)
                kw["n_resamples" if key == "resamples" else key] = number(key, doc[key], kind, low, high)
        kw["test_metric"] = text("test_metric", doc.get("test_metric"))
        if doc.get("correction") is not None:
            kw["correction"] = text("correction", doc["correction"])
        if doc.get("costs") is not None:
            costs = doc["costs"]
            if not isinstance(costs, list) or not costs or not all(isinstance(r, list) and len(r) == len(costs)
                                                                   for r in costs):
                raise bad("'costs' must be a square list of lists (true class by predicted class)")
            kw["costs"] = tuple(tuple(number("costs", v) for v in row) for row in costs)
        answers = mapping("checklist", doc.get("checklist"))
        unknown = sorted(set(answers) - set(CHECKLIST_KEYS))
        if unknown:
            raise bad(f"unknown checklist item {unknown[0]!r} (items: {', '.join(CHECKLIST_KEYS)})")
        kw["checklist"] = {k: text(f"checklist.{k}", v) or "" for k, v in answers.items()}
        if doc.get("paper") is not None:
            paper = str(doc["paper"]).lower()
            from assess.present.report.render import PAPERS   # here: the renderer imports Jinja2 and the charts
            if paper not in PAPERS:
                raise bad(f"'paper' must be one of {', '.join(PAPERS)} (got {doc['paper']!r})")
            kw["paper"] = paper
        if doc.get("title") is not None:
            kw["title"] = text("title", doc["title"])[:200]
        return cls(**kw)

    @classmethod
    def read(cls, path: str | Path) -> Settings:
        path = Path(path)
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise AssessError(f"{path.name}: not valid JSON ({exc.msg} at line {exc.lineno})") from None
        except UnicodeDecodeError:
            raise AssessError(f"{path.name}: not a UTF-8 text file") from None
        return cls.from_dict(doc, source=path.name)

    @classmethod
    def loads(cls, data: bytes | str, *, source: str = "settings") -> Settings:
        try:
            doc = json.loads(data)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise AssessError(f"{source}: not valid JSON ({exc})") from None
        return cls.from_dict(doc, source=source)

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
               ("metric", "test_metric"), ("title", "title"))
#: argparse defaults of those options in the commands (a value equal to its default counts as not given).
#: Options that are test options in ``compare`` (given only by its own flags).
_TEST_OPTIONS = {"seed", "n_resamples"}
_DEFAULTS = {"confidence_level": 0.95, "n_resamples": 1000, "seed": 0, "beta": 1.0, "k": 2, "correction": "auto",
             "labels_from": "auto"}


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
    if getattr(args, "config", None):
        for attr, name in _ARG_FIELDS:
            if getattr(args, "command", None) == "compare" and attr in _TEST_OPTIONS:
                continue  # compare's test options: a flag the chosen test does not take is an error there
            if hasattr(args, attr) and getattr(args, attr) in (None, _DEFAULTS.get(attr)):
                value = getattr(settings, name)
                if value is not None:
                    setattr(args, attr, list(value) if isinstance(value, tuple) else value)
        if hasattr(args, "labels_from") and args.labels_from == "auto" and args.threshold is None \
                and not args.label_threshold:
            args.labels_from = settings.labels_from
            args.threshold = settings.threshold
            args.label_threshold = [f"{k}={v}" for k, v in settings.label_thresholds.items()] or None
    args._settings = settings
    return settings


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


__all__ = ["FORMAT", "VERSION", "Settings", "add_config_option", "report_options", "settings_from_args"]
