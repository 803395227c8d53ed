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


def solve(questions: list[dict[str, Any]], check: Callable[[str, Any], dict], ask=input) -> int:
    """Ask every question; returns how many were answered right."""
    right = 0
    for number, q in enumerate(questions, 1):
        show.say(f"\n{number}/{len(questions)}. {q['prompt']}", "bold")
        while True:
            try:
                answer = _ask(q, ask)
            except EOFError:
                show.say("\n" + _("(stopped)"))
                return right
            if answer is None:
                continue
            try:
                result = check(q["id"], answer)
            except UsageError as refused:  # not judged (too long, the sandbox busy): say why
                show.say(str(refused), "bold yellow")
                continue
            if result.get("correct"):
                right += 1
                show.say(_("Right."), "bold green")
                if result.get("explanation"):
                    show.say(result["explanation"])
                break
            show.say(result.get("message") or _("Not quite."), "bold yellow")
            if result.get("error"):
                show.say(result["error"], "dim")
            try:
                again = ask(_("Try again? [Y/n] "))
            except EOFError:
                show.say("\n" + _("(stopped)"))
                return right
            if not show.yes(again, default=True):
                break
    show.say(
        "\n"
        + ngettext("{right} of {count} right.", "{right} of {count} right.", len(questions)).format(
            right=right, count=len(questions)
        ),
        "bold",
    )
    return right


def _ask(q: dict[str, Any], ask) -> Any:
    """One answer, as the API takes it; None (after saying why) when the input is not one."""
    if q["kind"] == "choice":
        for i, option in enumerate(q["options"], 1):
            show.say(f"   {i}) {option}")
        raw = ask(_("Your choice (number): ")).strip()
        if not raw.isascii() or not raw.isdigit() or not 1 <= int(raw) <= len(q["options"]):
            show.say(_("Type a number from 1 to {count}.").format(count=len(q["options"])))
            return None
        return int(raw) - 1
    if q["kind"] == "blank":
        show.say(f"   {q['code']}")
        raw = ask(_("Fill in the blank (____): ")).strip()
        if not raw:
            show.say(_("Type what goes in the blank."))
            return None
        return raw
    meanings = q["meanings"]
    for i, term in enumerate(q["terms"], 1):
        show.say(f"   {i}. {term}")
    for letter, meaning in zip(LETTERS, meanings, strict=False):
        show.say(f"   {letter}) {meaning}")
    example = " ".join(LETTERS[: len(q["terms"])])
    raw = ask(_("A letter for each term, in order (e.g. {example}): ").format(example=example))
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
