"""Time and peak memory of reading one large glossary file, in a fresh process per size.

``python -m benchmarks.large_file 5 10 20 200``: for each size in MB, writes a Markdown
glossary in the Transformers dialect (one ``###`` entry per 2 KB, prose with code,
links and emphasis) and reads it with ``read_source`` under the default size limit
(``--max-mb`` to change it). A refused file reports the refusal and its time.
``--hostile`` writes instead one entry whose paragraph is nothing but ``e.g.``
abbreviations, the shape that made the sentence scan quadratic.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

_PARAGRAPH = (
    "A definition with `inline code`, *emphasis*, a [link](https://example.org/docs) and a "
    "reference to the {entry} entry, long enough to look like a real one. "
)


def write_markdown(path: Path, megabytes: float) -> int:
    """A dialect file of about ``megabytes``; returns the number of entries."""
    target = int(megabytes * 1024 * 1024)
    written = 0
    count = 0
    with path.open("w", encoding="utf-8") as out:
        out.write("# Glossary\n\n")
        while written < target:
            letter = chr(ord("A") + (count // 1000) % 26)
            if count % 1000 == 0:
                out.write(f"## {letter}\n\n")
            text = f"### {letter.lower()}term {count}\n\n" + (_PARAGRAPH.format(entry=count) * 12).strip() + "\n\n"
            out.write(text)
            written += len(text.encode())
            count += 1
    return count


def write_hostile_markdown(path: Path, megabytes: float) -> int:
    """One entry whose single paragraph is ``megabytes`` of sentence ends that are not ones."""
    count = int(megabytes * 1024 * 1024) // len("e.g. ")
    path.write_text("# Glossary\n\n## A\n\n### term\n\n" + "e.g. " * count + "\n", encoding="utf-8")
    return 1


def _child(path: str, max_mb: float) -> None:
    from sphinxcontrib_mlglossary.importing import read_source
    from sphinxcontrib_mlglossary.loader import GlossaryDataError

    started = time.perf_counter()
    try:
        result = read_source(Path(path), language="en", max_bytes=round(max_mb * 1024 * 1024))
        outcome = f"{len(result.glossary)} entries"
    except GlossaryDataError as error:
        outcome = f"refused: {error.problem}"
    elapsed = time.perf_counter() - started
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"seconds": round(elapsed, 2), "peak_mib": round(peak_mib), "outcome": outcome}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("sizes", nargs="+", type=float, help="file sizes in MB")
    parser.add_argument("--max-mb", type=float, default=None, help="size limit (default: the extension's)")
    parser.add_argument("--hostile", action="store_true", help="one paragraph of 'e.g.' instead of prose entries")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    from sphinxcontrib_mlglossary.confinement import DEFAULT_MAX_MB

    max_mb = args.max_mb if args.max_mb is not None else DEFAULT_MAX_MB
    if args.child:
        _child(args.child, max_mb)
        return
    print("| file MB | entries | limit MB | seconds | peak MiB | outcome |")
    print("| ---: | ---: | ---: | ---: | ---: | --- |")
    with tempfile.TemporaryDirectory() as folder:
        for size in args.sizes:
            path = Path(folder) / f"glossary-{size:g}.md"
            entries = (write_hostile_markdown if args.hostile else write_markdown)(path, size)
            command = [
                sys.executable,
                "-m",
                "benchmarks.large_file",
                "0",
                "--max-mb",
                str(max_mb),
                "--child",
                str(path),
            ]
            result = json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)
            print(
                f"| {size:g} | {entries} | {max_mb:g} | {result['seconds']} | {result['peak_mib']} | {result['outcome']} |"
            )
            path.unlink()


if __name__ == "__main__":
    main()
