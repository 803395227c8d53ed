"""Answers to questions, judged the same way wherever a learner answers (the browser, the API,
the terminal): a choice is an option index, a match one meaning index per term, a blank a text
(judged by running it, ``blanks.py``). Also the one shuffled order in which matching meanings are
offered, so that every front end and every server shows the same order."""

from __future__ import annotations

import hashlib

from codeblanks.content.model import ChoiceQuestion, MatchQuestion, Question


def meaning_order(question: MatchQuestion) -> list[int]:
    """Indexes of the meanings in the order they are offered: shuffled, so the answer is not the
    author's order, but the same on every page load and every server."""

    def key(i: int) -> str:
        return hashlib.sha256(f"{question.id}\0{question.pairs[i][1]}".encode()).hexdigest()

    order = sorted(range(len(question.pairs)), key=key)
    if len(order) > 1 and order == list(range(len(order))):
        order = order[1:] + order[:1]  # never offer the answers in the right order
    return order


def judge_local(question: Question, answer: object) -> tuple[bool, list[bool]]:
    """Right or wrong for a choice or matching answer, and for matching which terms are right."""
    if isinstance(question, ChoiceQuestion):
        return answer == question.answer, []
    if isinstance(question, MatchQuestion):
        picks = answer if isinstance(answer, list) else []
        per_term = [i < len(picks) and picks[i] == i for i in range(len(question.pairs))]
        return all(per_term), per_term
    raise TypeError(f"{question.kind} questions are judged by the grader")
