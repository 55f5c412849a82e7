"""The spellings a name is written with: one source for auto-linking and for ``{term}``.

Writers join the words of a name as they please: "half precision" and "half-precision",
"F1 score" and "F1-score", "fine-tuning" and "finetuning", "pretrained" and "pre-trained".
Auto-linking finds exactly these spellings (with their plurals), and a citation written
in any of them resolves to the same entry, so the two ways in never disagree.

- a space between two words may be a hyphen ("attention-mask");
- a hyphen may be a space or nothing ("self attention", "selfattention");
- a word starting with a common prefix ("pretrained", "subword") may take a hyphen after it;
- the last word takes its plural or singular, also after a short form ("MLP layers",
  "input ID"); a short form in capitals takes an "s" ("LLMs"), and in English may be
  followed by the noun its entry's names end with ("EOS token" for "beginning- and
  end-of-sequence tokens"); Spanish names inflect their noun and its adjectives. Arabic
  has no rule (its broken plurals are irregular).
"""

from __future__ import annotations

import itertools
import re
from typing import TYPE_CHECKING

from .inflection import english_plural, english_singular, spanish_plural
from .model import has_own_case

if TYPE_CHECKING:
    from collections.abc import Iterable

#: prefixes a writer may glue to their word or set off with a hyphen ("pre-trained"), each
#: with the beginnings of the words it is written with in ML text (so "precision" is no "pre-cision")
PREFIXES = {
    "pre": ("train", "process", "fill", "norm", "tokeniz", "comput"),
    "post": ("train", "process", "norm"),
    "fine": ("tun",),
    "multi": ("head", "modal", "lingual", "task", "query", "token", "node", "class", "label"),
    "self": ("attention", "supervis"),
    "non": ("linear",),
    "semi": ("supervis",),
    "sub": ("word",),
    "over": ("fit",),
    "under": ("fit",),
}
#: join positions spelt every way; a longer name has its joins changed all alike
_MAX_COMBINATIONS = 32
_JOIN = re.compile(r"[ -]")


def _prefix_split(word: str) -> int:
    """Where a known prefix ends in ``word`` (0 when none): "pretrained" -> 3."""
    for prefix, stems in PREFIXES.items():
        if word.startswith(prefix) and word[len(prefix) :].startswith(stems):
            return len(prefix)
    return 0


def joined_variants(name: str, language: str) -> list[str]:
    """The name with its joins written every way a writer may (see the module's rules).

    Only English joins words with hyphens; in Spanish or Arabic a space stays a space.
    """
    parts = _JOIN.split(name)
    joins = _JOIN.findall(name)
    if "" in parts:
        return [name]  # "beginning- and end-of-sequence tokens": a hyphen that ends a word
    hyphenated = language == "en" and name.isascii()
    words: list[str] = []
    options: list[tuple[str, ...]] = []
    for index, part in enumerate(parts):
        if index:
            options.append(((" ", "-") if hyphenated else (" ",)) if joins[index - 1] == " " else ("-", " ", ""))
        split = _prefix_split(part)
        if split:
            words.append(part[:split])
            options.append(("", "-"))
            part = part[split:]
        words.append(part)
    if not options:
        return [name]
    count = 1
    for choice in options:
        count *= len(choice)
    if count > _MAX_COMBINATIONS:
        # a long name: every join alike (as written, spaces, hyphens, none for hyphens)
        spelt = [name, name.replace("-", " "), name.replace("-", "")]
        return list(dict.fromkeys([*spelt, name.replace(" ", "-")] if hyphenated else spelt))
    every = (
        words[0] + "".join(join + word for join, word in zip(chosen, words[1:], strict=True))
        for chosen in itertools.product(*options)
    )
    return list(dict.fromkeys([name, *every]))


def with_head_noun(abbreviation: str, siblings: Iterable[str], language: str) -> list[str]:
    """ "EOS token", "EOS tokens": an English short form in capitals followed by the noun its
    entry's other names end with ("beginning- and end-of-sequence tokens")."""
    if language != "en" or not abbreviation.isupper():
        return []
    heads = {name.rpartition(" ")[2] for name in siblings if " " in name}
    forms = []
    for head in sorted(word for word in heads if word.isalpha() and word.islower()):
        phrase = f"{abbreviation} {head}"
        forms += [phrase, english_plural(phrase), english_singular(phrase)]
    return list(dict.fromkeys(forms))


def spellings_of(name: str, language: str, *, abbreviation: bool, siblings: Iterable[str] = ()) -> list[str]:
    """Every spelling of one name auto-linking finds and ``{term}`` resolves (``siblings``:
    the other names of its entry, for a short form's head noun)."""
    if abbreviation:
        forms = [name]
        if name[-1:].isupper():
            forms.append(name + "s")  # "LLMs"
        elif name[-1:] == "s" and name[-2:-1].isupper():
            forms.append(name[:-1])  # "input IDs" cited as "input ID"
        return [*forms, *with_head_noun(name, siblings, language)]
    forms = joined_variants(name, language)
    own_case = has_own_case(name)
    for form in list(forms):
        last = form.rpartition(" ")[2]
        if own_case and not (last.isalpha() and last.islower()):
            if last[-1:].isupper() and len(last) > 1:
                forms.append(form + "s")  # "Trainer APIs"; never "STS Bs" for "STS-B"
            elif last[-1:] == "s" and last[-2:-1].isupper():
                forms.append(form[:-1])  # "input IDs" cited as "input ID"
            continue
        if form.isascii():
            forms.append(english_plural(form))
            forms.append(english_singular(form))
        if language == "es" and not own_case:
            forms.append(spanish_plural(form))
    return [form for form in dict.fromkeys(forms) if form]
