"""Limits for the numbers directive options in glossary data may hold.

A content directive can still be asked for more than a page needs: ``{hlist}`` with a
million columns runs for minutes, ``:emphasize-lines: 1-1000000000`` builds a list of a
billion numbers, and an image ten metres wide stops LaTeX ("Dimension too large"). The
options are checked after MyST has parsed them the way the directive will see them, so
a YAML spelling (``1_000_000``) gives no way round.
"""

from __future__ import annotations

import re
from typing import Any

#: the largest number each numeric option may hold (line numbers, counts, percentages)
NUMBER_LIMITS = {
    "columns": 12,
    "header-rows": 100,
    "stub-columns": 100,
    "widths": 1000,
    "emphasize-lines": 10_000,
    "lineno-start": 1_000_000,
    "dedent": 1000,
    "scale": 1000,
}

#: options holding a length: at most this many points (TeX stops at about 16,000)
LENGTH_OPTIONS = frozenset({"width", "height", "figwidth"})
MAX_POINTS = 5000.0
_POINTS_PER_UNIT = {"": 0.75, "px": 0.75, "pt": 1.0, "bp": 1.0, "pc": 12.0, "in": 72.0, "cm": 28.35}
_POINTS_PER_UNIT |= {"mm": 2.835, "em": 12.0, "ex": 6.0}
_LENGTH = re.compile(r"\s*(\d+(?:\.\d*)?|\.\d+)\s*([a-z%]*)\s*", re.IGNORECASE)
_NUMBER = re.compile(r"\d+")
#: the most numbers one option may list (``:widths:`` of a wide table, ``:emphasize-lines:``)
MAX_ITEMS = 200


def option_problem(name: str, value: Any) -> str:
    """Why an option's (parsed) value is out of bounds ("" when it is not)."""
    if name in LENGTH_OPTIONS:
        return _length_problem(value)
    limit = NUMBER_LIMITS.get(name)
    if limit is None:
        return ""
    numbers = _numbers_in(value)
    if len(numbers) > MAX_ITEMS:
        return f"it lists {len(numbers)} numbers, more than {MAX_ITEMS}"
    largest = max(numbers, default=0)
    if largest > limit:
        return f"{largest} is more than the {limit} it may be"
    return ""


def _numbers_in(value: Any) -> list[int]:
    if isinstance(value, bool):
        return []
    if isinstance(value, (int, float)):
        return [abs(int(value))]
    if isinstance(value, (list, tuple)):
        return [number for item in value for number in _numbers_in(item)]
    if isinstance(value, str):
        # digits only (no sign): "1-1000000000" is a range of line numbers
        return [int(digits) for digits in _NUMBER.findall(value)]
    return []


def _length_problem(value: Any) -> str:
    if value is None or value == "image":  # figwidth "image": the image's own width
        return ""
    found = _LENGTH.fullmatch(str(value))
    if found is None:
        return ""  # not a length: the directive reports it itself
    number, unit = float(found.group(1)), found.group(2).lower()
    if unit == "%":
        return f"{number:g}% is more than 100%" if number > 100 else ""
    points = number * _POINTS_PER_UNIT.get(unit, 0.75)
    return f"{value} is more than {MAX_POINTS:g} points" if points > MAX_POINTS else ""
