"""Turn the bytes of a glossary file into text, repairing mis-decoded text where it can be done.

Accepted: UTF-8 with or without a byte order mark, UTF-16 with one. Text that was once
decoded with a legacy code page and saved again as UTF-8 is repaired when every
character can be restored, loaded with one warning when a few were lost, and refused
when the damage is pervasive (see :mod:`.mojibake`).
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass
from pathlib import Path

from ..loader import GlossaryDataError
from .mojibake import Repair, diagnose
from .result import Notice

_SHOWN_LINES = 8
_REEXPORT_SHORT = "re-export the original file as UTF-8"
_REEXPORT = f"{_REEXPORT_SHORT}; the lost characters can't be rebuilt from this copy"


@dataclass(frozen=True, slots=True)
class DecodedText:
    """The text of a file, and what was done to get it."""

    text: str
    notices: tuple[Notice, ...] = ()


def decode_source(raw: bytes, path: Path | str) -> DecodedText:
    """Decode and, where needed, repair the bytes of a text file; raise on anything unusable."""
    path = Path(path)
    text = _decode(raw, path)
    if not text.strip():
        raise GlossaryDataError(path, "the file holds no text", hint="check that you passed the right file")
    repair = diagnose(text)
    if repair is None:
        return DecodedText(text, _replacement_notice(text, path))
    if repair.pervasive:
        raise GlossaryDataError(
            path,
            f"the text is UTF-8 that was decoded as {repair.label} and saved again, and {repair.lost} of its "
            f"{repair.non_ascii} non-ASCII characters were lost (first damaged lines: {_lines(repair)})",
            line=repair.damaged_lines[0],
            hint=_REEXPORT,
        )
    return DecodedText(repair.text, (_repair_notice(repair, path, _first_change(text, repair.text)),))


def _decode(raw: bytes, path: Path) -> str:
    if raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) and not raw.startswith(codecs.BOM_UTF32_LE):
        try:
            return raw.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise GlossaryDataError(
                path,
                f"the file starts with a UTF-16 byte order mark but is not valid UTF-16 (byte {exc.start})",
                hint="save the file as UTF-8",
            ) from None
    if b"\x00" in raw:
        line = raw.count(b"\n", 0, raw.index(b"\x00")) + 1
        raise GlossaryDataError(
            path, "this is a binary file, not text (it contains NUL bytes)", line=line, hint="pass a text file"
        )
    if raw.startswith(codecs.BOM_UTF8):
        raw = raw[len(codecs.BOM_UTF8) :]
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise GlossaryDataError(
            path,
            f"not valid UTF-8 (byte 0x{raw[exc.start]:02X} at line {line} fits no UTF-8 character); "
            "the file is binary or in a legacy encoding",
            line=line,
            hint="save the file as UTF-8",
        ) from None


def _first_change(before: str, after: str) -> int:
    for number, (old, new) in enumerate(zip(before.splitlines(), after.splitlines(), strict=False), 1):
        if old != new:
            return number
    return 1


def _repair_notice(repair: Repair, path: Path, line: int) -> Notice:
    how = f"encoding it back as {repair.label} and decoding the bytes as UTF-8"
    if repair.rebuilt:
        how += f", then putting back a byte the first decoder had dropped in {repair.rebuilt} place(s)"
    if not repair.lost:
        return Notice(
            "info",
            "encoding",
            f"{path}:{line}: the text had been decoded as {repair.label} and saved again as UTF-8 "
            f"(first changed line: {line}); it was repaired exactly by {how}. "
            "Save the repaired text as UTF-8 to skip this step.",
            line=line,
        )
    return Notice(
        "warning",
        "encoding",
        f"{path}:{repair.damaged_lines[0]}: the text had been decoded as {repair.label} and saved again as UTF-8; "
        f"it was repaired by {how}, but {repair.lost} character(s) were lost and are shown as U+FFFD "
        f"on line(s) {_lines(repair, every=True)}. To recover them, {_REEXPORT_SHORT}.",
        line=repair.damaged_lines[0],
    )


def _replacement_notice(text: str, path: Path) -> tuple[Notice, ...]:
    """U+FFFD already in a clean text: something lost bytes before the file was written."""
    lines = [number for number, line in enumerate(text.splitlines(), 1) if "\ufffd" in line]
    if not lines:
        return ()
    return (
        Notice(
            "warning",
            "encoding",
            f"{path}:{lines[0]}: the text contains U+FFFD replacement characters, so some characters were lost "
            f"before this file was written (line(s) {', '.join(map(str, lines))}). Re-export the original as UTF-8.",
            line=lines[0],
        ),
    )


def _lines(repair: Repair, *, every: bool = False) -> str:
    lines = repair.damaged_lines if every else repair.damaged_lines[:_SHOWN_LINES]
    text = ", ".join(map(str, lines))
    if len(lines) < len(repair.damaged_lines):
        text += f" and {len(repair.damaged_lines) - len(lines)} more"
    return text
