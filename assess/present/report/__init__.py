"""The assessment report (ISO/IEC TS 4213:2022 clause 8, SPEC "Report"): `build_report` gathers it, `write_report`
writes it as PDF, self-contained HTML or a ZIP of JSON and CSV tables (see `assess.present.report.render` for why one
Jinja2 template printed by headless Chromium)."""

from importlib import import_module

#: Where each public name lives. Imported on first use (PEP 562), so that reading the settings file's checklist keys
#: or paper sizes (`assess.present.settings`, which every CLI command imports) does not import the report's charts and tests.
_HOMES = {"Report": "model", "ReportOptions": "model", "build_report": "model",
          **{name: "render" for name in ("FORMATS", "format_of", "render_bytes", "render_html", "render_pdf",
                                         "render_zip", "report_document", "write_atomically", "write_report")}}

__all__ = ["FORMATS", "Report", "ReportOptions", "build_report", "format_of", "render_bytes", "render_html",
           "render_pdf", "render_zip", "report_document", "write_atomically", "write_report"]


def __getattr__(name: str):
    if name not in _HOMES:
        raise AttributeError(f"module 'assess.present.report' has no attribute {name!r}")
    value = getattr(import_module(f"assess.present.report.{_HOMES[name]}"), name)
    globals()[name] = value
    return value
