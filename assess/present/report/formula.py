"""The registry's LaTeX formulas as readable HTML, without MathJax (the report makes no network request and carries
no JavaScript): fractions become ``(a) / (b)``, sub- and superscripts ``<sub>``/``<sup>``, commands their symbols.

Not a TeX engine: it covers the commands the metric registry uses (`tests/present/test_report.py` walks every formula and
checks that no backslash survives); the LaTeX source itself goes into the report's JSON.
"""

from __future__ import annotations

import html
import re

SYMBOLS = {
    "alpha": "α", "beta": "β", "kappa": "κ", "pi": "π", "le": "≤", "ge": "≥", "in": "∈", "infty": "∞",
    "cap": "∩", "cup": "∪", "triangle": "△", "sum": "Σ", "max": "max", "min": "min", "ln": "ln", "cdot": "·",
    "times": "×", "neq": "≠", "log": "log", "mid": "|", "quad": " ", "lvert": "|", "rvert": "|",
}
ACCENTS = {"hat": "\u0302", "bar": "\u0304"}


def _group(text: str, i: int) -> tuple[str, int]:
    """The argument at ``text[i]``: a ``{…}`` group (without braces) or one character; and the index after it."""
    while i < len(text) and text[i] == " ":
        i += 1
    if i >= len(text):
        return "", i
    if text[i] != "{":
        if text[i] == "\\":  # a command as the argument (\hat\beta)
            m = re.match(r"\\[A-Za-z]+", text[i:])
            if m:
                return m.group(0), i + len(m.group(0))
        return text[i], i + 1
    depth = 0
    for j in range(i, len(text)):
        depth += {"{": 1, "}": -1}.get(text[j], 0)
        if depth == 0:
            return text[i + 1:j], j + 1
    return text[i + 1:], len(text)


def _convert(tex: str) -> str:
    out, i = [], 0
    while i < len(tex):
        ch = tex[i]
        if ch == "\\":
            m = re.match(r"\\([A-Za-z]+|.)", tex[i:])
            name = m.group(1)
            i += len(m.group(0))
            if name in ("frac", "tfrac", "dfrac"):
                num, i = _group(tex, i)
                den, i = _group(tex, i)
                num, den = _convert(num), _convert(den)
                wrap = lambda s: s if len(re.sub(r"<[^>]+>", "", s)) <= 2 else f"({s})"  # noqa: E731
                out.append(f"{wrap(num)} / {wrap(den)}")
            elif name == "sqrt":
                arg, i = _group(tex, i)
                out.append(f"√({_convert(arg)})")
            elif name in ACCENTS:
                arg, i = _group(tex, i)
                out.append("".join(c + ACCENTS[name] if c.isalpha() else c for c in _convert(arg)))
            elif name in ("mathrm", "text", "operatorname", "mathit", "mathbf"):
                arg, i = _group(tex, i)
                out.append(_convert(arg))
            elif name in ("left", "right", ",", ";", "!", " "):
                out.append(" " if name in (",", ";", " ") else "")
            elif name in ("{", "}", "|", "_", "%", "#"):
                out.append(name)
            else:
                out.append(SYMBOLS.get(name, name))
        elif ch in "_^":
            arg, i = _group(tex, i + 1)
            tag = "sub" if ch == "_" else "sup"
            out.append(f"<{tag}>{_convert(arg)}</{tag}>")
        elif ch in "{}":
            i += 1
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def formula_html(latex: str) -> str:
    """HTML (safe to insert: the source is escaped first) of a registry formula.

    >>> formula_html(r"r = \\frac{T_P}{T_P + F_N}")
    'r = T<sub>P</sub> / (T<sub>P</sub> + F<sub>N</sub>)'
    """
    escaped = html.escape(latex or "", quote=False)
    return re.sub(r"\s+", " ", _convert(escaped)).strip()
