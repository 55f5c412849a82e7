"""The code of every glossary example is the same in English, Spanish and Arabic.

A reader who switches language must find the same program with the same output; only the
comments may differ (Spanish translates them, Arabic keeps them in English). Translations
drifted before (renamed variables, a dropped block), and each difference was a second,
untested program: this holds them together.
"""

from __future__ import annotations

import doctest
import io
import tokenize
import tomllib

import pytest

from .test_glossary_examples import FENCE, GLOSSARIES

TRANSLATIONS = ("es", "ar")


def without_comments(source: str) -> str:
    """Python source with its comments cut and the lines that held only a comment dropped."""
    lines = source.splitlines()
    try:
        comments = [
            token.start
            for token in tokenize.generate_tokens(io.StringIO(source).readline)
            if token.type == tokenize.COMMENT
        ]
    except (tokenize.TokenError, IndentationError, SyntaxError):  # not Python: compared whole
        return "\n".join(line.rstrip() for line in lines)
    for row, column in comments:
        lines[row - 1] = lines[row - 1][:column]
    commented = {row for row, _column in comments}
    return "\n".join(
        line.rstrip() for number, line in enumerate(lines, start=1) if line.strip() or number not in commented
    )


def program(info: str, code: str) -> tuple[str, list[tuple[str, str]]]:
    """What a block runs and shows: its fence, then each statement (comments cut) with its output."""
    if any(line.startswith(">>>") for line in code.splitlines()):
        examples = doctest.DocTestParser().get_examples(code)
        steps = [(without_comments(example.source), example.want) for example in examples]
        return info, [step for step in steps if step != ("", "")]  # a comment alone at a prompt
    if info.split(" ", 1)[0] == "python":
        return info, [(without_comments(code), "")]
    return info, [(code, "")]


def programs(language: str) -> dict[str, list[tuple[str, list[tuple[str, str]]]]]:
    """Each entry's code blocks in order; MyST directives (```` ```{note} ````) hold prose, not code."""
    data = tomllib.loads((GLOSSARIES / f"{language}.toml").read_text(encoding="utf-8"))
    return {
        term["id"]: [
            program(match["info"].strip(), match["code"])
            for match in FENCE.finditer(term["body"])
            if not match["info"].strip().startswith("{")
        ]
        for term in data["term"]
    }


@pytest.mark.parametrize("language", TRANSLATIONS)
def test_every_translated_example_is_the_english_program(language):
    english, translated = programs("en"), programs(language)
    assert list(translated) == list(english)
    differing = [entry for entry in english if translated[entry] != english[entry]]
    assert differing == [], f"{language}.toml: code blocks differ from en.toml beyond comments in {differing}"
    assert sum(len(blocks) for blocks in english.values()) > 250  # the comparison saw the examples


def test_comments_are_all_that_the_comparison_ignores():
    """Translated comments compare equal; a renamed variable, a changed output or a lost block does not."""
    english = '>>> x = [1, 2]  # two items\n>>> len(x)  # "count"\n2\n>>> # the end\n'
    spanish = ">>> x = [1, 2]  # dos elementos\n>>> len(x)  # «cuenta»\n2\n>>> # fin\n"
    assert program("python", english) == program("python", spanish)
    assert program("python", english) != program("python", english.replace("x", "items"))
    assert program("python", english) != program("python", english.replace("\n2\n", "\n3\n"))
    assert program("python", 'print("#")  # shown\n') == program("python", 'print("#")\n')
    assert program("python", 'print("#")\n') != program("python", 'print("")\n')
    script = "import torch\n\n# set up\nmodel = torch.nn.Linear(2, 2)  # tiny\n"
    assert program("python", script) == program("python", "import torch\n\n# preparar\nmodel = torch.nn.Linear(2, 2)\n")
    assert program("python requires=torch", script) != program("python", script)
