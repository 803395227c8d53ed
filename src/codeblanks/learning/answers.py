"""An answer to a question, read and judged the same way wherever a learner answers: a form on
the lesson page (``Form``), the JSON API and the terminal (``Given``). Each door only says which
shape it holds; the bounds (``MAX_BLANK_CHARS``, index digits, characters a database cannot keep)
and the judging of choices and matches are here, once. A blank is judged by running it
(``grading/blanks.py``).

What is stored: a choice is an index into ``question.options``; a blank its text, stripped; a
match one index into ``question.pairs`` per term."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from codeblanks.content.model import BlankQuestion, ChoiceQuestion, MatchQuestion, Question
from codeblanks.content.public import choice_pick, match_picks
from codeblanks.i18n import gettext as _
from codeblanks.learning.texts import unkeepable

MAX_BLANK_CHARS = 500
MAX_INDEX_DIGITS = 4  # no question has 10,000 options

Answer = int | str | list[int]  # as stored (see the module's docstring)


class BadAnswer(ValueError):
    """The input did not hold a usable answer; the message says what is missing."""


@dataclass(frozen=True)
class Form:
    """A POSTed form: ``choice``, ``blank`` or ``match-<i>`` (each option posts its own index,
    so the order it was shown in does not matter)."""

    data: Mapping[str, str]


@dataclass(frozen=True)
class Given:
    """The JSON API's and the terminal's ``answer``: an index into the options in the order
    shown to this learner, the blank's text, or one index into ``meanings`` per term."""

    value: object


def question_get(questions: tuple[Question, ...] | list[Question], qid: str) -> Question | None:
    return next((q for q in questions if q.id == qid), None)


def right_or_not(correct: bool) -> str:
    """The words for a judged answer without words of its own, in the current language."""
    return _("Right.") if correct else _("Not quite.")


def parse(question: Question, raw: Form | Given, seed: str) -> Answer:
    """The answer as stored; raises ``BadAnswer`` saying what to send instead. ``seed`` orders
    a ``Given`` choice's options (``content.public.option_order``)."""
    if isinstance(raw, Form):
        return _from_form(question, raw.data)
    return _from_given(question, raw.value, seed)


def _index(raw: str, count: int) -> int | None:
    """``raw`` as an index below ``count``: plain ASCII digits only (``str.isdigit`` also accepts
    "²", which ``int`` refuses), and few of them (``int`` refuses 5,000 digits)."""
    if not (raw.isascii() and raw.isdigit() and len(raw) <= MAX_INDEX_DIGITS):
        return None
    value = int(raw)
    return value if value < count else None


def blank_text(text: object) -> str:
    """A blank's answer, stripped and within bounds; else ``BadAnswer``."""
    if not isinstance(text, str) or not text.strip():
        raise BadAnswer(_("Fill in the blank."))
    text = text.strip()
    if len(text) > MAX_BLANK_CHARS:
        raise BadAnswer(
            _("Keep the answer under %(count)s characters.") % {"count": MAX_BLANK_CHARS}
        )
    return keepable(text)


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


def _from_form(question: Question, data: Mapping[str, str]) -> Answer:
    if isinstance(question, ChoiceQuestion):
        index = _index(data.get("choice", ""), len(question.options))
        if index is None:
            raise BadAnswer(_("Choose one of the options."))
        return index
    if isinstance(question, BlankQuestion):
        return blank_text(data.get("blank", ""))
    if isinstance(question, MatchQuestion):
        picks = []
        for i in range(len(question.pairs)):
            index = _index(data.get(f"match-{i}", ""), len(question.pairs))
            if index is None:
                raise BadAnswer(_("Choose a meaning for every term."))
            picks.append(index)
        return picks
    raise BadAnswer(_("This kind of question cannot be answered here."))


def _from_given(question: Question, answer: object, seed: str) -> Answer:
    if isinstance(question, ChoiceQuestion):
        if type(answer) is not int or not 0 <= answer < len(question.options):
            last = len(question.options) - 1
            raise BadAnswer(
                _('"answer" must be an option index from 0 to %(last)s.') % {"last": last}
            )
        return choice_pick(question, seed, answer)
    if isinstance(question, BlankQuestion):
        if not isinstance(answer, str) or not answer.strip():
            raise BadAnswer(_('"answer" must be the text that fills the blank.'))
        return blank_text(answer)
    if isinstance(question, MatchQuestion):
        count = len(question.pairs)
        if not (
            isinstance(answer, list)
            and len(answer) == count
            and all(type(i) is int and 0 <= i < count for i in answer)
        ):
            raise BadAnswer(
                _('"answer" must list, for each of the %(count)s terms, an index into "meanings".')
                % {"count": count}
            )
        return match_picks(question, [int(i) for i in answer])
    raise BadAnswer(_("This kind of question cannot be answered here."))


def judge_local(question: Question, answer: Answer) -> tuple[bool, list[bool]]:
    """Right or wrong for a choice or matching answer, and for matching which terms are right."""
    if isinstance(question, ChoiceQuestion):
        return answer == question.answer, []
    if isinstance(question, MatchQuestion):
        picks = answer if isinstance(answer, list) else []
        per_term = [i < len(picks) and picks[i] == i for i in range(len(question.pairs))]
        return all(per_term), per_term
    raise TypeError(f"{question.kind} questions are judged by the grader")
