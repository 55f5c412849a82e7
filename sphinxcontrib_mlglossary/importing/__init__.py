"""Import glossaries from other formats into ours.

``read_source`` reads a file (our TOML, or the Transformers Markdown dialect, repairing
mis-decoded text on the way) and ``to_toml`` writes the result in our data format.
"""

from __future__ import annotations

from .reader import read_source
from .result import ImportResult, Notice
from .toml_writer import to_toml

__all__ = ["ImportResult", "Notice", "read_source", "to_toml"]
