"""Questions in the browser: reading an answer out of a form and what a template needs to show
one question. Judging (and the order of matching meanings) is ``codeblanks.grading.answers``,
shared with the API and the terminal."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from codeblanks.content.model import BlankQuestion, ChoiceQuestion, MatchQuestion, Question
from codeblanks.content.public import meaning_order, option_order
from codeblanks.web.texts import unkeepable

MAX_BLANK_CHARS = 500
MAX_INDEX_DIGITS = 4  # no question has 10,000 options


class BadAnswer(ValueError):
    """The form did not hold a usable answer; the message says what is missing."""


def question_get(questions, question_id: str) -> Question | None:
    return next((q for q in questions if q.id == question_id), None)


def _index(raw: str, count: int) -> int | None:
    """``raw`` as an index below ``count``: plain ASCII digits only (``str.isdigit`` also accepts
    "²", which ``int`` refuses), and few of them (``int`` refuses 5,000 digits)."""
    if not (raw.isascii() and raw.isdigit() and len(raw) <= MAX_INDEX_DIGITS):
        return None
    value = int(raw)
    return value if value < count else None


def keepable(text: str) -> str:
    """``text``, if the database can keep it; else ``BadAnswer`` naming the character."""
    bad = unkeepable(text)
    if bad is None:
        return text
    if bad.is_nul:  # PostgreSQL refuses it, and it is no Python anyway
        raise BadAnswer(_("The answer has a NUL character (\\x00) in it; remove it."))
    raise BadAnswer(
        _(
            "The answer has a lone surrogate (%(char)s) in it: half of a character, which no "
            "UTF-8 text can hold. Send it as UTF-8 text."
        )
        % {"char": bad.char}
    )


def parse_answer(question: Question, data: Mapping[str, str]) -> object:
    """The answer in a POSTed form, as stored: an option index, a text, or a list of meaning
    indexes (one per term). Raises ``BadAnswer``."""
    if isinstance(question, ChoiceQuestion):
        index = _index(data.get("choice", ""), len(question.options))
        if index is None:
            raise BadAnswer(_("Choose one of the options."))
        return index
    if isinstance(question, BlankQuestion):
        text = data.get("blank", "").strip()
        if not text:
            raise BadAnswer(_("Fill in the blank."))
        if len(text) > MAX_BLANK_CHARS:
            raise BadAnswer(
                _("Keep the answer under %(count)s characters.") % {"count": MAX_BLANK_CHARS}
            )
        return keepable(text)
    if isinstance(question, MatchQuestion):
        picks = []
        for i in range(len(question.pairs)):
            index = _index(data.get(f"match-{i}", ""), len(question.pairs))
            if index is None:
                raise BadAnswer(_("Choose a meaning for every term."))
            picks.append(index)
        return picks
    raise BadAnswer(_("This kind of question cannot be answered here."))


# ---- what a template needs to show one question ----------------------------------------------


@dataclass(frozen=True)
class Option:
    value: int
    text: str
    checked: bool = False
    right: bool = False


@dataclass(frozen=True)
class TermRow:
    index: int
    term: str
    meaning: str  # the right meaning (for review and feedback)
    options: list[Option]
    right: bool | None = None  # after an answer: this term's pick was right


@dataclass(frozen=True)
class QuestionView:
    question: Question
    number: int
    answered: bool  # the learner has answered it (their latest answer is shown)
    correct: bool
    tries: int
    options: list[Option] = field(default_factory=list)  # choice
    before: str = ""  # blank: the code line around the ____
    after: str = ""
    value: str = ""  # blank: the learner's text
    terms: list[TermRow] = field(default_factory=list)  # match
    answer_text: str = ""  # the right answer in words, for review
    message: str = ""  # the grader's words on this answer, or what is missing from the form
    error: bool = False  # the form did not hold an answer

    @property
    def kind(self) -> str:
        return self.question.kind

    @property
    def dom_id(self) -> str:
        return f"q-{self.question.id}"


def question_view(
    question: Question,
    number: int,
    saved=None,
    *,
    seed: str = "",
    answer: object = None,
    correct: bool | None = None,
    message: str = "",
    error: bool = False,
) -> QuestionView:
    """The view of one question with the learner's latest answer (``saved``: a
    ``selectors.Answer``), or with the answer just given (``answer``/``correct``). A choice's
    options come in the learner's order (``seed``: ``Learner.seed``); each keeps its own index
    as its value, so an answer names the option, whatever order it was shown in."""
    if answer is None and saved is not None:
        answer, correct = saved.value, saved.correct
    tries = saved.tries if saved is not None else 0
    answered = answer is not None and not error
    common = dict(
        question=question,
        number=number,
        answered=answered,
        correct=bool(correct) and answered,
        tries=tries,
        message=message,
        error=error,
    )
    if isinstance(question, ChoiceQuestion):
        options = [
            Option(i, question.options[i], checked=answer == i, right=i == question.answer)
            for i in option_order(question, seed)
        ]
        return QuestionView(
            **common, options=options, answer_text=question.options[question.answer]
        )
    if isinstance(question, BlankQuestion):
        before, _, after = question.code.partition("____")
        return QuestionView(
            **common,
            before=before,
            after=after,
            value=answer if isinstance(answer, str) else "",
            answer_text=question.code.replace("____", question.answer, 1),
        )
    if isinstance(question, MatchQuestion):
        picks = answer if isinstance(answer, list) else []
        order = meaning_order(question)
        rows = []
        for i, (term, meaning) in enumerate(question.pairs):
            pick = picks[i] if i < len(picks) else None
            rows.append(
                TermRow(
                    index=i,
                    term=term,
                    meaning=meaning,
                    options=[Option(j, question.pairs[j][1], checked=pick == j) for j in order],
                    right=(pick == i) if answered and pick is not None else None,
                )
            )
        return QuestionView(**common, terms=rows)
    raise TypeError(f"unknown question kind {question.kind!r}")
