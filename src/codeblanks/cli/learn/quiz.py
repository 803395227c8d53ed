"""The lesson's questions in the terminal: solve them one by one (an answer per prompt, judged as
the web judges it; one that is not judged, e.g. too long or met by a busy sandbox, is said why
and asked again, as the page does), or review them with the answers and explanations shown.
Reads answers from standard input, so it works at a prompt and from a pipe alike; end of input
stops the quiz."""

from __future__ import annotations

import string
from collections.abc import Callable
from typing import Any

from codeblanks.cli.console import UsageError
from codeblanks.cli.learn import show
from codeblanks.i18n import gettext as _
from codeblanks.i18n import ngettext

LETTERS = string.ascii_lowercase


def review(questions: list[dict[str, Any]]) -> None:
    for number, q in enumerate(questions, 1):
        show.say(f"\n{number}. {q['prompt']}", "bold")
        if q["kind"] == "match":
            for term, meaning in q["answer"]:
                show.say(f"   {term} → {meaning}", "green")
        else:
            show.say("   " + _("Answer: {answer}").format(answer=q["answer"]), "green")
        show.say("   " + _("Why: {explanation}").format(explanation=q["explanation"]))


def solve(
    questions: list[dict[str, Any]], check: Callable[[str, Any], dict], ask=input, place=None
) -> int:
    """Ask the questions; returns how many are answered right (those answered right before
    included). ``place`` (``quizplace.QuizPlace``): the ones answered right before are not asked
    again, so a quiz stopped half-way goes on where it stopped; each new right one is kept."""
    right_before = place.right if place is not None else set()
    ids = {q["id"] for q in questions}
    if ids and right_before >= ids and place is not None:
        show.say(_("Every question here is answered right already: from question 1 again."))
        place.clear()
    right = 0
    resumed = False
    for number, q in enumerate(questions, 1):
        if q["id"] in right_before:
            right += 1
            continue
        if right and not resumed:
            show.say(
                "\n"
                + _(
                    "Going on at question {number}: {right} of {count} answered right before "
                    "(`codeblanks learn quiz --restart` asks every one again)."
                ).format(number=number, right=right, count=len(questions))
            )
        resumed = True
        outcome = _one(number, len(questions), q, check, ask)
        if outcome is None:  # end of input
            show.say("\n" + _("(stopped)"))
            return right
        if outcome:
            right += 1
            if place is not None:
                place.mark(q["id"])
    show.say(
        "\n"
        + ngettext("{right} of {count} right.", "{right} of {count} right.", len(questions)).format(
            right=right, count=len(questions)
        ),
        "bold",
    )
    return right


def _one(number: int, count: int, q: dict[str, Any], check, ask) -> bool | None:
    """One question until it is right or the learner moves on (an empty answer after a wrong
    one): True when right, False when left, None at the end of input. After a wrong answer the
    next line is read as the next answer, never as a yes/no (a learner types the answer)."""
    show.say(f"\n{number}/{count}. {q['prompt']}", "bold")
    tried = False
    while True:
        try:
            answer = _ask(q, ask, again=tried)
        except EOFError:
            return None
        if answer is _SKIP:
            return False
        if answer is None:
            continue
        try:
            result = check(q["id"], answer)
        except UsageError as refused:  # not judged (too long, the sandbox busy): say why, ask again
            show.say(str(refused), "bold yellow")
            continue
        if result.get("correct"):
            show.say(_("Right."), "bold green")
            if result.get("explanation"):
                show.say(result["explanation"])
            return True
        show.say(result.get("message") or _("Not quite."), "bold yellow")
        _row_marks(q, result)
        if result.get("error"):
            show.say(result["error"], "dim")
        show.say(_("Try again: type another answer, or press Enter to go on."), "dim")
        tried = True


def due_now(card: dict[str, Any]) -> bool:
    """A card due already, by the server's clock (the queue also lists those due later today)."""
    return card.get("due_now") is True


def review_cards(cards: list[dict[str, Any]], check: Callable[[int, Any], dict], ask=input) -> int:
    """The review queue's cards due now, one answer each (a wrong one comes back later today,
    so it is not asked again here); returns how many were right."""
    now = [card for card in cards if due_now(card)]
    later = len(cards) - len(now)
    if not now:
        show.say(_("Nothing to review right now."))
    right = 0
    for number, card in enumerate(now, 1):
        show.say(f"\n{number}/{len(now)}. {card['prompt']}", "bold")
        while True:
            try:
                answer = _ask(card, ask)
            except EOFError:
                show.say("\n" + _("(stopped)"))
                return right
            if answer is None:
                continue
            try:
                result = check(card["id"], answer)
            except UsageError as refused:  # not judged: say why, ask again
                show.say(str(refused), "bold yellow")
                continue
            break
        if result.get("correct"):
            right += 1
            show.say(_("Right."), "bold green")
        else:
            show.say(result.get("message") or _("Not quite."), "bold yellow")
            _row_marks(card, result)
        if result.get("explanation"):
            show.say(result["explanation"])
    if now:
        show.say("\n" + ngettext("{right} of {count} right.", "{right} of {count} right.",
                                 len(now)).format(right=right, count=len(now)), "bold")  # fmt: skip
    if later:
        show.say(_("{count} more come back later today.").format(count=later))
    return right


def _row_marks(q: dict[str, Any], result: dict[str, Any]) -> None:
    """A wrong match's terms, each marked right (✓) or wrong (✗), as the web marks its rows
    (the learner trial's F14); said only when the server sent one mark per term."""
    marks, terms = result.get("per_term"), q.get("terms")
    if not isinstance(marks, list) or not isinstance(terms, list) or len(marks) != len(terms):
        return
    for number, (term, ok) in enumerate(zip(terms, marks, strict=True), 1):
        show.say(
            f"   {'✓' if ok is True else '✗'} {number}. {term}", "green" if ok is True else "red"
        )
    wrong = sum(1 for ok in marks if ok is not True)
    show.say(ngettext("{count} term is matched wrong.", "{count} terms are matched wrong.",
                      wrong).format(count=wrong))  # fmt: skip


_SKIP = object()  # an empty answer after a wrong one: on to the next question


def _ask(q: dict[str, Any], ask, again: bool = False) -> Any:
    """One answer, as the API takes it; None (after saying why) when the input is not one;
    ``_SKIP`` for an empty line after a wrong answer (``again``: the choices were just shown)."""
    if q["kind"] == "choice":
        return _ask_choice(q, ask, again)
    if q["kind"] == "blank":
        return _ask_blank(q, ask, again)
    return _ask_match(q, ask, again)


def _ask_choice(q: dict[str, Any], ask, again: bool) -> Any:
    """An option's index (the learner types its number, from 1)."""
    if not again:
        for i, option in enumerate(q["options"], 1):
            show.say(f"   {i}) {option}")
    raw = ask(_("Your choice (number): ")).strip()
    if again and not raw:
        return _SKIP
    if not raw.isascii() or not raw.isdigit() or not 1 <= int(raw) <= len(q["options"]):
        show.say(_("Type a number from 1 to {count}.").format(count=len(q["options"])))
        return None
    return int(raw) - 1


def _ask_blank(q: dict[str, Any], ask, again: bool) -> Any:
    """The text that goes in the blank, under the question's line of code."""
    if not again:
        show.say(f"   {q['code']}")
    raw = ask(_("Fill in the blank (____): ")).strip()
    if again and not raw:
        return _SKIP
    if not raw:
        show.say(_("Type what goes in the blank."))
        return None
    return raw


def _ask_match(q: dict[str, Any], ask, again: bool) -> Any:
    """A meaning's index for each term: letters, spaced, comma-separated or run together."""
    meanings = q["meanings"]
    if not again:
        for i, term in enumerate(q["terms"], 1):
            show.say(f"   {i}. {term}")
        for letter, meaning in zip(LETTERS, meanings, strict=False):
            show.say(f"   {letter}) {meaning}")
    example = " ".join(LETTERS[: len(q["terms"])])
    raw = ask(_("A letter for each term, in order (e.g. {example}): ").format(example=example))
    if again and not raw.strip():
        return _SKIP
    picks = raw.replace(",", " ").lower().split()
    if len(picks) == 1 and len(picks[0]) == len(q["terms"]):
        picks = list(picks[0])
    if len(picks) != len(q["terms"]) or any(p not in LETTERS[: len(meanings)] for p in picks):
        count = len(q["terms"])
        show.say(
            ngettext(
                "Give {count} letter, one for each term.",
                "Give {count} letters, one for each term.",
                count,
            ).format(count=count)
        )
        return None
    return [LETTERS.index(p) for p in picks]
