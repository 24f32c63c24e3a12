"""What the Report page offers and builds, apart from its widgets: the formats, the classes a cost matrix is asked
for, the costs read from the grid, the `Settings` of the page's choices, and the chosen format's bytes.

The settings are those `python -m assess report --config settings.json` reads, so the page and the command line
build the same report.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable


from assess.analyses.decision_costs import cost_matrix
from assess.core.data import Task
from assess.core.decision import Decision
from assess.core.errors import AssessError
from assess.inputs.assessment import Assessment
from assess.inputs.roles import Overrides
from assess.present.export import ExportError
from assess.present.report import render_html, render_zip
from assess.present.report.render import html_to_pdf
from assess.present.settings import Settings

#: Up to this many classes the page offers a cost matrix to edit (a k × k grid).
MAX_COST_CLASSES = 20
#: The formats offered: (kind, paper) by label; "pdf" prints the HTML with Chromium on that paper. HTML and ZIP keep
#: the saved paper (``None`` here).
FORMATS = {"PDF (A4)": ("pdf", "a4"), "PDF (Letter)": ("pdf", "letter"), "HTML": ("html", None),
           "ZIP of tables": ("zip", None)}
#: File name, MIME type and icon of each kind.
FILES = {"pdf": ("report.pdf", "application/pdf", ":material/picture_as_pdf:"),
         "html": ("report.html", "text/html", ":material/html:"),
         "zip": ("report.zip", "application/zip", ":material/folder_zip:")}


def cost_classes(assessment: Assessment) -> list:
    """The classes of a cost matrix (rows true, columns predicted), in the predictions' encoding; none when the task
    has no single label per sample or the classes are too many for a grid."""
    if assessment.task not in (Task.BINARY, Task.MULTICLASS):
        return []
    classes = list(assessment.predictions().classes)
    return classes if 2 <= len(classes) <= MAX_COST_CLASSES else []


def costs_from_grid(values, classes) -> tuple[tuple[float, ...], ...]:
    """The edited grid as costs, by the one cost-matrix rule of the Confusion page and the report
    (`assess.analyses.decision_costs.cost_matrix`: every cell a finite number, a benefit as a negative cost);
    `AssessError` naming the first empty cell otherwise."""
    return tuple(tuple(float(v) for v in row) for row in cost_matrix(values, classes))


def report_settings(assessment: Assessment, saved: Settings, overrides: Overrides, decision: Decision, *,
                    title: str, paper: str, ci: str, n_resamples: int, costs, checklist: dict[str, str]) -> Settings:
    """``saved`` (the applied settings file, or the defaults) with the roles, task, classes and display names of the
    Data page, the shared decision and the page's report options."""
    roles = {r: (dict(v) if isinstance(v, tuple) and v and isinstance(v[0], tuple) else
                 list(v) if isinstance(v, tuple) else v) for r, v in overrides.roles}
    return replace(saved, task=assessment.task.value, roles=roles,
                   positive=assessment.names.file_class(assessment.positive) if assessment.positive else None,
                   class_order=overrides.class_order, display_names=assessment.names,
                   # a threshold only where scores decide: "auto" with a threshold would read back as scores
                   labels_from=decision.source, threshold=decision.threshold if decision.source == "scores" else None,
                   label_thresholds=dict(decision.per_label), ci=ci, n_resamples=int(n_resamples), costs=costs,
                   checklist={k: v for k, v in checklist.items() if v.strip()}, paper=paper, title=title,
                   models=None)


def report_bytes(built, kind: str, paper: str, step: Callable[[float, str], None]) -> bytes:
    """The built report as ``kind`` ("pdf", "html" or "zip") on ``paper``; ``step(fraction, what)`` follows the
    work. A failure to print the PDF is an `AssessError` the page shows."""
    if kind == "zip":
        step(0.95, "Writing the tables…")
        return render_zip(built)
    html = render_html(built, paper=paper)
    if kind == "html":
        return html.encode("utf-8")
    step(0.95, "Printing the PDF with Chromium…")
    try:
        return html_to_pdf(html)
    except ExportError as exc:
        raise AssessError(str(exc)) from exc
