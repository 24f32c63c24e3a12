"""Build the sample prediction files from data sets that ship inside scikit-learn (no downloads).

Run: ``.venv/bin/python assets/make_samples.py``. Deterministic: fixed seeds, and scores rounded to 6 decimals so
the committed files do not change with floating-point noise. Each model's predictions are out-of-fold: 5-fold
stratified cross-validation, so every row is predicted by a model that never saw it (ISO 4213 5.3.5, 5.3.6).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.datasets import load_breast_cancer, load_wine
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold
from sklearn.naive_bayes import GaussianNB
from sklearn.ensemble import RandomForestClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

HERE = Path(__file__).parent / "samples"
SEED = 20261122
N_FOLDS = 5


def out_of_fold(model, X, y, folds) -> np.ndarray:
    """Class probabilities for each row from the model trained on the other folds."""
    proba = np.zeros((len(y), len(np.unique(y))))
    for k in range(N_FOLDS):
        train, test = folds != k, folds == k
        proba[test] = model.fit(X[train], y[train]).predict_proba(X[test])
    return proba


def fold_ids(y) -> np.ndarray:
    folds = np.empty(len(y), dtype=int)
    for k, (_, test) in enumerate(StratifiedKFold(N_FOLDS, shuffle=True, random_state=SEED).split(np.zeros(len(y)), y)):
        folds[test] = k
    return folds


def binary_sample() -> pd.DataFrame:
    """Breast cancer (569 tumours): three models of clearly different quality on the same ids and folds."""
    data = load_breast_cancer()
    X, y = data.data, data.target  # sklearn: 0 = malignant, 1 = benign
    names = np.array(["malignant", "benign"])
    folds = fold_ids(y)
    rng = np.random.default_rng(SEED)
    # A slice for per-group metrics: tumour size by mean radius terciles.
    radius = X[:, list(data.feature_names).index("mean radius")]
    group = np.select([radius < np.quantile(radius, 1 / 3), radius < np.quantile(radius, 2 / 3)],
                      ["small", "medium"], "large")
    models = {
        "logistic": make_pipeline(StandardScaler(), LogisticRegression(C=0.5, max_iter=2000)),
        "tree": DecisionTreeClassifier(max_depth=3, random_state=SEED),
        # A deliberately weak model: naive Bayes on three noisy features only.
        "naive_bayes_3f": GaussianNB(),
    }
    noisy = X[:, [0, 1, 4]] + rng.normal(0, 1, size=(len(y), 3)) * X[:, [0, 1, 4]].std(axis=0) * 0.8
    frames = []
    for name, model in models.items():
        features = noisy if name == "naive_bayes_3f" else X
        p_malignant = out_of_fold(model, features, y, folds)[:, 0]
        frames.append(pd.DataFrame({
            "id": np.arange(1, len(y) + 1), "model": name, "fold": folds + 1, "group": group,
            "y_true": names[y], "y_pred": np.where(p_malignant >= 0.5, "malignant", "benign"),
            "score": np.round(p_malignant, 6),
        }))
    return pd.concat(frames, ignore_index=True)


def multiclass_sample() -> pd.DataFrame:
    """Wine (178 wines, three cultivars): two models with per-class probabilities."""
    data = load_wine()
    X, y = data.data, data.target
    cultivars = np.array(["barolo", "grignolino", "barbera"])  # the three cultivars of the UCI wine data
    folds = fold_ids(y)
    models = {
        "logistic": make_pipeline(StandardScaler(), LogisticRegression(C=0.05, max_iter=2000)),
        "forest": RandomForestClassifier(n_estimators=50, max_depth=2, random_state=SEED),
    }
    frames = []
    for name, model in models.items():
        proba = np.round(out_of_fold(model, X, y, folds), 6)
        frame = pd.DataFrame({"id": np.arange(1, len(y) + 1), "model": name, "fold": folds + 1,
                              "y_true": cultivars[y], "y_pred": cultivars[proba.argmax(axis=1)]})
        for k, cultivar in enumerate(cultivars):
            frame[f"proba_{cultivar}"] = proba[:, k]
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)


SAMPLES = {
    "breast_cancer_binary.csv": binary_sample,
    "wine_multiclass.csv": multiclass_sample,
}

if __name__ == "__main__":
    HERE.mkdir(exist_ok=True)
    for filename, build in SAMPLES.items():
        frame = build()
        frame.to_csv(HERE / filename, index=False, lineterminator="\n")
        print(f"wrote {HERE / filename}: {len(frame):,} rows, {frame.shape[1]} columns")
