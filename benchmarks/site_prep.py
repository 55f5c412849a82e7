"""Turn a public documentation site, at a pinned commit, into buildable benchmark variants.

A real site's build needs its library (autodoc, autosummary), notebooks, themes and
extensions this machine lacks, and often the network. The preparation exports the
site's folders at the pinned commit (``git archive``), strips what can't build here,
and writes one source tree per variant with a generated ``conf.py`` that keeps the
site's source suffixes, MyST extensions and toctrees under a plain theme:

- ``plain``: plain Sphinx;
- ``mlglossary``: the extension added, and one page holding the glossary in the root
  toctree; nothing of the site cites a term, so this is the extension's fixed cost;
- ``autolink``: the same with ``mlglossary_autolink = "first"``: real citations made
  from the site's own prose (and the HTML issue 30 judges auto-linking on).

The site's text lands only in the ignored build folder, never in the repository.
"""

from __future__ import annotations

import fnmatch
import io
import json
import re
import shutil
import subprocess
import tarfile
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks import rst_fixes, toctrees

#: where prepared sites live (ignored by git)
BUILD_ROOT = Path(__file__).parent / "sites_build"

#: variant name -> (extension loaded, mlglossary_autolink)
VARIANTS: dict[str, tuple[bool, str]] = {
    "plain": (False, "off"),
    "mlglossary": (True, "off"),
    "autolink": (True, "first"),
}

GLOSSARY_DOC = "ml-glossary"

#: the first line of an autodoc or autosummary directive, in reST (also inside MyST's
#: eval-rst) or MyST
_AUTODOC_RST = re.compile(r"^(?P<indent>\s*)\.\.\s+auto[a-z_]+::")
_AUTODOC_MYST = re.compile(r"^\s*(?P<fence>`{3,}|:{3,})\{auto[a-z_]+\}")


def remove_autodoc(text: str) -> tuple[str, int]:
    """``text`` without its autodoc/autosummary directives (they need the library), and how many."""
    lines = text.splitlines(keepends=True)
    kept: list[str] = []
    removed = 0
    index = 0
    while index < len(lines):
        rst, myst = _AUTODOC_RST.match(lines[index]), _AUTODOC_MYST.match(lines[index])
        index += 1
        if rst:
            indent = len(rst["indent"])
            while index < len(lines) and (
                not lines[index].strip() or len(lines[index]) - len(lines[index].lstrip()) > indent
            ):
                index += 1
        elif myst:
            while index < len(lines) and not lines[index].strip().startswith(myst["fence"]):
                index += 1
            index += 1
        else:
            kept.append(lines[index - 1])
            continue
        removed += 1
    return "".join(kept), removed


@dataclass(frozen=True)
class Site:
    """A documentation site pinned to a commit, and what its preparation needs to know."""

    name: str
    repository: str  # owner/name on GitHub
    commit: str
    kind: str
    export: tuple[str, ...]  # paths of the repository to export
    source_dir: str  # the Sphinx source folder inside the export ("" for the root)
    root_doc: str
    source_suffix: dict[str, str]
    myst_extensions: tuple[str, ...] = ()
    myst_heading_anchors: int = 0
    exclude_patterns: tuple[str, ...] = ()
    strip: tuple[str, ...] = ()  # glob patterns (relative to source_dir) of API pages removed
    shim_directives: dict[str, str] = field(default_factory=dict)  # name -> "body" | "literal"
    shim_roles: tuple[str, ...] = ()
    suppress_warnings: tuple[str, ...] = ()
    #: (glob, regex, replacement) edits of source text, for what would warn here only
    rewrites: tuple[tuple[str, str, str], ...] = ()

    @property
    def suffixes(self) -> tuple[str, ...]:
        return tuple(self.source_suffix)


@dataclass
class Prepared:
    """What preparing a site did, also written to ``site.json`` next to the variants."""

    site: str
    commit: str
    folder: Path
    pages: int
    stripped: dict[str, str]  # path -> why
    toctree_entries_removed: list[str]
    mended: list[str]  # files whose reST slips were mended
    rewrites_applied: int

    def variant(self, name: str) -> Path:
        return self.folder / name

    def to_json(self) -> dict[str, object]:
        return {
            "site": self.site,
            "commit": self.commit,
            "pages": self.pages,
            "stripped": self.stripped,
            "toctree_entries_removed": self.toctree_entries_removed,
            "mended": self.mended,
            "rewrites_applied": self.rewrites_applied,
            "variants": sorted(VARIANTS),
        }


def export(git_dir: Path, commit: str, paths: tuple[str, ...], dest: Path) -> None:
    """Extract ``paths`` of ``commit`` into ``dest`` (no work tree, no checkout)."""
    found = subprocess.run(
        ["git", "--git-dir", str(git_dir), "cat-file", "-e", f"{commit}^{{commit}}"], capture_output=True
    )
    if found.returncode:
        raise SystemExit(f"commit {commit} is not in {git_dir}: fetch a snapshot that has it")
    archive = subprocess.run(
        ["git", "--git-dir", str(git_dir), "archive", "--format=tar", commit, "--", *paths],
        capture_output=True,
        check=True,
    )
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(dest, filter="data")


def _docname(path: Path, root: Path, suffixes: tuple[str, ...]) -> str | None:
    relative = path.relative_to(root).as_posix()
    for suffix in suffixes:
        if relative.endswith(suffix):
            return relative[: -len(suffix)]
    return None


def _excluded(relative: str, patterns: tuple[str, ...]) -> bool:
    return any(fnmatch.fnmatch(relative, pattern) for pattern in patterns)


def strip(site: Site, root: Path) -> dict[str, str]:
    """Remove what can't build here; return each removed path with the reason."""
    stripped: dict[str, str] = {}
    for name in ("conf.py", "_templates"):
        target = root / name
        if target.is_dir():
            shutil.rmtree(target)
        elif target.exists():
            target.unlink()
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root).as_posix()
        if path.is_symlink() and not path.exists():
            reason = "link to a file outside the exported folders"
        elif not path.is_file():
            continue
        elif path.suffix == ".ipynb":
            reason = "notebook"
        elif _excluded(relative, site.strip):
            reason = "API page (autodoc/autosummary needs the library)"
        elif path.suffix in site.source_suffix:
            text, blocks = remove_autodoc(path.read_text(encoding="utf-8"))
            if blocks:
                path.write_text(text, encoding="utf-8")
                stripped[relative] = f"{blocks} autodoc/autosummary directives removed from the page"
            continue
        else:
            continue
        path.unlink()
        stripped[relative] = reason
    return stripped


def documents(site: Site, root: Path) -> set[str]:
    """The document names Sphinx will read in ``root``."""
    names = set()
    for path in root.rglob("*"):
        if path.is_file() and not _excluded(path.relative_to(root).as_posix(), site.exclude_patterns):
            name = _docname(path, root, site.suffixes)
            if name is not None:
                names.add(name)
    return names


def prune_toctrees(site: Site, root: Path) -> list[str]:
    """Drop toctree entries naming pages that aren't there; return them as ``doc: entry``."""
    names = documents(site, root)
    removed: list[str] = []
    for name in sorted(names):
        path = next(root / f"{name}{suffix}" for suffix in site.suffixes if (root / f"{name}{suffix}").exists())
        text = path.read_text(encoding="utf-8")
        pruned, gone = toctrees.prune(text, name, site.suffixes, names.__contains__)
        if gone:
            path.write_text(pruned, encoding="utf-8")
            removed.extend(f"{name}: {entry}" for entry in gone)
    return removed


def mend_rst(site: Site, root: Path) -> list[str]:
    """Mend what docutils warns about (see ``rst_fixes``); return the files changed."""
    changed = []
    for name in sorted(documents(site, root)):
        path = next(root / f"{name}{suffix}" for suffix in site.suffixes if (root / f"{name}{suffix}").exists())
        text = path.read_text(encoding="utf-8")
        mended = rst_fixes.end_explicit_markup(text)
        if path.suffix == ".rst":
            mended = rst_fixes.lengthen_adornments(mended)
        if mended != text:
            path.write_text(mended, encoding="utf-8")
            changed.append(path.relative_to(root).as_posix())
    return changed


def apply_rewrites(site: Site, root: Path) -> int:
    """Apply the site's source edits; how many replacements were made."""
    count = 0
    for pattern, regex, replacement in site.rewrites:
        for path in sorted(root.glob(pattern)):
            text = path.read_text(encoding="utf-8")
            new, made = re.subn(regex, replacement, text, flags=re.M)
            if made:
                path.write_text(new, encoding="utf-8")
                count += made
    return count


def conf_py(site: Site, *, extension: bool, autolink: str) -> str:
    """The generated configuration: the site's structure, a plain theme, nothing fetched."""
    extensions = ["myst_parser", "_site_shims"] + (["sphinxcontrib_mlglossary"] if extension else [])
    lines = [
        '"""Generated by benchmarks.site_prep for a benchmark build; not the site\'s own configuration."""',
        "import os",
        "import sys",
        "sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))",
        f"project = {site.name!r}",
        f"root_doc = {site.root_doc!r}",
        f"extensions = {extensions!r}",
        f"source_suffix = {site.source_suffix!r}",
        f"myst_enable_extensions = {list(site.myst_extensions)!r}",
        f"myst_heading_anchors = {site.myst_heading_anchors!r}",
        f"exclude_patterns = {['_build', *site.exclude_patterns]!r}",
        f"suppress_warnings = {list(site.suppress_warnings)!r}",
        f"site_shim_directives = {site.shim_directives!r}",
        f"site_shim_roles = {list(site.shim_roles)!r}",
        "html_theme = 'alabaster'",
    ]
    if extension and autolink != "off":
        lines.append(f"mlglossary_autolink = {autolink!r}")
    return "\n".join(lines) + "\n"


def add_glossary_page(site: Site, root: Path) -> None:
    """One page holding the extension's glossary, hidden in the root toctree."""
    if any((root / f"{GLOSSARY_DOC}{suffix}").exists() for suffix in site.suffixes):
        raise SystemExit(f"{site.name} already has a page named {GLOSSARY_DOC}")
    (root / f"{GLOSSARY_DOC}.md").write_text("# Machine learning glossary\n\n```{mlglossary}\n```\n", encoding="utf-8")
    root_file = next(root / f"{site.root_doc}{s}" for s in site.suffixes if (root / f"{site.root_doc}{s}").exists())
    text = root_file.read_text(encoding="utf-8").rstrip("\n") + "\n\n"
    if root_file.suffix == ".md":
        text += f"```{{toctree}}\n:hidden:\n\n{GLOSSARY_DOC}\n```\n"
    else:
        text += f".. toctree::\n   :hidden:\n\n   {GLOSSARY_DOC}\n"
    root_file.write_text(text, encoding="utf-8")


def prepare(site: Site, git_dir: Path, build_root: Path = BUILD_ROOT) -> Prepared:
    """Export, strip and write every variant of ``site`` under ``build_root / site.name``."""
    folder = build_root / site.name
    shutil.rmtree(folder, ignore_errors=True)
    export_dir = folder / "export"
    export_dir.mkdir(parents=True)
    export(git_dir, site.commit, site.export, export_dir)
    root = export_dir / site.source_dir if site.source_dir else export_dir
    stripped = strip(site, root)
    removed = prune_toctrees(site, root)
    mended = mend_rst(site, root)
    rewrites = apply_rewrites(site, root)
    for name, (extension, autolink) in VARIANTS.items():
        variant = folder / name
        shutil.copytree(root, variant)
        shutil.copyfile(Path(__file__).parent / "site_shims.py", variant / "_site_shims.py")
        (variant / "conf.py").write_text(conf_py(site, extension=extension, autolink=autolink), encoding="utf-8")
        if extension:
            add_glossary_page(site, variant)
    shutil.rmtree(export_dir)
    prepared = Prepared(
        site=site.name,
        commit=site.commit,
        folder=folder,
        pages=len(documents(site, folder / "plain")),
        stripped=stripped,
        toctree_entries_removed=removed,
        mended=mended,
        rewrites_applied=rewrites,
    )
    (folder / "site.json").write_text(json.dumps(prepared.to_json(), indent=2), encoding="utf-8")
    return prepared


def load(name: str, build_root: Path = BUILD_ROOT) -> Prepared | None:
    """The prepared site ``name``, or None when it hasn't been prepared."""
    manifest = build_root / name / "site.json"
    if not manifest.exists():
        return None
    data = json.loads(manifest.read_text(encoding="utf-8"))
    return Prepared(
        site=data["site"],
        commit=data["commit"],
        folder=manifest.parent,
        pages=data["pages"],
        stripped=data["stripped"],
        toctree_entries_removed=data["toctree_entries_removed"],
        mended=data["mended"],
        rewrites_applied=data["rewrites_applied"],
    )
