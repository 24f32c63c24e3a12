"""CBPE against NannyML (issue 35 §3's oracle): the same labelled (reference) and unlabelled (analysis) rows estimated
by `assess.analyses.estimation.estimate` and by NannyML's ``CBPE``, beside the metric the hidden labels give.

    .venv/bin/python bench/bench_cbpe_nannyml.py

NannyML runs in its own virtualenv, bench/.nannyml-venv (git-ignored; it pins an older plotly than the app's), made
on first use (``python -m venv`` and ``pip install nannyml==0.13.1 statsmodels``);
bench/peer_nannyml.py is what it runs. Scenarios (seeded): calibrated binary scores, miscalibrated binary scores
(P(y=1 | s) = s^(1/3), so both tools must recalibrate), and calibrated three-class probabilities. Differences in
the point estimates come from the calibration each tool fits (NannyML: isotonic whenever its check says so; ours:
module docstring); its bounds are ±3 sampling errors of the chunk, ours a 95 % prediction interval.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn import metrics as skm

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from assess.analyses.estimation import estimate  # noqa: E402

PEER = ROOT / "bench" / ".nannyml-venv" / "bin" / "python"
N_REF, N_ANA = 5_000, 2_000


def scenarios(rng):
    truth = rng.beta(2, 2, N_REF + N_ANA)
    y = (rng.random(truth.size) < truth).astype(int)
    yield "binary, calibrated", "binary", y, truth
    yield "binary, miscalibrated (s = p³)", "binary", y, truth ** 3
    p = rng.dirichlet([2, 2, 2], N_REF + N_ANA)
    yield "3 classes, calibrated", "multiclass", (rng.random(len(p))[:, None] > np.cumsum(p, axis=1)).sum(axis=1), p


def realised(task, y, p, yp):
    if task == "binary":
        return dict(accuracy=skm.accuracy_score(y, yp), precision=skm.precision_score(y, yp),
                    recall=skm.recall_score(y, yp), f1=skm.f1_score(y, yp), roc_auc=skm.roc_auc_score(y, p))
    return dict(accuracy=skm.accuracy_score(y, yp), precision=skm.precision_score(y, yp, average="macro"),
                recall=skm.recall_score(y, yp, average="macro"), f1=skm.f1_score(y, yp, average="macro"),
                roc_auc=skm.roc_auc_score(y, p, multi_class="ovr"))


def nannyml(task, y, p, yp, tmp: Path) -> dict:
    frame = pd.DataFrame({"y": y, "yp": yp})
    if task == "binary":
        frame["p"] = p
    else:
        for c in range(p.shape[1]):
            frame[f"p_{c}"] = p[:, c]
    frame.iloc[:N_REF].to_csv(tmp / "ref.csv", index=False)
    frame.iloc[N_REF:].to_csv(tmp / "ana.csv", index=False)
    subprocess.run([str(PEER), str(ROOT / "bench" / "peer_nannyml.py"), str(tmp / "ref.csv"), str(tmp / "ana.csv"),
                    task, str(tmp / "out.json")], check=True)
    return json.loads((tmp / "out.json").read_text())


def main() -> None:
    if not PEER.exists():    # made on first use, as bench_peers.py makes Evidently's
        print(f"making the NannyML virtualenv {PEER.parent.parent}; this takes a few minutes", flush=True)
        subprocess.run([sys.executable, "-m", "venv", "--clear", str(PEER.parent.parent)], check=True)
        subprocess.run([str(PEER), "-m", "pip", "install", "-q", "nannyml==0.13.1", "statsmodels"], check=True,
                       timeout=1800)
    rng = np.random.default_rng(35)
    keys = dict(binary=("accuracy", "precision", "recall", "f1", "roc_auc"),
                multiclass=("accuracy", "precision_macro", "recall_macro", "f1_macro", "roc_auc_ovr"))
    with tempfile.TemporaryDirectory() as tmp:
        for name, task, y, p in scenarios(rng):
            yp = (p >= 0.5).astype(int) if task == "binary" else p.argmax(axis=1)
            classes = ("0", "1") if task == "binary" else ("0", "1", "2")
            ours = estimate(y[:N_REF], p[:N_REF], p[N_REF:], classes=classes, predicted=yp[N_REF:], n_resamples=500)
            theirs = nannyml(task, y, p, yp, Path(tmp))
            real = realised(task, y[N_REF:], p[N_REF:], yp[N_REF:])
            print(f"\n{name} — ours: {ours.calibration}; {N_REF:,} labelled, {N_ANA:,} unlabelled rows")
            print(f"  {'metric':<16}{'realised':>9}{'assess':>9}  {'interval':<15}{'NannyML':>9}  ±3 SE")
            for key, short in zip(keys[task], ("accuracy", "precision", "recall", "f1", "roc_auc")):
                lo, hi = ours.intervals[key]
                t = theirs[short]
                print(f"  {key:<16}{real[short]:>9.4f}{ours.values[key]:>9.4f}  {lo:.3f}–{hi:.3f}    "
                      f"{t['value']:>9.4f}  {t['low']:.3f}–{t['high']:.3f}")


if __name__ == "__main__":
    main()
