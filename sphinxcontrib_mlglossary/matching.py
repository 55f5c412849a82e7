"""Which glossary entry a term reference points at.

Sphinx resolves a term by its exact name, then ignoring case. We add what writers
expect on top: English plurals and possessives (``attention masks``, ``LLMs``,
``ZeRO's``) and Spanish plurals (``máscaras de atención``). Every candidate is looked
up in the standard domain, so the project's own glossary terms benefit too.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sphinx.environment import BuildEnvironment

_POSSESSIVE = re.compile(r"(?:['’]s|s['’])$", re.IGNORECASE)


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
    base = _POSSESSIVE.sub("", text)
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
            every = [(_singular_forms(w) or [w])[-1] if not _is_particle(w) else w for w in words]
            found[" ".join(every)] = None
    return list(found)


def _is_particle(word: str) -> bool:
    return word.lower() in {"de", "del", "la", "las", "el", "los", "of", "the", "en", "y"}


def _lookup(env: BuildEnvironment, name: str) -> tuple[str, str] | None:
    std = env.get_domain("std")
    found = std.objects.get(("term", name))  # type: ignore[attr-defined]
    if found is None:
        found = std._terms.get(name.lower())  # type: ignore[attr-defined]
    return found  # type: ignore[no-any-return]


def resolve_term(env: BuildEnvironment, target: str) -> tuple[str, str] | None:
    """(docname, anchor) a ``term`` target resolves to, or None (also when ambiguous)."""
    exact = _lookup(env, target)
    if exact is not None:
        return exact
    matches = inflected_matches(env, target)
    return matches[0][1] if len(matches) == 1 else None


def inflected_matches(env: BuildEnvironment, target: str) -> list[tuple[str, tuple[str, str]]]:
    """Distinct (name, (docname, anchor)) found through the inflection rules."""
    seen: dict[tuple[str, str], str] = {}
    for name in candidates(target)[1:]:
        found = _lookup(env, name)
        if found is not None and found not in seen:
            seen[found] = name
    return [(name, found) for found, name in seen.items()]
