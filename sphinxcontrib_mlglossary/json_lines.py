"""JSON laid out an entry a line, for the stored files the repository keeps.

The stored bodies and tables are regenerated whenever an entry changes. Written as one
line, every regeneration replaced a whole file of a few megabytes in the history, so a
session that edited a handful of entries produced hundreds of megabytes of diffs. With the
outer levels indented and each entry kept on one line, an edited entry changes one line.
The text still reads back with :func:`json.loads` into the same data.
"""

from __future__ import annotations

import json
from typing import Any


def dumps_by_line(data: Any, *, levels: int = 3, sort_keys: bool = False) -> str:
    """``data`` as JSON: the first ``levels`` levels of containers a member per line, the rest compact."""
    return _laid_out(data, levels, "", sort_keys) + "\n"


def _laid_out(value: Any, levels: int, indent: str, sort_keys: bool) -> str:
    if levels == 0 or not isinstance(value, dict | list) or not value:
        return json.dumps(value, ensure_ascii=False, sort_keys=sort_keys, separators=(",", ":"))
    inner = indent + " "
    if isinstance(value, dict):
        keys = sorted(value) if sort_keys else list(value)
        members = [
            f"{inner}{json.dumps(key, ensure_ascii=False)}:{_laid_out(value[key], levels - 1, inner, sort_keys)}"
            for key in keys
        ]
        return "{\n" + ",\n".join(members) + "\n" + indent + "}"
    members = [inner + _laid_out(item, levels - 1, inner, sort_keys) for item in value]
    return "[\n" + ",\n".join(members) + "\n" + indent + "]"
