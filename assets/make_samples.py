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
from sklearn.datasets import load_breast_cancer, load_diabetes, load_digits, load_wine
from sklearn.ensemble import RandomForestRegressor
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.model_selection import KFold, StratifiedKFold
from sklearn.multiclass import OneVsRestClassifier
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


def size_groups(data) -> np.ndarray:
    """A slice for per-group metrics: tumour size by terciles of the mean radius (small, medium, large)."""
    radius = data.data[:, list(data.feature_names).index("mean radius")]
    return np.select([radius < np.quantile(radius, 1 / 3), radius < np.quantile(radius, 2 / 3)],
                     ["small", "medium"], "large")


def binary_sample() -> pd.DataFrame:
    """Breast cancer (569 tumours): three models of clearly different quality on the same ids and folds."""
    data = load_breast_cancer()
    X, y = data.data, data.target  # sklearn: 0 = malignant, 1 = benign
    names = np.array(["malignant", "benign"])
    folds = fold_ids(y)
    rng = np.random.default_rng(SEED)
    group = size_groups(data)
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
        # the last class takes what the others leave, so each written row sums to 1 (rounding each of three to 6
        # decimals left 43 rows at 0.999999 or 1.000001, which the log loss rightly notes as not summing to 1)
        proba[:, -1] = np.round(1.0 - proba[:, :-1].sum(axis=1), 6)
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


#: Samples per `predict` call when the latency sample is timed.
LATENCY_BATCH = 8


def latency_sample() -> pd.DataFrame:
    """Breast cancer, out-of-fold as `binary_sample`, with the cost of prediction *measured* while it is built
    (ISO 4213 6.6): each fold's fitted model predicts its test rows in batches of `LATENCY_BATCH`, every batch timed
    with ``time.perf_counter`` (after one untimed warm-up call per fold), and each row carries its batch's
    ``latency_ms`` and ``batch_size``. A 300-tree random forest joins the three models of `binary_sample` to show a
    slower model. The timings are real, so they change from one build (and machine) to the next; no energy column,
    because energy was not measured."""
    import time

    data = load_breast_cancer()
    X, y = data.data, data.target
    names = np.array(["malignant", "benign"])
    folds = fold_ids(y)
    group = size_groups(data)
    models = {
        "logistic": make_pipeline(StandardScaler(), LogisticRegression(C=0.5, max_iter=2000)),
        "tree": DecisionTreeClassifier(max_depth=3, random_state=SEED),
        "forest_300": RandomForestClassifier(n_estimators=300, random_state=SEED),
        "naive_bayes": GaussianNB(),
    }
    frames = []
    for name, model in models.items():
        p_malignant, latency, size = np.zeros(len(y)), np.zeros(len(y)), np.zeros(len(y), dtype=int)
        for k in range(N_FOLDS):
            train, test = np.flatnonzero(folds != k), np.flatnonzero(folds == k)
            model.fit(X[train], y[train])
            model.predict_proba(X[test[:LATENCY_BATCH]])  # warm-up: first-call overheads are not the model's cost
            for start in range(0, len(test), LATENCY_BATCH):
                batch = test[start:start + LATENCY_BATCH]
                began = time.perf_counter()
                proba = model.predict_proba(X[batch])
                latency[batch] = (time.perf_counter() - began) * 1000
                p_malignant[batch], size[batch] = proba[:, 0], len(batch)
        frames.append(pd.DataFrame({
            "id": np.arange(1, len(y) + 1), "model": name, "fold": folds + 1, "group": group,
            "y_true": names[y], "y_pred": np.where(p_malignant >= 0.5, "malignant", "benign"),
            "score": np.round(p_malignant, 6), "latency_ms": np.round(latency, 4), "batch_size": size,
        }))
    return pd.concat(frames, ignore_index=True)


#: Chance that a simulated annotator mislabels the hardest case (probability 0.5 from the reference model).
ANNOTATOR_SLIPS = {"reader_a": 0.10, "reader_b": 0.20, "reader_c": 0.40}
#: Features copied into the annotator sample and its training-id file, so duplicate rows can be looked for.
LEAK_FEATURES = ("mean radius", "mean texture", "mean smoothness", "worst concavity")


def annotator_samples() -> tuple[pd.DataFrame, pd.DataFrame]:
    """Breast cancer on a stratified 70/30 holdout split: (test predictions with three annotators, training ids).

    Test file: logistic and tree predictions of the 171 test tumours (trained on the 398 training tumours), four
    feature columns ``x_*``, and three *simulated* annotators ``y_true_reader_a|b|c``. No real second readings ship
    with scikit-learn, so the annotators are derived, and say so: each copies the recorded diagnosis and flips it
    with probability ``slip × (1 − |2p − 1|)``, where p is a reference logistic model's probability for the tumour
    (fitted on the training tumours) and ``slip`` is 0.10, 0.20 or 0.40 — so disagreement concentrates on the
    ambiguous cases, as it does between real readers; seeded. Training file: the training ids and the same four
    features, for the disjointness and leakage checks (the split is clean, so both find nothing)."""
    from sklearn.model_selection import train_test_split

    data = load_breast_cancer()
    X, y = data.data, data.target
    names = np.array(["malignant", "benign"])
    ids = np.arange(1, len(y) + 1)
    train, test = train_test_split(np.arange(len(y)), test_size=0.3, stratify=y, random_state=SEED)
    rng = np.random.default_rng(SEED)
    reference = make_pipeline(StandardScaler(), LogisticRegression(C=0.05, max_iter=2000)).fit(X[train], y[train])
    ambiguity = 1 - np.abs(2 * reference.predict_proba(X[test])[:, 1] - 1)
    readers = {f"y_true_{name}": names[np.where(rng.random(len(test)) < slip * ambiguity, 1 - y[test], y[test])]
               for name, slip in ANNOTATOR_SLIPS.items()}
    columns = [list(data.feature_names).index(f) for f in LEAK_FEATURES]
    features = {f"x_{f.replace(' ', '_')}": X[:, c] for f, c in zip(LEAK_FEATURES, columns)}
    models = {"logistic": make_pipeline(StandardScaler(), LogisticRegression(C=0.5, max_iter=2000)),
              "tree": DecisionTreeClassifier(max_depth=3, random_state=SEED)}
    frames = []
    for name, model in models.items():
        p_malignant = model.fit(X[train], y[train]).predict_proba(X[test])[:, 0]
        frames.append(pd.DataFrame({"id": ids[test], "model": name, "y_true": names[y[test]],
                                    "y_pred": np.where(p_malignant >= 0.5, "malignant", "benign"),
                                    "score": np.round(p_malignant, 6)} | readers
                                   | {k: v[test] for k, v in features.items()}))
    training = pd.DataFrame({"id": ids[train]} | {k: v[train] for k, v in features.items()})
    return pd.concat(frames, ignore_index=True), training


def annotator_sample() -> pd.DataFrame:
    return annotator_samples()[0]


def training_ids_sample() -> pd.DataFrame:
    return annotator_samples()[1]


#: Multi-label sample: five properties of the handwritten digit (0-9) each image shows; a label is 1 when the digit
#: has the property. "closed_loop" means the digit as printed has an enclosed area (0, 6, 8, 9).
DIGIT_PROPERTIES = {
    "even": (0, 2, 4, 6, 8),
    "prime": (2, 3, 5, 7),
    "at_least_5": (5, 6, 7, 8, 9),
    "closed_loop": (0, 6, 8, 9),
    "multiple_of_3": (0, 3, 6, 9),
}


def multilabel_sample() -> pd.DataFrame:
    """Digits (1,797 real 8×8 handwritten digit images, UCI via scikit-learn): which of five properties does the
    written digit have (even, prime, at least 5, closed loop, multiple of 3)? The labels are real — each follows
    from the digit the writer wrote — and correlated (an even digit is prime only if it is 2), so each image has 0
    to 4 labels (1: none; 6: even, at least 5, closed loop, multiple of 3). Two one-vs-rest models, 5-fold
    out-of-fold: logistic regression on all 64 pixels, and Gaussian naive Bayes on a coarse 4×4 image (each pixel
    the mean of a 2×2 block), a deliberately weaker model. ``pred_<label>`` is ``score_<label> >= 0.5``.
    """
    X, digit = load_digits(return_X_y=True)
    Y = np.column_stack([np.isin(digit, members) for members in DIGIT_PROPERTIES.values()]).astype(int)
    coarse = X.reshape(-1, 4, 2, 4, 2).mean(axis=(2, 4)).reshape(len(X), 16)
    folds = fold_ids(digit)  # stratified by the digit, so every fold holds every label combination
    models = {
        "logistic_ovr": (OneVsRestClassifier(make_pipeline(StandardScaler(),
                                                           LogisticRegression(C=0.05, max_iter=2000))), X),
        "naive_bayes_coarse": (OneVsRestClassifier(GaussianNB()), coarse),
    }
    frames = []
    for name, (model, features) in models.items():
        scores = np.zeros(Y.shape)
        for k in range(N_FOLDS):
            train, test = folds != k, folds == k
            scores[test] = model.fit(features[train], Y[train]).predict_proba(features[test])
        scores = np.round(scores, 6)
        frame = pd.DataFrame({"id": np.arange(1, len(X) + 1), "model": name, "fold": folds + 1})
        for j, label in enumerate(DIGIT_PROPERTIES):
            frame[f"true_{label}"] = Y[:, j]
        for j, label in enumerate(DIGIT_PROPERTIES):
            frame[f"pred_{label}"] = (scores[:, j] >= 0.5).astype(int)
        for j, label in enumerate(DIGIT_PROPERTIES):
            frame[f"score_{label}"] = scores[:, j]
        frames.append(frame)
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


#: Training-set sizes of the learning-curve sample: doubling, up to nearly a whole training split (455 of 569 rows).
TRAIN_SIZES = (20, 40, 80, 160, 320, 450)


def learning_curve_sample() -> pd.DataFrame:
    """Breast cancer learning curve: logistic regression and a depth-3 tree, each trained on 20, 40, …, 450 tumours
    drawn (stratified, seeded) from the training folds of 5-fold CV and scored on the held-out fold, so every row is
    an out-of-fold prediction of a model trained on ``train_size`` samples (ISO 4213 5.3; reference file 004)."""
    from sklearn.model_selection import train_test_split

    data = load_breast_cancer()
    X, y = data.data, data.target  # sklearn: 0 = malignant, 1 = benign
    names = np.array(["malignant", "benign"])
    folds = fold_ids(y)
    models = {
        "logistic": make_pipeline(StandardScaler(), LogisticRegression(C=0.5, max_iter=2000)),
        "tree": DecisionTreeClassifier(max_depth=3, random_state=SEED),
    }
    frames = []
    for name, model in models.items():
        for size in TRAIN_SIZES:
            p_malignant = np.zeros(len(y))
            for k in range(N_FOLDS):
                train, test = np.flatnonzero(folds != k), np.flatnonzero(folds == k)
                train, _ = train_test_split(train, train_size=size, stratify=y[train], random_state=SEED + k)
                p_malignant[test] = model.fit(X[train], y[train]).predict_proba(X[test])[:, 0]
            frames.append(pd.DataFrame({
                "id": [f"{i}@{size}" for i in range(1, len(y) + 1)], "model": name, "train_size": size,
                "fold": folds + 1, "y_true": names[y],
                "y_pred": np.where(p_malignant >= 0.5, "malignant", "benign"), "score": np.round(p_malignant, 6),
            }))
    return pd.concat(frames, ignore_index=True)


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


def churn_over_time_sample() -> pd.DataFrame:
    """Customer churn scored daily through 2024 by two models (one row per customer and model, a `date` column):
    in July a pricing change alters who churns, the signal both models learned weakens and their accuracy and ROC
    AUC drop visibly — the Over time page's change tests find it. Simulated (seeded): a latent churn propensity
    drives the truth; each model's score is that propensity seen through its own noise, and after 1 July 2024 half
    of the propensity is replaced by a cause the models never saw."""
    rng = np.random.default_rng(SEED)
    days = pd.date_range("2024-01-01", "2024-12-31", freq="D")
    n = 3_000
    date = np.sort(rng.choice(days.to_numpy(), size=n))
    after = date >= np.datetime64("2024-07-01")
    seen = rng.normal(size=n)                                   # what the models learned from
    unseen = rng.normal(size=n)                                 # the new cause of churn from July
    propensity = np.where(after, 0.5 * seen + 0.87 * unseen, seen)
    churned = rng.random(n) < 1 / (1 + np.exp(-(2.2 * propensity - 1.2)))
    tenure = np.clip(np.round(rng.gamma(2.0, 14.0, size=n) - 3 * seen), 1, 120).astype(int)
    plan = rng.choice(["basic", "plus", "premium"], size=n, p=[0.5, 0.35, 0.15])
    frames = []
    for name, noise in (("gradient_boosting", 0.45), ("logistic", 0.7)):
        logit = 2.2 * (seen + rng.normal(0, noise, size=n)) - 1.2
        score = np.round(1 / (1 + np.exp(-logit)), 4)
        frames.append(pd.DataFrame({
            "id": np.arange(1, n + 1), "model": name, "date": pd.DatetimeIndex(date).strftime("%Y-%m-%d"),
            "y_true": np.where(churned, "yes", "no"), "y_pred": np.where(score >= 0.5, "yes", "no"), "score": score,
            "tenure_months": tenure, "plan": plan}))
    return pd.concat(frames, ignore_index=True)


SAMPLES = {
    "breast_cancer_binary.csv": binary_sample,
    "wine_multiclass.csv": multiclass_sample,
    "diabetes_regression.csv": regression_sample,
    "monthly_forecasts.csv": forecast_sample,
    "breast_cancer_learning_curve.csv": learning_curve_sample,
    "breast_cancer_latency.csv": latency_sample,
    "breast_cancer_annotators.csv": annotator_sample,
    "breast_cancer_train_ids.csv": training_ids_sample,
    "digits_multilabel.csv": multilabel_sample,
    "iris_clustering.csv": clustering_sample,
    "churn_over_time.csv": churn_over_time_sample,
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
