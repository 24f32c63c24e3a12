"""A realistic predictions file of repeated cross-validation, made the way a scikit-learn user makes one: two models
fitted by `RepeatedStratifiedKFold(n_splits=2, n_repeats=5)` on the breast-cancer data, every test fold's rows written
with their sample id, model, repeat and fold — so each sample id appears once per repeat and model."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pandas as pd
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import RepeatedStratifiedKFold
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler


@lru_cache(maxsize=None)
def _frame(n_splits: int, n_repeats: int) -> pd.DataFrame:
    x, y = load_breast_cancer(return_X_y=True)
    models = {"logreg": make_pipeline(StandardScaler(), LogisticRegression(C=0.05, solver="liblinear")),
              "bayes": GaussianNB()}
    parts = []
    cv = RepeatedStratifiedKFold(n_splits=n_splits, n_repeats=n_repeats, random_state=7)
    for i, (train, test) in enumerate(cv.split(x, y)):
        repeat, fold = divmod(i, n_splits)
        for name, model in models.items():
            score = model.fit(x[train], y[train]).predict_proba(x[test])[:, 1]
            parts.append(pd.DataFrame({"id": test, "model": name, "repeat": repeat + 1, "fold": fold + 1,
                                       "y_true": y[test], "y_pred": (score >= 0.5).astype(int),
                                       "score": np.round(score, 6)}))
    return pd.concat(parts, ignore_index=True)


def repeated_cv_frame(n_splits: int = 2, n_repeats: int = 5) -> pd.DataFrame:
    """The file's rows (a copy: callers may change it): ``id, model, repeat, fold, y_true, y_pred, score``."""
    return _frame(n_splits, n_repeats).copy()


def repeated_cv_csv(n_splits: int = 2, n_repeats: int = 5) -> bytes:
    return repeated_cv_frame(n_splits, n_repeats).to_csv(index=False).encode()
