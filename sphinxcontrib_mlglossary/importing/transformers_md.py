"""Read a glossary written in the Transformers documentation's Markdown dialect.

Shape: ``# Title``, ``## A`` letter sections, one ``### term`` heading per entry, the
definition below it. Entry ids are slugs of the English names, so a translated file
lines up with the English glossary; where a translated heading carries no English
name, the entry is aligned with the reference glossary by its position within its
letter section (the one method that survives wrong names in parentheses).
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from dataclasses import dataclass, field, replace
from pathlib import Path

from markdown_it.tree import SyntaxTreeNode

from ..loader import GlossaryDataError
from ..model import Entry, Glossary, fold, slugify
from ..names import clean_name, inventory_problem, look_alike_message, look_alikes, removal_message
from .headings import Heading, is_latin, parse_heading
from .myst_writer import MystWriter, TermTarget, WriterContext, markdown_parser, plain_text
from .result import ImportResult, Notice

_SENTENCE_END = re.compile(r"[.!?؟。！？](?=\s|$)|[。！？]")
_NOT_SENTENCE_END = re.compile(r"(?:\b(?:e\.g|i\.e|etc|vs|cf|approx|Dr|Mr|Mrs|Ms|No|Fig)|\b[A-Za-z]|\d)\.$")
_CONTROLS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_SCRIPT_LANGUAGES = (
    ("ARABIC", "ar"),
    ("HANGUL", "ko"),
    ("HIRAGANA", "ja"),
    ("KATAKANA", "ja"),
    ("CJK", "zh"),
    ("CYRILLIC", "ru"),
    ("GREEK", "el"),
    ("HEBREW", "he"),
    ("THAI", "th"),
    ("DEVANAGARI", "hi"),
)


@dataclass
class _Draft:
    """An entry while it is being read: its heading and the blocks below it."""

    heading: Heading
    line: int
    letter: str
    position: int
    blocks: list[SyntaxTreeNode] = field(default_factory=list)
    id: str = ""
    reference: Entry | None = None


def read_transformers_markdown(
    text: str,
    path: Path | str,
    *,
    language: str | None = None,
    link_base: str = "",
    reference: Glossary | None = None,
) -> ImportResult:
    """Parse the text of a dialect file into a glossary (``path`` names the file in messages)."""
    path = Path(path)
    notices: list[Notice] = []
    text = _without_controls(text, path, notices)
    tree = SyntaxTreeNode(markdown_parser().parse(text))
    drafts, preface = _split(tree, path, text)
    if preface:
        first, last = preface
        notices.append(
            Notice(
                "info",
                "data",
                f"{path}:{first}: the text before the first term (lines {first}-{last}) is the page's "
                "introduction, not an entry; it was not imported (copy it into your page if you need it).",
                line=first,
            )
        )
    if language is None:
        language = _guess_language(drafts)
        notices.append(
            Notice(
                "info",
                "data",
                f"{path}:{drafts[0].line}: no language given; the headings look like {language!r} "
                "(pass the language explicitly to be sure).",
                line=drafts[0].line,
            )
        )
    translated = language.split("_")[0].split("-")[0].lower() != "en"
    for draft in drafts:
        cleaned = clean_name(draft.heading.text)
        if cleaned.removed:
            message = removal_message(cleaned.removed, cleaned.text)
            notices.append(Notice("warning", "data", f"{draft_where(path, draft)}: {message}", line=draft.line))
        parsed = parse_heading(cleaned.text, translated=translated)
        draft.heading = replace(
            parsed,
            name=_name(parsed.name) or _name(parsed.text) or f"term {draft.line}",
            abbreviations=tuple(a for a in map(_name, parsed.abbreviations) if a),
            english=_name(parsed.english),
        )
        for name in (draft.heading.name, *draft.heading.abbreviations):
            if problem := inventory_problem(name):
                raise GlossaryDataError(
                    path,
                    f"heading {draft.heading.text!r}: {name!r}: {problem}",
                    line=draft.line,
                    hint="a name may not hold a 'domain:role' word followed by a number; reword it",
                )
    repeats = _Repeats(path)
    _assign_ids(drafts, reference, path, notices, repeats)

    anchors = _anchors(drafts)
    context = WriterContext(path=path, link_base=link_base, anchors=anchors)
    entries = [_entry(draft, context) for draft in drafts]
    notices.extend(context.notices)
    if context.relative_lines:
        lines = sorted(set(context.relative_lines))
        notices.append(
            Notice(
                "info",
                "markup",
                f"{path}:{lines[0]}: relative links were kept as plain text (lines {', '.join(map(str, lines))}); "
                "give a link base (the URL of the documentation they point into: --link-base, or "
                "mlglossary_link_base in conf.py) to keep them as links.",
                line=lines[0],
            )
        )
    if reference is not None:
        entries = [_inherit(entry, reference) for entry in entries]
    entries = _unique_names(entries, repeats)
    notices.extend(repeats.notices())
    _report_look_alikes(entries, path, notices)
    ids = {entry.id for entry in entries}
    entries = [replace(entry, see_also=tuple(i for i in entry.see_also if i in ids)) for entry in entries]
    return ImportResult(Glossary(language=language, entries=tuple(entries), source=path), tuple(notices))


def _without_controls(text: str, path: Path, notices: list[Notice]) -> str:
    """Control characters break output formats (XML, search index): drop them, and say where."""
    lines = sorted({text.count("\n", 0, found.start()) + 1 for found in _CONTROLS.finditer(text)})
    if not lines:
        return text
    notices.append(
        Notice(
            "warning",
            "data",
            f"{path}:{lines[0]}: control characters were removed from line(s) {', '.join(map(str, lines))} "
            "(they can't be shown; check that nothing is missing there).",
            line=lines[0],
        )
    )
    return _CONTROLS.sub("", text)


def _name(text: str) -> str:
    """A name as the loader keeps it (:func:`~sphinxcontrib_mlglossary.names.clean_name`)."""
    return clean_name(text).text


def _report_look_alikes(entries: list[Entry], path: Path, notices: list[Notice]) -> None:
    by_id = {entry.id: entry for entry in entries}
    for pair in look_alikes((name, entry.id) for entry in entries for name in entry.names):
        entry, other = by_id[pair.owner], by_id[pair.other_owner]
        message = look_alike_message(pair, other.line)
        notices.append(
            Notice("warning", "data", f"{path}:{entry.line}: entry {entry.id!r}: {message}", line=entry.line)
        )


def _split(tree: SyntaxTreeNode, path: Path, text: str) -> tuple[list[_Draft], tuple[int, int] | None]:
    """Group the top-level blocks under their ``###`` headings."""
    drafts: list[_Draft] = []
    letter = ""
    positions: dict[str, int] = defaultdict(int)
    preface_lines: list[int] = []
    for node in tree.children:
        if node.type == "heading" and node.tag in ("h1", "h2", "h3"):
            title = plain_text(node.children[0]).strip() if node.children else ""
            if node.tag == "h2":
                letter = title[:1].upper()
            elif node.tag == "h3" and title:
                drafts.append(_Draft(Heading(title, title, (), ""), _line(node), letter, positions[letter]))
                positions[letter] += 1
            continue
        if drafts:
            drafts[-1].blocks.append(node)
        elif node.type != "html_block" or not node.content.lstrip().startswith("<!--"):
            preface_lines.append(_line(node))
    if not drafts:
        raise _no_entries(tree, path, text)
    preface = (preface_lines[0], drafts[0].line - 1) if preface_lines else None
    return drafts, preface


def _no_entries(tree: SyntaxTreeNode, path: Path, text: str) -> GlossaryDataError:
    headings = [node for node in tree.children if node.type == "heading"]
    if not headings:
        first = next((n for n, line in enumerate(text.splitlines(), 1) if line.strip()), 1)
        return GlossaryDataError(
            path,
            "found no Markdown headings at all: this looks like text copied from a rendered web page, "
            "not the Markdown source of a glossary",
            line=first,
            hint="import the .md source, with '## A' letter sections and one '### term' heading per entry",
        )
    return GlossaryDataError(
        path,
        "found no '### term' headings, so there is no entry to import",
        line=_line(headings[0]),
        hint="each entry needs its own '### term' heading under a '## A' letter section",
    )


def _guess_language(drafts: list[_Draft]) -> str:
    counts: dict[str, int] = defaultdict(int)
    for draft in drafts:
        for char in draft.heading.text:
            if char.isalpha() and not is_latin(char):
                name = unicodedata.name(char, "")
                for script, code in _SCRIPT_LANGUAGES:
                    if script in name:
                        counts[code] += 1
                        break
    return max(counts, key=lambda code: counts[code]) if counts else "en"


def _assign_ids(
    drafts: list[_Draft], reference: Glossary | None, path: Path, notices: list[Notice], repeats: _Repeats
) -> None:
    aligned = _align(drafts, reference) if reference is not None else {}
    seen: dict[str, int] = {}
    for index, draft in enumerate(drafts):
        heading = draft.heading
        named = reference.find(heading.english) if reference is not None and heading.english else None
        draft.reference = aligned.get(index) or named
        if draft.reference is not None and named is not None and named is not draft.reference:
            notices.append(
                Notice(
                    "warning",
                    "data",
                    f"{draft_where(path, draft)}: the heading names {heading.english!r}, which is the reference "
                    f"entry {named.id!r}, but its position matches {draft.reference.id!r}; "
                    "the position was used (check the English name in the heading).",
                    line=draft.line,
                )
            )
        candidates = (heading.english, heading.name, *heading.abbreviations)
        entry_id = draft.reference.id if draft.reference else next((s for c in candidates if (s := slugify(c))), "")
        if not entry_id:
            entry_id = f"term-{index + 1}"
            notices.append(
                Notice(
                    "warning",
                    "data",
                    f"{draft_where(path, draft)}: no English name to build an id from; the entry was given the id "
                    f"{entry_id!r} (give a reference glossary, or add the English name in parentheses).",
                    line=draft.line,
                )
            )
        if entry_id in seen:
            unique = next(f"{entry_id}-{n}" for n in range(2, len(drafts) + 2) if f"{entry_id}-{n}" not in seen)
            repeats.add(
                draft.line,
                f"heading {draft.heading.text!r}",
                f"id {entry_id!r} is already used by the entry at line {seen[entry_id]}, so this one became {unique!r}",
            )
            entry_id = unique
        seen[entry_id] = draft.line
        draft.id = entry_id


def _align(drafts: list[_Draft], reference: Glossary) -> dict[int, Entry]:
    """Match drafts to reference entries by position within letter sections of the same size."""
    by_letter: dict[str, list[Entry]] = defaultdict(list)
    for entry in reference:
        by_letter[entry.name[:1].upper()].append(entry)
    sections: dict[str, list[int]] = defaultdict(list)
    for index, draft in enumerate(drafts):
        sections[draft.letter].append(index)
    aligned: dict[int, Entry] = {}
    for letter, indexes in sections.items():
        expected = by_letter.get(letter, [])
        if len(expected) == len(indexes):
            aligned.update(zip(indexes, expected, strict=True))
    return aligned


def draft_where(path: Path, draft: _Draft) -> str:
    return f"{path}:{draft.line}: heading {draft.heading.text!r}"


def _anchors(drafts: list[_Draft]) -> dict[str, TermTarget]:
    """Every slug an in-page link may use for an entry: its id, its heading, its English heading."""
    anchors: dict[str, TermTarget] = {}
    for draft in drafts:
        target = TermTarget(draft.id, draft.heading.name)
        keys = [draft.id, slugify(draft.heading.text), _legacy_anchor(draft.heading.name, draft.heading.abbreviations)]
        if draft.heading.english:
            keys.append(_legacy_anchor(draft.heading.english, draft.heading.abbreviations))
        if draft.reference is not None:
            keys.append(draft.reference.legacy_anchor)
            for name in draft.reference.names:
                keys.extend(_legacy_anchor(name, abbreviation) for abbreviation in ((), draft.reference.abbreviations))
        for key in keys:
            if key:
                anchors.setdefault(key, target)
    return anchors


def _entry(draft: _Draft, context: WriterContext) -> Entry:
    heading = draft.heading
    writer = MystWriter(context)
    body = writer.blocks(draft.blocks).strip("\n")
    summary = _summary(draft.blocks, MystWriter(context))
    if not body:
        context.warn(draft.line, "data", f"entry {heading.text!r} has no definition; its name stands in for one")
        body = heading.name
    aliases = (heading.english,) if heading.english and fold(heading.english) != fold(heading.name) else ()
    linked = dict.fromkeys(target for target in writer.linked if target != draft.id)
    return Entry(
        id=draft.id,
        name=heading.name,
        summary=summary or heading.name,
        body=body,
        abbreviations=heading.abbreviations,
        aliases=aliases,
        see_also=tuple(linked),
        legacy_anchor=_legacy_anchor(heading.name, heading.abbreviations),
        line=draft.line,
    )


def _summary(blocks: list[SyntaxTreeNode], writer: MystWriter) -> str:
    """The first sentence of the first paragraph, on one line."""
    paragraph = next((node for node in _walk(blocks) if node.type == "paragraph" and node.children), None)
    if paragraph is None:
        return ""
    muted = replace(writer.context, notices=[], relative_lines=[])  # the body reports problems once
    text = " ".join(MystWriter(muted).inline(paragraph.children[0], _line(paragraph)).split())
    return first_sentence(text)


def first_sentence(text: str) -> str:
    """Text up to the first sentence end outside code and roles, or all of it.

    One pass, keeping count of emphasis marks and brackets as it goes: checking each
    candidate end against the whole text before it made a paragraph of ``e.g.`` quadratic.
    """
    inside_code = False
    stars = 0
    open_brackets = 0
    index = 0
    while index < len(text):
        char = text[index]
        if char == "\\":
            index += 2
            continue
        if char == "`":
            inside_code = not inside_code
        elif not inside_code:
            if char == "*":
                stars += 1
            elif char == "[":
                open_brackets += 1
            elif char == "]":
                open_brackets -= 1
            if (
                _SENTENCE_END.match(text, index)
                and not _NOT_SENTENCE_END.search(text, max(0, index - _ABBREVIATION_WINDOW), index + 1)
                and stars % 2 == 0
                and open_brackets == 0
            ):
                return text[: index + 1].strip()
        index += 1
    return text.strip()


#: characters before a full stop that decide whether it ends a sentence ("approx." and a word boundary)
_ABBREVIATION_WINDOW = 8


def _walk(nodes: list[SyntaxTreeNode]) -> list[SyntaxTreeNode]:
    out: list[SyntaxTreeNode] = []
    for node in nodes:
        out.append(node)
        if node.type not in ("html_block", "fence", "code_block"):
            out.extend(_walk(node.children))
    return out


def _legacy_anchor(name: str, abbreviations: tuple[str, ...]) -> str:
    """The anchor the loader gives an entry: the slug of its heading."""
    return slugify(f"{name} ({abbreviations[0]})" if abbreviations else name)


def _unique_names(entries: list[Entry], repeats: _Repeats) -> list[Entry]:
    """No two entries may answer to one name: drop a repeated short form or alias, rename a repeated name."""
    owner: dict[str, Entry] = {}
    out: list[Entry] = []
    for entry in entries:
        name = entry.name
        if fold(name) in owner:
            other = owner[fold(name)]
            name = next(f"{entry.name} ({n})" for n in range(2, 100) if fold(f"{entry.name} ({n})") not in owner)
            repeats.add(entry.line, f"entry {entry.id!r}", _name_clause(entry.name, other, f"it was renamed {name!r}"))
        owner[fold(name)] = entry
        kept: dict[str, list[str]] = {"abbreviations": [], "aliases": []}
        for kind in kept:
            for value in getattr(entry, kind):
                if fold(value) in owner and owner[fold(value)] is not entry:
                    repeats.add(
                        entry.line, f"entry {entry.id!r}", _name_clause(value, owner[fold(value)], "it was left out")
                    )
                    continue
                owner[fold(value)] = entry
                kept[kind].append(value)
        abbreviations = tuple(kept["abbreviations"])
        changed = name != entry.name or abbreviations != entry.abbreviations
        out.append(
            replace(
                entry,
                name=name,
                abbreviations=abbreviations,
                aliases=tuple(kept["aliases"]),
                legacy_anchor=_legacy_anchor(name, abbreviations) if changed else entry.legacy_anchor,
            )
        )
    return out


def _name_clause(name: str, other: Entry, outcome: str) -> str:
    return f"{name!r} is already a name of entry {other.id!r} (line {other.line}), so {outcome}"


@dataclass
class _Repeats:
    """What repeated headings lost to keep ids and names unique, one warning per heading line.

    A heading that repeats an earlier one clashes several ways at once (its id, its name, its
    abbreviation): the user has one thing to fix, so they get one warning listing them.
    """

    path: Path
    subjects: dict[int, str] = field(default_factory=dict)
    clauses: dict[int, list[str]] = field(default_factory=lambda: defaultdict(list))

    def add(self, line: int, subject: str, clause: str) -> None:
        self.subjects.setdefault(line, subject)
        self.clauses[line].append(clause)

    def notices(self) -> list[Notice]:
        return [
            Notice(
                "warning",
                "data",
                f"{self.path}:{line}: {self.subjects[line]}: {'; '.join(self.clauses[line])}. Citations must stay "
                "unambiguous: fix this heading or the earlier one.",
                line=line,
            )
            for line in sorted(self.clauses)
        ]


def _inherit(entry: Entry, reference: Glossary) -> Entry:
    """What the loader gives a translated entry: English names as aliases, tags, see-also, old anchor."""
    original = reference.get(entry.id)
    if original is None:
        return entry
    inherited = tuple(n for n in (original.name, *original.abbreviations) if n not in entry.names)
    return replace(
        entry,
        aliases=entry.aliases + inherited,
        tags=entry.tags or original.tags,
        see_also=entry.see_also or original.see_also,
        legacy_anchor=original.legacy_anchor,
    )


def _line(node: SyntaxTreeNode) -> int:
    return node.map[0] + 1 if node.map else 0
