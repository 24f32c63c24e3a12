"""MkDocs hook: the reference pages are generated from the code at every build, so they cannot drift from it.

- ``reference/metrics.md`` from the metric registry (`assess.metrics.registry.REGISTRY`): per task, every metric's
  name, key, formula (the registry's LaTeX, rendered to MathML here so the site needs no script), meaning, source
  clause, direction and the interval ``--ci auto`` gives it (`assess.metrics.evaluate.interval_method`, the function
  `evaluate` itself calls; in memory, unweighted rows).
- ``reference/tests.md`` from the test registry (`assess.stats.registry.TESTS`).
- ``reference/cli.md`` from the argparse parsers `assess.cli.build_parser` builds (every subcommand in
  ``SUBCOMMANDS``, so a new one appears without an edit here).

The screenshots in ``assets/screenshots`` are added to the site from where they live (one copy, the README's).
"""

from __future__ import annotations

import argparse
import html
import sys
from pathlib import Path

from mkdocs.structure.files import File

ROOT = Path(__file__).resolve().parents[2]

#: The task names of the reference, in the registry's task order (the pages call the tasks so).
TASK_TITLES = {"binary": "Binary classification", "multiclass": "Multi-class classification",
               "multilabel": "Multi-label classification", "regression": "Regression", "forecast": "Forecasts",
               "clustering": "Clustering"}
#: What ``interval_method`` returns, in words (the keys it returns are the short ones `evaluate` branches on).
AUTO_INTERVAL = {None: "none", "wilson": "Wilson score", "delong": "DeLong", "t": "Student t",
                 "delta": "Delta method", "order-statistic": "Order statistics",
                 "simultaneous-bins": "Simultaneous Clopper–Pearson bins", "bootstrap": "Bootstrap percentile"}
DIRECTION = {"higher": "higher", "lower": "lower", "none": "neither (it describes the data)"}
#: The class of an entry's line of facts (key, direction, …), whose code spans docs/stylesheets/extra.css keeps whole.
FACTS = "{: .facts }"
NEEDS = {"labels": "predicted labels", "scores": "scores", "probabilities": "probabilities",
         "values": "numeric predictions", "intervals": "prediction intervals", "reference": "reference classes",
         "features": "feature columns"}


def _cell(text) -> str:
    """A Markdown table cell: escaped (the registry's text is plain), no pipe or line break to end the cell."""
    return html.escape(" ".join(str(text).split()), quote=False).replace("|", "&#124;")


def _formula(latex: str) -> str:
    """The registry's LaTeX as a MathML block, which browsers render without a script."""
    from latex2mathml.converter import convert

    return convert(latex, display="block").replace("\n", "")


def _number(x: float) -> str:
    return "∞" if x == float("inf") else ("−∞" if x == float("-inf") else f"{x:g}")


def metrics_page() -> str:
    from assess.metrics.evaluate import interval_method
    from assess.metrics.registry import GROUPS, REGISTRY, TASKS

    out = ["# Metric reference", "",
           "Every metric of every task, as the registry defines it: the same entries give the Metrics page, the "
           "command line's keys (`--metrics KEY`), the exports and the report. *Interval* is the method "
           "`--ci auto` (the app's default) gives the metric on unweighted rows in memory; forecasts resample "
           "blocks of each series in time order. This page is generated from the registry when the site is built.",
           ""]
    for task in TASKS:
        specs = sorted((m for m in REGISTRY if m.task is task), key=lambda m: GROUPS.index(m.group))
        out += [f"## {TASK_TITLES[task.value]}", ""]
        for group in dict.fromkeys(m.group for m in specs):
            out += [f"### {group} {{#{task.value}-{group.lower().replace(' ', '-')}}}", ""]
            for m in (s for s in specs if s.group == group):
                method = AUTO_INTERVAL[interval_method(m, "auto", False, rows=True)]
                if task.value == "forecast" and method.startswith("Bootstrap"):
                    method = "Block bootstrap percentile"
                out += [f"#### {_cell(m.name)} {{#{task.value}-{m.key}}}", "", _formula(m.latex), "",
                        _cell(m.meaning), "",
                        f"*Key* `{m.key}` · *Better* {DIRECTION[m.direction]} · *Range* "
                        f"[{_number(m.range[0])}, {_number(m.range[1])}] · *Needs* {NEEDS.get(m.needs, m.needs)} · "
                        f"*Interval* {method} · *Source* {_cell(m.source)}", FACTS, ""]
    return "\n".join(out)


def tests_page() -> str:
    from assess.stats.registry import TESTS

    out = ["# Significance test reference", "",
           "Every test `compare --test KEY` and the Compare page run, from the test registry. *Design*: paired tests "
           "need the same samples for every model, independent ones different samples. *Kind*: pairwise tests "
           "compare two models at a time (corrected over the pairs), omnibus tests all models at once. This page "
           "is generated from the registry when the site is built.", ""]
    for spec in TESTS.values():
        options = ", ".join(f"`--{o.flag.lstrip('-') if o.flag else o.name.replace('_', '-')}`"
                            for o in spec.options) or "none"
        question = spec.doc[:1].upper() + spec.doc[1:]
        out += [f"## {_cell(spec.title)} {{#{spec.key}}}", "", _cell(question), "",
                f"*Key* `{spec.key}` · *Design* {spec.design} · *Kind* {spec.kind} · *Uses* {_cell(spec.needs)} · "
                f"*Options* {options} · *Source* {_cell(spec.reference)}", FACTS, ""]
    return "\n".join(out)


def _values(action: argparse.Action) -> str:
    if action.choices:
        return " ".join(f"`{c}`" for c in action.choices)
    if action.nargs == 0:
        return "—"
    metavar = action.metavar or action.dest.upper()
    many = action.nargs in ("+", "*")
    return f"`{metavar}`" + (" …" if many else "")


def _default(action: argparse.Action) -> str:
    if action.nargs == 0 or action.default in (None, argparse.SUPPRESS) or action.required:
        return "—"
    return f"`{action.default}`"


def _synopsis(parser: argparse.ArgumentParser) -> str:
    """``python -m assess compare --test TEST FILE [OPTIONS]``: what must be given; the table lists the rest."""
    required = [f"{a.option_strings[-1]} {(a.metavar or a.dest).upper()}" for a in parser._actions
                if a.required and a.option_strings]
    positional = [(a.metavar or a.dest).upper() for a in parser._actions if not a.option_strings]
    return " ".join([parser.prog, *required, *positional, "[OPTIONS]"])


def cli_page() -> str:
    from assess.cli import SUBCOMMANDS, build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    out = ["# Command-line reference", "",
           "Every subcommand of `python -m assess` and every option, as `--help` prints them; generated from the "
           "parsers when the site is built.", ""]
    for name in SUBCOMMANDS:
        p = sub.choices[name]
        out += [f"## {name}", "", _cell(p.description or ""), "", "```text", _synopsis(p), "```", "",
                "| Option | Values | Default | Meaning |", "|---|---|---|---|"]
        for action in p._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            flags = ", ".join(f"`{o}`" for o in action.option_strings) or f"`{action.dest}` (positional)"
            required = " (required)" if action.required and action.option_strings else ""
            out.append(f"| {flags}{required} | {_values(action)} | {_default(action)} | {_cell(action.help or '')} |")
        out += ["", _cell(p.epilog or ""), ""]
    return "\n".join(out)


GENERATED = {"reference/metrics.md": metrics_page, "reference/tests.md": tests_page, "reference/cli.md": cli_page}


def on_files(files, config):
    # The package is the folder beside docs/, whatever the working directory (MkDocs restores sys.path after loading
    # a hook, so this is done here, at build time).
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    for uri, page in GENERATED.items():
        files.append(File.generated(config, uri, content=page()))
    for png in sorted((ROOT / "assets" / "screenshots").glob("*.png")):
        files.append(File(f"screenshots/{png.name}", str(png.parent.parent), config["site_dir"],
                          config["use_directory_urls"]))
    return files
