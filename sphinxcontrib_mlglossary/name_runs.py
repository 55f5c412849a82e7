"""Whether a capitalised mention is a piece of a longer proper name.

Documentation names its products, classes and screens in Title Case: "Cross Encoder",
"Fully Sharded Data Parallelism", "the Comet Hyperparameters tab". A glossary name
found inside such a run is a piece of another name, not the term, unless the glossary
knows the whole run (then the longest match already covers it). The run is read from
the words written next to the mention, joined to it by spaces only: punctuation ends
a name. A sentence's first word is capitalised by grammar, not by naming, so a function
word there ("The", "Use", "Cada") starts no run. Scripts without capitals (Arabic) never
form a run, and a mention written all in lower case is never a piece of a name (one with a
capitalised word is: "Triton inference Server" names the product however it is cased).
"""

from __future__ import annotations

import re

#: the word written right before a mention, joined to it by spaces
_BEFORE = re.compile(r"([^\W_][\w'’-]*)\s+$")
#: the word written right after a mention, joined to it by spaces
_AFTER = re.compile(r"\s+([^\W_][\w'’-]*)")
#: what may come before a sentence's first word: nothing, or the end of a sentence,
#: a colon, then opening quotes and brackets
_SENTENCE_START = re.compile(r"(?:^|[.!?:;]\s)[\s\"'“‘(\[¿¡«]*$")


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


#: words that start sentences without naming anything, per language (lower case)
_FUNCTION_WORDS = {
    "en": _words(
        "a an the this that these those each every all any some our your their its my his her both many most "
        "few several no other such with without for in on at by from to of as if when while once after before "
        "unlike like and or but so then because how why what which where use using see try train compare "
        "here there we you they it"
    ),
    "es": _words(
        "el la los las un una unos unas este esta estos estas ese esa esos esas cada todo toda todos todas "
        "nuestro nuestra nuestros su sus tu tus con sin para en por de del al como si cuando mientras tras "
        "antes después y o pero use usa usar vea entrene compare aquí allí"
    ),
}


def _capitalised(word: str) -> bool:
    return word[:1].isupper()


def _titled(word: str) -> bool:
    """A word in Title Case ("Encoder", "PyTorch"), not an acronym ("LLM", "FLOPs")."""
    return word[:1].isupper() and word[1:2].islower()


def _starts_sentence(before_word: str) -> bool:
    return _SENTENCE_START.search(before_word) is not None


def part_of_longer_name(text: str, start: int, end: int, language: str) -> bool:
    """Whether ``text[start:end]``, a glossary name found in ``text``, is a piece of a longer name."""
    if not any(_capitalised(word) for word in text[start:end].split()):
        return False
    before = _BEFORE.search(text, 0, start)
    if before is not None and _capitalised(before.group(1)):
        word = before.group(1)
        initial = _starts_sentence(text[: before.start(1)])
        if not (initial and word.lower() in _FUNCTION_WORDS.get(language, frozenset())):
            return True
    after = _AFTER.match(text, end)
    return after is not None and _titled(after.group(1))
