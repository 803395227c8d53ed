"""`codeblanks translate`: a translation started from the original's texts, finished by a stamp,
and reported out of date when the original changes afterwards."""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

from codeblanks.cli.main import main
from codeblanks.content import load_courses

FIXTURES = Path(__file__).parents[1] / "content" / "fixtures"


def test_start_translate_stamp_then_the_original_changes(tmp_path, capsys):
    course = tmp_path / "tiny"
    shutil.copytree(FIXTURES / "valid", course)
    lesson = course / "01-sum"
    assert main(["translate", str(lesson), "--lang", "tr"]) == 0
    out = capsys.readouterr().out
    assert 'Add "tr" to `languages`' in out
    # the scaffold holds the original's texts in the translation's layout, and loads as one
    scaffold = tomllib.loads((lesson / "tr" / "lesson.toml").read_text())
    assert scaffold["title"] == "Sum two numbers"
    assert scaffold["grading"]["mistakes"][0]["file"] == "mistakes/minus.py"
    assert (course / "tr" / "course.toml").exists()
    with (course / "course.toml").open("a") as toml:
        toml.write('languages = ["en", "tr"]\n')
    _, problems = load_courses([course])
    assert [p.code for p in problems] == ["content.W002"]  # not stamped yet

    task = lesson / "tr" / "task.md"
    task.write_text("`a` ve `b` iki sayı tutuyor: toplamlarını `total` adına ver ve yazdır.\n")
    assert main(["translate", str(lesson), "--lang", "tr", "--stamp"]) == 0
    assert load_courses([course])[1] == []
    assert main(["check", str(course)]) == 0
    assert "1 lesson (and 1 translation) in 1 course: 0 problems" in capsys.readouterr().out

    (lesson / "task.md").write_text("Add `a` and `b`, name the sum `total`, and print it.\n")
    assert main(["check", str(course), "--no-run"]) == 0  # a warning does not fail the check
    out = capsys.readouterr().out
    assert "content.W002" in out and "tr/task.md is out of date" in out


def test_a_translation_with_problems_is_not_stamped(tmp_path, capsys):
    course = tmp_path / "tiny"
    shutil.copytree(FIXTURES / "translated", course)
    toml = course / "01-sum" / "tr" / "lesson.toml"
    toml.write_text(toml.read_text().replace('title = "İki sayıyı topla"\n', ""))
    stamps = course / "01-sum" / "tr" / "translated-from.toml"
    before = stamps.read_text()
    assert main(["translate", str(course / "01-sum"), "--lang", "tr", "--stamp"]) == 1
    assert "content.E010" in capsys.readouterr().out
    assert stamps.read_text() == before


def test_an_existing_translation_is_never_overwritten(tmp_path, capsys):
    course = tmp_path / "tiny"
    shutil.copytree(FIXTURES / "translated", course)
    before = (course / "01-sum" / "tr" / "task.md").read_text()
    assert main(["translate", str(course / "01-sum"), "--lang", "tr"]) == 2
    assert "already exists" in capsys.readouterr().err
    assert (course / "01-sum" / "tr" / "task.md").read_text() == before
