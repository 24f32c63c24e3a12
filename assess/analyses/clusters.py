"""What the Clusters page draws, per assessment: one clustering's view, and how far the clusterings agree."""

from __future__ import annotations

import numpy as np

from assess.inputs.assessment import Assessment
from assess.metrics.clustering import ClusterView, cluster_view, pairwise_agreement


def model_clusters(assessment: Assessment, model: str) -> ClusterView:
    """The contingency table, sizes, silhouettes and projection of ``model``'s clustering (`cluster_view`)."""
    return cluster_view(assessment.predictions(model))


def clusterings_agreement(assessment: Assessment) -> tuple[tuple[str, ...], np.ndarray, np.ndarray]:
    """The models, and the adjusted Rand and Rand indices between each two clusterings (`pairwise_agreement`)."""
    return pairwise_agreement([assessment.predictions(m) for m in assessment.models])
