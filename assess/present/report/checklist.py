"""The ISO/IEC TS 4213:2022 5.3 control checklist: what the file lets the app check itself, and what only the user
can say.

Each item of 5.3.2–5.3.14 (reference ``000_59498108d050ac39.txt``, clause 5.3) has a short question. For four items
the data answer part of it: 5.3.5 (the same test samples for every model — ids, rows), 5.3.6 (cross-validation
folds present and the same for every model), 5.3.7 (no sample id repeated within a model, a symptom of leakage
through duplicated rows) and 5.3.13 (the baselines were computed). The app's finding is stated as a fact with its
numbers; it never answers the user's part of the question. The user's answers come from the Report page or the
settings file (``checklist``: ``{item key: text}``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from assess.inputs.assessment import Assessment
from assess.inputs.columns import label_codes


@dataclass(frozen=True)
class ChecklistItem:
    """One control criterion: ``key`` (settings-file name), ISO ``clause``, ``title``, the ``question`` asked."""

    key: str
    clause: str
    title: str
    question: str


ITEMS: tuple[ChecklistItem, ...] = (
    ChecklistItem("representativeness", "5.3.2", "Data representativeness and bias",
                  "Is the test data representative of the intended use? Known sampling or label biases?"),
    ChecklistItem("preprocessing", "5.3.3", "Preprocessing",
                  "Which preprocessing was applied, and was it the same for every model?"),
    ChecklistItem("training_data", "5.3.4", "Training data",
                  "Which training and validation data built each model?"),
    ChecklistItem("test_data", "5.3.5", "Test and validation data",
                  "Were all models tested on the same data, with no sample overlapping the training data?"),
    ChecklistItem("cross_validation", "5.3.6", "Cross-validation",
                  "Was cross-validation used, and the same technique for every model?"),
    ChecklistItem("leakage", "5.3.7", "Limiting information leakage",
                  "Could information unavailable in production (e.g. the same subject in training and test) reach "
                  "the models?"),
    ChecklistItem("channel_effects", "5.3.8", "Limiting channel effects",
                  "Known channel effects (how the data were collected) in training or test data?"),
    ChecklistItem("ground_truth", "5.3.9", "Ground truth",
                  "How was the ground truth established; how much do annotators agree?"),
    ChecklistItem("hyperparameters", "5.3.10", "Algorithms, hyperparameters and parameters",
                  "Which algorithms and hyperparameter values does each model use?"),
    ChecklistItem("environment", "5.3.11", "Evaluation environment",
                  "Hardware, software and versions the predictions were made with?"),
    ChecklistItem("acceleration", "5.3.12", "Acceleration",
                  "Was any acceleration (quantisation, pruning, special hardware) used that changes the outputs?"),
    ChecklistItem("baselines", "5.3.13", "Appropriate baselines",
                  "Which baselines is the performance compared against?"),
    ChecklistItem("context", "5.3.14", "Performance context",
                  "What is the application context, and what performance does it need?"),
)
KEYS = tuple(item.key for item in ITEMS)


@dataclass(frozen=True)
class ChecklistRow:
    item: ChecklistItem
    found: str       # what the app checked in the data ("" when it cannot check this item)
    answer: str      # what the user wrote ("" when nothing)


#: Which checklist item each clause of the controls (:func:`assess.analyses.controls.run_controls`) informs.
CONTROL_ITEMS = {"5.3.2": "representativeness", "5.3.5": "test_data", "5.3.7": "leakage", "5.3.9": "ground_truth"}


def checklist(assessment: Assessment, models, answers: Mapping[str, str] | None = None, *,
              baselines_computed: bool = True, controls=()) -> list[ChecklistRow]:
    """The 5.3 rows for ``models`` of ``assessment``, with the app's findings and the user's ``answers``.

    ``controls`` are :class:`assess.analyses.controls.ControlOutcome` lines (train/test overlap, duplicated feature rows,
    annotator agreement, distribution shift); each one the app could check is added to its item's findings, in the
    controls' own words ("checked by the app: …"), so the report and the Controls page say the same thing."""
    answers = answers or {}
    found = _findings(assessment, list(models), baselines_computed=baselines_computed)
    for outcome in controls:
        item = CONTROL_ITEMS.get(outcome.clause)
        if item is None or outcome.checked.startswith("not checked"):
            continue
        text = outcome.checked[0].upper() + outcome.checked[1:]
        found[item] = " ".join(x for x in (found.get(item, ""), f"{outcome.title}: {text}.") if x)
    return [ChecklistRow(item, found.get(item.key, ""), str(answers.get(item.key, "") or "").strip())
            for item in ITEMS]


def _findings(assessment: Assessment, models: list[str], *, baselines_computed: bool) -> dict[str, str]:
    frame, roles = assessment.frame, assessment.roles
    rows = {m: assessment.model_rows[m] for m in models}
    out: dict[str, str] = {}
    sizes = {m: len(r) for m, r in rows.items()}
    every = "the model" if len(models) == 1 else f"all {len(models):,} models"
    if roles.id:
        # the ids as encoded once and kept (`Assessment.predictions`): integers stay integers, never an object each
        ids = {m: assessment.predictions(m).ids for m in models}
        first_ids = ids[models[0]]
        # the usual long file lists every model's samples in one order: equal arrays, so equal sets, no hashing
        ordered = all(a.shape == first_ids.shape and np.array_equal(a, first_ids) for a in ids.values())
        uniques = {m: pd.unique(a) for m, a in ([(models[0], first_ids)] if ordered else ids.items())}
        distinct = {m: len(uniques[models[0] if ordered else m]) for m in models}
        reference = pd.Index(uniques[models[0]])
        # equal sets: as many distinct ids as the first model, each found among the first model's (a hash lookup)
        same = ordered or all(len(u) == len(reference) and bool(np.all(reference.get_indexer(u) >= 0))
                              for u in uniques.values())
        out["test_data"] = (f"Checked: {every} {'was' if len(models) == 1 else 'were'} scored on the same "
                            f"{distinct[models[0]]:,} sample ids." if same else
                            "Checked: the models were scored on different sample ids ("
                            + ", ".join(f"{m}: {n:,}" for m, n in distinct.items())
                            + "), so they are compared as independent samples.")
        # repeated cross-validation scores each sample once per repeat: a duplicate repeats its (id, repeat)
        per = "model and repeat" if roles.repeat else "model"
        rows_per_id = ({m: len(pd.MultiIndex.from_arrays([ids[m], assessment.predictions(m).repeat]).unique())
                        for m in models} if roles.repeat else distinct)
        repeated = {m: int(len(r) - rows_per_id[m]) for m, r in rows.items()}
        out["leakage"] = (f"Checked: every sample id occurs once per {per} (no duplicated test rows)."
                          if not any(repeated.values()) else
                          f"Checked: some sample ids repeat within a {per} ("
                          + ", ".join(f"{m}: {n:,} repeats" for m, n in repeated.items() if n)
                          + "); duplicated rows can leak between training and test.")
    else:
        out["test_data"] = (f"Checked: {every} {'has' if len(models) == 1 else 'have'} "
                            f"{next(iter(sizes.values())):,} rows; the file "
                            "has no sample-id column, so the rows are paired by position."
                            if len(set(sizes.values())) == 1 else
                            "Checked: the models have different numbers of rows ("
                            + ", ".join(f"{m}: {n:,}" for m, n in sizes.items()) + ") and no sample-id column.")
    if roles.fold and roles.repeat:
        # repeated cross-validation: fold labels may recur in every repeat, so a fold is a (repeat, fold)
        blocks = pd.DataFrame({"repeat": label_codes(frame[roles.repeat])[0],
                               "fold": label_codes(frame[roles.fold])[0]})
        designs = {}
        for m, r in rows.items():
            per_repeat = blocks.iloc[r].drop_duplicates().groupby("repeat")["fold"].nunique()
            designs[m] = f"{len(per_repeat):,} repeats ({roles.repeat}) of {per_repeat.max():,} folds ({roles.fold})"
        out["cross_validation"] = (f"Checked: repeated cross-validation, {next(iter(designs.values()))} for every "
                                   "model." if len(set(designs.values())) == 1 else
                                   "Checked: the models have different cross-validation designs ("
                                   + ", ".join(f"{m}: {d}" for m, d in designs.items()) + ").")
    elif roles.fold:
        folds = label_codes(frame[roles.fold])[0]   # a code per fold label (-1, a missing fold, counts as one)
        per_model = {m: len(np.unique(folds[r])) for m, r in rows.items()}
        counts = sorted(set(per_model.values()))
        out["cross_validation"] = (f"Checked: a fold column ({roles.fold}) with {counts[0]:,} folds for every model."
                                   if len(counts) == 1 else
                                   "Checked: the models have different numbers of folds ("
                                   + ", ".join(f"{m}: {n:,}" for m, n in per_model.items()) + ").")
    else:
        out["cross_validation"] = "Checked: the file has no fold column (a single test set, or folds not recorded)."
    if baselines_computed and assessment.task.value in ("binary", "multiclass", "multilabel"):
        out["baselines"] = ("Computed: the majority-class, stratified and uniform random baselines of every metric "
                            "(ISO 5.3.13), in the Metrics section.")
    elif baselines_computed and assessment.task.value in ("regression", "forecast"):
        out["baselines"] = ("Computed: the constant mean and median predictors"
                            + (" and the naive, seasonal naive and drift forecasts" if assessment.task.value ==
                               "forecast" else "") + ", in the Metrics section.")
    missing = int(np.sum(frame[roles.y_true].isna())) if roles.y_true and roles.y_true in frame else 0
    if roles.y_true:
        out["ground_truth"] = (f"Checked: ground truth from column {roles.y_true}"
                               + (f"; {missing:,} rows have none." if missing else ", present on every row."))
    return out
