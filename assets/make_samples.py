"""Build the sample prediction files from data sets that ship inside scikit-learn and statsmodels (no downloads).

Run: ``make samples`` (or ``.venv/bin/python assets/make_samples.py [FILE ...]`` for some of them; statsmodels is
installed by the test set-up). Deterministic: fixed seeds, and predictions rounded so the committed files do not
change with floating-point noise. Classification and regression predictions are out-of-fold: 5-fold (stratified)
cross-validation, so every row is predicted by a model that never saw it (ISO 4213 5.3.5, 5.3.6). Forecasts are made
from rolling origins: each is made with the data up to its origin only.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.datasets import load_breast_cancer, load_diabetes, load_wine
from sklearn.ensemble import RandomForestRegressor
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.model_selection import KFold, StratifiedKFold
from sklearn.neighbors import KNeighborsRegressor
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


def regression_sample() -> pd.DataFrame:
    """Diabetes (442 patients, disease progression one year after baseline): three regressors, out-of-fold."""
    X, y = load_diabetes(return_X_y=True)
    folds = np.empty(len(y), dtype=int)
    for k, (_, test) in enumerate(KFold(N_FOLDS, shuffle=True, random_state=SEED).split(X)):
        folds[test] = k
    models = {
        "ridge": Ridge(alpha=1.0),
        "forest": RandomForestRegressor(n_estimators=100, min_samples_leaf=5, random_state=SEED),
        "knn_5": make_pipeline(StandardScaler(), KNeighborsRegressor(n_neighbors=5)),
    }
    frames = []
    for name, model in models.items():
        predicted = np.zeros(len(y))
        for k in range(N_FOLDS):
            train, test = folds != k, folds == k
            predicted[test] = model.fit(X[train], y[train]).predict(X[test])
        frames.append(pd.DataFrame({"id": np.arange(1, len(y) + 1), "model": name, "fold": folds + 1,
                                    "y_true": y, "y_pred": np.round(predicted, 3)}))
    return pd.concat(frames, ignore_index=True)


#: Forecasts: monthly series, 12 months ahead from each of the last ORIGINS months, 90 % prediction intervals.
SEASON, HORIZONS, ORIGINS, LEVEL_Z = 12, 12, 36, 1.6448536269514722


def monthly_series() -> dict[str, pd.Series]:
    """Two real monthly series bundled with statsmodels: CO2 at Mauna Loa (weekly, averaged by month, gaps filled
    by interpolation) and the El Niño sea-surface temperature."""
    import statsmodels.api as sm

    co2 = sm.datasets.co2.load_pandas().data["co2"].interpolate().resample("MS").mean()
    elnino = sm.datasets.elnino.load_pandas().data
    months = pd.date_range(f"{int(elnino.YEAR.iloc[0])}-01-01", periods=elnino.shape[0] * 12, freq="MS")
    sst = pd.Series(elnino.drop(columns="YEAR").to_numpy().ravel(), index=months)
    return {"co2_mauna_loa": co2.loc["1980":].round(3), "elnino_sst": sst.round(3)}


def forecast_sample() -> pd.DataFrame:
    """Naive, seasonal-naive and ETS (additive Holt-Winters, statsmodels' ETSModel) forecasts 1-12 months ahead
    from rolling origins, with 90 % prediction intervals: the naive ones from the one-step residuals'
    standard deviation, sigma * sqrt(h) and sigma * sqrt(floor((h - 1) / 12) + 1) (Hyndman & Athanasopoulos,
    Forecasting: Principles and Practice, 3rd ed., 5.5); the ETS ones from the model."""
    from statsmodels.tsa.exponential_smoothing.ets import ETSModel

    rows = []
    for series, values in monthly_series().items():
        y = values.to_numpy()
        n = len(y)
        for origin in range(n - ORIGINS - HORIZONS, n - HORIZONS):
            history = y[: origin + 1]
            steps = np.arange(1, HORIZONS + 1)
            sigma_naive = np.std(np.diff(history), ddof=1)
            sigma_seasonal = np.std(history[SEASON:] - history[:-SEASON], ddof=1)
            fit = ETSModel(pd.Series(history), error="add", trend="add", seasonal="add",
                           seasonal_periods=SEASON).fit(disp=False)
            ets = fit.get_prediction(start=origin + 1, end=origin + HORIZONS).summary_frame(alpha=0.10)
            forecasts = {
                "naive": (np.repeat(history[-1], HORIZONS), sigma_naive * np.sqrt(steps)),
                "seasonal_naive": (history[-SEASON + (steps - 1) % SEASON],
                                   sigma_seasonal * np.sqrt((steps - 1) // SEASON + 1)),
            }
            for model, (mean, sd) in forecasts.items():
                for h, m, s in zip(steps, mean, sd):
                    rows.append((series, model, values.index[origin], values.index[origin + h], h, y[origin + h],
                                 m, m - LEVEL_Z * s, m + LEVEL_Z * s))
            for h, (_, row) in zip(steps, ets.iterrows()):
                rows.append((series, "ets", values.index[origin], values.index[origin + h], h, y[origin + h],
                             row["mean"], row["pi_lower"], row["pi_upper"]))
    frame = pd.DataFrame(rows, columns=["series", "model", "origin", "timestamp", "horizon", "y_true", "y_pred",
                                        "lower_90", "upper_90"])
    # One id per forecast target (series, origin, horizon), the same for every model: the models are paired.
    frame.insert(0, "id", frame.groupby(["series", "origin", "horizon"], sort=False).ngroup() + 1)
    for column in ("y_pred", "lower_90", "upper_90"):
        frame[column] = frame[column].round(3)
    for column in ("origin", "timestamp"):
        frame[column] = frame[column].dt.strftime("%Y-%m")
    return frame


def clustering_sample() -> pd.DataFrame:
    """Iris (150 flowers, three species): k-means, agglomerative (Ward) and Gaussian-mixture clusterings of the
    standardised measurements into 3 clusters, in long format (one row per flower and clustering), with the species
    as reference classes and the four measurements (cm) as features ``x_*``. Cluster numbers are arbitrary (1–3)."""
    from sklearn.cluster import AgglomerativeClustering, KMeans
    from sklearn.datasets import load_iris
    from sklearn.mixture import GaussianMixture

    data = load_iris()
    X, y = data.data, data.target
    Z = StandardScaler().fit_transform(X)
    clusterings = {
        "kmeans": KMeans(n_clusters=3, n_init=10, random_state=SEED).fit_predict(Z),
        "agglomerative": AgglomerativeClustering(n_clusters=3, linkage="ward").fit_predict(Z),
        "gaussian_mixture": GaussianMixture(n_components=3, covariance_type="full", random_state=SEED).fit_predict(Z),
    }
    names = ["sepal_length", "sepal_width", "petal_length", "petal_width"]
    frames = []
    for name, clusters in clusterings.items():
        frame = pd.DataFrame({"id": np.arange(1, len(y) + 1), "model": name, "y_true": data.target_names[y],
                              "cluster": clusters + 1})
        for j, feature in enumerate(names):
            frame[f"x_{feature}"] = X[:, j]
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)


SAMPLES = {
    "breast_cancer_binary.csv": binary_sample,
    "wine_multiclass.csv": multiclass_sample,
    "diabetes_regression.csv": regression_sample,
    "monthly_forecasts.csv": forecast_sample,
    "iris_clustering.csv": clustering_sample,
}

if __name__ == "__main__":
    import sys

    HERE.mkdir(exist_ok=True)
    for filename, build in SAMPLES.items():
        if sys.argv[1:] and filename not in sys.argv[1:]:
            continue
        frame = build()
        frame.to_csv(HERE / filename, index=False, lineterminator="\n")
        print(f"wrote {HERE / filename}: {len(frame):,} rows, {frame.shape[1]} columns")
