"""Log an assessment to an MLflow run: every metric with its interval bounds, the settings, the report files.

``log(doc_or_assessment, run_id=None, *, artifacts=())`` takes the metrics document ``python -m assess metrics``
writes (a dict, `assess.metrics.document`), or any object whose ``.document()`` returns it (the notebook API's
``Assessment``). ``python -m assess metrics|report … --mlflow-run ID`` call it.

Names, as MLflow shows them:

- metrics: the document's ``"models"`` — ``roc_auc`` and, when it has an interval, ``roc_auc_low`` and
  ``roc_auc_high``. A file of one model logs the bare keys; a file of several prefixes each with its model,
  ``logistic.roc_auc``, ``logistic.roc_auc_low`` …, so one run holds them all and MLflow's charts group them by
  model. A character MLflow refuses in a name (anything but letters, digits, ``_ - . / `` and space) becomes ``_``.
  An undefined value (null) is not logged: MLflow has no "undefined", and a 0 would be a lie; its reason is in the
  document, which is logged whole as the artifact ``assess/metrics.json``.
- params: ``task``, ``n``, ``positive`` (classification) and every setting under ``settings.`` (``settings.ci``,
  ``settings.confidence_level``, ``settings.threshold`` …), as text; MLflow params cannot change once logged, so a
  second ``log`` with other settings into the same run is refused by MLflow.
- artifacts: each path of ``artifacts`` (the report's PDF, HTML or ZIP) under ``assess/``.

Where: ``run_id`` names an existing run; without it, the active run (``mlflow.start_run()`` in the caller), else a
new run of the current experiment, which is then ended. The tracking server is MLflow's own setting
(``MLFLOW_TRACKING_URI``, or ``mlflow.set_tracking_uri``). MLflow is an optional dependency: without it, `log`
raises `AssessError` saying to install ``assess[mlflow]``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

from assess.core.errors import AssessError

INSTALL = ("logging to MLflow needs the mlflow package: install assess[mlflow] (pip install 'assess[mlflow]', "
           "or pip install mlflow-skinny)")
#: What MLflow takes in a metric or param name (mlflow.utils.validation); anything else becomes "_".
_NOT_A_NAME = re.compile(r"[^\w\-. /]")
#: MLflow's limits per log_batch call.
_BATCH_METRICS, _BATCH_PARAMS = 1000, 100


def _mlflow():
    try:
        import mlflow
    except ImportError:
        raise AssessError(INSTALL) from None
    return mlflow


def metric_values(doc: Mapping) -> dict[str, float]:
    """{MLflow metric name: value} of a metrics document (see the module docstring for the names); undefined values
    are left out.

    >>> metric_values({"models": {"lr": {"auc": {"value": 0.9, "low": 0.8, "high": None}, "n": 10}}})
    {'auc': 0.9, 'auc_low': 0.8, 'n': 10.0}
    """
    models = _models(doc)
    prefix = len(models) > 1
    out: dict[str, float] = {}
    for model, values in models.items():
        for key, value in values.items():
            name = _name(f"{model}.{key}" if prefix else key)
            cells = value if isinstance(value, Mapping) else {"value": value}
            for part, suffix in (("value", ""), ("low", "_low"), ("high", "_high")):
                number = cells.get(part)
                if isinstance(number, (int, float)) and not isinstance(number, bool) and math.isfinite(number):
                    out[name + suffix] = float(number)
    return out


def params_of(doc: Mapping) -> dict[str, str]:
    """{MLflow param name: text}: the task, the row count, the positive class and every setting."""
    out = {key: doc[key] for key in ("task", "n", "positive") if doc.get(key) is not None}
    out |= {f"settings.{k}": v for k, v in (doc.get("settings") or {}).items() if v is not None}
    return {_name(k): str(v) for k, v in out.items()}


def log(assessment_or_document, run_id: str | None = None, *, artifacts: Iterable[str | Path] = ()) -> str:
    """Log the assessment's metrics (with interval bounds), settings and ``artifacts`` to an MLflow run; returns
    the run's id. See the module docstring for the names and which run."""
    doc = assessment_or_document.document() if hasattr(assessment_or_document, "document") \
        else assessment_or_document
    _models(doc)   # a wrong argument is said before MLflow is imported
    files = [Path(p) for p in artifacts]
    missing = [p for p in files if not p.is_file()]
    if missing:
        raise AssessError(f"{missing[0]}: no such file to log to MLflow")
    mlflow = _mlflow()
    from mlflow.entities import Metric, Param

    client = mlflow.MlflowClient()
    started = None
    if run_id is None:
        active = mlflow.active_run()
        if active is None:
            started = mlflow.start_run()
            active = started
        run_id = active.info.run_id
    try:
        client.get_run(run_id)
    except Exception as exc:  # noqa: BLE001 - MLflow raises its own exception types for an unknown run
        raise AssessError(f"MLflow run {run_id!r} not found ({' '.join(str(exc).split())[:200]})") from None
    try:
        stamp = _now_ms()
        metrics = [Metric(k, v, stamp, 0) for k, v in metric_values(doc).items()]
        params = [Param(k, v) for k, v in params_of(doc).items()]
        for i in range(0, len(metrics), _BATCH_METRICS):
            client.log_batch(run_id, metrics=metrics[i:i + _BATCH_METRICS])
        for i in range(0, len(params), _BATCH_PARAMS):
            client.log_batch(run_id, params=params[i:i + _BATCH_PARAMS])
        from assess.present.export import to_json_bytes   # NaN as null, as every JSON the package writes

        client.log_text(run_id, to_json_bytes(doc).decode("utf-8"), "assess/metrics.json")
        for path in files:
            client.log_artifact(run_id, str(path), artifact_path="assess")
    finally:
        if started is not None:
            mlflow.end_run()
    return run_id


def _models(doc) -> Mapping:
    if not isinstance(doc, Mapping) or not isinstance(doc.get("models"), Mapping):
        raise AssessError("log() takes the metrics document python -m assess metrics writes (a dict with \"models\"), "
                          f"or an object whose .document() returns it (got {type(doc).__name__})")
    return doc["models"]


def _name(text: str) -> str:
    return _NOT_A_NAME.sub("_", str(text))


def _now_ms() -> int:
    import time

    return int(time.time() * 1000)

