"""A course kept parsed between processes (content/kept.py): the copy gives the very course and
problems that reading gives, is used only while nothing it depends on changed, and a copy that
is broken or cannot be written costs nothing but the reading."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from codeblanks.content import kept, load_courses
from codeblanks.content.course import read_course
from codeblanks.content.loader import BUILTIN_COURSES

FIXTURES = Path(__file__).parent / "fixtures"


class Counted:
    """``read_course``, counting how often it really reads."""

    def __init__(self) -> None:
        self.reads = 0

    def __call__(self, folder, problems):
        self.reads += 1
        return read_course(folder, problems)


def copy(name: str, tmp_path: Path) -> Path:
    return Path(shutil.copytree(FIXTURES / name, tmp_path / "courses" / name))


@pytest.mark.parametrize("name", ["valid", "content.E030", "translated"])
def test_the_kept_copy_is_what_reading_gives(tmp_path, name):
    folder, store, read = copy(name, tmp_path), tmp_path / "store", Counted()
    direct: list = []
    expected = read_course(folder, direct)
    first: list = []
    assert kept.read_kept(folder, first, read, store) == expected and first == direct
    again: list = []
    assert kept.read_kept(folder, again, read, store) == expected and again == direct
    assert read.reads == 1  # the second came from the copy
    assert (store / f"course-{name}.pickle").is_file()


def test_an_edited_file_is_read_again(tmp_path):
    folder, store, read = copy("valid", tmp_path), tmp_path / "store", Counted()
    kept.read_kept(folder, [], read, store)
    task = next(folder.glob("*/task.md"))
    task.write_text(task.read_text() + "\nOne more sentence.\n")
    course = kept.read_kept(folder, [], read, store)
    assert read.reads == 2
    assert course is not None
    assert course.lessons[0].exercise.task_md.endswith("One more sentence.\n")
    kept.read_kept(folder, [], read, store)
    assert read.reads == 2  # the new copy serves


def test_a_new_file_or_a_moved_folder_is_read_again(tmp_path):
    folder, store, read = copy("valid", tmp_path), tmp_path / "store", Counted()
    kept.read_kept(folder, [], read, store)
    (next(folder.glob("*/")) / "notes.txt").write_text("an author's note\n")
    kept.read_kept(folder, [], read, store)
    assert read.reads == 2
    moved = Path(shutil.copytree(folder, tmp_path / "elsewhere" / folder.name))
    course = kept.read_kept(moved, [], read, store)
    assert read.reads == 3 and course is not None and course.path == moved


@pytest.mark.parametrize(
    "spoil",
    [
        lambda data: data[: len(data) // 2],  # cut short
        lambda data: data.split(b"\n", 1)[0] + b"\nnot a pickle at all",
        lambda data: b"0" * 64 + b"\n" + data.split(b"\n", 1)[1],  # another key
        lambda data: b"",
    ],
    ids=["truncated", "garbage", "other-key", "empty"],
)
def test_a_spoilt_copy_is_read_again_and_replaced(tmp_path, spoil):
    folder, store, read = copy("valid", tmp_path), tmp_path / "store", Counted()
    expected = kept.read_kept(folder, [], read, store)
    where = store / "course-valid.pickle"
    where.write_bytes(spoil(where.read_bytes()))
    assert kept.read_kept(folder, [], read, store) == expected and read.reads == 2
    assert kept.read_kept(folder, [], read, store) == expected and read.reads == 2


def test_a_copy_that_holds_something_else_is_not_trusted(tmp_path):
    """Even under the right key, a copy must hold a course and a list of problems."""
    import pickle

    folder, store, read = copy("valid", tmp_path), tmp_path / "store", Counted()
    expected = kept.read_kept(folder, [], read, store)
    where = store / "course-valid.pickle"
    key = where.read_bytes().split(b"\n", 1)[0]
    for other in (("a course?", "problems?"), 5, (expected,), None):
        where.write_bytes(key + b"\n" + pickle.dumps(other))
        assert kept.read_kept(folder, [], read, store) == expected
    assert read.reads == 5


def test_a_course_that_cannot_be_pickled_is_served_unkept(tmp_path):
    import dataclasses
    import threading

    folder, store = copy("valid", tmp_path), tmp_path / "store"

    def unpicklable(folder, problems):
        course = read_course(folder, problems)
        return dataclasses.replace(course, title=threading.Lock())

    course = kept.read_kept(folder, [], unpicklable, store)
    assert course is not None and course.id == "tiny"
    assert not list(store.glob("*.pickle")) and not list(store.glob("*.partial"))


def test_a_store_that_cannot_be_written_only_costs_the_reading(tmp_path):
    folder, read = copy("valid", tmp_path), Counted()
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    for _ in range(2):
        assert kept.read_kept(folder, [], read, blocked / "store") is not None
    assert read.reads == 2 and blocked.read_text() == "not a folder"


def test_only_the_packages_own_courses_are_kept(tmp_path):
    folder, read = copy("valid", tmp_path), Counted()
    kept.read_kept(folder, [], read)
    kept.read_kept(folder, [], read)
    assert read.reads == 2 and not (kept.STORE / "course-valid.pickle").exists()
    assert kept._in_package(BUILTIN_COURSES / "python-from-the-first-line")
    assert not kept._in_package(folder)


def test_the_built_in_courses_load_the_same_from_their_copies(tmp_path):
    """The catalogue read with a copy of each built-in course (made now, in a store of this
    test's) equals the one read from the files, lesson by lesson, translations included."""
    store, read = tmp_path / "store", Counted()
    folders = sorted(p for p in BUILTIN_COURSES.iterdir() if (p / "course.toml").exists())
    made = [kept.read_kept(f, [], read, store) for f in folders]
    from_copies = [kept.read_kept(f, [], read, store) for f in folders]
    assert read.reads == len(folders) and from_copies == made
    courses, problems = load_courses([BUILTIN_COURSES])
    assert not problems and courses == from_copies
    for course in from_copies:
        for lesson in course.lessons:
            assert lesson.translations, lesson.id  # the Turkish versions came along
