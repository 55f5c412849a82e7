"""The encoding layer: what it accepts, what it repairs exactly, what it flags, what it refuses.

Damaged files are made here from our own fixtures, the way the Transformers seeds were
damaged: UTF-8 bytes decoded with a legacy code page whose decoder dropped some bytes,
then saved again as UTF-8.
"""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest
from babel import Locale
from hypothesis import given, settings
from hypothesis import strategies as st

from sphinxcontrib_mlglossary.importing.encoding import decode_source
from sphinxcontrib_mlglossary.importing.mojibake import diagnose
from sphinxcontrib_mlglossary.loader import GlossaryDataError

FIXTURES = Path(__file__).parent / "fixtures" / "transformers_md"
SEEDS = Path(__file__).parent / "fixtures" / "seeds"  # made by tools/make_seed_fixtures.py
C1 = bytes(range(0x80, 0xA0))


def damage(text: str, codec: str, dropped: bytes = b"") -> bytes:
    """UTF-8 text read with ``codec`` by a decoder that drops ``dropped`` and undefined bytes, saved as UTF-8."""
    data = bytes(b for b in text.encode("utf-8") if b not in dropped)
    return data.decode(codec, errors="ignore").encode("utf-8")


def fixture(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def only_lost(original: str, repaired: str) -> bool:
    """Every character of the repair is the original one or U+FFFD: nothing invented."""
    return len(original) == len(repaired) and all(
        a == b or b == "\ufffd" for a, b in zip(original, repaired, strict=True)
    )


# accepted forms --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw",
    [
        "### token\n\nA piece of text 🤗.\n".encode(),
        codecs.BOM_UTF8 + "### token\n\nA piece of text 🤗.\n".encode(),
        "### token\n\nA piece of text 🤗.\n".encode("utf-16"),
        codecs.BOM_UTF16_BE + "### token\n\nA piece of text 🤗.\n".encode("utf-16-be"),
    ],
    ids=["utf-8", "utf-8-bom", "utf-16-le-bom", "utf-16-be-bom"],
)
def test_unicode_forms_are_read_without_notice(raw):
    decoded = decode_source(raw, "g.md")
    assert decoded.text == "### token\n\nA piece of text 🤗.\n"
    assert decoded.notices == ()


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (b"", "holds no text"),
        (b"  \n\t\n", "holds no text"),
        (b"### a\n\x00\x01\x02binary", "binary file"),
        ("### a\n\ncaf\u00e9\n".encode("cp1252"), "not valid UTF-8"),
        (codecs.BOM_UTF16_LE + b"\x00\xd8", "not valid UTF-16"),
    ],
    ids=["empty", "blank", "nul-bytes", "legacy-bytes", "broken-utf16"],
)
def test_unusable_bytes_are_refused_with_the_file_name(raw, expected):
    with pytest.raises(GlossaryDataError) as caught:
        decode_source(raw, "broken.md")
    assert expected in str(caught.value)
    assert "broken.md" in str(caught.value)


def test_legacy_bytes_name_the_line():
    raw = "### a\n\nline two\ncaf\u00e9\n".encode("latin-1")
    with pytest.raises(GlossaryDataError) as caught:
        decode_source(raw, "old.md")
    assert caught.value.line == 4
    assert "save the file as UTF-8" in str(caught.value)


# exact repairs -----------------------------------------------------------------------------


def test_cp1252_with_undefined_bytes_dropped_is_repaired_exactly():
    text = fixture("glossary_en.md")
    damaged = damage(text, "cp1252")
    assert damaged != text.encode("utf-8")  # the emoji selector lost its 0x8F byte
    decoded = decode_source(damaged, "en.md")
    assert decoded.text == text
    [notice] = decoded.notices
    assert (notice.level, notice.subtype) == ("info", "encoding")
    assert "Windows-1252" in notice.message
    assert "en.md:" in notice.message
    first_non_ascii = next(n for n, line in enumerate(text.splitlines(), 1) if not line.isascii())
    assert notice.line == first_non_ascii  # the first line the repair changed


def test_dangling_selector_after_a_symbol_is_rebuilt():
    text = "### warning sign\n\nMind the sign ⚠️ here, and 🤗 there, and ⚠️ again.\n"
    repair = diagnose(damage(text, "cp1252").decode("utf-8"))
    assert repair is not None
    assert repair.text == text
    assert repair.rebuilt == 2


def test_johab_mis_decoding_is_repaired_exactly():
    text = (
        "### máscara de atención\n\nIndica qué posiciones contienen tokens reales: señal, pingüino, más, país, así.\n"
    )
    text.encode("utf-8").decode("johab")  # every byte pair is a Johab character: nothing was dropped
    decoded = decode_source(damage(text, "johab"), "es.md")
    assert decoded.text == text
    assert "Johab" in decoded.notices[0].message


def test_johab_with_dropped_sequences_never_invents_characters():
    text = fixture("glossary_es.md") + "\nEmoji 🤗 y 🤗, comillas «así» y “así”.\n"
    repair = diagnose(damage(text, "johab").decode("utf-8"))
    assert repair is not None and repair.codec == "johab"
    assert "\ufffd" in repair.text
    kept = [char for char in repair.text if char != "\ufffd"]
    assert all(char in text for char in kept)


@pytest.mark.parametrize(
    ("text", "codec", "label"),
    [
        ("### токен\n\nКусок текста, часто слово или его часть. Иногда И, Й и Ш.\n", "cp1251", "Windows-1251"),
        ("### токен\n\nКусок текста, часто слово или его часть.\n", "koi8_r", "KOI8-R"),
        ("### トークン\n\nテキストの断片で、多くは単語かその一部です。\n", "latin_1", "Latin-1"),
    ],
    ids=["cyrillic-cp1251", "cyrillic-koi8r", "japanese-latin1"],
)
def test_other_scripts_are_repaired_exactly(text, codec, label):
    decoded = decode_source(damage(text, codec), "g.md")
    assert decoded.text == text
    assert label in decoded.notices[0].message


# a few losses: loaded with one warning -----------------------------------------------------


def test_latin1_with_c1_stripped_warns_once_with_every_damaged_line():
    text = fixture("glossary_en.md")
    decoded = decode_source(damage(text, "latin_1", C1), "en.md")
    [notice] = decoded.notices
    assert (notice.level, notice.subtype) == ("warning", "encoding")
    damaged_lines = [n for n, line in enumerate(decoded.text.splitlines(), 1) if "\ufffd" in line]
    assert damaged_lines  # the emoji lost bytes: visible, not silent
    assert f"line(s) {', '.join(map(str, damaged_lines))}" in notice.message
    assert notice.line == damaged_lines[0]
    assert "re-export" in notice.message
    assert only_lost(text, decoded.text)


def test_an_ambiguous_lost_byte_becomes_a_replacement_character():
    # "Í" is C3 8D: cp1252 drops 0x8D, and C3 + any dropped byte is a letter, so it can't be told
    text = "### ÍNDICE\n\nUn índice — ÍNDICE — con comillas “así” y 🤗 y ⚠️ y ‘esto’ y más texto.\n"
    decoded = decode_source(damage(text, "cp1252"), "es.md")
    # lost: both "Í" and the closing quote (E2 80 9D: five characters end in E2 80 + a dropped byte)
    assert decoded.text.count("\ufffd") == 3
    assert "“así\ufffd" in decoded.text
    assert only_lost(text, decoded.text)
    assert decoded.notices[0].level == "warning"
    assert "line(s) 1, 3" in decoded.notices[0].message


def test_greek_losses_never_invent_characters():
    text = "### σύμβολο\n\nΈνα κομμάτι κειμένου, συχνά μια λέξη ή μέρος της. Νέο Ξ και Ο.\n"
    repair = diagnose(damage(text, "cp1253").decode("utf-8"))
    assert repair is not None
    assert repair.codec == "cp1253"
    assert only_lost(text, repair.text)


# pervasive damage: refused -----------------------------------------------------------------


def test_arabic_through_tis620_with_bytes_dropped_is_refused():
    text = fixture("glossary_ar.md")
    with pytest.raises(GlossaryDataError) as caught:
        decode_source(damage(text, "tis_620", bytes(range(0x80, 0xA1))), "ar.md")
    message = str(caught.value)
    assert "decoded as TIS-620" in message
    assert "first damaged lines: 1, " in message
    assert "re-export the original file as UTF-8" in message
    assert caught.value.line == 1


def test_japanese_through_cp1252_is_refused():
    text = "### トークン\n\nテキストの断片で、多くは単語かその一部です。あいうえお。\n" * 3
    with pytest.raises(GlossaryDataError, match="decoded as Windows-1252"):
        decode_source(damage(text, "cp1252"), "ja.md")


# clean text is never touched ---------------------------------------------------------------

CLEAN_SAMPLES = {
    "en": "### token\n\nA piece of text — “quoted” — with an emoji 🤗 and a sign ⚠️.\n",
    "es": "### máscara de atención\n\n¿Qué posiciones? Señala las posiciones con ÍNDICE, Ñ y ü.\n",
    "de": "### Aufmerksamkeitsmaske\n\nGrößere Maße für Übergänge, „Anführungszeichen“ und ß.\n",
    "ru": "### токен\n\nКусок текста, часто слово или его часть.\n",
    "el": "### σύμβολο\n\nΈνα κομμάτι κειμένου, συχνά μια λέξη.\n",
    "ar": "### قناع الانتباه\n\nيخبر قناع الانتباه النموذج بالمواضع الحقيقية، مثل tokenizer(a، b).\n",
    "he": "### אסימון\n\nפיסת טקסט, לרוב מילה או חלק ממנה.\n",
    "ja": "### トークン\n\nテキストの断片で、多くは単語かその一部です。\n",
    "ko": "### 토큰\n\n텍스트의 조각으로, 보통 단어나 단어의 일부입니다.\n",
    "zh": "### 词元\n\n文本的一个片段，通常是一个词或词的一部分。\n",
    "th": "### โทเค็น\n\nชิ้นส่วนของข้อความ มักเป็นคำหรือส่วนของคำ\n",
    "hi": "### टोकन\n\nपाठ का एक टुकड़ा, अक्सर एक शब्द या उसका हिस्सा।\n",
}


@pytest.mark.parametrize("language", sorted(CLEAN_SAMPLES))
def test_clean_text_in_any_script_is_not_flagged(language):
    text = CLEAN_SAMPLES[language]
    assert diagnose(text) is None
    decoded = decode_source(text.encode("utf-8"), "g.md")
    assert decoded.text == text
    assert decoded.notices == ()


@pytest.mark.parametrize("name", ["glossary_en.md", "glossary_es.md", "glossary_ar.md"])
def test_clean_fixtures_are_not_flagged(name):
    assert diagnose(fixture(name)) is None


@pytest.mark.parametrize("locale", ["ar", "el", "he", "hi", "ja", "ko", "ru", "th", "zh", "de", "es", "fr", "tr", "vi"])
def test_clean_language_names_are_not_flagged(locale):
    """A larger clean corpus in many scripts: the language names each locale uses."""
    names = Locale.parse(locale).languages
    text = "\n".join(f"- {code}: {name}" for code, name in sorted(names.items()))
    assert diagnose(text) is None
    assert diagnose(text[:300]) is None


def test_replacement_characters_already_in_clean_text_are_reported():
    decoded = decode_source("### a\n\nok\nlost \ufffd here\n".encode(), "g.md")
    [notice] = decoded.notices
    assert notice.level == "warning"
    assert notice.line == 4


def test_a_single_character_is_never_enough():
    # "Ã©" alone would decode to "é", but one character is no evidence
    assert diagnose("### caf\u00c3\u00a9\n\nplain text\n") is None


# stand-ins for the damaged originals (tools/make_seed_fixtures.py) -------------------------


def seed(prefix: str) -> Path:
    return next(SEEDS.glob(f"{prefix}_*"))


def test_seed_001_cp1252_is_repaired_exactly():
    decoded = decode_source(seed("001").read_bytes(), "001.md")
    assert decoded.text == (SEEDS / "clean_en.md").read_text(encoding="utf-8")
    assert "⚠️" in decoded.text and "🤗" in decoded.text  # U+FE0F lost a byte cp1252 leaves undefined
    assert [n.level for n in decoded.notices] == ["info"]


def test_seed_003_johab_is_repaired_exactly():
    decoded = decode_source(seed("003").read_bytes(), "003.md")
    assert decoded.text == (SEEDS / "clean_es.md").read_text(encoding="utf-8")
    assert "Johab" in decoded.notices[0].message
    assert "⚠️" in decoded.text


def test_seed_000_loads_with_a_warning_naming_its_damaged_lines():
    decoded = decode_source(seed("000").read_bytes(), "000.md")
    [notice] = decoded.notices
    assert notice.level == "warning"
    lines = [n for n, line in enumerate(decoded.text.splitlines(), 1) if "\ufffd" in line]
    assert lines and f"line(s) {', '.join(map(str, lines))}" in notice.message


def test_seed_004_is_refused():
    with pytest.raises(GlossaryDataError, match="decoded as TIS-620"):
        decode_source(seed("004").read_bytes(), "004.md")


def test_seed_002_is_clean_text():
    assert decode_source(seed("002").read_bytes(), "002.md").notices == ()


# properties --------------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=400))
def test_any_bytes_give_text_or_our_error(raw):
    try:
        decoded = decode_source(raw, "any.md")
    except GlossaryDataError as exc:
        assert str(exc).startswith("any.md")
        return
    assert decoded.text.strip()


@settings(max_examples=150, deadline=None)
@given(st.text(min_size=1, max_size=300))
def test_any_text_gives_text_or_our_error(text):
    try:
        decoded = decode_source(text.encode("utf-8"), "any.md")
    except GlossaryDataError as exc:
        assert str(exc).startswith("any.md")
        return
    if diagnose(text) is None:
        assert decoded.text == text  # clean text is never touched


@settings(max_examples=150, deadline=None)
@given(
    # variation selectors 1-15 are left out: after a symbol a lost one is read as U+FE0F, the one documented guess
    st.text(
        alphabet=st.characters(
            codec="utf-8",
            exclude_categories=("Cs", "Cc"),  # no text holds C1 controls; a lost one is read as a character
            exclude_characters="".join(map(chr, range(0xFE00, 0xFE0F))),
            include_characters="\n\t",
        ),
        min_size=1,
        max_size=200,
    ),
    st.sampled_from(["cp1252", "latin_1", "cp1251", "cp1253", "tis_620"]),
)
def test_repairs_never_invent_characters(text, codec):
    """Whatever a repair outputs matches the original text wherever it isn't U+FFFD.

    Single-byte code pages only: a multi-byte decoder that skips bytes shifts the pairing of
    the rest, and what it produced then can't be told from text (see the Johab test above).
    """
    damaged = damage(text, codec, C1 if codec in ("latin_1", "tis_620") else b"").decode("utf-8")
    repair = diagnose(damaged)
    if repair is not None and len(repair.text) == len(text) and repair.codec == codec:
        assert only_lost(text, repair.text)
