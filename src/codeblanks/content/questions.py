"""questions.toml → questions: every ``[[question]]`` is read and checked on its own, so one bad
question reports its problems without hiding the others'."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from codeblanks.content.fields import Table
from codeblanks.content.model import (
    BLANK,
    BlankQuestion,
    BlankVariant,
    ChoiceQuestion,
    MatchQuestion,
    Question,
)
from codeblanks.content.problems import Problem
from codeblanks.content.pysource import parse, single_token, tokens
from codeblanks.content.tomlpos import Locator

CHECKS = ("value", "exact", "regex")
_COMMON = {"kind", "id", "prompt", "explanation", "hints"}
KEYS = {
    "choice": _COMMON | {"options", "answer"},
    "blank": _COMMON | {"code", "answer", "check", "accept", "setup", "forbid", "variants"},
    "match": _COMMON | {"pairs"},
}
VARIANT_KEYS = {"name", "setup"}


def read_questions(
    data: dict[str, Any], text: str, path: Path, problems: list[Problem]
) -> tuple[Question, ...] | None:
    """The questions of a parsed questions.toml, or None if any of them has a problem."""
    before = len(problems)
    root = Table(data, path=path, locator=Locator(text), problems=problems)
    root.unknown({"question"})
    questions: list[Question] = []
    seen: dict[str, int] = {}
    variants_before = 0  # [[question.variants]] headers are counted across the whole file
    for index, raw in enumerate(root.tables("question")):
        table = root.child("question", index, raw, f"question {index + 1}")
        question = _read_one(table, variants_before)
        if isinstance(raw.get("variants"), list):
            variants_before += len(raw["variants"])
        qid = question.id if question else table.data.get("id")
        if isinstance(qid, str) and qid:
            if qid in seen:
                table.report(
                    "content.E051",
                    "id",
                    f"question id {qid!r} is used twice (first in question {seen[qid] + 1})",
                )
            else:
                seen[qid] = index
        if question is not None:
            questions.append(question)
    return tuple(questions) if len(problems) == before else None


def _read_one(table: Table, variants_before: int) -> Question | None:
    kind = table.data.get("kind")
    if "kind" not in table.data:
        table.text("kind")  # reports the missing key
        return None
    if not isinstance(kind, str) or kind not in KEYS:
        table.report(
            "content.E050", "kind", f"{table.label} has kind {kind!r}, not choice, blank or match"
        )
        return None
    table.label = f"{table.label} ({kind})"
    table.unknown(KEYS[kind])
    qid = table.slug("id", "content.E052")
    prompt = table.text("prompt")
    explanation = table.text("explanation")
    hints = table.hints()
    question: Question | None
    if kind == "choice":
        question = _choice(table, qid, prompt, explanation)
    elif kind == "blank":
        question = _blank(table, qid, prompt, explanation, variants_before)
    else:
        question = _match(table, qid, prompt, explanation)
    return None if question is None else replace(question, hints=hints)


def _choice(table: Table, qid: str, prompt: str, explanation: str) -> ChoiceQuestion | None:
    options = table.texts("options", required=True)
    answer = table.text("answer")
    raw = table.data.get("options")
    if isinstance(raw, list) and all(isinstance(o, str) for o in raw) and len(raw) < 2:
        table.report("content.E055", "options", f"{table.label} has {len(raw)} option(s)")
    repeated = sorted({option for option in options if options.count(option) > 1})
    if repeated:
        table.report("content.E054", "options", f"{table.label} repeats {repeated[0]!r}")
    if answer and options and answer not in options:
        table.report(
            "content.E053", "answer", f"{table.label} answer {answer!r} is not one of its options"
        )
        return None
    if not (answer and len(options) >= 2):
        return None
    return ChoiceQuestion(qid, prompt, options, options.index(answer), explanation)


def _blank(
    table: Table, qid: str, prompt: str, explanation: str, variants_before: int
) -> BlankQuestion | None:
    code = table.text("code")
    answer = table.text("answer")
    check = table.text("check", required=False, default="value")
    accept = table.texts("accept")
    setup = table.text("setup", required=False, nonempty=False)
    if code and code.count(BLANK) != 1:
        table.report(
            "content.E056", "code", f"{table.label} code has {code.count(BLANK)} blanks, not one"
        )
    if check not in CHECKS:
        table.report("content.E057", "check", f"{table.label} check {check!r} is unknown")
    elif check == "regex" and answer:
        try:
            re.compile(answer)
        except (re.error, RecursionError, OverflowError, ValueError) as error:
            table.report("content.E058", "answer", f"{table.label} answer regex: {error}")
    elif check == "value" and answer and code.count(BLANK) == 1:
        _tree, reason, _line = parse(code.replace(BLANK, answer))
        if reason:
            table.report("content.E059", "answer", f"{table.label} code with the answer: {reason}")
    if setup.strip():
        _tree, reason, line = parse(setup)
        if reason:
            at = f" (line {line} of setup)" if line else ""
            table.report("content.E041", "setup", f"{table.label} setup: {reason}{at}")
    forbid = _forbid(table, answer if check == "value" else "")
    variants = _variants(table, variants_before)
    if check in CHECKS and check != "value":
        for key in ("forbid", "variants"):
            if table.has(key):
                table.report(
                    "content.E083", key, f"{table.label} has `{key}` but check = {check!r}"
                )
    return BlankQuestion(
        qid,
        prompt,
        code,
        answer,
        explanation,
        check,
        accept,
        setup,
        forbid=forbid,
        variants=variants,
    )


def _forbid(table: Table, answer: str) -> tuple[str, ...]:
    """The forbidden tokens; each must be one token, and the answer may use none of them."""
    forbid = table.texts("forbid")
    used = set(tokens(answer) or ()) if answer else set()
    for item in forbid:
        key = single_token(item)
        if key is None:
            table.report(
                "content.E084", "forbid", f"{table.label} forbids {item!r}, which is not one token"
            )
        elif key in used:
            table.report(
                "content.E085", "forbid", f"{table.label} answer {answer!r} uses {item.strip()!r}"
            )
    return forbid


def _variants(table: Table, variants_before: int) -> tuple[BlankVariant, ...]:
    """Other setups, each of which must parse."""
    variants = []
    for index, raw in enumerate(table.tables("variants")):
        label = f"{table.label} variant {index + 1}"
        where = f"{table.where}.variants"
        variant = Table(
            raw,
            path=table.path,
            locator=table.locator,
            problems=table.problems,
            where=where,
            index=variants_before + index,
            label=label,
        )
        variant.unknown(VARIANT_KEYS)
        name = variant.text("name", required=False, default=f"variant {index + 1}")
        setup = variant.text("setup")
        if setup:
            _tree, reason, line = parse(setup)
            if reason:
                at = f" (line {line} of setup)" if line else ""
                variant.report("content.E041", "setup", f"{label} setup: {reason}{at}")
        variants.append(BlankVariant(name, setup))
    return tuple(variants)


def _match(table: Table, qid: str, prompt: str, explanation: str) -> MatchQuestion | None:
    raw = table.data.get("pairs")
    if raw is None:
        table.text("pairs")  # reports the missing key
        return None
    pair_like = isinstance(raw, list) and all(
        isinstance(pair, list) and len(pair) == 2 and all(isinstance(side, str) for side in pair)
        for pair in raw
    )
    if not pair_like:
        table.report(
            "content.E011",
            "pairs",
            f"{table.label} pairs must be a list of [term, meaning] pairs of strings",
            'write pairs = [["term", "meaning"], ...]',
        )
        return None
    pairs = tuple((term, meaning) for term, meaning in raw)
    if any(not term.strip() or not meaning.strip() for term, meaning in pairs):
        table.report("content.E013", "pairs", f"{table.label} has a pair with an empty side")
    if len(pairs) < 2:
        table.report("content.E060", "pairs", f"{table.label} has {len(pairs)} pair(s)")
    terms = [term for term, _ in pairs]
    meanings = [meaning for _, meaning in pairs]
    for sides, code, what in (
        (terms, "content.E061", "term"),
        (meanings, "content.E062", "meaning"),
    ):
        repeated = sorted({side for side in sides if sides.count(side) > 1})
        if repeated:
            table.report(code, "pairs", f"{table.label} repeats the {what} {repeated[0]!r}")
    return MatchQuestion(qid, prompt, pairs, explanation)
