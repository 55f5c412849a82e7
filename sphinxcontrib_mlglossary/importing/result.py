"""What an import hands back: the glossary, plus everything the reader had to say about it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..model import Glossary

NoticeLevel = Literal["info", "warning"]


@dataclass(frozen=True, slots=True)
class Notice:
    """One thing the user should know about an imported file; fatal problems raise instead."""

    #: "info" for work done on the user's behalf, "warning" for something they should fix
    level: NoticeLevel
    #: what kind of problem: "encoding", "data" or "markup"
    subtype: str
    #: a complete sentence naming the file, the line and what to do
    message: str
    #: line in the source file (0 when the notice is about the whole file)
    line: int = 0


@dataclass(frozen=True, slots=True)
class ImportResult:
    """A glossary read from a file, with the notices produced on the way."""

    glossary: Glossary
    notices: tuple[Notice, ...] = ()
