"""Answers to questions, judged the same way wherever a learner answers (the browser, the API,
the terminal): a choice is an option index, a match one meaning index per term, a blank a text
(judged by running it, ``blanks.py``)."""

from __future__ import annotations

from codeblanks.content.model import ChoiceQuestion, MatchQuestion, Question


def judge_local(question: Question, answer: object) -> tuple[bool, list[bool]]:
    """Right or wrong for a choice or matching answer, and for matching which terms are right."""
    if isinstance(question, ChoiceQuestion):
        return answer == question.answer, []
    if isinstance(question, MatchQuestion):
        picks = answer if isinstance(answer, list) else []
        per_term = [i < len(picks) and picks[i] == i for i in range(len(question.pairs))]
        return all(per_term), per_term
    raise TypeError(f"{question.kind} questions are judged by the grader")
