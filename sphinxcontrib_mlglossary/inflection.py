"""How names inflect: the plurals auto-linking recognises and the singulars citations try.

Both directions share one list of particles (the small words of a Spanish name that
stop the inflection: ``máscara de atención`` -> ``máscaras de atención``). English
inflects the last word of a name, Spanish the noun and its adjectives up to the first
particle. Arabic has no rule: broken plurals are irregular (docs/how-to/cite-terms.md says so).
"""

from __future__ import annotations

import re

from .model import fold

#: words that never inflect and end the inflected part of a Spanish name (and English "of"/"the")
PARTICLES = frozenset({"de", "del", "la", "las", "el", "los", "en", "y", "a", "por", "con", "sin", "of", "the"})
_VOWELS = "aeiouáéíóú"
_ACCENTED_ENDINGS = {"ión": "iones", "án": "anes", "én": "enes", "ín": "ines", "ón": "ones", "ún": "unes"}
#: "ZeRO's", "LLMs'", "attention mask’s"
POSSESSIVE = re.compile(r"(?:['’]s|s['’])$", re.IGNORECASE)


def is_particle(word: str) -> bool:
    return word.lower() in PARTICLES


# -- plurals (what auto-linking recognises in running text) ------------------------------


def english_plural(name: str) -> str:
    """Plural of a name whose last word inflects (``attention mask`` -> ``attention masks``)."""
    head, _sep, last = name.rpartition(" ")
    lower = last.lower()
    if lower.endswith(("s", "x", "z", "ch", "sh")):
        last += "es"
    elif lower.endswith("y") and len(lower) > 1 and lower[-2] not in "aeiou":
        last = last[:-1] + "ies"
    else:
        last += "s"
    return f"{head} {last}" if head else last


def english_singular(name: str) -> str:
    """Singular of a name whose last word is an English plural (``decoder models`` ->
    ``decoder model``, ``input IDs`` -> ``input ID``); the name itself otherwise."""
    head, _sep, last = name.rpartition(" ")
    lower = last.lower()
    if lower.endswith("ies") and len(lower) > 4:
        last = last[:-3] + ("Y" if last[-3:].isupper() else "y")
    elif lower.endswith("s") and not lower.endswith(("ss", "us", "is")) and len(lower) > 3:
        last = last[:-1]
    else:
        return name
    return f"{head} {last}" if head else last


def _spanish_word_plural(word: str) -> str:
    lower = word.lower()
    for ending, plural in _ACCENTED_ENDINGS.items():
        if lower.endswith(ending):
            return word[: -len(ending)] + plural
    if lower.endswith("z"):
        return word[:-1] + "ces"
    if lower[-1:] in _VOWELS:
        return word + "s"
    if lower.endswith("s"):
        return word
    return word + "es"


def spanish_plural(name: str) -> str:
    """Plural of a Spanish name: the noun and its adjectives, up to the first particle.

    ``máscara de atención`` -> ``máscaras de atención``;
    ``modelo preentrenado`` -> ``modelos preentrenados``.
    """
    out = []
    inflecting = True
    for word in name.split(" "):
        if is_particle(word):
            inflecting = False
        out.append(_spanish_word_plural(word) if inflecting and word.isalpha() else word)
    return " ".join(out)


# -- singulars (what a cited plural or possessive may stand for) --------------------------


def _singular_forms(word: str) -> list[str]:
    """Possible singulars of one word (English and Spanish rules; wrong guesses simply match nothing)."""
    forms = []
    lower = word.lower()
    if lower.endswith("ies") and len(word) > 4:
        forms.append(word[:-3] + "y")
    if lower.endswith("es") and len(word) > 3:
        forms.append(word[:-2])
    if lower.endswith("s") and not lower.endswith("ss") and len(word) > 2:
        forms.append(word[:-1])
    return forms


def candidates(target: str) -> list[str]:
    """Names to try for a written target, most literal first."""
    text = " ".join(target.split())
    found: dict[str, None] = {text: None}
    base = POSSESSIVE.sub("", text)
    found[base] = None
    words = base.split(" ")
    if words and words[0]:
        # English inflects the last word ("attention masks"), Spanish the first and its
        # adjectives ("modelos preentrenados", "máscaras de atención")
        for form in _singular_forms(words[-1]):
            found[" ".join([*words[:-1], form])] = None
        for form in _singular_forms(words[0]):
            found[" ".join([form, *words[1:]])] = None
        if len(words) > 1:
            every = [(_singular_forms(w) or [w])[-1] if not is_particle(w) else w for w in words]
            found[" ".join(every)] = None
    return list(found)


def variants(target: str) -> list[str]:
    """Other forms a cited name may stand for, most likely first: its singulars (plural or
    possessive cited), then its plurals (an entry named in the plural cited in the
    singular, ``decoder model`` for *decoder models*, ``input ID`` for *input IDs*)."""
    text = " ".join(target.split())
    found = dict.fromkeys(candidates(text)[1:])
    if text:
        found.setdefault(english_plural(text), None)
        found.setdefault(spanish_plural(text), None)
    found.pop(text, None)
    return list(found)


_JOINERS = re.compile(r"[\s\-_‐‑]+")


def loose_key(name: str) -> str:
    """A name with case, spaces, hyphens and underscores taken out, so that ``fine-tuned``,
    ``fine tuned`` and ``finetuned``, or ``tensor parallel`` and ``TensorParallel``, meet."""
    return _JOINERS.sub("", fold(name))
