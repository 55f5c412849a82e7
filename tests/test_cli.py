"""``python -m sphinxcontrib_mlglossary``: exit codes, output, and no tracebacks on user mistakes."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from sphinxcontrib_mlglossary import cli
from sphinxcontrib_mlglossary.loader import bundled_glossary, bundled_path, parse_glossary

FIXTURES = Path(__file__).parent / "fixtures" / "transformers_md"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_check_a_clean_file(capsys):
    status, out, err = run(capsys, "check", str(FIXTURES / "glossary_en.md"), "--language", "en")
    assert status == 0
    assert "glossary_en.md: 9 entries, 0 warnings, language 'en'" in out
    assert err == ""


def test_check_prints_warnings_with_lines_and_exits_0(capsys, tmp_path):
    source = tmp_path / "g.md"
    source.write_text("## A\n\n### alpha\n\nSee [gone](#gone).\n", encoding="utf-8")
    status, out, _ = run(capsys, "check", str(source), "--language", "en")
    assert status == 0
    assert f"warning: {source}:5: in-page link '#gone'" in out
    assert f"{source}: 1 entry, 1 warning, language 'en'" in out


def test_import_of_one_entry_says_entry(capsys, tmp_path):
    source, output = tmp_path / "g.md", tmp_path / "g.toml"
    source.write_text("## A\n\n### alpha\n\nThe first letter.\n", encoding="utf-8")
    status, _, err = run(capsys, "import", str(source), "-o", str(output), "--language", "en")
    assert status == 0
    assert f"wrote {output}: 1 entry\n" in err


def test_version_is_printed_without_a_command():
    done = subprocess.run(
        [sys.executable, "-m", "sphinxcontrib_mlglossary", "--version"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"sphinxcontrib-mlglossary {cli.__version__}\n"
    assert re.fullmatch(r"\d+\.\d+\.\d+", cli.__version__)


def test_check_refuses_broken_files_with_exit_1(capsys, tmp_path):
    source = tmp_path / "g.md"
    source.write_bytes(b"\x00\x01binary")
    status, out, err = run(capsys, "check", str(source))
    assert status == 1
    assert out == ""
    assert err.startswith(f"error: {source}:1: this is a binary file")
    assert "Traceback" not in err


def test_check_refuses_a_damaged_toml_file(capsys, tmp_path):
    source = tmp_path / "g.toml"
    source.write_text('format = 1\nlanguage = "en"\n\n[[term]]\nid = "Bad Id"\nname = "x"\nsummary = "s"\nbody = "b"\n')
    status, _, err = run(capsys, "check", str(source))
    assert status == 1
    assert f"{source}:4: entry 'Bad Id': field 'id'" in err


TWO_MISTAKES = """\
format = 1
language = "en"

[[term]]
id = "alpha"
name = "alpha"
sumary = "The first letter."
body = "Alpha comes first."
tags = ["parallelism"]

[[term]]
id = "beta"
name = "beta"
summary = "The second letter."
body = "Beta comes second."
tags = ["paralelism"]
see_also = ["gama"]

[[term]]
id = "gamma"
name = "gamma"
summary = "The third letter."
body = "Gamma comes third."
"""


def test_check_lists_every_problem_of_a_file_in_one_run(capsys, tmp_path):
    source = tmp_path / "g.toml"
    source.write_text(TWO_MISTAKES, encoding="utf-8")
    status, out, err = run(capsys, "check", str(source))
    assert status == 1
    assert out == ""
    assert err.splitlines() == [
        f"warning: {source}:11: entry 'beta': field 'tags': no other entry has the tag 'paralelism'; "
        "did you mean 'parallelism'?",
        f"error: {source}:4: entry 'alpha': unknown field 'sumary' (did you mean 'summary'?)",
        f"error: {source}:11: entry 'beta': field 'see_also': see_also names unknown id 'gama' (did you mean 'gamma'?)",
        f"{source}: 2 errors, 1 warning; the file can't be used until the errors are fixed",
    ]


def test_check_after_fixing_the_errors_shows_the_warning_and_exits_0(capsys, tmp_path):
    source = tmp_path / "g.toml"
    source.write_text(TWO_MISTAKES.replace("sumary", "summary").replace('"gama"', '"gamma"'), encoding="utf-8")
    status, out, err = run(capsys, "check", str(source))
    assert status == 0
    assert f"warning: {source}:11: entry 'beta': field 'tags': no other entry has the tag 'paralelism'" in out
    assert f"{source}: 3 entries, 1 warning, language 'en'" in out
    assert err == ""


def test_check_a_bundled_translation_with_its_reference(capsys):
    status, out, _ = run(capsys, "check", str(bundled_path("ar")), "--reference", "en")
    assert status == 0
    assert f"{len(bundled_glossary('ar'))} entries" in out


def test_import_writes_toml_that_loads(capsys, tmp_path):
    output = tmp_path / "glossary.toml"
    status, out, err = run(
        capsys,
        "import",
        str(FIXTURES / "glossary_es.md"),
        "-o",
        str(output),
        "--language",
        "es",
        "--link-base",
        "https://docs.example.org",
    )
    assert status == 0
    assert out == ""
    assert f"wrote {output}: 3 entries" in err
    glossary = parse_glossary(output.read_bytes(), output)
    assert glossary.language == "es"
    assert glossary.get("attention-mask") is not None


def test_import_to_standard_output(capsys):
    status, out, _ = run(capsys, "import", str(FIXTURES / "glossary_en.md"), "--language", "en")
    assert status == 0
    assert out.startswith('format = 1\nlanguage = "en"\n')
    assert len(parse_glossary(out, "stdout.toml")) == 9


def test_import_with_reference_file_aligns_a_translation(capsys, tmp_path):
    output = tmp_path / "ar.toml"
    status, _, err = run(
        capsys,
        "import",
        str(FIXTURES / "glossary_ar.md"),
        "-o",
        str(output),
        "--language",
        "ar",
        "--reference",
        str(FIXTURES / "glossary_en.md"),
    )
    assert status == 0
    assert "position" in err  # the misnamed heading is reported
    assert "connectionist-temporal-classification" in output.read_text(encoding="utf-8")


def test_import_reports_an_unwritable_output(capsys, tmp_path):
    status, _, err = run(capsys, "import", str(FIXTURES / "glossary_en.md"), "-o", str(tmp_path / "no" / "x.toml"))
    assert status == 1
    assert "cannot write" in err


def test_unknown_reference_is_a_usage_error(capsys):
    status, _, err = run(capsys, "check", str(FIXTURES / "glossary_ar.md"), "--reference", "klingon")
    assert status == 1
    assert "neither a bundled language" in err


def test_list_prints_every_bundled_term(capsys):
    status, out, _ = run(capsys, "list")
    assert status == 0
    lines = out.splitlines()
    assert len(lines) == len(bundled_glossary("en"))
    assert "masked-language-modeling\tmasked language modeling (MLM)" in lines


def test_list_by_language_and_tag(capsys):
    status, out, _ = run(capsys, "list", "--language", "es", "--tag", "audio")
    assert status == 0
    expected = [e for e in bundled_glossary("es") if "audio" in e.tags]
    assert [line.split("\t")[0] for line in out.splitlines()] == [e.id for e in expected]
    assert expected[0].name in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["list", "--language", "fr"], "no bundled glossary for language 'fr'"),
        (["list", "--tag", "cooking"], "unknown tag cooking (known: "),
        (["list", "--tag", "paralelism"], "unknown tag paralelism; did you mean 'parallelism'? (known: "),
        (["list", "--tag", "cooking", "--tag", "sewing"], "unknown tags cooking, sewing"),
        (["check", "/nonexistent/glossary.md"], "cannot read the file"),
    ],
)
def test_user_mistakes_exit_1_without_traceback(capsys, argv, message):
    status, _, err = run(capsys, *argv)
    assert status == 1
    assert message in err
    assert "Traceback" not in err


@pytest.mark.parametrize("command", [[], ["check"], ["import"], ["list"]])
def test_help_for_every_command(command):
    done = subprocess.run(
        [sys.executable, "-m", "sphinxcontrib_mlglossary", *command, "--help"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0
    assert done.stdout.startswith("usage: python -m sphinxcontrib_mlglossary")


def test_module_entry_point_runs_check():
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "sphinxcontrib_mlglossary",
            "check",
            str(FIXTURES / "glossary_ar.md"),
            "--language",
            "ar",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "9 entries" in done.stdout
    assert "Traceback" not in done.stderr
