"""Which known names a writer plausibly meant by a name that matches nothing.

A "did you mean" that names an unrelated term (``chunking`` -> *pruning*, ``tool
calling`` -> *pooling*) sends the writer the wrong way: character similarity alone
finds short names everywhere. A name is suggested only when it is

- **a close spelling of the whole name**: at most one edit per five characters of the
  longer name, three at most, counting a swap of two neighbouring letters as one edit
  (``atention mask``, ``tokeniser``, ``fine tunning``), case, hyphens and spacing
  aside. Names of four characters or less are abbreviations, where one other letter is
  usually another term (``GNN`` is not ``RNN``): there only a swap, a letter typed twice
  or dropped, or a neighbouring key on the keyboard counts (``MLN`` -> ``MLM``);
- or **a shared stem**: one name's words, singular and with the small words (``of``,
  ``de``) left out, are all among the other's, and a shared word says something on its
  own (``rotary embeddings`` -> *embedding*, ``mask`` -> *attention mask*), not a word
  every other name has (``state space model`` is not *teacher model*).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from .inflection import PARTICLES
from .model import fold

#: words too common in names to say alone what a term is about
GENERIC_WORDS = frozenset(
    {"model", "modelo", "learning", "aprendizaje", "network", "red", "layer", "capa", "data", "dato", "training"}
    | {"entrenamiento", "method", "método", "function", "función", "task", "tarea", "set", "conjunto", "rate", "tasa"}
)
_SEPARATORS = re.compile(r"[\s\-_‐‑/]+")
#: the letter rows of a QWERTY keyboard, each shifted half a key right of the one above
_ROWS = ("1234567890", "qwertyuiop", "asdfghjkl", "zxcvbnm")


class Suggestion(NamedTuple):
    """A known name and how it relates to what was written (lower ``rank`` is closer)."""

    #: 0: a close spelling of the whole name; 1: a shared stem
    kind: int
    #: edits for a close spelling, words not shared for a shared stem
    distance: int
    name: str

    @property
    def rank(self) -> tuple[int, int]:
        return (self.kind, self.distance)


def plausible(written: str, known: list[str], limit: int | None = None) -> list[str]:
    """The names of ``known`` the writer of ``written`` plausibly meant, closest first."""
    found = [s for name in known if (s := relation(written, name)) is not None]
    found.sort(key=lambda s: (*s.rank, fold(s.name), s.name))
    names = [s.name for s in found]
    return names if limit is None else names[:limit]


def relation(written: str, name: str) -> Suggestion | None:
    """How ``name`` relates to ``written`` (None: not plausibly what was meant)."""
    left, right = _spelling(written), _spelling(name)
    if not left or not right or left == right:
        return None if left != right or not left else Suggestion(0, 0, name)
    distance = _edits(left, right)
    longer = max(len(left), len(right))
    if longer <= 4:
        if distance == 1 and _keyboard_slip(left, right):
            return Suggestion(0, 1, name)
    elif distance <= min(3, max(1, longer // 5)):
        return Suggestion(0, distance, name)
    ours, theirs = _stems(written), _stems(name)
    shared = ours & theirs
    if shared and (ours <= theirs or theirs <= ours) and (len(shared) > 1 or shared - _GENERIC_STEMS):
        return Suggestion(1, len(ours ^ theirs), name)
    return None


def _spelling(text: str) -> str:
    return " ".join(_SEPARATORS.sub(" ", fold(text)).split())


def _stems(text: str) -> frozenset[str]:
    """The words that carry meaning, singular."""
    return frozenset(_stem(word) for word in _spelling(text).split() if word not in PARTICLES and len(word) > 1)


def _stem(word: str) -> str:
    """A word without its plural and its common endings: ``overfitting`` and ``overfit``,
    ``tokenizer`` and ``tokenization``, ``sample`` and ``sampling`` meet."""
    if len(word) > 4 and word.endswith("ies"):
        word = word[:-3] + "y"
    elif len(word) > 4 and word.endswith(("ches", "shes", "xes", "ses")):
        word = word[:-2]
    elif len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
    for ending in ("ation", "ing", "ed", "er"):
        if word.endswith(ending) and len(word) - len(ending) >= 4:
            word = word[: -len(ending)]
            if word[-1] == word[-2] and word[-1] not in "aeiou":
                word = word[:-1]  # overfitt -> overfit
            break
    return word[:-1] if len(word) > 5 and word.endswith("e") else word


def _edits(left: str, right: str) -> int:
    """Edit distance counting a swap of neighbouring letters as one edit (optimal string alignment)."""
    before: list[int] = []
    previous = list(range(len(right) + 1))
    for i, a in enumerate(left, 1):
        current = [i]
        for j, b in enumerate(right, 1):
            cost = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a != b))
            if i > 1 and j > 1 and a == right[j - 2] and left[i - 2] == b:
                cost = min(cost, before[j - 2] + 1)
            current.append(cost)
        before, previous = previous, current
    return previous[-1]


def _keyboard_slip(left: str, right: str) -> bool:
    """One edit a hand makes: a swap, a doubled or dropped letter, or a neighbouring key."""
    if len(left) != len(right):
        shorter, longer = sorted((left, right), key=len)
        index = next((i for i, (a, b) in enumerate(zip(shorter, longer, strict=False)) if a != b), len(shorter))
        return index > 0 and longer[index] == longer[index - 1]  # typed twice, or one of two dropped
    differ = [i for i, (a, b) in enumerate(zip(left, right, strict=True)) if a != b]
    if len(differ) == 2:
        return True  # the two letters swapped (one edit, so nothing else differs)
    return len(differ) == 1 and _neighbours(left[differ[0]], right[differ[0]])


def _neighbours(a: str, b: str) -> bool:
    """Keys that touch on a QWERTY keyboard: beside each other, or a key and the two above it."""
    where = {key: (row, column) for row, keys in enumerate(_ROWS) for column, key in enumerate(keys)}
    if a not in where or b not in where:
        return False
    (row_a, col_a), (row_b, col_b) = sorted((where[a], where[b]))  # the upper row first
    if row_a == row_b:
        return abs(col_a - col_b) == 1
    return row_b == row_a + 1 and col_a in (col_b, col_b + 1)


#: :data:`GENERIC_WORDS` as :func:`_stems` writes them
_GENERIC_STEMS = frozenset(_stem(word) for word in GENERIC_WORDS)
