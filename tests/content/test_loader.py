"""What the loader builds from a valid course, and how it finds courses."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from codeblanks.content import catalog, load_courses
from codeblanks.content.model import BlankQuestion, ChoiceQuestion, MatchQuestion
from codeblanks.content.tomlpos import Locator

VALID = Path(__file__).parent / "fixtures" / "valid"


@pytest.fixture
def course(tmp_path: Path) -> Path:
    return Path(shutil.copytree(VALID, tmp_path / "tiny"))


def test_every_field_is_filled():
    (course,), problems = load_courses([VALID])
    assert problems == []
    assert (course.id, course.title, course.levels[0]) == ("tiny", "Tiny course", "Beginner")
    (lesson,) = course.lessons
    assert lesson.course_id == "tiny" and lesson.level == "Beginner"
    assert lesson.uuid == "8c4f2a51-6d0e-4b7a-9f3c-2e1d5a6b7c80"
    assert lesson.explanation_md.startswith("# Adding")
    ex = lesson.exercise
    assert ex.filename == "main.py" and "____" in ex.starter and ex.expected_output == "5\n"
    assert ex.grading.inputs == ("a", "b") and ex.grading.values == ("total",)
    (variant,) = ex.grading.variants
    assert variant.name == "negative numbers" and variant.values == {"a": "-3", "b": "-4"}
    (mistake,) = ex.grading.mistakes
    assert mistake.path.name == "minus.py" and "a - b" in mistake.code
    choice, blank, match = lesson.questions
    assert isinstance(choice, ChoiceQuestion) and choice.options[choice.answer] == "+"
    assert isinstance(blank, BlankQuestion) and (blank.check, blank.answer) == ("value", "b")
    assert isinstance(match, MatchQuestion) and match.pairs[0] == ("+", "adds")
    assert len(lesson.version) == 16
    # hints, nudges and the blank's defences
    assert len(ex.hints) == 2 and ex.hints[0].startswith("Which operator")
    assert mistake.nudge.startswith("Look at the sign") and mistake.message.startswith("Add")
    assert blank.hints == ("The total needs both numbers.",) and choice.hints == ()
    assert blank.forbid == ("3",)
    (blank_variant,) = blank.variants
    assert blank_variant.name == "other numbers" and "b = 20" in blank_variant.setup


def test_a_blank_variant_setup_that_does_not_parse_is_reported_on_its_line(course: Path):
    questions = course / "01-sum" / "questions.toml"
    text = questions.read_text()
    questions.write_text(text.replace("b = 20", "b = = 20") + VARIANT_OF_MATCH)
    _, problems = load_courses([course])
    assert [(p.code, p.line) for p in problems] == [("content.E041", 21), ("content.E012", 46)]


# a second blank's variants: the locator counts [[question.variants]] across questions
VARIANT_OF_MATCH = """
[[question]]
kind = "blank"
id = "again"
prompt = "Add a and b again."
code = "total = ____ + b"
answer = "a"
explanation = "The same sum."

[[question.variants]]
setup = "a = 1"
seed = 3
"""


def test_forbid_compares_literals_by_value(course: Path):
    questions = course / "01-sum" / "questions.toml"
    questions.write_text(questions.read_text().replace('forbid = ["3"]', 'forbid = ["3.0"]'))
    assert load_courses([course])[1] == []
    questions.write_text(questions.read_text().replace('answer = "b"', 'answer = "0x3"'))
    _, problems = load_courses([course])
    assert [p.code for p in problems] == ["content.E085"]


def test_choice_answer_becomes_the_index_of_its_option(course: Path):
    questions = course / "01-sum" / "questions.toml"
    questions.write_text(questions.read_text().replace('answer = "+"', 'answer = "*"'))
    (loaded,), _ = load_courses([course])
    choice = loaded.lessons[0].questions[0]
    assert choice.answer == 2


def test_version_changes_with_any_file_of_the_lesson(course: Path):
    before = load_courses([course])[0][0].lessons[0].version
    (course / "01-sum" / "mistakes" / "minus.py").write_text("total = 0\n")
    after = load_courses([course])[0][0].lessons[0].version
    assert before != after


def test_lessons_are_ordered_by_folder_name(course: Path):
    second = course / "00-first"
    shutil.copytree(course / "01-sum", second)
    toml = second / "lesson.toml"
    toml.write_text(
        toml.read_text()
        .replace('id = "sum-two"', 'id = "sum-first"')
        .replace("8c4f2a51-6d0e-4b7a-9f3c-2e1d5a6b7c80", "11111111-2222-4333-8444-555555555555")
    )
    (loaded,), problems = load_courses([course])
    assert problems == []
    assert [lesson.id for lesson in loaded.lessons] == ["sum-first", "sum-two"]


def test_a_folder_of_courses_and_every_problem_reported(tmp_path: Path):
    shutil.copytree(VALID, tmp_path / "a")
    broken = Path(shutil.copytree(VALID, tmp_path / "b"))
    (broken / "course.toml").write_text('id = "other"\ntitle = "T"\nsummary = "S"\n')
    lesson = broken / "01-sum" / "lesson.toml"
    lesson.write_text(lesson.read_text().replace('level = "Beginner"', 'level = "Guru"'))
    (broken / "01-sum" / "task.md").unlink()
    courses, problems = load_courses([tmp_path])
    assert sorted(p.code for p in problems) == ["content.E001", "content.E032"]
    assert [c.id for c in courses] == ["tiny", "other"]
    assert courses[1].lessons == ()


def test_missing_path_is_a_problem_not_an_exception(tmp_path: Path):
    courses, problems = load_courses([tmp_path / "nowhere"])
    assert courses == [] and [p.code for p in problems] == ["content.E024"]


def test_default_paths_include_the_environment(monkeypatch, course: Path):
    monkeypatch.setenv("CODEBLANKS_COURSES", str(course))
    courses, _ = load_courses()
    assert "tiny" in [c.id for c in courses]


def test_catalog_finds_lessons_by_id(monkeypatch, course: Path):
    monkeypatch.setenv("CODEBLANKS_COURSES", str(course))
    catalog.cache_clear()
    try:
        assert catalog().lesson("sum-two").title == "Sum two numbers"
        assert catalog().lesson("no-such-lesson") is None
        assert "sum-two" in [lesson.id for lesson in catalog().lessons()]
    finally:
        catalog.cache_clear()


def test_threads_asking_at_once_load_the_catalog_once(monkeypatch, course: Path):
    """A cold web worker's first requests come together: one loads the courses, the others
    wait for its catalogue instead of each parsing every course again."""
    import importlib
    import threading

    catalog_module = importlib.import_module("codeblanks.content.catalog")  # not the function

    calls = []

    def slow_load(paths):
        calls.append(paths)
        time.sleep(0.2)  # long enough that every thread asks while the first still loads
        return load_courses(paths)

    monkeypatch.setenv("CODEBLANKS_COURSES", str(course))
    monkeypatch.setattr(catalog_module, "load_courses", slow_load)
    catalog.cache_clear()
    start = threading.Barrier(8)
    got = []

    def ask():
        start.wait()
        got.append(catalog())

    threads = [threading.Thread(target=ask) for _ in range(8)]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert len(calls) == 1
        assert len(got) == 8 and all(c is got[0] for c in got)
        assert got[0].lesson("sum-two") is not None
    finally:
        catalog.cache_clear()


def test_a_watched_catalog_shows_an_edited_lesson_without_a_restart(monkeypatch, course: Path):
    from codeblanks.content.catalog import _Reload, watch

    monkeypatch.setenv("CODEBLANKS_COURSES", str(course))
    catalog.cache_clear()
    watch()
    try:
        assert catalog().lesson("sum-two").title == "Sum two numbers"
        toml = course / "01-sum" / "lesson.toml"
        toml.write_text(toml.read_text().replace("Sum two numbers", "Add two numbers"))
        # The files are looked at once a second: as if they were just looked at, the edit is
        # not seen yet (no timing window: the last look is set, not waited for).
        _Reload.checked = time.monotonic() + 3600.0
        assert catalog().lesson("sum-two").title == "Sum two numbers"
        _Reload.checked = 0.0
        assert catalog().lesson("sum-two").title == "Add two numbers"
        watch(False)
        toml.write_text(toml.read_text().replace("Add two numbers", "Sum them"))
        _Reload.checked = 0.0
        assert catalog().lesson("sum-two").title == "Add two numbers"  # not watched: kept
    finally:
        watch(False)
        catalog.cache_clear()


def test_locator_finds_keys_in_array_tables_and_skips_strings():
    text = (
        'id = "x"\n'
        "[[question]]\n"
        'id = "a"\n'
        'explanation = """\n'
        'answer = "inside a string"\n'
        '"""\n'
        "pairs = [\n"
        '  ["[x]", "y"],\n'
        "]\n"
        "[[question]]\n"
        'answer = "b"\n'
    )
    loc = Locator(text)
    assert loc.key("", "id") == 1
    assert loc.key("question", "id", 0) == 3
    assert loc.key("question", "answer", 0) == 2  # not in the string: falls back to the header
    assert loc.key("question", "answer", 1) == 11
    assert loc.table("question", 1) == 10


def test_a_folder_of_lessons_without_course_toml_is_reported(course: Path):
    (course / "course.toml").unlink()
    courses, problems = load_courses([course])
    assert courses == []
    assert [(p.code, p.path.name) for p in problems] == [("content.E001", "course.toml")]


def test_a_link_out_of_the_lesson_folder_is_refused(course: Path, tmp_path: Path):
    outside = tmp_path / "secret.txt"
    outside.write_text("5\n")
    expected = course / "01-sum" / "expected.txt"
    expected.unlink()
    expected.symlink_to(outside)
    _, problems = load_courses([course])
    assert [(p.code, p.path.name) for p in problems] == [("content.E004", "expected.txt")]


def test_every_problem_of_a_file_is_reported_not_just_the_first(course: Path):
    (course / "01-sum" / "questions.toml").write_text(
        "[[question]]\n"
        'kind = "choice"\n'
        'id = "Bad Id"\n'  # E052
        'prompt = ""\n'  # E013
        'options = ["x", "x"]\n'  # E054
        'answer = "y"\n'  # E053
        'explanation = "e"\n'
        "colour = 1\n"  # E012
    )
    _, problems = load_courses([course])
    assert sorted((p.code, p.line) for p in problems) == [
        ("content.E012", 8),
        ("content.E013", 4),
        ("content.E052", 3),
        ("content.E053", 6),
        ("content.E054", 5),
    ]


def test_broken_levels_do_not_also_flag_every_lesson_level(course: Path):
    (course / "course.toml").write_text('id = "tiny"\ntitle = "T"\nsummary = "S"\nlevels = []\n')
    _, problems = load_courses([course])
    assert [p.code for p in problems] == ["content.E021"]


def test_custom_levels_are_the_lessons_levels(course: Path):
    (course / "course.toml").write_text(
        'id = "tiny"\ntitle = "T"\nsummary = "S"\nlevels = ["Novice", "Beginner"]\n'
    )
    (loaded,), problems = load_courses([course])
    assert problems == [] and loaded.levels == ("Novice", "Beginner")
    assert loaded.lessons_at("Beginner")[0].id == "sum-two"


def test_tolerance_distributions_output_and_dtype_are_read(course: Path):
    toml = course / "01-sum" / "lesson.toml"
    toml.write_text(
        toml.read_text().replace(
            'values = ["total"]\n',
            'values = ["total"]\ndistributions = { total = -1 }\noutput = "numbers"\n'
            "exact_dtype = true\n\n[grading.tolerance]\ntotal = { atol = 1e-3 }\n\n",
        )
    )
    (loaded,), problems = load_courses([course])
    assert problems == []
    spec = loaded.lessons[0].exercise.grading
    assert spec.distributions == {"total": -1} and spec.tolerance == {"total": (0.0, 1e-3)}
    assert spec.output == "numbers" and spec.exact_dtype is True


FUNCTION = Path(__file__).parent / "fixtures" / "function"


def test_a_function_exercise_may_leave_out_expected_output(tmp_path: Path):
    course = Path(shutil.copytree(FUNCTION, tmp_path / "functions"))
    (course / "01-shares" / "expected.txt").unlink()
    (loaded,), problems = load_courses([course])
    assert problems == []
    ex = loaded.lessons[0].exercise
    assert not ex.output_graded and ex.expected_output == ""
    (graded,), _ = load_courses([FUNCTION])
    assert graded.lessons[0].exercise.output_graded


def test_without_tests_expected_output_is_still_required(course: Path):
    (course / "01-sum" / "expected.txt").unlink()
    _, problems = load_courses([course])
    assert [(p.code, p.path.name) for p in problems] == [("content.E001", "expected.txt")]


def test_a_tests_exact_and_unordered_options_are_read(tmp_path: Path):
    course = Path(shutil.copytree(FUNCTION, tmp_path / "functions"))
    tests = course / "01-shares" / "tests.py"
    tests.write_text(
        tests.read_text().replace(
            '@test("two rows")', '@test("two rows", exact=True, unordered=True)'
        )
    )
    (loaded,), problems = load_courses([course])
    assert problems == []
    first = loaded.lessons[0].exercise.tests.tests[0]
    assert (first.name, first.exact, first.unordered) == ("two rows", True, True)
    tests.write_text(tests.read_text().replace("exact=True", "exact=1"))
    _, problems = load_courses([course])
    assert [p.message for p in problems] == [
        "tests.py, @test of two_rows: exact must be True or False"
    ]
