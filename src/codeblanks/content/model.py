"""The typed model of a course: what the loader builds from lesson folders, and all that the
grader, the CLI and the web app read. Plain frozen dataclasses, no Django: content is files,
never database rows (progress keys on ``Lesson.uuid``)."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field, replace
from pathlib import Path

DEFAULT_LEVELS: tuple[str, ...] = ("Beginner", "Intermediate", "Advanced", "Expert")
BLANK = "____"  # the blank a learner fills, in starters and blank questions alike
# The most standard input a lesson gives one case (``stdin``): a few lines a program reads with
# input(), not a data file (content.E115; the sandbox carries up to 64 KiB).
MAX_STDIN_BYTES = 16 * 1024


@dataclass(frozen=True)
class Variant:
    """Other values for the exercise's declared inputs: ``{"X": "np.ones((5, 4))"}``.
    Each value is a Python expression evaluated in the sandbox, where ``np`` is NumPy.
    ``stdin``: the standard input the program reads on this case (None: the visible one's)."""

    name: str
    values: dict[str, str]
    stdin: str | None = None


@dataclass(frozen=True)
class Mistake:
    """An anticipated wrong program and the message a learner who writes one should see."""

    path: Path
    code: str
    message: str
    nudge: str = ""  # said first, before ``message``; empty: ``message`` at once
    file: str = ""  # as lesson.toml names it (``mistakes/x.py``): the same in every language
    # the hidden cases (variant names) and hidden tests it must fail: what their names promise
    must_fail: tuple[str, ...] = ()


@dataclass(frozen=True)
class Rule:
    """A rule the task states, checked by the grader and quoted in its feedback: constructs the
    learner's own lines must use (``require``) or must not use (``forbid``): a dotted name such
    as ``np.einsum``, ``@``, or a loop (``for``, ``while``, ``comprehension``, ``loop``); or
    inputs whose products are counted (``count``): no more rows multiplied by each than the
    sample solution multiplies, on any case (a cache that recomputes does more)."""

    text: str  # the task's own sentence, in the lesson's language
    require: tuple[str, ...] = ()
    forbid: tuple[str, ...] = ()
    count: tuple[str, ...] = ()


@dataclass(frozen=True)
class Limits:
    """Per-lesson overrides of the sandbox limits; ``None`` keeps the sandbox default."""

    wall_s: float | None = None
    cpu_s: float | None = None
    memory_mb: int | None = None
    output_bytes: int | None = None


@dataclass(frozen=True)
class GradingSpec:
    """How an exercise is graded beyond its visible expected output (see docs/authoring.md)."""

    inputs: tuple[str, ...] = ()
    variants: tuple[Variant, ...] = ()
    rtol: float = 0.0
    atol: float = 0.0
    values: tuple[str, ...] = ()
    mistakes: tuple[Mistake, ...] = ()
    limits: Limits = field(default_factory=Limits)
    # value name -> (rtol, atol) for that value instead of the lesson's
    tolerance: dict[str, tuple[float, float]] = field(default_factory=dict)
    # value name -> the axis along which it is a probability distribution (sums to 1)
    distributions: dict[str, int] = field(default_factory=dict)
    output: str = "exact"  # or "numbers": the same numbers in another print format pass
    exact_dtype: bool = False  # True: a float32 result of float64 values is wrong
    rules: tuple[Rule, ...] = ()


@dataclass(frozen=True)
class FunctionTest:
    """One ``@test`` of tests.py. ``rtol``/``atol`` None: the lesson's tolerance. ``exact``: the
    result's types must be the solution's too; ``unordered``: its lists in any order."""

    name: str
    hidden: bool = False
    rtol: float | None = None
    atol: float | None = None
    exact: bool = False
    unordered: bool = False
    code: str = ""  # a visible test's source, shown to the learner ("" for a hidden test)
    title: str = ""  # how the learner's language names it; "" for ``name`` (its identity)

    @property
    def shown(self) -> str:
        return self.title or self.name


@dataclass(frozen=True)
class FunctionTests:
    """A lesson's tests.py: its text (run in the sandbox after the learner's code) and the
    tests it declares, in order."""

    source: str
    tests: tuple[FunctionTest, ...]


@dataclass(frozen=True)
class Exercise:
    task_md: str
    filename: str
    starter: str
    solution: str
    expected_output: str
    grading: GradingSpec = field(default_factory=GradingSpec)
    hints: tuple[str, ...] = ()  # revealed one at a time, gentlest first, before the solution
    tests: FunctionTests | None = None  # a function exercise's tests.py
    # False: a function exercise without expected.txt; its prints are shown, never graded.
    output_graded: bool = True
    # The visible case's standard input: the lines ``input()`` reads, shown to the learner
    # ("": none; a hidden case may give its own, ``Variant.stdin``).
    stdin: str = ""


@dataclass(frozen=True)
class ChoiceQuestion:
    id: str
    prompt: str
    options: tuple[str, ...]
    answer: int  # index into options of the one correct option
    explanation: str
    kind: str = "choice"
    hints: tuple[str, ...] = ()


@dataclass(frozen=True)
class BlankVariant:
    """Another ``setup`` for a value blank: the answer must give the reference answer's value
    under it too, so an answer that hard-codes the first setup's value fails."""

    name: str
    setup: str


@dataclass(frozen=True)
class BlankQuestion:
    """One line of code with ``____`` in it. ``check`` is ``value`` (any answer that gives the
    same value passes, judged in the sandbox after ``setup`` and after each variant's setup),
    ``exact`` or ``regex``. ``forbid`` lists Python tokens (a literal, a name, an operator) the
    answer may not contain."""

    id: str
    prompt: str
    code: str
    answer: str
    explanation: str
    check: str = "value"
    accept: tuple[str, ...] = ()
    setup: str = ""
    kind: str = "blank"
    hints: tuple[str, ...] = ()
    forbid: tuple[str, ...] = ()
    variants: tuple[BlankVariant, ...] = ()


@dataclass(frozen=True)
class MatchQuestion:
    id: str
    prompt: str
    pairs: tuple[tuple[str, str], ...]  # (term, meaning), in the author's order
    explanation: str
    kind: str = "match"
    hints: tuple[str, ...] = ()


Question = ChoiceQuestion | BlankQuestion | MatchQuestion


@dataclass(frozen=True)
class CorpusProgram:
    """A real program kept in the lesson's ``corpus/`` with the verdict it must keep getting
    (``content/corpus.py``): what ``check`` grades again after every change to the lesson."""

    path: Path
    code: str  # the program, without its ``# expect:`` line
    expect: str  # the verdict it must get; "" when the file names none


@dataclass(frozen=True)
class Lesson:
    id: str
    uuid: str
    title: str
    summary: str
    level: str
    course_id: str
    path: Path
    explanation_md: str
    exercise: Exercise
    questions: tuple[Question, ...] = ()
    version: str = ""  # a hash of the lesson's files: caches of reference outputs key on it
    language: str = "en"  # the language of its texts (and of its code, if translated)
    level_label: str = ""  # what its level is called in its language ("": ``level`` itself)
    corpus: tuple[CorpusProgram, ...] = ()  # real programs and their verdicts (every language)
    # the ideas (keys of its course's ``ideas``) it teaches, and those it builds on
    teaches: tuple[str, ...] = ()
    uses: tuple[str, ...] = ()
    # language -> the whole lesson in it (its tr/ folder merged over the original)
    translations: dict[str, Lesson] = field(default_factory=dict, compare=False, repr=False)

    def in_language(self, language: str | None) -> Lesson:
        """This lesson as a learner of ``language`` takes it: its translation, or itself."""
        return self.translations.get(language or "", self)

    @property
    def level_name(self) -> str:
        return self.level_label or self.level


def level_slug(level: str) -> str:
    """The part of a level's web address its name makes: ``Getting started`` → ``getting-started``.
    ``codeblanks check`` refuses a level whose slug is not a plain slug (content.E070)."""
    return level.strip().lower().replace(" ", "-")


@dataclass(frozen=True)
class Course:
    id: str
    title: str
    summary: str
    path: Path
    levels: tuple[str, ...] = DEFAULT_LEVELS
    lessons: tuple[Lesson, ...] = ()
    languages: tuple[str, ...] = ("en",)  # the first: the language its lessons are written in
    # language -> (title, summary, level names in the order of ``levels``), from tr/course.toml
    texts: dict[str, tuple[str, str, tuple[str, ...]]] = field(default_factory=dict, compare=False)
    level_names: tuple[str, ...] = ()  # how its language calls ``levels`` (empty: as they are)
    # idea name -> its words, in the course's language; and the same in each other language
    ideas: dict[str, str] = field(default_factory=dict, compare=False)
    idea_texts: dict[str, dict[str, str]] = field(default_factory=dict, compare=False)

    def in_language(self, language: str | None) -> Course:
        """The course as a learner of ``language`` sees it: its texts and lessons in that
        language where it has them. Levels keep their names as keys (and addresses)."""
        if language not in self.languages[1:]:
            return self
        title, summary, names = self.texts.get(language, (self.title, self.summary, ()))
        lessons = tuple(lesson.in_language(language) for lesson in self.lessons)
        if names:
            lessons = tuple(
                replace(x, level_label=self.level_name(x.level, names)) for x in lessons
            )
        ideas = {**self.ideas, **self.idea_texts.get(language, {})}
        return replace(
            self, title=title, summary=summary, lessons=lessons, level_names=names, ideas=ideas
        )

    def level_name(self, level: str, names: tuple[str, ...] | None = None) -> str:
        """What ``level`` (one of ``levels``) is called in this course's language."""
        names = self.level_names if names is None else names
        return names[self.levels.index(level)] if names and level in self.levels else level

    def builds_on(self, lesson: Lesson) -> tuple[tuple[str, Lesson], ...]:
        """What ``lesson`` builds on: each idea it uses, in words, with the earlier lesson on
        the path that teaches it (the first that does)."""
        found = []
        for idea in lesson.uses:
            teacher = next((x for x in self.lessons if idea in x.teaches), None)
            if teacher is not None and teacher.id != lesson.id:
                found.append((self.ideas.get(idea, idea), teacher))
        return tuple(found)

    def lessons_at(self, level: str) -> tuple[Lesson, ...]:
        return tuple(lesson for lesson in self.lessons if lesson.level == level)

    @functools.cached_property
    def filled_levels(self) -> tuple[tuple[str, tuple[Lesson, ...]], ...]:
        """The levels in order, each with its lessons, levels without lessons left out: worked
        out once per course (a lesson page asks several times; ``replace`` makes a new one)."""
        levels = ((level, self.lessons_at(level)) for level in self.levels)
        return tuple((level, lessons) for level, lessons in levels if lessons)
