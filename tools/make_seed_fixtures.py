"""Make tests/fixtures/seeds/: small stand-ins for the damaged Transformers glossaries we were given.

The originals are not ours to ship, so the tests read these instead. Each one is written
from the bundled glossary's own text (names and summaries of a few entries, in our words)
in the Transformers Markdown dialect, then damaged the way its original was:

- ``001_en_cp1252.txt``: English, UTF-8 read as Windows-1252 by a decoder that dropped the
  bytes the code page leaves undefined, saved as UTF-8 (repairable exactly);
- ``000_en_latin1.txt``: English, read as Latin-1 with the C1 bytes 0x80-0x9F deleted
  (lost for good: loads, with its damaged lines named);
- ``002_en_web_page.txt``: English text as copied from a rendered web page, no Markdown
  headings at all (clean text, refused as a glossary);
- ``003_es_johab.txt``: Spanish, read as Johab (Korean), saved as UTF-8 (repairable exactly);
- ``004_ar_tis620.txt``: Arabic, read as TIS-620 (Thai) with 0x80-0xA0 deleted (refused);
  its headings are the English names, so no damaged Arabic name reads like the original's.

Run ``python tools/make_seed_fixtures.py`` after changing the bundled entries it quotes;
``--check`` fails when the files on disk differ from what it would write (the tests run it).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sphinxcontrib_mlglossary.loader import bundled_glossary  # noqa: E402
from sphinxcontrib_mlglossary.model import Entry, Glossary  # noqa: E402

OUT = ROOT / "tests" / "fixtures" / "seeds"

#: entries of the original glossary, by id, in the bundled glossary's order
ENTRY_IDS = (
    "attention-mask",
    "autoregressive-models",
    "causal-language-modeling",
    "connectionist-temporal-classification",
    "input-ids",
    "labels",
    "masked-language-modeling",
    "pipeline",
    "pipelineparallel",
    "token",
    "token-type-ids",
    "zero-redundancy-optimizer",
)
#: the Latin-1 original is a short excerpt
SHORT_IDS = ("attention-mask", "input-ids", "labels", "token")

TITLES = {"en": "Glossary", "es": "Glosario", "ar": "مسرد المصطلحات"}
PREFACES = {
    "en": "🤗 A short glossary made for the tests from the bundled entries' own summaries.",
    "es": "🤗 Un glosario corto hecho para las pruebas con los resúmenes de las entradas incluidas.",
    "ar": "🤗 مسرد قصير أُعدّ للاختبارات من ملخصات المدخلات المضمّنة.",
}
TIPS = {
    "en": "⚠️ Padding positions carry a mask value of 0 in this fixture.",
    "es": "⚠️ Las posiciones de relleno llevan el valor 0 en la máscara de este fixture.",
    "ar": "⚠️ تحمل مواضع الحشو القيمة 0 في القناع في هذا الملف.",
}
WEB_PAGE_CHROME = (
    "Glossary (a web page as a browser shows it)",
    "Search the documentation",
    "🤗 Main menu",
)

_TERM_ROLE = re.compile(r"\{term\}`([^`<]+?)(?:\s*<([^`>]+)>)?`")


def dialect_text(summary: str, glossary: Glossary, ids: tuple[str, ...]) -> str:
    """Our MyST summary as the dialect writes it: ``{term}`` references to entries of the file
    become in-page links, the others plain text (as the originals link only within the page)."""

    def link(match: re.Match[str]) -> str:
        text, target = match.group(1).strip(), (match.group(2) or match.group(1)).strip()
        entry = glossary.find(target)
        return f"[{text}](#{entry.id})" if entry is not None and entry.id in ids else text

    text = _TERM_ROLE.sub(link, summary)
    if "{" in text:
        raise SystemExit(f"make_seed_fixtures: a role the dialect has no form for in {summary!r}")
    return text


def heading(entry: Entry, english: Entry) -> str:
    """``name (ABBR)`` in English; ``translation (English name)`` in a translation, where one-word
    English names stay untranslated (both shapes the translated originals use)."""
    if entry is not english and " " in english.name and entry.name != english.name:
        return f"{entry.name} ({english.name})"
    return f"{english.name} ({english.abbreviations[0]})" if english.abbreviations else english.name


def dialect_file(language: str, ids: tuple[str, ...], *, english_headings: bool = False) -> str:
    """The dialect file of ``ids`` in ``language``; ``english_headings``: every heading in
    its English form (the Arabic names, damaged, would read like the damaged original's)."""
    glossary, english = bundled_glossary(language), bundled_glossary("en")
    entries = [(glossary.get(i), english.get(i)) for i in ids]
    parts = [
        "<!-- Test fixture made by tools/make_seed_fixtures.py from the bundled glossary; do not edit. -->",
        f"# {TITLES[language]}",
        PREFACES[language],
    ]
    letter = ""
    for entry, reference in entries:
        assert entry is not None and reference is not None, "an id of ENTRY_IDS is not in the bundled glossary"
        # letter sections follow the English names, as in the translated originals
        if reference.name[:1].upper() != letter:
            letter = reference.name[:1].upper()
            parts.append(f"## {letter}")
        parts.append(f"### {heading(reference if english_headings else entry, reference)}")
        parts.append(dialect_text(entry.summary, glossary, ids))
        if entry.id == "attention-mask":
            parts.append(f"<Tip warning={{true}}>\n\n{TIPS[language]}\n\n</Tip>")
    return "\n\n".join(parts) + "\n"


def web_page(ids: tuple[str, ...]) -> str:
    """Rendered text: names on their own lines, typographic quotes and bullets, no Markdown."""
    english = bundled_glossary("en")
    lines = list(WEB_PAGE_CHROME)
    for entry_id in ids:
        entry = english.get(entry_id)
        assert entry is not None
        summary = _TERM_ROLE.sub(lambda m: m.group(1), entry.summary).replace("`", "")
        lines += ["", entry.name, "", f"• “{summary.rstrip('.')}”, as we’d put it."]
    return "\n".join(lines) + "\n"


def damage(text: str, codec: str, dropped: bytes = b"") -> bytes:
    """UTF-8 text read with ``codec`` by a decoder that drops ``dropped`` and undefined bytes, saved as UTF-8."""
    data = bytes(b for b in text.encode("utf-8") if b not in dropped)
    return data.decode(codec, errors="ignore").encode("utf-8")


def fixtures() -> dict[str, bytes]:
    c1 = bytes(range(0x80, 0xA0))
    return {
        "000_en_latin1.txt": damage(dialect_file("en", SHORT_IDS), "latin_1", dropped=c1),
        "001_en_cp1252.txt": damage(dialect_file("en", ENTRY_IDS), "cp1252"),
        "002_en_web_page.txt": web_page(ENTRY_IDS).encode("utf-8"),
        "003_es_johab.txt": damage(dialect_file("es", ENTRY_IDS), "johab"),
        "004_ar_tis620.txt": damage(
            dialect_file("ar", SHORT_IDS, english_headings=True), "tis_620", dropped=c1 + b"\xa0"
        ),
        # the undamaged texts, to compare repairs with
        "clean_en.md": dialect_file("en", ENTRY_IDS).encode("utf-8"),
        "clean_es.md": dialect_file("es", ENTRY_IDS).encode("utf-8"),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if the files on disk are not what would be written")
    args = parser.parse_args(argv)
    wanted = fixtures()
    if args.check:
        stale = [
            name for name, data in wanted.items() if not (OUT / name).is_file() or (OUT / name).read_bytes() != data
        ]
        if stale:
            print(f"stale seed fixtures: {', '.join(stale)} (run python tools/make_seed_fixtures.py)", file=sys.stderr)
            return 1
        return 0
    OUT.mkdir(parents=True, exist_ok=True)
    for name, data in wanted.items():
        (OUT / name).write_bytes(data)
        print(f"wrote {OUT.relative_to(ROOT) / name} ({len(data):,} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
