"""Command line: ``python -m sphinxcontrib_mlglossary check | import | list``.

User mistakes end with exit status 1 and a message per problem (every problem of a data
file at once, with a "did you mean" where a spelling is close), never a traceback.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from . import __version__
from .confinement import DEFAULT_MAX_MB, MAX_FILE_MB
from .importing import ImportResult, Notice, read_source, to_toml
from .loader import (
    BUNDLED_LANGUAGES,
    GlossaryDataError,
    bundled_glossary,
    did_you_mean,
    parse_glossary,
    resolve_language,
)
from .model import Glossary

PROG = "python -m sphinxcontrib_mlglossary"


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; the exit status is 1 when the input can't be used, 0 otherwise."""
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.run(args)
    except GlossaryDataError as exc:
        _print_refusal(exc)
        return 1
    except _UsageError as exc:
        print(f"{PROG} {args.command}: error: {exc}", file=sys.stderr)
        return 1
    return status


class _UsageError(Exception):
    """A wrong argument that argparse can't see (an unknown tag, an unwritable output)."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Check, import and list machine-learning glossaries.",
    )
    parser.add_argument("--version", action="version", version=f"sphinxcontrib-mlglossary {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    check = commands.add_parser(
        "check",
        help="validate a glossary file and print its problems",
        description="Validate a glossary file (our TOML format or Transformers-style Markdown) and print every "
        "problem with its line. Exit status 1 when the file can't be used; warnings alone exit with 0.",
    )
    _source_arguments(check)
    check.set_defaults(run=_check)

    convert = commands.add_parser(
        "import",
        help="convert a glossary file to our TOML data format",
        description="Convert a glossary file to our TOML data format, repairing mis-decoded text where that can be "
        "done exactly. Notices go to standard error.",
    )
    _source_arguments(convert)
    convert.add_argument(
        "-o", "--output", metavar="OUT", help="TOML file to write (default: standard output)", default="-"
    )
    convert.set_defaults(run=_import)

    listing = commands.add_parser(
        "list",
        help="list the bundled terms",
        description="Print the bundled glossary's terms: id, name and abbreviations, one per line.",
    )
    listing.add_argument("--language", default="en", help=f"glossary language: {', '.join(BUNDLED_LANGUAGES)}")
    listing.add_argument("--tag", action="append", default=[], help="only terms with this tag (repeatable)")
    listing.set_defaults(run=_list)
    return parser


def _megabytes(text: str) -> float:
    """``--max-mb``: a finite number above 0 and at most 1,000 (``inf`` once ended in a traceback)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and 0 < value <= MAX_FILE_MB):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of megabytes above 0 and at most {MAX_FILE_MB}")
    return value


def _source_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", type=Path, help="glossary file (.toml, .md, .markdown or .txt)")
    parser.add_argument("--language", help="language of the file, e.g. es (default: read from the file)")
    parser.add_argument("--link-base", default="", metavar="URL", help="URL that relative links point into")
    parser.add_argument(
        "--max-mb",
        type=_megabytes,
        default=DEFAULT_MAX_MB,
        metavar="MB",
        help=f"largest file read, in megabytes (default: {DEFAULT_MAX_MB})",
    )
    parser.add_argument(
        "--reference",
        metavar="LANG_OR_FILE",
        help="glossary a translation follows: a bundled language (en) or a file; aligns entries without English names",
    )


def _read(args: argparse.Namespace) -> ImportResult:
    return read_source(
        args.file,
        language=args.language,
        link_base=args.link_base,
        reference=_reference(args.reference),
        max_bytes=round(args.max_mb * 1024 * 1024),
    )


def _reference(value: str | None) -> Glossary | None:
    if not value:
        return None
    if value in BUNDLED_LANGUAGES:
        return bundled_glossary(value)
    path = Path(value)
    if not path.exists():
        raise _UsageError(
            f"--reference {value!r} is neither a bundled language ({', '.join(BUNDLED_LANGUAGES)}) nor a file"
        )
    return read_source(path).glossary


def _check(args: argparse.Namespace) -> int:
    result = _read(args)
    # the written form must load again: the same checks the extension makes on its data files
    parse_glossary(to_toml(result.glossary), args.file)
    _print_notices(result.notices, sys.stdout)
    warnings = sum(1 for notice in result.notices if notice.level == "warning")
    print(
        f"{args.file}: {counted(len(result.glossary), 'entry', 'entries')}, {counted(warnings, 'warning')}, "
        f"language {result.glossary.language!r}"
    )
    return 0


def _import(args: argparse.Namespace) -> int:
    result = _read(args)
    text = to_toml(result.glossary)
    _print_notices(result.notices, sys.stderr)
    if args.output == "-":
        sys.stdout.write(text)
        return 0
    try:
        Path(args.output).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise _UsageError(f"cannot write {args.output}: {exc.strerror}") from None
    print(f"wrote {args.output}: {counted(len(result.glossary), 'entry', 'entries')}", file=sys.stderr)
    return 0


def _list(args: argparse.Namespace) -> int:
    language = resolve_language(args.language)
    if language is None:
        raise _UsageError(f"no bundled glossary for language {args.language!r} (choose {', '.join(BUNDLED_LANGUAGES)})")
    glossary = bundled_glossary(language)
    known = sorted({tag for entry in glossary for tag in entry.tags})
    unknown = [tag for tag in args.tag if tag not in known]
    if unknown:
        unknown_tags = "unknown tag" if len(unknown) == 1 else "unknown tags"
        close = [repr(near) for tag in unknown if (near := did_you_mean(tag, known))]
        suggestion = f"; did you mean {', '.join(close)}?" if close else ""
        raise _UsageError(f"{unknown_tags} {', '.join(unknown)}{suggestion} (known: {', '.join(known)})")
    for entry in glossary:
        if args.tag and not set(args.tag) & set(entry.tags):
            continue
        short = f" ({', '.join(entry.abbreviations)})" if entry.abbreviations else ""
        print(f"{entry.id}\t{entry.name}{short}")
    return 0


def counted(number: int, singular: str, plural: str = "") -> str:
    """``1 entry``, ``2 entries``: the command line speaks English only, so one plural rule does."""
    return f"{number} {singular if number == 1 else plural or singular + 's'}"


def _print_refusal(error: GlossaryDataError) -> None:
    """Every problem of a refused file, one per line, then how many: one run shows them all."""
    for warning in error.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    for problem in error.problems:
        print(f"error: {problem}", file=sys.stderr)
    if len(error.problems) > 1 or error.warnings:
        found = counted(len(error.problems), "error")
        if error.warnings:
            found += f", {counted(len(error.warnings), 'warning')}"
        print(f"{error.path}: {found}; the file can't be used until the errors are fixed", file=sys.stderr)


def _print_notices(notices: Sequence[Notice], stream: TextIO) -> None:
    for notice in notices:
        print(f"{notice.level}: {notice.message}", file=stream)
