"""``python -m assess inspect FILE``: the recognised roles, task, positive class, classes, models and problems."""

from __future__ import annotations

import sys

from assess.cli import SUMMARIES
from assess.cli.common import EXIT_BAD_INPUT, EXIT_STATUS, add_input_options, followed, load_assessment, print_json
from assess.cli.wording import for_cli


def add_parser(sub) -> None:
    parser = sub.add_parser("inspect", help=SUMMARIES["inspect"],
                            description="Print, as JSON, which column got which role and why, the task, the "
                                        "positive class, the classes, the models and every problem found; with "
                                        "blocking problems the JSON is printed all the same, then the first one on "
                                        "stderr, and the exit status is 2.",
                            epilog=EXIT_STATUS)
    add_input_options(parser)
    parser.set_defaults(run=followed(run))


def run(args) -> int:
    assessment = load_assessment(args)
    doc = assessment.to_dict()
    for problem in doc["problems"]:
        problem["message"] = for_cli(problem["message"])
    print_json(doc)
    if assessment.errors:
        print(f"error: {assessment.table.name}: {for_cli(assessment.errors[0].message)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return 0
