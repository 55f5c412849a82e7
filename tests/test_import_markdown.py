"""The Transformers Markdown dialect reader, ``read_source`` and ``to_toml``."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sphinxcontrib_mlglossary.importing import ImportResult, read_source, to_toml
from sphinxcontrib_mlglossary.importing.headings import parse_heading
from sphinxcontrib_mlglossary.importing.transformers_md import first_sentence, read_transformers_markdown
from sphinxcontrib_mlglossary.loader import GlossaryDataError, bundled_glossary, bundled_path, parse_glossary
from sphinxcontrib_mlglossary.model import Entry, Glossary

FIXTURES = Path(__file__).parent / "fixtures" / "transformers_md"
SEEDS = Path(__file__).parent / "fixtures" / "seeds"  # made by tools/make_seed_fixtures.py
TOOLS = Path(__file__).parents[1] / "tools"


def read(text: str, **kwargs) -> ImportResult:
    return read_transformers_markdown(text, "g.md", **kwargs)


def without_lines(entries) -> list[Entry]:
    return [replace(entry, line=0) for entry in entries]


@pytest.fixture(scope="module")
def english() -> ImportResult:
    return read_source(FIXTURES / "glossary_en.md", language="en")


def entry(result: ImportResult, entry_id: str) -> Entry:
    found = result.glossary.get(entry_id)
    assert found is not None, f"no entry {entry_id!r}"
    return found


# headings ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("heading", "translated", "name", "abbreviations", "english"),
    [
        ("masked language modeling (MLM)", False, "masked language modeling", ("MLM",), "masked language modeling"),
        (
            "Zero Redundancy Optimizer (ZeRO)",
            False,
            "Zero Redundancy Optimizer",
            ("ZeRO",),
            "Zero Redundancy Optimizer",
        ),
        ("sequence-to-sequence (seq2seq)", False, "sequence-to-sequence", ("seq2seq",), "sequence-to-sequence"),
        ("self-supervised learning ", False, "self-supervised learning", (), "self-supervised learning"),
        ("قناع الانتباه (Attention Mask)", True, "قناع الانتباه", (), "Attention Mask"),
        ("قناة(channel)", True, "قناة", (), "channel"),
        (
            "نموذج اللغة الكبير large language models (LLM)",
            True,
            "نموذج اللغة الكبير",
            ("LLM",),
            "large language models",
        ),
        ("توازي البيانات (DataParallel - DP)", True, "توازي البيانات", ("DP",), "DataParallel"),
        ("شبكة عصبية متكررة (RNN)", True, "شبكة عصبية متكررة", ("RNN",), ""),
        ("الرمز (Token)", True, "الرمز", (), "Token"),
        ("máscara de atención (attention mask)", True, "máscara de atención", (), "attention mask"),
        ("Sharded DDP", True, "Sharded DDP", (), ""),
        ("masked language modeling (MLM)", True, "masked language modeling", ("MLM",), ""),
    ],
)
def test_heading_shapes(heading, translated, name, abbreviations, english):
    parsed = parse_heading(heading, translated=translated)
    assert (parsed.name, parsed.abbreviations, parsed.english) == (name, abbreviations, english)


# the English fixture -----------------------------------------------------------------------


def test_english_fixture_gives_every_entry_with_slug_ids(english):
    assert [e.id for e in english.glossary] == [
        "attention-mask",
        "autoregressive-models",
        "causal-language-modeling",
        "connectionist-temporal-classification",
        "dataparallel",
        "input-ids",
        "labels",
        "token",
        "zero-redundancy-optimizer",
    ]
    ctc = entry(english, "connectionist-temporal-classification")
    assert ctc.abbreviations == ("CTC",)
    assert ctc.legacy_anchor == "connectionist-temporal-classification-ctc"
    assert english.glossary.language == "en"


def test_summary_is_the_first_sentence_and_the_body_keeps_the_definition(english):
    mask = entry(english, "attention-mask")
    assert mask.summary == "An attention mask tells the model which positions hold real tokens."
    assert mask.body.startswith(mask.summary + " Padding positions get a `0` and are ignored.")
    # "e.g." does not end a sentence
    assert entry(english, "causal-language-modeling").summary.endswith('after "the cat sat on the".')


def test_code_blocks_are_kept_verbatim(english):
    body = entry(english, "attention-mask").body
    assert (
        '```python\n>>> from transformers import BertTokenizer\n>>> tok = BertTokenizer.from_pretrained("some-checkpoint")'
        in body
    )
    assert "[[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]]\n```" in body


def test_api_names_become_python_references_like_the_bundled_glossary(english):
    assert "The {py:class}`~transformers.BertTokenizer` returns" in entry(english, "attention-mask").body
    assert "{py:class}`~transformers.Wav2Vec2ForCTC`" in entry(english, "connectionist-temporal-classification").body
    assert "{py:meth}`~transformers.PreTrainedTokenizer.convert_ids_to_tokens`" in entry(english, "input-ids").body
    bundled = bundled_path("en").read_text(encoding="utf-8")
    assert "{py:class}`~transformers.BertTokenizer`" in bundled  # the same spelling as ours


def test_in_page_links_become_term_references_and_see_also(english):
    mask = entry(english, "attention-mask")
    assert "next to the {term}`input IDs`." in mask.body
    assert mask.see_also == ("input-ids",)
    assert "one per {term}`token`" in entry(english, "input-ids").body


def test_video_tip_and_lists(english):
    assert "[Video](https://www.youtube.com/watch?v=abc123XYZ_-)" in entry(english, "attention-mask").body
    assert "```{note}\nThe shape of the labels depends on the task" in entry(english, "labels").body
    assert "- they index the vocabulary;\n- the helper" in entry(english, "input-ids").body


def test_license_comment_and_introduction_are_not_entries(english):
    text = to_toml(english.glossary)
    assert "Copyright" not in text
    [intro] = [n for n in english.notices if "introduction" in n.message]
    assert intro.level == "info" and intro.line == 8


def test_relative_links_are_reported_once_or_prefixed(english):
    [notice] = [n for n in english.notices if "relative" in n.message]
    assert notice.line == 49
    body = entry(english, "dataparallel").body
    assert "multi-GPU guide" in body and "perf_train_gpu_many" not in body  # no broken link
    based = read_source(FIXTURES / "glossary_en.md", language="en", link_base="https://docs.example.org/en/")
    assert "(https://docs.example.org/en/perf_train_gpu_many#dataparallel)" in entry(based, "dataparallel").body
    assert not [n for n in based.notices if "relative" in n.message]


def test_fixture_imports_without_warnings(english):
    assert [n for n in english.notices if n.level == "warning"] == []


# translated files --------------------------------------------------------------------------


def test_arabic_aligns_by_position_and_says_so_when_names_disagree(english):
    result = read_source(FIXTURES / "glossary_ar.md", language="ar", reference=english.glossary)
    assert [e.id for e in result.glossary] == [e.id for e in english.glossary]
    ctc = entry(result, "connectionist-temporal-classification")  # "(CTC)" alone: found by position
    assert ctc.name == "التصنيف الزمني الترابطي"
    assert "connectionist temporal classification" in ctc.aliases
    token = entry(result, "token")  # its heading names "labels" by mistake
    assert token.name == "الرمز"
    warnings = [n for n in result.notices if n.level == "warning"]
    assert any("position" in n.message and n.line == 45 for n in warnings)
    assert any("'labels'" in n.message and "left out" in n.message for n in warnings)
    assert result.glossary.language == "ar"
    assert "{term}`نمذجة اللغة السببية`" in entry(result, "autoregressive-models").body


def test_arabic_without_reference_uses_english_names_in_headings():
    result = read_source(FIXTURES / "glossary_ar.md", language="ar")
    ids = [e.id for e in result.glossary]
    assert ids[:3] == ["attention-mask", "autoregressive-models", "causal-language-modeling"]
    assert "ctc" in ids  # only an abbreviation to go by
    assert "dataparallel" in ids


def test_language_is_guessed_from_the_headings_when_not_given():
    result = read_source(FIXTURES / "glossary_ar.md")
    assert result.glossary.language == "ar"
    assert any("no language given" in n.message for n in result.notices)


def test_spanish_takes_english_names_from_parentheses(english):
    result = read_source(FIXTURES / "glossary_es.md", language="es", reference=english.glossary)
    mask = entry(result, "attention-mask")
    assert mask.name == "máscara de atención"
    assert "attention mask" in mask.aliases
    ctc = entry(result, "connectionist-temporal-classification")
    assert "{term}`máscara de atención`" in ctc.body


# problems ----------------------------------------------------------------------------------


def test_unknown_markup_is_kept_with_a_warning_naming_the_line():
    result = read(
        "## A\n\n### alpha\n\nText first.\n\n<div class='x'>raw</div>\n\n#### Sub heading\n\nSee [nowhere](#nowhere).\n",
        language="en",
    )
    alpha = result.glossary.get("alpha")
    assert alpha is not None
    assert "<div class='x'>raw</div>" in alpha.body
    assert "**Sub heading**" in alpha.body
    assert "[nowhere](#nowhere)" in alpha.body
    lines = {n.line: n.message for n in result.notices if n.level == "warning"}
    assert set(lines) == {7, 9, 11}
    assert all(message.startswith(f"g.md:{line}:") for line, message in lines.items())


def test_a_page_without_headings_is_refused_clearly():
    with pytest.raises(GlossaryDataError, match="no Markdown headings") as caught:
        read("Glossary\n\nattention mask\n\nThe attention mask is optional.\n")
    assert caught.value.line == 1
    assert "'### term'" in str(caught.value)


def test_letter_sections_without_terms_are_refused():
    with pytest.raises(GlossaryDataError, match="no '### term' headings"):
        read("# Glossary\n\n## A\n\nattention mask: a mask.\n")


def test_duplicate_ids_and_names_are_made_unique_with_one_warning():
    result = read("## A\n\n### alpha\n\nOne.\n\n### alpha\n\nTwo.\n", language="en")
    assert [e.id for e in result.glossary] == ["alpha", "alpha-2"]
    assert [e.name for e in result.glossary] == ["alpha", "alpha (2)"]
    (warning,) = [n for n in result.notices if n.level == "warning"]
    assert warning.line == 7
    assert "id 'alpha' is already used by the entry at line 3, so this one became 'alpha-2'" in warning.message
    assert "'alpha' is already a name of entry 'alpha' (line 3), so it was renamed 'alpha (2)'" in warning.message
    parse_glossary(to_toml(result.glossary), "out.toml")


def test_a_repeated_heading_with_an_abbreviation_gives_one_warning_for_its_line():
    text = "## M\n\n### masked language modeling (MLM)\n\nOne.\n\n### masked language modeling (MLM)\n\nTwo.\n"
    result = read(text, language="en")
    warnings = [n for n in result.notices if n.level == "warning"]
    assert [n.line for n in warnings] == [7]
    assert "so it was renamed" in warnings[0].message
    assert (
        "'MLM' is already a name of entry 'masked-language-modeling' (line 3), so it was left out"
        in warnings[0].message
    )
    assert result.glossary.entries[1].abbreviations == ()


def test_two_different_repeats_give_one_warning_each():
    result = read("## A\n\n### alpha\n\nOne.\n\n### alpha\n\nTwo.\n\n### alpha\n\nThree.\n", language="en")
    warnings = [n for n in result.notices if n.level == "warning"]
    assert [n.line for n in warnings] == [7, 11]
    assert [e.id for e in result.glossary] == ["alpha", "alpha-2", "alpha-3"]


def test_an_entry_without_text_is_kept_and_reported():
    result = read("## A\n\n### alpha\n\n### beta\n\nText.\n", language="en")
    alpha = result.glossary.get("alpha")
    assert alpha is not None and alpha.body == "alpha"
    assert any(n.line == 3 and "no definition" in n.message for n in result.notices)


@pytest.mark.parametrize(
    ("text", "sentence"),
    [
        ("One. Two.", "One."),
        ("Use `a.b` here. Then more.", "Use `a.b` here."),
        ("For e.g. this one. Next.", "For e.g. this one."),
        ("Is it? Yes.", "Is it?"),
        ("هل هذا؟ نعم.", "هل هذا؟"),
        ("一つ目。二つ目。", "一つ目。"),
        ("No end", "No end"),
    ],
)
def test_first_sentence(text, sentence):
    assert first_sentence(text) == sentence


@pytest.mark.parametrize(
    ("text", "sentence"),
    [
        ("A *bold. c* done. E.", "A *bold. c* done."),
        ("See [the. link](x) here. More.", "See [the. link](x) here."),
        ("Escaped \\*star. Next.", "Escaped \\*star."),
        ("Not e.g. approx. Dr. i.e. but here. Yes.", "Not e.g. approx. Dr. i.e. but here."),
        ("An a. b. c. then end. Yes.", "An a. b. c. then end."),
    ],
)
def test_first_sentence_keeps_emphasis_links_and_abbreviations_whole(text, sentence):
    assert first_sentence(text) == sentence


#: one megabyte of what used to make the import quadratic: sentence ends that are not ones
#: (each rescanned the whole paragraph) and a translated heading ending in a long run of
#: Latin words (a regular expression tried every starting point of it)
HOSTILE_MEGABYTE = {
    "abbreviations": ("en", "# Glossary\n\n## A\n\n### term\n\n" + "e.g. " * 200_000 + "\n"),
    "latin tail": ("ar", "# المسرد\n\n## ا\n\n### " + "a " * 500_000 + "ب\n\nنص.\n"),
}


@pytest.mark.parametrize("case", sorted(HOSTILE_MEGABYTE))
def test_a_hostile_megabyte_imports_within_seconds(case, tmp_path):
    import time

    language, text = HOSTILE_MEGABYTE[case]
    path = tmp_path / "hostile.md"
    path.write_text(text, encoding="utf-8")
    assert path.stat().st_size >= 1_000_000
    started = time.perf_counter()
    result = read_source(path, language=language)
    elapsed = time.perf_counter() - started
    assert len(result.glossary) == 1
    # about 1.5 s on a quiet machine; the quadratic scan took hours (8.5 s at 20 KB already)
    assert elapsed < 20, f"{case}: {elapsed:.1f} s for 1 MB"


@pytest.mark.parametrize("unit", ["e.g. ", "*a b. ", "[a. "])
def test_sentence_scan_is_linear(unit):
    import time

    timings = []
    for count in (20_000, 80_000):
        text = unit * count
        runs = []
        for _ in range(3):  # the fastest of three: a busy machine slows single runs
            started = time.perf_counter()
            first_sentence(text)
            runs.append(time.perf_counter() - started)
        timings.append(min(runs))
    # four times the text: about four times the time (a quadratic scan takes sixteen)
    assert timings[1] < 8 * timings[0] + 0.05, timings


# read_source and to_toml -------------------------------------------------------------------


def test_toml_round_trip_is_stable(english):
    text = to_toml(english.glossary)
    again = parse_glossary(text, "out.toml")
    assert without_lines(again) == without_lines(english.glossary)
    assert to_toml(again) == text


def test_bundled_toml_reads_back_through_read_source(tmp_path):
    result = read_source(bundled_path("en"))
    assert without_lines(result.glossary) == without_lines(bundled_glossary("en"))
    assert result.notices == ()
    copy = tmp_path / "en.toml"
    copy.write_text(to_toml(result.glossary), encoding="utf-8")
    assert without_lines(read_source(copy).glossary) == without_lines(bundled_glossary("en"))


def test_translated_toml_needs_its_reference(tmp_path):
    result = read_source(bundled_path("es"), reference=bundled_glossary("en"))
    assert result.glossary.get("attention-mask") == bundled_glossary("es").get("attention-mask")
    with pytest.raises(GlossaryDataError, match="'es'"):
        read_source(bundled_path("es"), language="ar", reference=bundled_glossary("en"))


def test_format_is_picked_by_content_when_the_suffix_says_nothing(tmp_path):
    toml_copy = tmp_path / "glossary.data"
    toml_copy.write_bytes(bundled_path("en").read_bytes())
    assert len(read_source(toml_copy).glossary) == len(bundled_glossary("en"))
    md_copy = tmp_path / "glossary.source"
    md_copy.write_bytes((FIXTURES / "glossary_en.md").read_bytes())
    assert len(read_source(md_copy, language="en").glossary) == 9


def test_damaged_fixture_imports_like_the_clean_one(tmp_path, english):
    damaged = tmp_path / "en.md"
    clean = (FIXTURES / "glossary_en.md").read_text(encoding="utf-8")
    damaged.write_bytes(clean.encode("utf-8").decode("cp1252", errors="ignore").encode("utf-8"))
    result = read_source(damaged, language="en")
    assert without_lines(result.glossary) == without_lines(english.glossary)
    assert result.notices[0].subtype == "encoding" and result.notices[0].level == "info"


def test_missing_file_is_our_error(tmp_path):
    with pytest.raises(GlossaryDataError, match="cannot read"):
        read_source(tmp_path / "nope.md")


# stand-ins for the damaged originals (tools/make_seed_fixtures.py) -------------------------


def seed(prefix: str) -> Path:
    return next(SEEDS.glob(f"{prefix}_*"))


def test_seed_fixtures_are_current():
    """The stand-ins quote the bundled entries: remade when those change (or the damage would test old text)."""
    done = subprocess.run(
        [sys.executable, str(TOOLS / "make_seed_fixtures.py"), "--check"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr


def test_seed_001_imports_its_entries_with_the_bundled_ids():
    result = read_source(seed("001"), language="en")
    ids = [e.id for e in result.glossary]
    # the fixture quotes 12 bundled entries: same ids, same order
    assert len(ids) == 12 and ids == [e.id for e in bundled_glossary("en") if e.id in set(ids)]
    assert [n.subtype for n in result.notices if n.level == "warning"] == []
    assert result.glossary.get("attention-mask").summary == bundled_glossary("en").get("attention-mask").summary
    parse_glossary(to_toml(result.glossary), "001.toml")


def test_seed_003_spanish_imports_all_its_entries():
    result = read_source(seed("003"), language="es", reference=bundled_glossary("en"))
    assert len(result.glossary) == 12
    english = [e.id for e in read_source(seed("001"), language="en").glossary]
    assert [e.id for e in result.glossary] == english  # aligned entry by entry with the English one
    assert "Johab" in result.notices[0].message
    assert [n.subtype for n in result.notices if n.level == "warning"] == []
    parse_glossary(to_toml(result.glossary), "003.toml")


def test_seed_000_loads_with_its_damage_reported():
    result = read_source(seed("000"), language="en")
    assert result.notices[0].level == "warning" and result.notices[0].subtype == "encoding"
    assert "\ufffd" in to_toml(result.glossary)


@pytest.mark.parametrize(("prefix", "message"), [("002", "no Markdown headings"), ("004", "decoded as TIS-620")])
def test_seeds_002_and_004_are_refused(prefix, message):
    with pytest.raises(GlossaryDataError, match=message):
        read_source(seed(prefix))


# properties --------------------------------------------------------------------------------

WORDS = st.text(alphabet=st.characters(categories=("L", "N"), include_characters=" -'"), min_size=1, max_size=12)
INLINE = st.lists(
    st.one_of(
        WORDS,
        WORDS.map(lambda w: f"`{w}`"),
        WORDS.map(lambda w: f"[`{w.strip() or 'X'}`]"),
        WORDS.map(lambda w: f"*{w.strip() or 'x'}*"),
        WORDS.map(lambda w: f"[{w}](#{w})"),
        WORDS.map(lambda w: f"[{w}](docs/{w})"),
        st.sampled_from([".", ",", "!", "?", "_", "*", "<", "&amp;", "\\", "{", "}", "$", "#", "|", ">>>"]),
    ),
    min_size=1,
    max_size=12,
).map(" ".join)
BLOCK = st.one_of(
    INLINE,
    INLINE.map(lambda t: f"* {t}\n* {t}"),
    INLINE.map(lambda t: f"```py\n>>> {t}\n```"),
    INLINE.map(lambda t: f"<Tip>\n\n{t}\n\n</Tip>"),
    st.just('<Youtube id="abc"/>'),
    INLINE.map(lambda t: f"> {t}"),
    INLINE.map(lambda t: f"| a | b |\n|---|---|\n| {t} | x |"),
)
TERM = st.tuples(WORDS, st.lists(BLOCK, min_size=0, max_size=3))
DOCUMENT = st.lists(st.tuples(st.sampled_from("ABCZ"), st.lists(TERM, min_size=1, max_size=3)), min_size=1, max_size=3)


def render(document) -> str:
    parts = ["# Glossary"]
    for letter, terms in document:
        parts.append(f"## {letter}")
        for name, blocks in terms:
            parts.append(f"### {name}")
            parts.extend(blocks)
    return "\n\n".join(parts) + "\n"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(DOCUMENT, st.sampled_from(["en", "es", "ar"]))
def test_import_export_import_is_stable(document, language):
    try:
        result = read(render(document), language=language)
    except GlossaryDataError:
        return
    text = to_toml(result.glossary)
    again = parse_glossary(text, "out.toml")
    assert without_lines(again) == without_lines(result.glossary)
    assert to_toml(again) == text


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=400))
def test_any_text_gives_a_glossary_or_our_error(text):
    try:
        result = read(text, language="en")
    except GlossaryDataError as exc:
        assert str(exc).startswith("g.md")
        return
    parse_glossary(to_toml(result.glossary), "out.toml")


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=300), st.sampled_from([".md", ".toml", ".txt", ".bin"]))
def test_any_file_gives_a_glossary_or_our_error(tmp_path_factory, raw, suffix):
    path = tmp_path_factory.mktemp("any") / f"g{suffix}"
    path.write_bytes(raw)
    try:
        result = read_source(path)
    except GlossaryDataError as exc:
        assert str(exc).startswith(str(path))
        return
    assert isinstance(result.glossary, Glossary)
