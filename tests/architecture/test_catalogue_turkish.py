"""The Turkish text stays free of the grammar and spelling errors an editor found in it
(shared/reviews/turkish-review.md; the rules are in docs/translating.md): each pattern below
is checked against the error it was written for, then against the interface catalogue and
every Turkish file of the built-in course."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from codeblanks import i18n

SOURCE = Path(i18n.__file__).parent
CATALOGUE = SOURCE / "locale" / "tr" / "LC_MESSAGES" / "django.po"
COURSES = SOURCE / "courses"

# name -> (pattern, the error as it was found, the same text corrected)
PATTERNS = {
    "a level name with a possessive suffix (Orta/İleri are adjectives)": (
        r"%\(level\)s düzey[ıi]nde|\b(Orta|İleri) düzeyinde",
        "%(level)s düzeyindeki tüm dersler",
        "Tüm dersler: %(level)s",
    ),
    "a fixed question particle after a name that varies": (
        r"\{\w+\}`? m[uıiü]\b",
        "`{guess}` mu demek istediniz?",
        "Şunu mu demek istediniz: `{guess}`?",
    ),
    "softmax with a front-vowel suffix (read softmaks)": (
        r"\b[Ss]oftmax'(i|in|e|te|ten|le)\b",
        "Softmax'i 0. eksen boyunca almak",
        "Softmax'ı 0. eksen boyunca almak",
    ),
    "NumPy read as numpi (the course reads it nampay)": (
        r"NumPy'(nin|de|den|ye|yi)\b",
        "NumPy'nin `np.triu` fonksiyonu",
        "NumPy'ın `np.triu` fonksiyonu",
    ),
    "d_k with a back-vowel suffix (read de ke)": (
        r"d_k\W{0,3}'(ya|dan|da)\b",
        "sqrt(d_k)'ya bölünmemiş",
        "sqrt(d_k)'ye bölünmemiş",
    ),
    "/ read as slash (it is bölü)": (r"`/`'(dan|da)\b", "`/`'dan önce", "`/`'den önce"),
    "an apostrophe after the common noun logit": (r"\b[Ll]ogit'", "Logit'lerin", "Logitlerin"),
    "dahil without its circumflex (TDK: dâhil)": (r"\bdahil", "bias dahil", "bias dâhil"),
    "tamsayı in one word (TDK: tam sayı)": (
        r"\btamsayı",
        "bir tamsayı dizisi",
        "bir tam sayı dizisi",
    ),
    "a present tense inside a counterfactual": (
        r"\w+(saydı|seydi)\b[^.]*\b\w+(ünür|unur|inir|ınır) ve",
        "ε olmasaydı 0'a bölünür ve `nan` olurdu.",
        "ε olmasaydı sıfıra bölünürdü ve sonuç `nan` olurdu.",
    ),
    "giriş for a matrix entry (it means input)": (
        r"\bgiriş giriş\b|\bgirişi(ni|ne|nde)?\b|\bgirişler",
        "`X * X` giriş giriş çarpar",
        "`X * X` eleman eleman çarpar",
    ),
    "indis beside the course's indeks": (r"\bindis", "(1, 0) indisinde", "(1, 0) indeksinde"),
    "a question heading without its question mark": (
        r"^#+ Neler ters gidebilir\s*$",
        "## Neler ters gidebilir",
        "## Neler ters gidebilir?",
    ),
    "a decimal point in plain prose (Turkish writes a comma)": (
        r"\b\d+\.\d+ (milyon|milyar|bin)",
        "124 milyonun yaklaşık 38.6 milyonu",
        "124 milyonun yaklaşık 38,6 milyonu",
    ),
}
# the lessons speak to the learner as sen (docs/translating.md); the interface may say sizinki
LESSON_ONLY = {
    "siz in a lesson": (r"\b[Ss]izinki|\b[Ss]izin\b", "Sizinki kaç eleman tutuyor?", "Seninki ...")
}


@pytest.mark.parametrize("name", [*PATTERNS, *LESSON_ONLY])
def test_each_pattern_catches_its_error_and_not_the_fix(name):
    pattern, wrong, right = {**PATTERNS, **LESSON_ONLY}[name]
    assert re.search(pattern, wrong) and not re.search(pattern, right)


def _catalogue_lines() -> list[tuple[str, str]]:
    with CATALOGUE.open("rb") as f:
        catalogue = read_po(f, locale="tr")
    found = []
    for m in catalogue:
        strings = m.string if isinstance(m.string, tuple | list) else (m.string,)
        found += [(f"django.po: {m.id!r}", s) for s in strings if s]
    return found


def _course_lines() -> list[tuple[str, str]]:
    found = []
    for path in sorted(COURSES.glob("*/**/tr/**/*")):
        if path.is_file() and path.suffix in (".md", ".toml", ".py"):
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                found.append((f"{path.relative_to(COURSES)}:{number}", line))
    for path in sorted(COURSES.glob("*/tr/course.toml")):
        found += [(str(path.relative_to(COURSES)), path.read_text(encoding="utf-8"))]
    return found


def test_the_interface_has_none_of_the_known_errors():
    bad = [
        f"{where}: {name}: {text}"
        for where, text in _catalogue_lines()
        for name, (pattern, _, _) in PATTERNS.items()
        if re.search(pattern, text)
    ]
    assert not bad, "\n".join(bad)


def test_the_course_has_none_of_the_known_errors():
    rules = {**PATTERNS, **LESSON_ONLY}
    bad = [
        f"{where}: {name}: {text.strip()[:120]}"
        for where, text in _course_lines()
        for name, (pattern, _, _) in rules.items()
        if re.search(pattern, text)
    ]
    assert not bad, "\n".join(bad)
