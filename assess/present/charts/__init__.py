"""Charts: pure functions from computed results to `plotly.graph_objects.Figure`; the only plotly importer in assess.

Every function takes keyword arguments only, never recomputes a metric (results come from `assess.curves` and
`assess.metrics`), draws curves from at most ~2,000 thinned points while legends quote the full-data areas passed
in, and builds the figure with the "assess" template (`assess.present.charts.style`). Files: `assess.present.export`.
"""

from assess.present.charts.clustering import (agreement_chart, cluster_sizes_chart, contingency_chart, projection_chart,
                                      silhouette_chart)
from assess.present.charts.comparison import critical_difference_chart, fold_box_chart, difference_chart
from assess.present.charts.confusion import (confusion_matrix_chart, most_confused_pairs,
                                     multilabel_confusion_chart, normalized_matrix)
from assess.present.charts.curve_charts import (CurveBand, calibration_chart, drawn_indices, fold_curves_chart,
                                                gain_chart, ks_chart, lift_chart, macro_overlay_chart,
                                                metric_threshold_chart, ovr_chart, points_per_curve,
                                                pr_chart, roc_chart, score_distribution_chart,
                                        with_threshold_line)
from assess.present.charts.forecast import (error_over_time_chart, forecast_chart, loss_difference_chart,
                                    metric_by_horizon_chart, metric_by_series_chart)
from assess.present.charts.multilabel import cardinality_chart, cooccurrence_chart, per_label_curves_chart
from assess.present.charts.regression import (error_by_decile_chart, error_distribution_chart, predicted_actual_chart,
                                      residual_chart)
from assess.present.charts.style import OKABE_ITO, TEMPLATE, model_colors

__all__ = [
    "agreement_chart", "cluster_sizes_chart", "contingency_chart", "projection_chart", "silhouette_chart",
    "critical_difference_chart", "fold_box_chart", "difference_chart",
    "OKABE_ITO", "TEMPLATE", "model_colors",
    "confusion_matrix_chart", "most_confused_pairs", "multilabel_confusion_chart",
    "normalized_matrix",
    "CurveBand", "calibration_chart", "drawn_indices", "fold_curves_chart", "gain_chart", "ks_chart", "lift_chart",
    "macro_overlay_chart", "metric_threshold_chart", "ovr_chart", "points_per_curve", "pr_chart", "roc_chart",
    "score_distribution_chart",
    "with_threshold_line",
    "error_by_decile_chart", "error_distribution_chart", "predicted_actual_chart", "residual_chart",
    "error_over_time_chart", "forecast_chart", "loss_difference_chart", "metric_by_horizon_chart",
    "metric_by_series_chart",
    "cardinality_chart", "cooccurrence_chart", "per_label_curves_chart",
]
