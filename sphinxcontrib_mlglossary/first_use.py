"""First-use expansion: a page's first citation of an abbreviation spells it out.

"{term}`MLM`" renders "masked language modeling (MLM)" the first time the page cites
the term, and "MLM" after that, as style guides ask. Opt-in: ``mlglossary_first_use``
for the project, ``mlglossary-first-use`` in a page's metadata to switch it on or off
there. Only the link's text changes: its target, id and card stay the citation's.

A term counts as introduced once a citation shows its full name, written out or
expanded; a citation with text of its own ("the MLM objective") is left as written
and introduces nothing. The full name comes from the glossary of the build's language,
so a translated page reads "modelado de lenguaje enmascarado (MLM)". Runs after
:mod:`.term_targets` has settled which term each citation means, in the main process.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms.post_transforms import SphinxPostTransform

from .card_contents import card_subjects
from .citations import is_term_reference
from .diagnostics import MlGlossaryWarning, warn
from .domain import glossary_domain
from .model import Entry, fold
from .page_terms import in_glossary
from .resolution import Found

if TYPE_CHECKING:
    from sphinx.application import Sphinx

#: the page metadata that switches expansion on or off for one page
METADATA = "mlglossary-first-use"
#: class of the element holding an expanded citation's text (for styling, and for tools
#: that compare a page with its source)
EXPANDED_CLASS = "mlglossary-first-use"
_TRUE = frozenset({"true", "yes", "on", "1"})
_FALSE = frozenset({"false", "no", "off", "0"})


def page_setting(value: object, default: bool, docname: str) -> bool:
    """The page's ``mlglossary-first-use`` value as a bool (the project's setting when absent or unclear)."""
    if value is None:
        return default
    if isinstance(value, bool):
        return value
    text = str(value).strip().strip("\"'").lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    warn(
        MlGlossaryWarning.CONFIG,
        f"{METADATA}: {value!r} is neither true nor false; the project's mlglossary_first_use "
        f"({default}) is used on this page",
        location=docname,
        once=True,
    )
    return default


def expanded(entry: Entry, text: str) -> str | None:
    """The first-use text for a citation shown as ``text``; None when it shows no abbreviation."""
    if text in entry.abbreviations:
        return f"{entry.name} ({text})"
    return None


class FirstUse(SphinxPostTransform):
    """Spell out each page's first citation of an abbreviation."""

    default_priority = 8  # after TermTargets (5) settled the terms; before ReferencesResolver (10)

    def run(self, **kwargs: Any) -> None:
        domain = glossary_domain(self.env)
        default = bool(self.config.mlglossary_first_use)
        switched: dict[str, bool] = {}  # page -> expansion on there
        introduced: set[tuple[str, tuple[str, str]]] = set()  # (page, term's place)
        terms = subjects = None
        for xref in self.document.findall(addnodes.pending_xref):
            if not is_term_reference(xref) or in_glossary(xref):
                continue
            page = xref.get("refdoc") or self.env.docname
            if page not in switched:
                metadata = self.env.metadata.get(page, {})
                switched[page] = page_setting(metadata.get(METADATA), default, page)
            if not switched[page]:
                continue
            if terms is None or subjects is None:
                terms, subjects = domain.term_index(), card_subjects(domain)
            found = terms.resolve(xref["reftarget"])
            if not isinstance(found, Found) or (page, found.place) in introduced:
                continue
            entry = subjects.term(found.place)
            if not isinstance(entry, Entry):
                continue  # the project's own term: it has no abbreviations
            text = xref.astext()
            full = expanded(entry, text)
            if full is not None and _replace_text(xref, full):
                introduced.add((page, found.place))
            elif fold(entry.name) in fold(text):
                introduced.add((page, found.place))  # written out: the abbreviation is introduced


def _replace_text(xref: addnodes.pending_xref, text: str) -> bool:
    """Put ``text`` in place of the reference's one text node (its inline wrapper and classes stay)."""
    found = list(xref.findall(nodes.Text))
    holder = found[0].parent if len(found) == 1 else None
    if holder is None or holder is xref:
        return False  # the term role always wraps its text (see .term_targets); anything else is left alone
    holder.replace(found[0], nodes.Text(text))
    holder["classes"].append(EXPANDED_CLASS)
    return True


def register(app: Sphinx) -> None:
    app.add_post_transform(FirstUse)
