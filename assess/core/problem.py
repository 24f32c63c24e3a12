"""A problem found in an assessment input: the one shape every check reports in (`assess.inputs.validation`,
`assess.inputs.forecast_checks`), in a module of its own so the checks can share it without importing each other."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Problem"]


@dataclass(frozen=True)
class Problem:
    """One problem found in the input. ``rows`` are the first offending data rows, numbered from 1."""

    level: str          # "error" or "warning"
    code: str           # stable identifier, e.g. "score_out_of_range"
    message: str
    column: str | None = None
    count: int = 0
    rows: tuple[int, ...] = ()

    def to_dict(self) -> dict:
        return {"level": self.level, "code": self.code, "column": self.column, "count": self.count,
                "rows": list(self.rows), "message": self.message}
