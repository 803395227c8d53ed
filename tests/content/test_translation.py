"""A lesson's tr/ folder read over the original: what it translates, what stays shared, and
what `codeblanks check` says about a translation that is incomplete or out of date."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from codeblanks.content import load_courses
from codeblanks.content.catalog import Catalog
from codeblanks.content.translation import write_stamps

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def course(tmp_path: Path) -> Path:
    folder = tmp_path / "tiny"
    shutil.copytree(FIXTURES / "translated", folder)
    return folder


def load(folder: Path):
    courses, problems = load_courses([folder])
    return courses, problems


def test_the_translation_carries_the_texts_and_shares_everything_else(course):
    (loaded,), problems = load(course)
    assert problems == []
    lesson = loaded.lessons[0]
    tr = lesson.in_language("tr")
    assert (lesson.language, tr.language) == ("en", "tr")
    assert tr.title == "İki sayıyı topla" and lesson.title == "Sum two numbers"
    # progress and addresses key on these: one per lesson, whatever the language
    assert (tr.id, tr.uuid, tr.level) == (lesson.id, lesson.uuid, lesson.level)
    assert tr.exercise.grading.inputs == lesson.exercise.grading.inputs
    assert [v.values for v in tr.exercise.grading.variants] == [
        v.values for v in lesson.exercise.grading.variants
    ]
    assert [v.name for v in tr.exercise.grading.variants] == ["negatif sayılar"]
    assert tr.exercise.hints[0].startswith("Hangi işleç")
    (mistake,) = tr.exercise.grading.mistakes
    assert mistake.message.startswith("İki sayıyı topla")
    assert mistake.code == lesson.exercise.grading.mistakes[0].code  # not translated: run as is
    assert "# buraya yaz" in tr.exercise.starter
    assert tr.exercise.expected_output == lesson.exercise.expected_output
    blank = tr.questions[1]
    assert blank.answer == "b" and blank.forbid == ("3",)  # shared with the original
    assert blank.variants[0].name == "başka sayılar"
    assert blank.variants[0].setup == lesson.questions[1].variants[0].setup
    assert tr.version != lesson.version  # caches of reference runs never mix the two
    assert lesson.in_language("de") is lesson


def test_the_course_and_its_levels_in_the_language(course):
    (loaded,), _ = load(course)
    tr = loaded.in_language("tr")
    assert tr.title == "Minik kurs" and tr.levels == loaded.levels  # levels stay keys
    assert tr.level_name("Beginner") == "Başlangıç"
    assert tr.lessons[0].title == "İki sayıyı topla"
    assert tr.lessons[0].level_name == "Başlangıç"
    assert loaded.in_language("en") is loaded
    catalog = Catalog((loaded,))
    assert catalog.in_language("tr").lesson("sum-two").title == "İki sayıyı topla"
    assert catalog.in_language("tr") is catalog.in_language("tr")  # made once
    assert catalog.in_language("en") is catalog


def test_changing_the_original_makes_just_that_part_out_of_date(course):
    questions = course / "01-sum" / "questions.toml"
    questions.write_text(questions.read_text().replace("Add a and b.", "Add b to a."))
    _, problems = load(course)
    assert [(p.code, p.path.name) for p in problems] == [("content.W002", "questions.toml")]
    assert "question 'total-line'" in problems[0].message
    # the translation is still served, while it is brought up to date
    (loaded,), _ = load(course)
    lesson = loaded.lessons[0]
    assert lesson.in_language("tr").title == "İki sayıyı topla"
    write_stamps(lesson, lesson.in_language("tr"))
    assert load(course)[1] == []


def test_changing_a_grading_number_is_not_a_change_to_translate(course):
    toml = course / "01-sum" / "lesson.toml"
    text = toml.read_text().replace('values = ["total"]', 'values = ["total"]\nrtol = 0.5')
    toml.write_text(text)
    assert load(course)[1] == []


def test_a_missing_question_is_named_and_the_lesson_served_in_english(course):
    questions = course / "01-sum" / "tr" / "questions.toml"
    text = questions.read_text()
    questions.write_text(text[: text.index('[[question]]\nid = "symbols"')])
    (loaded,), problems = load(course)
    assert [p.code for p in problems] == ["content.E100"]
    assert "'symbols'" in problems[0].message
    lesson = loaded.lessons[0]
    assert lesson.in_language("tr") is lesson


def test_translated_code_must_keep_the_names_the_grader_reads(course):
    solution = course / "01-sum" / "tr" / "solution.py"
    solution.write_text(solution.read_text().replace("total", "toplam"))
    _, problems = load(course)
    assert [(p.code, p.path.name) for p in problems] == [("content.E047", "solution.py")]


def test_a_starter_without_its_solution_is_a_missing_part(course):
    (course / "01-sum" / "tr" / "solution.py").unlink()
    _, problems = load(course)
    assert [(p.code, p.path.name) for p in problems] == [("content.E100", "solution.py")]


def test_a_mistake_message_left_out_is_a_missing_part(course):
    toml = course / "01-sum" / "tr" / "lesson.toml"
    text = toml.read_text()
    toml.write_text(text[: text.index("[[grading.mistakes]]")])
    _, problems = load(course)
    assert [p.code for p in problems] == ["content.E100"]
    assert "mistakes/minus.py" in problems[0].message


def test_a_language_without_its_folder_is_a_warning(course):
    shutil.rmtree(course / "01-sum" / "tr")
    (loaded,), problems = load(course)
    assert [p.code for p in problems] == ["content.W003"]
    assert loaded.lessons[0].in_language("tr").language == "en"


def test_a_question_translated_twice_is_a_part_too_many(course):
    questions = course / "01-sum" / "tr" / "questions.toml"
    text = questions.read_text()
    first = text[: text.index("[[question]]", 1)]
    questions.write_text(text + "\n" + first)
    _, problems = load(course)
    assert [p.code for p in problems] == ["content.E101"]
    assert "translated twice" in problems[0].message
