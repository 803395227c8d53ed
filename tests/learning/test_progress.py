"""The terminal's progress file: counts only grow, a broken file is a fresh start (never a
crash), and a tutor over ``NoProgress`` remembers nothing (an API call without a token)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from codeblanks.content import load_courses
from codeblanks.learning import JsonProgress, NoProgress, Tutor

VALID = Path(__file__).parents[1] / "content" / "fixtures" / "valid"
(COURSE,), _ = load_courses([VALID])
(SUM,) = COURSE.lessons
BLANK = next(q for q in SUM.questions if q.kind == "blank")


def _no_runner():
    raise AssertionError("nothing here runs a program")


def test_hint_counts_only_grow_and_a_question_keeps_its_own(tmp_path):
    tutor = Tutor(JsonProgress(tmp_path / "progress.json"), _no_runner, "en")
    assert asyncio.run(tutor.hint(SUM, 2)).seen == 2
    again = asyncio.run(tutor.hint(SUM, 1))  # looking back at the first changes nothing
    assert again.text == SUM.exercise.hints[0] and again.seen == 2
    past = asyncio.run(tutor.next_hint(SUM))
    assert past.text is None and (past.number, past.of, past.seen) == (3, 2, 2)
    shown = asyncio.run(tutor.next_hint(SUM, BLANK))
    assert shown.text == BLANK.hints[0] and shown.seen == 1
    mine = JsonProgress(tmp_path / "progress.json").of(SUM)
    assert mine["hints"] == 2 and mine["question_hints"] == {BLANK.id: 1}


def test_a_broken_progress_file_is_a_fresh_start(tmp_path):
    path = tmp_path / "progress.json"
    path.write_text("{not json", encoding="utf-8")
    progress = JsonProgress(path)
    assert asyncio.run(progress.hints_seen(SUM)) == 0
    asyncio.run(progress.solution_reveal(SUM))
    assert progress.of(SUM) == {"solution_seen": True}
    path.write_text(json.dumps({SUM.uuid: {"hints": "many"}}), encoding="utf-8")
    assert asyncio.run(progress.hints_seen(SUM)) == 0  # not a count: none seen


def test_no_progress_remembers_nothing():
    tutor = Tutor(NoProgress(), _no_runner, "tr")
    first = asyncio.run(tutor.next_hint(SUM))
    assert first.number == 1 and asyncio.run(tutor.next_hint(SUM)).number == 1
    assert asyncio.run(tutor.reveal_solution(SUM)) == (SUM.exercise.filename, SUM.exercise.solution)


def test_a_run_returns_the_previous_mistake_and_a_platform_failure_keeps_it(tmp_path):
    from codeblanks.grading import Grade

    progress = JsonProgress(tmp_path / "progress.json")

    def record(verdict: str, mistake: str | None = None) -> str | None:
        return asyncio.run(
            progress.attempt_record(SUM, Grade(verdict, "", "", "", mistake=mistake), "")
        )

    assert record("incorrect", "off-by-one") is None
    assert record("sandbox-error") == "off-by-one"
    assert record("correct") == "off-by-one"
    assert record("incorrect", "off-by-one") is None
    assert progress.of(SUM)["solved"] is True and progress.of(SUM)["mistake"] == "off-by-one"
