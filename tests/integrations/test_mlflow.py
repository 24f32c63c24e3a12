"""`assess.integrations.mlflow` and ``--mlflow-run`` against a local MLflow tracking store (SQLite): what is read back
from the run equals the JSON ``metrics`` prints (issue 34 §4)."""

import json
import sys
from pathlib import Path

import pytest

from assess.cli import main
from assess.core.errors import AssessError
from assess.integrations import mlflow as to_mlflow

# MLflow's SQLite store trips SQLAlchemy 2.1's deprecation of `noload`: theirs, not ours
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning:mlflow")

ROOT = Path(__file__).resolve().parents[2]
BINARY = str(ROOT / "assets/samples/breast_cancer_binary.csv")


def test_without_mlflow_one_clear_message(monkeypatch):
    monkeypatch.setitem(sys.modules, "mlflow", None)      # `import mlflow` now raises ImportError
    with pytest.raises(AssessError, match=r"needs the mlflow package: install assess\[mlflow\]"):
        to_mlflow.log({"task": "binary", "models": {"m": {"accuracy": 0.5}}})


def test_a_wrong_argument_is_said_before_mlflow_is_needed():
    with pytest.raises(AssessError, match="takes the metrics document"):
        to_mlflow.log([1, 2])


def test_names_prefix_the_model_only_when_there_are_several():
    one = {"models": {"lr": {"roc_auc": {"value": 0.9, "low": 0.8, "high": 0.95}, "recall": {"value": None}}}}
    assert to_mlflow.metric_values(one) == {"roc_auc": 0.9, "roc_auc_low": 0.8, "roc_auc_high": 0.95}
    two = {"models": {"lr": {"f1": 0.7}, "tree (depth 3)": {"f1": 0.6}}}
    assert to_mlflow.metric_values(two) == {"lr.f1": 0.7, "tree _depth 3_.f1": 0.6}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    import mlflow  # make test installs it (requirements-test.txt): a missing MLflow fails here, never skips

    folder = tmp_path_factory.mktemp("mlflow")
    uri = f"sqlite:///{folder / 'mlflow.db'}"
    mlflow.set_tracking_uri(uri)
    experiment = mlflow.create_experiment("assess-tests", artifact_location=(folder / "artifacts").as_uri())
    mlflow.set_experiment(experiment_id=experiment)
    yield mlflow, mlflow.MlflowClient(uri), experiment
    mlflow.set_tracking_uri(None)


def new_run(store) -> str:
    mlflow, client, experiment = store
    return client.create_run(experiment).info.run_id


def artifact(client, run_id: str, path: str) -> str:
    return Path(client.download_artifacts(run_id, path)).read_text()


def test_metrics_mlflow_run_logs_every_metric_with_its_bounds(capsys, store):
    _, client, _ = store
    run_id = new_run(store)
    code = main(["metrics", BINARY, "--ci", "auto", "--metrics", "roc_auc", "recall", "--quiet", "--mlflow-run",
                 run_id])
    printed = json.loads(capsys.readouterr().out)
    assert code == 0
    logged = client.get_run(run_id).data
    expected = {f"{model}.{key}{suffix}": cells[part] for model, values in printed["models"].items()
                for key, cells in values.items() for part, suffix in (("value", ""), ("low", "_low"), ("high", "_high"))}
    assert len(expected) == 18 and logged.metrics == expected
    assert logged.params["settings.ci"] == "auto" and logged.params["settings.confidence_level"] == "0.95"
    assert logged.params["task"] == "binary" and logged.params["n"] == "569"
    assert json.loads(artifact(client, run_id, "assess/metrics.json")) == printed


def test_log_takes_an_object_with_document_and_starts_a_run(store):
    mlflow, client, _ = store

    class Assessed:   # what the notebook API's Assessment offers
        def document(self):
            return {"task": "regression", "n": 3, "settings": {"ci": None, "seed": 0},
                    "models": {"ridge": {"mae": 1.5, "r2": None}}, "undefined": {"ridge": {"r2": "too few rows"}}}

    run_id = to_mlflow.log(Assessed())
    run = client.get_run(run_id)
    # one model: bare keys; an undefined value is not logged (its reason is in the logged document)
    assert run.data.metrics == {"mae": 1.5} and run.data.params == {"task": "regression", "n": "3", "settings.seed": "0"}
    assert run.info.status == "FINISHED" and mlflow.active_run() is None
    assert json.loads(artifact(client, run_id, "assess/metrics.json"))["undefined"] == {"ridge": {"r2": "too few rows"}}


def test_report_mlflow_run_logs_the_report_file(capsys, store, tmp_path):
    _, client, _ = store
    run_id = new_run(store)
    out = tmp_path / "report.zip"
    code = main(["report", BINARY, "--out", str(out), "--models", "logistic", "--metrics", "accuracy", "--ci",
                 "wilson", "--quiet", "--mlflow-run", run_id])
    assert code == 0, capsys.readouterr().err
    assert [f.path for f in client.list_artifacts(run_id, "assess")] == ["assess/metrics.json", "assess/report.zip"]
    assert Path(client.download_artifacts(run_id, "assess/report.zip")).read_bytes() == out.read_bytes()
    logged = json.loads(artifact(client, run_id, "assess/metrics.json"))["models"]["logistic"]["accuracy"]
    assert client.get_run(run_id).data.metrics == {"accuracy": logged["value"], "accuracy_low": logged["low"],
                                                   "accuracy_high": logged["high"]}


def test_an_unknown_run_is_bad_input(capsys, store):
    code = main(["metrics", BINARY, "--metrics", "accuracy", "--quiet", "--mlflow-run", "0" * 32])
    assert code == 2 and "MLflow run '000" in capsys.readouterr().err
