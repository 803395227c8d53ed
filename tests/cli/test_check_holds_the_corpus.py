"""The built-in courses' first corpus: remove the stable-softmax hidden test
"whole-number scores" from a copy of the lesson, as commit f8e8b31 once did (the test, the
mistake that promised to fail it, its Turkish title), and `codeblanks check` fails, naming the
real programs that case refused, in both languages; the copy as it is proves clean. And with
only the declared mistake gone, the case is not called useless: real programs need it."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from codeblanks.cli.main import main

COURSE = Path(__file__).parents[2] / "src" / "codeblanks" / "courses" / "attention-from-scratch"
LESSON = "06-stable-softmax"
CAUGHT = ("zeros-like-weights.py", "empty-like-moveaxis.py")


def _copy(tmp_path: Path) -> Path:
    """The course with this one lesson (and its translation): its path is that lesson, which
    builds on nothing here."""
    course = tmp_path / "attention-from-scratch"
    course.mkdir()
    text = (COURSE / "course.toml").read_text(encoding="utf-8")
    text = re.sub(r"^order = \[.*?\]\n", 'order = ["stable-softmax"]\n', text, flags=re.M | re.S)
    (course / "course.toml").write_text(text, encoding="utf-8")
    shutil.copytree(COURSE / "tr", course / "tr")
    shutil.copytree(COURSE / LESSON, course / LESSON)
    toml = course / LESSON / "lesson.toml"
    toml.write_text(re.sub(r"^uses = .*\n", "", toml.read_text("utf-8"), flags=re.M), "utf-8")
    return course


def _without_the_declared_mistake(lesson: Path) -> None:
    # the mistake's block: its header, then every line up to the next table
    block = r'\[\[grading\.mistakes\]\]\nfile = "mistakes/zeros-like\.py"\n(?:(?!\[).*\n)*'
    mistake = re.compile(block)
    for toml in (lesson / "lesson.toml", lesson / "tr" / "lesson.toml"):
        text = toml.read_text(encoding="utf-8")
        text, found = mistake.subn("", text)
        assert found == 1, toml
        toml.write_text(text.rstrip("\n") + "\n", encoding="utf-8")
    (lesson / "mistakes" / "zeros-like.py").unlink()


def _without_the_whole_number_case(lesson: Path) -> None:
    _without_the_declared_mistake(lesson)
    tests = lesson / "tests.py"
    text = tests.read_text(encoding="utf-8")
    cut = text.index('\n\n\n@test("whole-number scores"')
    tests.write_text(text[:cut] + "\n", encoding="utf-8")
    toml = lesson / "tr" / "lesson.toml"
    text = toml.read_text(encoding="utf-8")
    toml.write_text(re.sub(r'^"whole-number scores" = .*\n', "", text, flags=re.M), "utf-8")


def test_check_fails_naming_the_real_programs_when_the_whole_number_case_goes(capsys, tmp_path):
    course = _copy(tmp_path)
    assert main(["check", str(course)]) == 0, capsys.readouterr().out
    capsys.readouterr()

    _without_the_whole_number_case(course / LESSON)
    assert main(["check", str(course)]) == 1
    out = capsys.readouterr().out
    errors = [line for line in out.splitlines() if re.match(r"\w+\.E\d+ ", line)]
    corpus = course / LESSON / "corpus"
    expected = sorted(f"grading.E040 {corpus / name}:1" for name in CAUGHT for _ in ("en", "tr"))
    assert sorted(line.split(": ", 1)[0] for line in errors) == expected, out
    assert all("expects “incorrect” but is now judged “correct”" in line for line in errors)


def test_a_case_only_real_programs_need_is_not_called_useless(capsys, tmp_path):
    course = _copy(tmp_path)
    _without_the_declared_mistake(course / LESSON)
    assert main(["check", str(course)]) == 0, capsys.readouterr().out
    out = capsys.readouterr().out
    assert "grading.W010" not in out, out
    # and without its corpus, the case would be called useless again (in both languages)
    shutil.rmtree(course / LESSON / "corpus")
    assert main(["check", str(course)]) == 0
    out = capsys.readouterr().out
    useless = [line for line in out.splitlines() if line.startswith("grading.W010")]
    assert len(useless) == 2 and all("“whole-number scores”" in line for line in useless), out
