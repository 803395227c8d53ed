"""Questions in the browser: what a template needs to show one question. Reading, bounding and
judging an answer is ``codeblanks.learning.answers``, shared with the API and the terminal."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from codeblanks.content.model import BlankQuestion, ChoiceQuestion, MatchQuestion, Question
from codeblanks.content.public import meaning_order, option_order

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
    ``learner.progress.Answer``), or with the answer just given (``answer``/``correct``). A choice's
    options come in the learner's order (``seed``: ``Learner.seed``); each keeps its own index
    as its value, so an answer names the option, whatever order it was shown in."""
    if answer is None and saved is not None:
        answer, correct = saved.value, saved.correct
    tries = saved.tries if saved is not None else 0
    answered = answer is not None and not error
    common: dict[str, Any] = dict(
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
