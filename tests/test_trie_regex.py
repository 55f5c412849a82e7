"""The auto-linking regex's trie source finds what a plain alternation of its words finds.

``term_pattern._trie_regex`` writes thousands of forms as one prefix tree, and writes a
branch once behind several first characters when what follows them is the same (a name
spelt with a space or a hyphen). Whatever the words, at each place it must match the
longest word there, as an alternation of the words tried longest first does.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from sphinxcontrib_mlglossary.term_pattern import _trie_regex

#: words as names' folded spellings are (parts of two letters joined by one space or a
#: hyphen, none at either end): few letters, so words share prefixes and rests, as they do
_PART = st.text(alphabet="ab", min_size=1, max_size=3)
_WORD = st.builds(
    lambda first, rest: first + "".join(separator + part for separator, part in rest),
    _PART,
    st.lists(st.tuples(st.sampled_from([" ", "-", ""]), _PART), max_size=3),
)
_WORDS = st.lists(_WORD, min_size=1, max_size=12, unique=True)
_TEXT = st.text(alphabet="abAB -c\n", max_size=80)


def _alternation(words: list[str]) -> str:
    def piece(char: str) -> str:
        return r"\s+" if char == " " else re.escape(char)

    return "|".join("".join(map(piece, word)) for word in sorted(words, key=len, reverse=True))


@settings(max_examples=300, deadline=None)
@given(_WORDS, _TEXT)
def test_the_trie_finds_what_the_alternation_finds(words, text):
    # compiled as the pattern is: case-insensitive
    trie = re.compile(f"(?:{_trie_regex(words)})", re.IGNORECASE)
    plain = re.compile(f"(?:{_alternation(words)})", re.IGNORECASE)
    assert [m.span() for m in trie.finditer(text)] == [m.span() for m in plain.finditer(text)]
    for word in words:
        assert trie.fullmatch(word)


def test_a_rest_shared_by_a_spaced_and_a_hyphenated_spelling_is_written_once():
    source = _trie_regex(["4 bit float", "4-bit float", "4bit float"])
    assert source.count("float") == 2  # "4(?:\s+|\-)bit\s+float" and "4bit\s+float"
    assert re.compile(source).fullmatch("4  bit float")
