"""Join the pieces of text a parser split at line breaks, so names can span them.

MyST hands each source line of a paragraph to docutils as its own text node (a soft
line break is a text node of its own), while the reST parser keeps a paragraph's
lines in one. Without joining, a name wrapped over two lines ("dynamic" at the end of
one line, "batching" at the start of the next) is never found in MyST, and the words
around a mention that make it part of a longer name ("Triton" ending the line before
"Inference Server") or quote it are not seen. Joining adjacent text nodes changes
nothing a reader or a builder sees: the text is the same, only in fewer pieces.
"""

from __future__ import annotations

from itertools import pairwise

from docutils import nodes


def join_adjacent_texts(document: nodes.Node) -> None:
    """Merge every run of sibling text nodes into one."""
    for element in list(document.findall(nodes.Element)):
        children = element.children
        if not any(
            isinstance(first, nodes.Text) and isinstance(second, nodes.Text) for first, second in pairwise(children)
        ):
            continue
        joined: list[nodes.Node] = []
        for child in children:
            if isinstance(child, nodes.Text) and joined and isinstance(joined[-1], nodes.Text):
                joined[-1] = nodes.Text(str(joined[-1]) + str(child))
            else:
                joined.append(child)
        element[:] = joined
