"""Mend the reST slips docutils warns about, so a real site's plain build has no warning.

docutils' own warnings carry no Sphinx type, so ``suppress_warnings`` can't hide them;
their causes are mended in the source text instead, leaving what a reader sees as it
was: a title's under- or overline shorter than the title is lengthened, and a blank
line is added after a comment or a link target that is directly followed by text.
"""

from __future__ import annotations

import re

_ADORNMENT = re.compile(r"^([=\-~^\"'`#*+:.<>_])\1{2,}\s*$")
_MARKUP_END = re.compile(r"^(?P<indent>\s*)\.\.(?:\s+_[^:]+:)?\s*$")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def lengthen_adornments(text: str) -> str:
    """Under- and overlines at least as long as their title."""
    lines = text.split("\n")
    for index in range(1, len(lines)):
        line, title = lines[index], lines[index - 1]
        if not _ADORNMENT.match(line) or not title.strip() or _ADORNMENT.match(title) or _indent(title):
            continue
        width = len(title.rstrip())
        if len(line.rstrip()) < width:
            lines[index] = line.rstrip()[0] * width
            above = index - 2
            if above >= 0 and _ADORNMENT.match(lines[above]) and lines[above].rstrip()[0] == line.rstrip()[0]:
                lines[above] = lines[above].rstrip()[0] * width
    return "\n".join(lines)


def end_explicit_markup(text: str) -> str:
    """A blank line after a comment or link target that runs straight into text."""
    lines = text.split("\n")
    out: list[str] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        out.append(line)
        index += 1
        marker = _MARKUP_END.match(line)
        if not marker:
            continue
        indent = len(marker["indent"])
        while index < len(lines) and lines[index].strip() and _indent(lines[index]) > indent:
            out.append(lines[index])
            index += 1
        if index < len(lines) and lines[index].strip() and not _MARKUP_END.match(lines[index]):
            out.append("")
    return "\n".join(out)
