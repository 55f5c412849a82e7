"""Find and undo mojibake: UTF-8 text once decoded with a legacy code page and saved again.

The whole text is scored against each candidate code page: encode it back with the
candidate and decode the bytes as UTF-8. Clean text turns into invalid bytes almost
everywhere; mis-decoded text turns back into fewer, real characters. A decoder that
dropped the bytes its code page does not define (or the C1 control characters it
produced) leaves truncated UTF-8 sequences; where exactly one dropped byte completes
such a sequence into a real character, the character is restored, otherwise it is
marked with U+FFFD. Nothing is ever decided from a single character.
"""

from __future__ import annotations

import codecs
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations_with_replacement, product

#: single-byte code pages; Latin-1 comes before cp1252 so that text using neither's
#: special characters is described as Latin-1 with its C1 controls stripped
SINGLE_BYTE = (
    "latin_1",
    "cp1252",
    "cp1250",
    "cp1251",
    "koi8_r",
    "cp1253",
    "cp1254",
    "cp1256",
    "tis_620",
    "mac_roman",
)
MULTI_BYTE = ("johab", "cp949", "shift_jis", "euc_jp", "gbk", "big5")

LABELS = {
    "latin_1": "Latin-1 (ISO-8859-1)",
    "cp1252": "Windows-1252",
    "cp1250": "Windows-1250 (Central European)",
    "cp1251": "Windows-1251 (Cyrillic)",
    "koi8_r": "KOI8-R (Cyrillic)",
    "cp1253": "Windows-1253 (Greek)",
    "cp1254": "Windows-1254 (Turkish)",
    "cp1256": "Windows-1256 (Arabic)",
    "tis_620": "TIS-620 (Thai)",
    "mac_roman": "Mac Roman",
    "johab": "Johab (Korean)",
    "cp949": "CP949 (Korean)",
    "shift_jis": "Shift JIS (Japanese)",
    "euc_jp": "EUC-JP (Japanese)",
    "gbk": "GBK (Chinese)",
    "big5": "Big5 (Chinese)",
}

#: beyond this many lost characters, and this share of all non-ASCII ones, a file is refused
PERVASIVE_COUNT = 10
PERVASIVE_SHARE = 0.05
#: characters that must all read back cleanly when the count of characters does not shrink
_SAME_COUNT_EVIDENCE = 8
#: don't try to rebuild characters in files damaged beyond any use
_MAX_REPAIR_SITES = 2000

_ESCAPED_RUN = re.compile("[\udc80-\udcff]+")
_NON_ASCII = re.compile("[^\x00-\x7f\udc80-\udcff]")
#: characters no text holds; unassigned and private-use ones stay possible (newer Unicode, icon fonts)
_IMPLAUSIBLE = frozenset({"Cs", "Cc"})
_VARIATION_SELECTOR_16 = "\ufe0f"
_LOST_MARK = 0xFF  # never valid in UTF-8: stands for a U+FFFD already in the text


def _c1_and_lost(error: UnicodeError) -> tuple[bytes, int]:
    """Encode C1 controls as their own byte (what lenient decoders produce) and U+FFFD as a lost byte."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    chunk = error.object[error.start : error.end]
    out = bytearray()
    for char in chunk:
        if 0x80 <= ord(char) <= 0x9F:
            out.append(ord(char))
        elif char == "\ufffd":
            out.append(_LOST_MARK)
        else:
            raise error
    return bytes(out), error.end


def _lost_only(error: UnicodeError) -> tuple[bytes, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    if set(error.object[error.start : error.end]) != {"\ufffd"}:
        raise error
    return bytes([_LOST_MARK]) * (error.end - error.start), error.end


codecs.register_error("mlglossary-single-byte", _c1_and_lost)
codecs.register_error("mlglossary-multi-byte", _lost_only)


@dataclass(frozen=True, slots=True)
class Repair:
    """The outcome of undoing one code page's damage on a whole text."""

    codec: str
    #: the text with every character that could be restored, U+FFFD where bytes were lost
    text: str
    #: characters restored by the round trip alone
    round_trip: int
    #: characters rebuilt by putting back a byte the decoder had dropped
    rebuilt: int
    #: lines (1-based) holding a U+FFFD the repair had to insert
    damaged_lines: tuple[int, ...]
    #: how many characters were lost
    lost: int
    #: the code page named for people, "or" another one when the text can't tell them apart
    label: str

    @property
    def non_ascii(self) -> int:
        return len(_NON_ASCII.findall(self.text))

    @property
    def pervasive(self) -> bool:
        """Too much was lost for the text to be worth loading."""
        return self.lost > PERVASIVE_COUNT and self.lost > PERVASIVE_SHARE * max(self.non_ascii, 1)


@dataclass(frozen=True, slots=True)
class _Score:
    codec: str
    data: bytes
    decoded: str
    #: non-ASCII characters that decoded cleanly
    valid: int
    #: truncated sequences: a lead byte with some of its continuation bytes
    partial: int
    #: bytes that fit nothing: lone lead bytes, stray continuation bytes
    stray: int

    @property
    def evidence(self) -> int:
        return self.valid + self.partial


def diagnose(text: str) -> Repair | None:
    """The repair of the most likely mis-decoding of ``text``, or None when the text looks clean."""
    original = len(_NON_ASCII.findall(text))
    if not original:
        return None
    scores = [score for codec in (*SINGLE_BYTE, *MULTI_BYTE) if (score := _score(text, codec, original))]
    if not scores:
        return None
    best = max(scores, key=lambda score: score.evidence - score.stray)  # the first one wins ties
    twins = [LABELS[score.codec] for score in scores if score.data == best.data]
    return _repair(best, " or ".join(twins))


def _score(text: str, codec: str, original: int) -> _Score | None:
    errors = "mlglossary-single-byte" if codec in SINGLE_BYTE else "mlglossary-multi-byte"
    try:
        data = text.encode(codec, errors=errors)
    except UnicodeError:
        return None
    decoded = data.decode("utf-8", errors="surrogateescape")
    valid = len(_NON_ASCII.findall(decoded))
    partial = stray = 0
    for run in _ESCAPED_RUN.finditer(decoded):
        for site in _sites(_unescape(run.group())):
            if _is_lead(site[0]) and len(site) > 1:
                partial += 1
            else:
                stray += 1
    evidence = valid + partial
    # a hit needs more than one character, mostly real ones, and fewer non-ASCII characters than
    # before; or, for two-byte code pages, where a count can't shrink, every byte pair read back cleanly
    if evidence < 2 or evidence <= stray:
        return None
    if evidence + stray >= original and not (stray == partial == 0 and valid >= _SAME_COUNT_EVIDENCE):
        return None
    return _Score(codec, data, decoded, valid, partial, stray)


def _repair(score: _Score, label: str) -> Repair:
    dropped = _dropped_bytes(score.codec, score.data)
    runs = list(_ESCAPED_RUN.finditer(score.decoded))
    try_rebuild = sum(1 for run in runs for _ in _sites(_unescape(run.group()))) <= _MAX_REPAIR_SITES
    pieces: list[str] = []
    damaged: list[int] = []
    rebuilt = lost = 0
    position = 0
    line = 1
    for run in runs:
        before = score.decoded[position : run.start()]
        pieces.append(before)
        line += before.count("\n")
        for site in _sites(_unescape(run.group())):
            previous = pieces[-1][-1:] if pieces and pieces[-1] else ""
            char = _rebuild(site, dropped, previous) if try_rebuild else None
            if char is None:
                pieces.append("\ufffd")
                lost += 1
                if not damaged or damaged[-1] != line:
                    damaged.append(line)
            else:
                pieces.append(char)
                rebuilt += 1
        position = run.end()
    pieces.append(score.decoded[position:])
    return Repair(
        codec=score.codec,
        text="".join(pieces),
        round_trip=score.valid,
        rebuilt=rebuilt,
        damaged_lines=tuple(damaged),
        lost=lost,
        label=label,
    )


def _dropped_bytes(codec: str, data: bytes) -> bytes:
    """Bytes the code page's decoder would have dropped: undefined ones and C1 controls never seen."""
    if codec not in SINGLE_BYTE:
        return b""
    present = set(data)
    dropped = bytearray()
    for value in range(0x80, 0x100):
        if value in present:
            continue
        try:
            char = bytes([value]).decode(codec)
        except UnicodeDecodeError:
            dropped.append(value)
            continue
        if unicodedata.category(char) == "Cc":
            dropped.append(value)
    return bytes(dropped)


def _rebuild(site: bytes, dropped: bytes, previous: str) -> str | None:
    """The one character that putting back dropped bytes makes of ``site``, if there is exactly one."""
    if not dropped:
        return None
    found = {char for candidate in _completions(site, dropped) if (char := _one_char(candidate)) is not None}
    if len(found) == 1:
        return found.pop()
    # the emoji presentation selector is what follows a symbol; the other selectors never do here
    if _VARIATION_SELECTOR_16 in found and previous not in ("", "\ufffd") and unicodedata.category(previous) == "So":
        return _VARIATION_SELECTOR_16
    return None


def _completions(site: bytes, dropped: bytes) -> Iterator[bytes]:
    continuations = bytes(b for b in dropped if 0x80 <= b <= 0xBF)
    if _is_lead(site[0]):
        missing = _sequence_length(site[0]) - len(site)
        if not 1 <= missing <= 2:
            return
        for slots in combinations_with_replacement(range(1, len(site) + 1), missing):
            for fill in product(continuations, repeat=missing):
                yield _insert(site, slots, fill)
        return
    for lead in (b for b in dropped if _is_lead(b)):
        missing = _sequence_length(lead) - len(site) - 1
        if missing == 0:
            yield bytes([lead]) + site
        elif missing == 1:
            for slot in range(len(site) + 1):
                for value in continuations:
                    yield _insert(bytes([lead]) + site, (slot + 1,), (value,))


def _insert(site: bytes, slots: tuple[int, ...], fill: tuple[int, ...]) -> bytes:
    out = bytearray(site)
    for offset, (slot, value) in enumerate(zip(slots, fill, strict=True)):
        out.insert(slot + offset, value)
    return bytes(out)


def _one_char(candidate: bytes) -> str | None:
    try:
        char = candidate.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if len(char) != 1 or unicodedata.category(char) in _IMPLAUSIBLE:
        return None
    return char


def _unescape(run: str) -> bytes:
    return bytes(ord(char) - 0xDC00 for char in run)


def _is_lead(value: int) -> bool:
    return 0xC2 <= value <= 0xF4


def _sequence_length(lead: int) -> int:
    return 2 if lead < 0xE0 else 3 if lead < 0xF0 else 4


def _sites(data: bytes) -> Iterator[bytes]:
    """Split a run of undecodable bytes into the places where something went wrong."""
    start = 0
    for index in range(1, len(data) + 1):
        if index == len(data):
            yield data[start:index]
            return
        value = data[index]
        head = data[start]
        if _is_lead(value) or not _is_lead(head) or index - start >= _sequence_length(head):
            yield data[start:index]
            start = index
