"""Map recorded mentions back to their place in the source: file, line and character span.

docutils gives an element's source and the line it starts on (for a paragraph, list
item or table cell), not where a word sits. A mention is placed at the first occurrence
of its written name (any whitespace between its words, whole words only) at or after
that line that no earlier mention of the same page has taken; when none is left there,
the nearest free one before it (a few elements report their last line), else the first
free one further down (reST inside MyST's ``eval-rst`` reports lines from the block's
start). Mentions are
placed in document order, so two mentions of one name in a paragraph get the first and
the second occurrence. A file included by several pages is placed once per page.
"""

from __future__ import annotations

import bisect
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: how far below an element's first line its text may run
_REACH = 120


@dataclass(frozen=True)
class Mention:
    """One mention of a glossary name, placed in the source."""

    page: str
    file: str  # path in the site's repository
    line: int  # 1-based line where the mention starts (0: not found in the file)
    start: int  # character offset of the mention in that line
    end: int  # start + length of the mention as written in the source (may run past the line)
    written: str
    entry: str
    linked: str | None  # the entry auto-linking linked it to, None when not linked
    context: str  # the enclosing text node (for reading in a terminal; never committed)
    at: int  # offset of the mention in ``context``

    @property
    def key(self) -> tuple[str, int, int, str]:
        """What a judgement is kept by: file, line, span start, entry."""
        return (self.file, self.line, self.start, self.entry)


def name_regex(written: str) -> re.Pattern[str]:
    """The written name as a whole-word regex, any whitespace between its words; a curly
    apostrophe may be a straight one in the source (smart quotes made it curly)."""
    words = [re.escape(word).replace("’", "['’]") for word in written.split()]
    return re.compile(r"(?<![\w-])" + r"\s+".join(words) + r"(?![\w-])")


class _SourceFile:
    def __init__(self, text: str) -> None:
        self.text = text
        self.line_starts = [0] + [index + 1 for index, char in enumerate(text) if char == "\n"]
        self.found: dict[str, list[int]] = {}

    def occurrences(self, written: str) -> list[int]:
        if written not in self.found:
            self.found[written] = [match.start() for match in name_regex(written).finditer(self.text)]
        return self.found[written]

    def line_of(self, offset: int) -> int:
        return bisect.bisect_right(self.line_starts, offset)

    def span(self, offset: int, written: str) -> tuple[int, int, int]:
        line = self.line_of(offset)
        start = offset - self.line_starts[line - 1]
        match = name_regex(written).match(self.text, offset)
        length = match.end() - match.start() if match else len(written)
        return line, start, start + length


def place(rows: list[dict[str, Any]], variant_dir: Path, source_dir: str) -> list[Mention]:
    """Place recorded rows (``autolink_record``'s JSON lines) in the site's source files."""
    files: dict[str, _SourceFile] = {}
    taken: set[tuple[str, str, int]] = set()
    placed = []
    root = variant_dir.resolve()
    for row in rows:
        source = Path(str(row["source"]).split(":docstring")[0])
        try:
            relative = source.resolve().relative_to(root).as_posix()
        except ValueError:
            relative = source.as_posix()
        repo_path = f"{source_dir}/{relative}" if source_dir else relative
        if relative not in files:
            files[relative] = _SourceFile(source.read_text(encoding="utf-8") if source.is_file() else "")
        source_file = files[relative]
        offsets = [o for o in source_file.occurrences(row["written"]) if (row["page"], relative, o) not in taken]
        element_start = source_file.line_starts[min(max(row["line"], 1), len(source_file.line_starts)) - 1]
        after = [o for o in offsets if element_start <= o]
        near = [o for o in after if source_file.line_of(o) <= row["line"] + _REACH]
        before = [o for o in offsets if o < element_start]
        chosen = near[0] if near else (before[-1] if before else (after[0] if after else None))
        if chosen is None:
            line, start, end = 0, 0, 0
        else:
            taken.add((row["page"], relative, chosen))
            line, start, end = source_file.span(chosen, row["written"])
        placed.append(
            Mention(
                page=row["page"],
                file=repo_path,
                line=line,
                start=start,
                end=end,
                written=row["written"],
                entry=row["entry"],
                linked=row["linked"],
                context=row["context"],
                at=row["at"],
            )
        )
    return placed


def read_record(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]
