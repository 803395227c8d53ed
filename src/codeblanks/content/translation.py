"""A lesson's translation: its ``tr/`` folder (one per extra language of the course) read over
the original into the whole ``Lesson`` in that language (docs/authoring.md, "Translating a
lesson").

A translation carries the texts (and, if its author wants, the code) and nothing else: ids,
levels, grading numbers, inputs, values, setups and tests stay the original's, shared by every
language. Its questions are merged over the original's and read by the same reader, so a
translated question is checked exactly as an original one. ``translated-from.toml`` records what
each part of the original said when it was translated (``codeblanks translate --stamp``): a part
whose original changed since is reported as out of date (content.W002).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from codeblanks.content.codes import problem
from codeblanks.content.fields import Table
from codeblanks.content.files import inside, read_text, read_toml
from codeblanks.content.heatmaps import heatmap_problems
from codeblanks.content.model import (
    BlankQuestion,
    ChoiceQuestion,
    FunctionTests,
    Lesson,
    MatchQuestion,
    Mistake,
    Question,
)
from codeblanks.content.problems import Problem
from codeblanks.content.prose import markdown_problems
from codeblanks.content.pysource import assigned_inputs, parse, top_level_names
from codeblanks.content.questions import read_questions
from codeblanks.content.tomlpos import Locator

STAMPS = "translated-from.toml"
LESSON_KEYS = {"title", "summary", "exercise", "grading", "tests"}
QUESTION_KEYS = {
    "choice": {"id", "kind", "prompt", "options", "answer", "explanation", "hints"},
    "blank": {"id", "kind", "prompt", "code", "answer", "accept", "explanation", "hints"},
    "match": {"id", "kind", "prompt", "pairs", "explanation", "hints"},
}
CODE_FILES = ("starter.py", "solution.py")


def read_translation(original: Lesson, language: str, problems: list[Problem]) -> Lesson | None:
    """``original`` in ``language``, from its folder ``original.path / language``; None when the
    translation has any problem (all added). Out-of-date parts are warnings: it still loads."""
    folder = original.path / language
    before = len(problems)
    parsed = read_toml(folder, "lesson.toml", problems)
    explanation = read_text(folder, "explanation.md", problems)
    problems += heatmap_problems(explanation, folder / "explanation.md")
    task = read_text(folder, "task.md", problems)
    problems += markdown_problems(explanation, folder / "explanation.md")
    problems += markdown_problems(task, folder / "task.md")
    questions = _read_questions(original, folder, problems)
    starter, solution = _read_code(original, folder, problems)
    if parsed is None:
        return None
    data, text = parsed
    root = Table(data, path=folder / "lesson.toml", locator=Locator(text), problems=problems)
    root.unknown(LESSON_KEYS)
    title, summary = root.text("title"), root.text("summary")
    exercise = root.table("exercise")
    exercise.unknown({"hints"})
    hints = _same_count(exercise, "hints", exercise.hints(), original.exercise.hints, "hints")
    grading = root.table("grading")
    grading.unknown({"variants", "mistakes", "rules"})
    spec = original.exercise.grading
    names = grading.texts("variants")
    _same_count(grading, "variants", names, spec.variants, "variant names")
    rule_texts = _same_count(grading, "rules", grading.texts("rules"), spec.rules, "rule texts")
    mistakes = _read_mistakes(grading, original, folder, problems)
    tests = _read_test_titles(root, original)
    if (
        len(problems) != before
        or explanation is None
        or task is None
        or questions is None
        or mistakes is None
    ):
        return None
    ex = original.exercise
    variants = tuple(replace(v, name=n) for v, n in zip(spec.variants, names, strict=False))
    rules = tuple(replace(r, text=t) for r, t in zip(spec.rules, rule_texts, strict=False))
    # a mistake's promised cases follow their variants' translated names
    renamed = {v.name: t.name for v, t in zip(spec.variants, variants, strict=False)}
    mistakes = tuple(
        replace(m, must_fail=tuple(renamed.get(n, n) for n in m.must_fail)) for m in mistakes
    )
    lesson = replace(
        original,
        title=title,
        summary=summary,
        path=folder,
        explanation_md=explanation,
        exercise=replace(
            ex,
            task_md=task,
            starter=starter or ex.starter,
            solution=solution or ex.solution,
            hints=hints,
            grading=replace(
                spec,
                variants=variants or spec.variants,
                mistakes=mistakes,
                rules=rules or spec.rules,
            ),
            tests=tests,
        ),
        questions=questions,
        version=f"{original.version}.{language}",
        language=language,
        translations={},
    )
    problems.extend(stale_parts(original, lesson))
    return lesson


def _same_count(
    table: Table, key: str, got: tuple[str, ...], original: tuple[object, ...], what: str
) -> tuple[str, ...]:
    """``got`` when it has as many items as the original's, else () after reporting it."""
    if len(got) != len(original):
        table.report(
            "content.E100" if len(got) < len(original) else "content.E101",
            key if key in table.data else None,
            f"{table.label} has {len(got)} {what}; the original has {len(original)}",
        )
        return ()
    return got


def _read_mistakes(
    grading: Table, original: Lesson, folder: Path, problems: list[Problem]
) -> tuple[Mistake, ...] | None:
    """Each original mistake with its translated texts (and its translated program, if the
    translation has one at the same path); None after a problem."""
    before = len(problems)
    given: dict[str, Table] = {}
    for index, raw in enumerate(grading.tables("mistakes")):
        table = grading.child("mistakes", index, raw, f"mistake {index + 1}")
        table.unknown({"file", "message", "nudge"})
        file = table.text("file")
        if file and not any(m.file == file for m in original.exercise.grading.mistakes):
            table.report("content.E101", "file", f"{file!r} is not one of the original's mistakes")
        elif file:
            given[file] = table
    mistakes = []
    for mistake in original.exercise.grading.mistakes:
        found = given.get(mistake.file)
        if found is None:
            grading.report(
                "content.E100", None, f"no [[grading.mistakes]] translates {mistake.file!r}"
            )
            continue
        message = found.text("message")
        nudge = found.text("nudge", required=bool(mistake.nudge))
        if nudge and not mistake.nudge:
            found.report("content.E101", "nudge", f"{mistake.file!r} has no nudge in the original")
        path, code = mistake.path, mistake.code
        translated = inside(folder, mistake.file)
        if translated is not None and translated.exists():
            path, code = translated, read_text(folder, mistake.file, problems) or ""
        mistakes.append(replace(mistake, path=path, code=code, message=message, nudge=nudge))
    return tuple(mistakes) if len(problems) == before else None


def _read_test_titles(root: Table, original: Lesson) -> FunctionTests | None:
    """A function exercise's tests, each with its translated title (``[tests]``)."""
    suite = original.exercise.tests
    table = root.table("tests")
    if suite is None:
        if table.data:
            root.report("content.E101", "tests", "[tests] names tests, but there is no tests.py")
        return None
    names = {test.name for test in suite.tests}
    for name in table.data:
        if name not in names:
            table.report("content.E101", name, f"no test of tests.py is named {name!r}")
    tests = []
    for test in suite.tests:
        title = table.text(test.name, required=False)
        if not title:
            table.report("content.E100", None, f"[tests] does not translate the test {test.name!r}")
        tests.append(replace(test, title=title or test.title))
    return replace(suite, tests=tuple(tests))


def _read_questions(
    original: Lesson, folder: Path, problems: list[Problem]
) -> tuple[Question, ...] | None:
    """The original's questions with the translation's texts, read by the questions' reader."""
    if not original.questions and not (folder / "questions.toml").exists():
        return ()
    parsed = read_toml(folder, "questions.toml", problems)
    raw_original = read_toml(original.path, "questions.toml", [])
    if parsed is None or raw_original is None:
        return None
    data, text = parsed
    path = folder / "questions.toml"
    root = Table(data, path=path, locator=Locator(text), problems=problems)
    root.unknown({"question"})
    before = len(problems)
    translated = {}
    for index, raw in enumerate(root.tables("question")):
        table = root.child("question", index, raw, f"question {index + 1}")
        qid = table.text("id")
        known = next((q for q in original.questions if q.id == qid), None)
        if qid and known is None:
            table.report("content.E101", "id", f"the original has no question {qid!r}")
        elif qid in translated:
            table.report("content.E101", "id", f"question {qid!r} is translated twice")
        elif known is not None:
            table.label = f"question {qid!r}"
            table.unknown(
                QUESTION_KEYS[known.kind] | ({"variants"} if known.kind == "blank" else set())
            )
            translated[qid] = (index, table)
    merged = []
    for raw in raw_original[0].get("question", []):
        qid = raw.get("id")
        if qid not in translated:
            root.report("content.E100", None, f"no [[question]] translates {qid!r}")
            continue
        index, table = translated[qid]
        merged.append(_merged(raw, table))
    if len(problems) != before:
        return None
    # read as the original file's structure, located in the translation's text
    questions = read_questions({"question": merged}, text, path, problems)
    if questions is None:
        return None
    for question, original_question in zip(questions, original.questions, strict=True):
        _same_shape(question, original_question, translated[question.id][1])
    return questions if len(problems) == before else None


def _merged(raw: dict[str, Any], table: Table) -> dict[str, Any]:
    """The original question's table with the translation's keys over it; translated variant
    names replace the original's, one for one."""
    merged = dict(raw)
    for key, value in table.data.items():
        if key != "variants":
            merged[key] = value
    names = table.data.get("variants")
    variants = raw.get("variants") or []
    if names is not None:
        ok = isinstance(names, list) and all(isinstance(n, str) and n.strip() for n in names)
        if not ok or len(names) != len(variants):
            table.report(
                "content.E100",
                "variants",
                f"{table.label} `variants` must name the original's {len(variants)} variants",
            )
        else:
            merged["variants"] = [dict(v, name=n) for v, n in zip(variants, names, strict=True)]
    return merged


def _same_shape(question: Question, original: Question, table: Table) -> None:
    """A translated question asks the same thing: as many options, at the same answer, as many
    pairs and hints."""
    if isinstance(question, ChoiceQuestion) and isinstance(original, ChoiceQuestion):
        if len(question.options) != len(original.options):
            table.report(
                "content.E102",
                "options",
                f"{table.label} has {len(question.options)} options; "
                f"the original has {len(original.options)}",
            )
        elif question.answer != original.answer:
            table.report(
                "content.E102",
                "answer",
                f"{table.label} answer is option {question.answer + 1}; "
                f"the original's is option {original.answer + 1}",
                "keep the options in the original's order",
            )
    if (
        isinstance(question, MatchQuestion)
        and isinstance(original, MatchQuestion)
        and len(question.pairs) != len(original.pairs)
    ):
        table.report(
            "content.E102",
            "pairs",
            f"{table.label} has {len(question.pairs)} pairs; "
            f"the original has {len(original.pairs)}",
        )
    if len(question.hints) != len(original.hints):
        table.report(
            "content.E100" if len(question.hints) < len(original.hints) else "content.E101",
            "hints",
            f"{table.label} has {len(question.hints)} hints; the original has "
            f"{len(original.hints)}",
        )


def _read_code(
    original: Lesson, folder: Path, problems: list[Problem]
) -> tuple[str | None, str | None]:
    """The translated starter and solution (both or neither), checked as the original's are:
    they parse, assign the declared inputs, and the solution binds the compared values."""
    texts = {name: read_text(folder, name, problems, required=False) for name in CODE_FILES}
    present = [name for name, text in texts.items() if text is not None]
    if len(present) == 1:
        (missing,) = set(CODE_FILES) - set(present)
        problems.append(
            problem(
                "content.E100",
                folder / missing,
                None,
                f"{present[0]} is translated but {missing} is not: translate both or neither",
            )
        )
        return None, None
    spec = original.exercise.grading
    for name, source in texts.items():
        if source is None:
            continue
        tree, reason, line = parse(source)
        if tree is None:
            problems.append(problem("content.E041", folder / name, line, f"{name}: {reason}"))
            continue
        for wanted in spec.inputs:
            if wanted not in assigned_inputs(tree):
                problems.append(
                    problem(
                        "content.E040",
                        folder / name,
                        None,
                        f"input {wanted!r} is not a top-level `{wanted} = ...` in {name}",
                    )
                )
        if name == "solution.py":
            bound = top_level_names(tree)
            for wanted in spec.values:
                if wanted not in bound:
                    problems.append(
                        problem(
                            "content.E047",
                            folder / name,
                            None,
                            f"value {wanted!r} is never assigned in {name}",
                        )
                    )
    return texts["starter.py"], texts["solution.py"]


# -- out of date: what each part of the original said when it was translated ----------------


def parts(original: Lesson, translation: Lesson | None = None) -> dict[str, str]:
    """Each translatable part of ``original`` → a short hash of what it says now. The code is a
    part only for a translation that translates it."""
    ex, spec = original.exercise, original.exercise.grading
    lesson_texts = {
        "title": original.title,
        "summary": original.summary,
        "hints": ex.hints,
        "variants": [v.name for v in spec.variants],
        "mistakes": [(m.file, m.nudge, m.message) for m in spec.mistakes],
        "tests": [t.name for t in ex.tests.tests] if ex.tests else [],
    }
    if spec.rules:  # only then: the stamps of lessons without rules stay as they were
        lesson_texts["rules"] = [r.text for r in spec.rules]
    found = {
        "lesson.toml": _digest(lesson_texts),
        "explanation.md": _digest(original.explanation_md),
        "task.md": _digest(ex.task_md),
    }
    for question in original.questions:
        found[f"questions.toml#{question.id}"] = _digest(_question_texts(question))
    if translation is not None and translation.exercise.starter != ex.starter:
        found["starter.py"] = _digest(ex.starter)
        found["solution.py"] = _digest(ex.solution)
    return found


def _question_texts(question: Question) -> dict[str, Any]:
    texts: dict[str, Any] = {
        "prompt": question.prompt,
        "explanation": question.explanation,
        "hints": question.hints,
    }
    if isinstance(question, ChoiceQuestion):
        texts["options"] = question.options
    elif isinstance(question, BlankQuestion):
        texts |= {"code": question.code, "answer": question.answer, "accept": question.accept}
        texts["variants"] = [v.name for v in question.variants]
    else:
        texts["pairs"] = question.pairs
    return texts


def _digest(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def stale_parts(original: Lesson, translation: Lesson) -> list[Problem]:
    """A warning for each part of the translation whose original changed after it was
    translated (or that was never stamped)."""
    folder = translation.path
    recorded = read_toml(folder, STAMPS, [], required=False)
    command = f"codeblanks translate {original.path} --lang {folder.name} --stamp"
    fix = f"update the translation, then run `{command}`"
    if recorded is None:
        return [
            problem(
                "content.W002",
                folder / STAMPS,
                None,
                f"{folder.name}/ was never stamped: nothing says which original it translates",
                f"check it against the original, then run `{command}`",
            )
        ]
    stamps = recorded[0]
    found = []
    for part, digest in parts(original, translation).items():
        if stamps.get(part) != digest:
            file = part.split("#")[0]
            what = f"question {part.split('#')[1]!r} of {file}" if "#" in part else file
            why = "is new since the translation" if part not in stamps else "changed since"
            found.append(
                problem(
                    "content.W002",
                    folder / file,
                    None,
                    f"{folder.name}/{file} is out of date: the original's {what} {why}",
                    fix,
                )
            )
    return found


def write_stamps(original: Lesson, translation: Lesson) -> Path:
    """Record that ``translation`` is up to date with ``original`` as it is now."""
    path = translation.path / STAMPS
    lines = [
        "# Written by `codeblanks translate --stamp`: what each part of the original said when",
        "# it was translated (a hash). Do not edit; `codeblanks check` compares it.",
    ]
    lines += [
        f"{json.dumps(part)} = {json.dumps(d)}" for part, d in parts(original, translation).items()
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
