"""Long examples in an entry fold away on the glossary page, so it can be scanned.

The rule: a code block of an entry's text longer than :data:`FOLD_AFTER_LINES` lines is
shown closed, under a summary saying how long it is; shorter blocks and all prose (the
first paragraph above all, which cards also show) stay open. A block of a few lines is
quicker to read than to open. Only HTML folds (a native ``<details>``: keyboard and
screen-reader usable without script, found by the browser's search); every other
format, e-books included, shows the example in full (see :class:`~.nodes.example_fold`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from docutils import nodes

from .i18n import ngettext
from .nodes import example_fold

if TYPE_CHECKING:
    from collections.abc import Iterable

#: code blocks longer than this many lines are folded
FOLD_AFTER_LINES = 8


def _code_lines(block: nodes.Node) -> int:
    """Lines of a top-level code block (0 for anything else: prose never folds)."""
    code = block if isinstance(block, nodes.literal_block) else None
    if isinstance(block, nodes.container) and "literal-block-wrapper" in block["classes"]:
        code = next(iter(block.findall(nodes.literal_block)), None)  # a block with a caption
    return len(code.astext().rstrip("\n").splitlines()) if code is not None else 0


def fold_long_examples(blocks: Iterable[nodes.Node]) -> list[nodes.Node]:
    """An entry's rendered blocks, each long code block inside a closed fold naming its length."""
    folded: list[nodes.Node] = []
    for position, block in enumerate(blocks):
        lines = _code_lines(block)
        if position == 0 or lines <= FOLD_AFTER_LINES:
            folded.append(block)  # an entry never opens on a closed fold
            continue
        summary = ngettext("Example ({count} line)", "Example ({count} lines)", lines).format(count=lines)
        folded.append(example_fold("", block, summary=summary))
    return folded
