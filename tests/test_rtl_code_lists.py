"""An ordered list of code items in Arabic text is one code span, so it reads left to right.

In right-to-left text, ``[`batch_size`, `num_channels`, `height`, `width`]`` is a run of
separate left-to-right spans joined by neutral commas: the bidirectional algorithm lays the
spans out right to left, and a reader sees the shape backwards (channels last). A single span,
`` `[batch_size, num_channels, height, width]` ``, keeps its order.
"""

from __future__ import annotations

import re
import tomllib

from .test_glossary_examples import FENCE, GLOSSARIES

#: an opening bracket, two or more code spans separated by commas, a closing bracket
SPLIT_LIST = re.compile(r"[\[(]\s*`[^`\n]+`(?:\s*[,،]\s*`[^`\n]+`)+\s*[\])]")


def split_lists(text: str) -> list[str]:
    return SPLIT_LIST.findall(FENCE.sub("", text))


def test_arabic_entries_write_ordered_code_lists_as_one_span():
    terms = tomllib.loads((GLOSSARIES / "ar.toml").read_text(encoding="utf-8"))["term"]
    found = {term["id"]: lists for term in terms if (lists := split_lists(term["summary"]) + split_lists(term["body"]))}
    assert found == {}
    assert len(terms) > 250


def test_the_rule_finds_split_lists_and_lets_single_spans_pass():
    assert split_lists("شكله [`batch_size`, `num_channels`, `height`, `width`]، ويولّده") != []
    assert split_lists("(`x_min`، `y_min`)") != []
    assert split_lists("شكله `[batch_size, num_channels, height, width]`، ويولّده") == []
    assert split_lists("الوسائط `padding` و`truncation`") == []  # an unordered mention, not a bracketed list
    assert split_lists("```python\n>>> f([`a`, `b`])\n```\n") == []  # code blocks are laid out left to right
