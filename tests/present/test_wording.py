"""Sentences and formats over awkward class and model names (issue 11): a positive class called 1, True or yes, a
two-word class and a long one; model names with spaces. Sentences must read as English, never "1 in 3 1 cases"."""

import re

import numpy as np
import pytest
from sklearn.metrics import precision_score, recall_score, roc_auc_score

from assess.core.data import Predictions, Task
from assess.core.formatting import class_phrase
from assess.metrics import evaluate
from assess.present.summary import headline_sentences

LONG = "very long class name that goes on and on past any sensible width"
CLASSES = ["1", "True", "yes", LONG, "two words"]
MODELS = ["Random forest", "m_1"]


def report(positive: str, model: str, seed: int = 0):
    rng = np.random.default_rng(seed)
    y = (rng.random(200) < 0.35).astype(np.int8)
    score = np.clip(0.3 * y + rng.random(200) * 0.7, 0, 1)
    pred = (score >= 0.5).astype(np.int8)
    p = Predictions(Task.BINARY, ("other", positive), y, pred, scores=score, model=model)
    return evaluate(p, ["recall", "precision", "roc_auc"]), y, pred, score


@pytest.mark.parametrize("positive", CLASSES)
@pytest.mark.parametrize("model", MODELS)
def test_binary_sentences_read_with_any_class_and_model_name(positive, model):
    rep, y, pred, score = report(positive, model)
    sentences = headline_sentences({model: rep}, positive=positive)
    assert len(sentences) == 3
    text = " ".join(sentences)
    phrase = class_phrase(positive, role="positive")
    # the numbers are scikit-learn's (independent oracle), the words name the class once per mention
    assert f"recall is {recall_score(y, pred):.3f}" in sentences[0]
    assert f"precision {precision_score(y, pred):.3f}" in sentences[1]
    assert f"{roc_auc_score(y, score):.1%} of the time" in sentences[2]
    assert f"{phrase} cases" in sentences[0] and f"flags a case as {phrase}," in sentences[1]
    assert f"Given one {phrase} case and one other case at random" in sentences[2]
    assert f"Model {model}'s recall" in sentences[0]            # normal type: no code span around the model
    assert "`" not in text and "None" not in text
    assert not re.search(r"\b\d+ in \d+ \d", text)              # never "about 1 in 3 1 cases"
    assert LONG not in text                                      # a long class is cut inside a sentence


def test_mcnemar_says_one_more_case_in_the_singular():
    from assess.stats.counts import mcnemar

    a = np.array([True] * 50 + [True] * 3 + [False] * 2 + [False] * 10)   # A right 3 times where B is wrong, B 2
    b = np.array([True] * 50 + [False] * 3 + [True] * 2 + [False] * 10)
    sentence = mcnemar(a, b, names=("Random forest", "two words")).sentence
    assert sentence.startswith("Random forest is right on 1 more case than two words out of 65; ")


def test_a_class_without_letters_is_named_by_its_role():
    """A positive class named "." (or "-", "0.5") reads "positive (.)": never "9 in 10 . cases"."""
    from assess.core.formatting import class_phrase
    assert class_phrase(".", role="positive") == "positive (.)"
    assert class_phrase("-", role="positive") == "positive (-)"
    assert class_phrase("0.5") == "class 0.5"
    assert class_phrase("été") == "été"
