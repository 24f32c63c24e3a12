"""Display names of models and classes: "lr" → "Logistic regression", "1" → "Fraud".

The names are applied once, where the assessment is described (`assess.inputs.assessment.describe`): the `Assessment`'s models,
classes and positive class carry the display names, and so does every `Predictions` it encodes, so every metric
report, sentence, chart, test, export and report that follows uses them without knowing they were renamed. The file's
own values stay the key to the data: `DisplayNames.file_model` and `DisplayNames.file_class` map a display name back.

A name that matches nothing in a file is ignored (settings saved on one file are re-applied to the next quarter's,
which may lack a model); two models or two classes may not end up with the same name.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from assess.core.errors import AssessError

#: Longest display name accepted (a name is shown in legends, tables and page titles).
MAX_NAME = 80


def _pairs(mapping: Mapping[str, str] | Iterable[tuple[str, str]] | None) -> tuple[tuple[str, str], ...]:
    items = mapping.items() if isinstance(mapping, Mapping) else (mapping or ())
    out = []
    for old, new in items:
        old, new = str(old), " ".join(str(new if new is not None else "").split())  # one line, single spaces
        if len(new) > MAX_NAME:
            raise AssessError(f"display name for {old!r} is {len(new)} characters long; at most {MAX_NAME}")
        if new and new != old:
            out.append((old, new))
    return tuple(sorted(out))


@dataclass(frozen=True)
class DisplayNames:
    """Renamed models and classes as ``(file value, display name)`` pairs (hashable: part of cache keys)."""

    models: tuple[tuple[str, str], ...] = ()
    classes: tuple[tuple[str, str], ...] = ()

    @classmethod
    def of(cls, models=None, classes=None) -> DisplayNames:
        """From ``{file value: display name}`` mappings; empty names and unchanged names are dropped."""
        return cls(_pairs(models), _pairs(classes))

    def __bool__(self) -> bool:
        return bool(self.models or self.classes)

    def model(self, name: str) -> str:
        return dict(self.models).get(name, name)

    def cls(self, label: str) -> str:
        return dict(self.classes).get(label, label)

    def file_model(self, display: str) -> str:
        return {new: old for old, new in self.models}.get(display, display)

    def file_class(self, display: str) -> str:
        return {new: old for old, new in self.classes}.get(display, display)

    def to_dict(self) -> dict:
        return {"models": dict(self.models), "classes": dict(self.classes)}

    def check(self, models: Iterable[str], classes: Iterable[str], *, file: str) -> None:
        """Refuse names that would make two models (or two classes) of ``file`` indistinguishable."""
        for kind, values, rename in (("model", list(models), self.model), ("class", list(classes), self.cls)):
            seen: dict[str, str] = {}
            for value in values:
                shown = rename(value)
                if shown in seen:
                    raise AssessError(f"{file}: the {kind}es {seen[shown]!r} and {value!r} would both be called "
                                      f"{shown!r}; give them different names" if kind == "class" else
                                      f"{file}: the models {seen[shown]!r} and {value!r} would both be called "
                                      f"{shown!r}; give them different names")
                seen[shown] = value
