"""One parameter vocabulary across the package, SciPy's: ``confidence_level``, ``n_resamples``, ``alternative``.

Read from the source (`ast`): every function of `assess`, `ui` and `views`, its parameters. A synonym of one of the
three names would split the vocabulary again (``resamples`` beside ``n_resamples`` did, in 30 functions).
"""

import ast

from tests.conftest import ROOT

#: A name and the synonyms it replaces.
VOCABULARY = {"confidence_level": ("confidence", "conf_level", "ci_level", "cl"),
              "n_resamples": ("resamples", "n_boot", "n_bootstrap", "bootstraps", "B"),
              "alternative": ("tail", "tails", "sided", "two_sided")}
SYNONYMS = {old: new for new, olds in VOCABULARY.items() for old in olds}


def synonyms_in(source: str, filename: str = "<string>") -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            a = node.args
            for arg in [*a.posonlyargs, *a.args, *a.kwonlyargs]:
                if arg.arg in SYNONYMS:
                    found.append(f"{filename}:{node.lineno} {getattr(node, 'name', 'lambda')}({arg.arg}) — "
                                 f"call it {SYNONYMS[arg.arg]}")
    return found


def test_the_check_finds_a_synonym():
    assert synonyms_in("def boot(x, *, resamples=1000, confidence_level=0.95):\n    pass\n") == [
        "<string>:1 boot(resamples) — call it n_resamples"]
    assert synonyms_in("def boot(x, *, n_resamples=1000, alternative='two-sided'):\n    pass\n") == []


def test_no_function_takes_a_synonym():
    files = [*sorted((ROOT / "assess").rglob("*.py")), *sorted((ROOT / "ui").glob("*.py")),
             *sorted((ROOT / "views").glob("*.py"))]
    assert len(files) > 100
    found = [hit for f in files for hit in synonyms_in(f.read_text(), str(f.relative_to(ROOT)))]
    assert found == []
