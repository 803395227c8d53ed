from __future__ import annotations

import os
import shutil
import subprocess
import sys
import types
from pathlib import Path

import pytest

from codeblanks.cli.main import main
from codeblanks.content import load_courses

FIXTURES = Path(__file__).parents[1] / "content" / "fixtures"


def test_serve_calls_the_web_app_with_host_and_port(monkeypatch):
    calls = []
    fake = types.ModuleType("codeblanks.web.door.serve")
    fake.serve = lambda **kwargs: calls.append(kwargs)
    monkeypatch.setitem(sys.modules, "codeblanks.web.door.serve", fake)
    assert main(["serve", "--host", "0.0.0.0", "--port", "8123"]) == 0
    assert main(["serve", "--workers", "3"]) == 0
    assert main(["serve", "--workers", "3", "--reload"]) == 0  # edits watched in one process
    assert calls == [
        {"host": "0.0.0.0", "port": 8123, "workers": None},  # None: CODEBLANKS_WEB_WORKERS
        {"host": "127.0.0.1", "port": 8000, "workers": 3},
        {"host": "127.0.0.1", "port": 8000, "workers": 1},
    ]


def test_serve_lists_content_problems_at_start_and_can_watch(monkeypatch, tmp_path, capsys):
    from codeblanks.content.catalog import _Reload, catalog, watch

    broken = shutil.copytree(FIXTURES / "content.E032", tmp_path / "broken")
    monkeypatch.setenv("CODEBLANKS_COURSES", str(broken))
    catalog.cache_clear()
    calls = []
    fake = types.ModuleType("codeblanks.web.door.serve")
    fake.serve = lambda **kwargs: calls.append(_Reload.on)
    monkeypatch.setitem(sys.modules, "codeblanks.web.door.serve", fake)
    try:
        assert main(["serve", "--reload"]) == 0
        err = capsys.readouterr().err
        assert "content.E032 " in err and "1 content problem: the lessons" in err
        assert calls == [True]
    finally:
        watch(False)
        catalog.cache_clear()


def test_serve_rejects_a_bad_port(capsys):
    assert main(["serve", "--port", "70000"]) == 2
    assert main(["serve", "--port", "eighty"]) == 2


def _course(tmp_path: Path) -> Path:
    course = tmp_path / "course"
    course.mkdir()
    shutil.copy(FIXTURES / "valid" / "course.toml", course)
    return course


def test_new_lesson_scaffold_passes_check(tmp_path, capsys):
    course = _course(tmp_path)
    args = ["new", "lesson", str(course / "01-first"), "--id", "first-steps"]
    assert main([*args, "--title", 'My "first" lesson', "--level", "Beginner"]) == 0
    (loaded,), problems = load_courses([course])
    assert problems == []
    (lesson,) = loaded.lessons
    assert (lesson.id, lesson.title, lesson.level) == (
        "first-steps",
        'My "first" lesson',
        "Beginner",
    )
    assert len(lesson.uuid) == 36
    assert main(["check", str(course)]) == 0, capsys.readouterr().out


@pytest.mark.parametrize(
    "order",
    ['order = ["sum-two"]\n', 'order = [\n  "sum-two",\n]\n', 'order = [\n  "sum-two"\n]\n'],
    ids=["one-line", "a-line-each", "no-trailing-comma"],
)
def test_a_new_lesson_joins_the_end_of_a_stated_path(tmp_path, capsys, order):
    course = _course(tmp_path)
    toml = course / "course.toml"
    toml.write_text(toml.read_text() + order)
    shutil.copytree(FIXTURES / "valid" / "01-sum", course / "01-sum")
    args = ["new", "lesson", str(course / "00-next"), "--id", "next-steps"]
    assert main([*args, "--title", "Next", "--level", "Beginner"]) == 0
    assert "at the end of `order`" in capsys.readouterr().out
    (loaded,), problems = load_courses([course])
    assert [p.code for p in problems if not p.warning] == []
    assert [x.id for x in loaded.lessons] == ["sum-two", "next-steps"]  # the path, not folders


def test_new_function_lesson_has_tests_and_no_expected_output_and_passes_check(tmp_path, capsys):
    course = _course(tmp_path)
    args = ["new", "lesson", str(course / "01-evens"), "--id", "evens", "--title", "Evens"]
    assert main([*args, "--level", "Beginner", "--kind", "function"]) == 0
    folder = course / "01-evens"
    assert (folder / "tests.py").is_file() and not (folder / "expected.txt").exists()
    (loaded,), problems = load_courses([course])
    assert problems == []
    (lesson,) = loaded.lessons
    assert not lesson.exercise.output_graded
    assert [t.name for t in lesson.exercise.tests.tests] == [
        "a few numbers",
        "no even number",
        "many numbers",
        "refuses what is not a list",
    ]
    assert main(["check", str(course)]) == 0, capsys.readouterr().out


def test_new_lesson_refuses_bad_input(tmp_path, capsys):
    course = _course(tmp_path)
    base = ["new", "lesson", str(course / "02-x"), "--title", "T"]
    assert main([*base, "--id", "Bad Id", "--level", "Beginner"]) == 2
    assert main([*base, "--id", "good-id", "--level", "Wizard"]) == 2
    outside = ["new", "lesson", str(tmp_path / "nowhere" / "x"), "--title", "T", "--id", "x"]
    assert main([*outside, "--level", "Beginner"]) == 2
    assert not (course / "02-x").exists()
    err = capsys.readouterr().err
    assert "not a slug" in err and "Wizard" in err and "no course.toml" in err


def test_serve_says_at_start_up_when_the_sandbox_cannot_isolate(tmp_path):
    """Root without CAP_SYS_ADMIN (an unprivileged container): `serve` refuses at once, exit 3,
    instead of serving pages whose every Run would fail."""
    setpriv = shutil.which("setpriv")
    assert setpriv, "util-linux setpriv is part of every Debian system"
    script = Path(sys.executable).with_name("codeblanks")
    done = subprocess.run(
        [setpriv, "--bounding-set", "-sys_admin", "--inh-caps", "-sys_admin",
         str(script), "serve", "--port", "8999"],
        capture_output=True, text=True, timeout=60, cwd=tmp_path,
        env={**os.environ, "CODEBLANKS_DATA_DIR": str(tmp_path / "data")},
    )  # fmt: skip
    assert done.returncode == 3, done
    assert "the sandbox cannot run programs on this machine" in done.stderr
    assert "Uvicorn running" not in done.stderr


def test_serve_reload_logs_why_an_edited_lesson_did_not_load(monkeypatch, tmp_path, caplog):
    # An author breaks a lesson while `serve --reload` runs: the page would be a 404, so the
    # log says which lesson and why.
    from codeblanks.content.catalog import _Reload, catalog, watch

    course = shutil.copytree(FIXTURES / "valid", tmp_path / "course")
    monkeypatch.setenv("CODEBLANKS_COURSES", str(course))
    catalog.cache_clear()
    watch()
    try:
        assert catalog().lesson("sum-two") is not None
        toml = course / "01-sum" / "lesson.toml"
        toml.write_text(toml.read_text().replace('level = "Beginner"', 'level = "Wizard"'))
        _Reload.checked = 0.0  # look at the files now, not after the usual second
        with caplog.at_level("INFO", logger="codeblanks.content"):
            assert catalog().lesson("sum-two") is None
        said = [r.getMessage() for r in caplog.records if r.name == "codeblanks.content"]
        assert any(
            m.startswith("after an edit, not loaded: content.E032 ")
            and "01-sum/lesson.toml:5: level 'Wizard' is not one of the course's levels" in m
            for m in said
        ), said
        assert said[-1].startswith("courses reloaded: ") and said[-1].endswith("; problems: 1")
    finally:
        watch(False)
        catalog.cache_clear()
