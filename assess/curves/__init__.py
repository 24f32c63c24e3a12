"""Every threshold curve of a binary scorer from one sort (ISO/IEC TS 4213 3.2.13–3.2.16, 6.3.6–6.3.9).

Three layers, each reading only the one below:

- :mod:`.counts` — the primitive: :func:`threshold_counts` sorts once and returns cumulative (weighted) true and false
  positive counts at every distinct score, used as a threshold with the rule *predict positive when score >=
  threshold*; its fast paths; :func:`rank_scores` for many weightings of one sort; one-vs-rest and micro counts.
- :mod:`.from_counts` — ROC AUC, average precision, PR AUC, KS and the ROC, precision–recall, gain, lift and KS
  curves, the confusion matrix and operating point at a threshold: vectorised lines over the counts, no new sort.
- :mod:`.calibration` — the reliability curve with ECE and MCE.
- :mod:`.bands` — pointwise interval bands: a class-stratified bootstrap over the score × class cells for the ROC,
  precision–recall, gain and lift curves; Wilson per reliability bin; order-statistic and t intervals of the
  regression error summaries.

Elsewhere: metric-versus-threshold arrays of every registry metric are
:func:`assess.metrics.threshold.metric_vs_threshold`; DeLong placements live with the intervals
(:func:`assess.intervals.delong_placements`); display thinning with the charts
(:func:`assess.present.charts.thinning.thin_curve`).
"""

from assess.curves.bands import (Band, CurveBands, calibration_band, curve_bands, decile_errors, error_trend,
                                 wilson_interval)
from assess.curves.calibration import CalibrationResult, calibration_curve
from assess.curves.counts import (ScoreRanking, ThresholdCounts, micro_threshold_counts, ovr_threshold_counts,
                                  rank_scores, threshold_counts, trapezoid_auc)
from assess.curves.from_counts import (Confusion, CurveResult, OperatingPoint, average_precision,
                                       confusion_at_threshold, gain_curve, ks_curve, ks_statistic, lift_curve,
                                       operating_point, pr_auc, pr_curve, roc_auc, roc_curve)

__all__ = ["ThresholdCounts", "ScoreRanking", "threshold_counts", "rank_scores", "ovr_threshold_counts",
           "micro_threshold_counts", "trapezoid_auc", "roc_auc", "average_precision", "pr_auc", "ks_statistic",
           "CurveResult", "roc_curve", "pr_curve", "gain_curve", "lift_curve", "ks_curve", "Confusion",
           "confusion_at_threshold", "OperatingPoint", "operating_point", "CalibrationResult", "calibration_curve",
           "Band", "CurveBands", "curve_bands", "calibration_band", "wilson_interval", "error_trend", "decile_errors"]
