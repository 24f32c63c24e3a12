"""The notebook API: ``assess.evaluate(data, …)`` returns an `Assessment` whose methods give the command line's and
the app's numbers, tests, charts and report (see `assess.api.assessment`)."""

from assess.api.assessment import Assessment, evaluate

__all__ = ["Assessment", "evaluate"]
