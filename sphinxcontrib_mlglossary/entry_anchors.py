"""An entry's anchor on its page: ``term-<id>``, even when the page used that id first.

``#term-<id>`` is the entry's stable address (links, bookmarks, ``objects.inv``), but
ids are handed out as the page is parsed: a section titled "Term tokenizer", or a
label ``(term-tokenizer)=``, written above the directive takes ``term-tokenizer``
first. The entry then used to be left out as if shown twice, and citations of it went
nowhere. Instead the earlier element keeps its other ids, or gets the next one docutils
makes for it, and its label follows it (the standard domain reads labels from
``document.nameids`` once the page is parsed), so ``:ref:`` still lands on it and every
id stays unique. Only a term of the project's own glossary keeps the id, as the
standard domain registered it there already: the entry then takes ``term-<id>-2``.
"""

from __future__ import annotations

from docutils import nodes


def claim_anchor(document: nodes.document, anchor: str) -> str:
    """The id the entry gets: ``anchor``, made free if another element holds it."""
    holder = document.ids.get(anchor)
    if holder is None:
        return anchor
    if isinstance(holder, nodes.term):
        return _free_variant(document, anchor)
    holder["ids"] = [given for given in holder["ids"] if given != anchor]
    if not holder["ids"]:
        document.set_id(holder)  # docutils' next id for it: the anchor still counts as taken here
    del document.ids[anchor]
    for name, target in document.nameids.items():
        if target == anchor:
            document.nameids[name] = holder["ids"][0]
    return anchor


def _free_variant(document: nodes.document, anchor: str) -> str:
    suffix = 2
    while f"{anchor}-{suffix}" in document.ids:
        suffix += 1
    return f"{anchor}-{suffix}"
