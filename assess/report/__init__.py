"""The assessment report (ISO/IEC TS 4213:2022 clause 8, SPEC "Report"): `build_report` gathers it, `write_report`
writes it as PDF, self-contained HTML or a ZIP of JSON and CSV tables (see `assess.report.render` for why one
Jinja2 template printed by headless Chromium)."""

from assess.report.model import Report, ReportOptions, build_report
from assess.report.render import (FORMATS, format_of, render_bytes, render_html, render_pdf, render_zip,
                                  report_document, write_atomically, write_report)

__all__ = ["FORMATS", "Report", "ReportOptions", "build_report", "format_of", "render_bytes", "render_html",
           "render_pdf", "render_zip", "report_document", "write_atomically", "write_report"]
