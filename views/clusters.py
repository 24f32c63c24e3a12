"""Clusters page (clustering files): which cluster holds which classes, how large the clusters are, how well each row
sits in its cluster, the features in two dimensions, and how far the clusterings agree with each other."""

import numpy as np
import streamlit as st

from assess.analyses.clusters import clusterings_agreement, model_clusters
from assess.core.data import Task
from assess.core.formatting import proportion
from assess.metrics.clustering import DRAWN_ROWS
from assess.present import charts
from ui.state import cached, md, require_assessment
from ui.widgets import all_charts_button, chart

st.title("Clusters")
assessment = require_assessment()
if assessment.task is not Task.CLUSTERING:
    st.info(f"The Clusters page shows clusterings; this file's task is {assessment.task.label} — see the Metrics "
            "page.")
    st.stop()

model = st.selectbox("Clustering", list(assessment.models),
                     help="Charts of one clustering; the agreement between all of them is at the bottom.")
view = cached(model_clusters, assessment, model)
figures: list = []

if view.table is not None:
    fig = charts.contingency_chart(table=view.table, classes=view.classes, clusters=view.clusters,
                                   title=f"Reference classes × clusters, {model}")
    figures.append(fig)
    chart(fig, "Contingency heatmap", key="contingency")
    st.caption("Each cell: rows of that class in that cluster, and their share of the cluster (the colour). Classes "
               "and clusters are ordered so each class faces the cluster matched with it (most rows in common, one "
               "to one); a pure cluster is one dark cell in its column.")
else:
    st.info("No reference classes (`y_true`) in this file: no contingency table.")

views = {m: cached(model_clusters, assessment, m) for m in assessment.models}
sizes = {m: dict(zip(v.all_clusters, v.sizes)) for m, v in views.items()}
fig = charts.cluster_sizes_chart(sizes=sizes, colors=charts.model_colors(assessment.models))
figures.append(fig)
chart(fig, "Cluster sizes", key="sizes")

if view.silhouettes is not None:
    fig = charts.silhouette_chart(silhouettes=view.silhouettes, labels=view.silhouette_labels,
                                  mean=view.silhouette_mean, title=f"Silhouette plot, {model}",
                                  subtitle=view.silhouette_note)
    figures.append(fig)
    chart(fig, "Silhouette plot", key="silhouette")
    st.caption("Each bar is one row: how much closer it is to its own cluster than to the nearest other (1 compact "
               "and separated, 0 on a border, below 0 closer to another cluster). The dashed line is the mean "
               "silhouette of the rows drawn.")
elif assessment.roles.features:
    st.info("No silhouette plot: it needs numeric features without gaps and between 2 and n − 1 clusters.")
else:
    st.info("No feature columns `x_*` in this file: no silhouette plot or projection.")

if view.projection is not None:
    colour_by = st.radio("Colour the points by", ["cluster", "reference class"], horizontal=True,
                         disabled=view.projection_classes is None)
    groups = view.projection_classes if colour_by == "reference class" and view.projection_classes else \
        view.projection_clusters
    fig = charts.projection_chart(points=view.projection, groups=groups, explained=view.explained,
                                  legend_title="Class" if groups is view.projection_classes else "Cluster",
                                  title=f"Features in two dimensions (PCA), {model}",
                                  subtitle=f"a seeded sample of {DRAWN_ROWS:,} rows" if len(groups) >= DRAWN_ROWS
                                  else None)
    figures.append(fig)
    chart(fig, "Projection", key="projection")
    st.caption("The rows on the first two principal components of the features x_* (scikit-learn's PCA): clusters "
               "that overlap here may still be apart in the other dimensions.")

if len(assessment.models) > 1:
    names, ari, ri = cached(clusterings_agreement, assessment)
    fig = charts.agreement_chart(models=names, matrix=ari)
    figures.append(fig)
    chart(fig, "Agreement between clusterings", key="agreement")
    defined = ari[np.triu_indices(len(names), 1)]
    if np.isfinite(defined).any():
        st.caption(md(f"Adjusted Rand index between each two clusterings of the same rows (paired by id); their "
                      f"Rand indices range from {proportion(np.nanmin(ri[np.triu_indices(len(names), 1)]), 2)} to "
                      f"{proportion(np.nanmax(ri[np.triu_indices(len(names), 1)]), 2)}."))

all_charts_button(figures, "clusters.pdf", key="clusters")
