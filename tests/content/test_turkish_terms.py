"""The courses' Turkish keeps to the term table of docs/translating.md, the one place a term is
decided: every form in backticks in its "we do not write" column is looked for in every Turkish
file of the built-in courses, and each use is named by file and line. So a term settled once (and
a coined word such as *izdüşür-* removed once) cannot come back through a new lesson."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from codeblanks import i18n

DOC = Path(__file__).parents[2] / "docs" / "translating.md"
COURSES = Path(i18n.__file__).parent / "courses"
HEADER = "| English | we write | we do not write | why |"


def avoided_forms(doc: str) -> dict[str, str]:
    """Each backticked form of the table's third column, with the English term of its row."""
    table = doc[doc.index(HEADER) :].split("\n\n", 1)[0]
    forms = {}
    for row in table.splitlines()[2:]:
        cells = [cell.strip() for cell in row.strip().strip("|").split("|")]
        assert len(cells) == 4, f"docs/translating.md: a term row needs four cells: {row}"
        forms.update(dict.fromkeys(re.findall(r"`([^`]+)`", cells[2]), cells[0]))
    return forms


def pattern(form: str) -> re.Pattern[str]:
    """A form ending in '-' is a stem (any word that begins with it); any other, a whole word."""
    stem = form.removesuffix("-")
    end = "" if form.endswith("-") else r"(?!\w)"
    return re.compile(r"(?<!\w)" + re.escape(stem) + end, re.IGNORECASE)


FORMS = avoided_forms(DOC.read_text(encoding="utf-8"))


def turkish_files() -> list[Path]:
    """Every Turkish text of the courses but the stamps, which `codeblanks translate` writes."""
    found = [*COURSES.glob("*/*/tr/**/*"), *COURSES.glob("*/tr/*")]
    return sorted(p for p in found if p.is_file() and p.name != "translated-from.toml")


def test_the_table_holds_the_forms_the_reviews_named():
    # if the table's layout changes so that nothing is read, this fails instead of the check
    # below passing on an empty list
    assert {"izdüşür-", "indis-", "seviye-", "yanıt-", "metot-", "giriş-"} <= set(FORMS)


@pytest.mark.parametrize("form", sorted(FORMS))
def test_each_form_finds_its_words_and_not_longer_ones(form):
    found = pattern(form)
    stem = form.removesuffix("-")
    assert found.search(f"Bu {stem.capitalize()} bir örnek") and found.search(f"({stem})")
    assert not found.search(f"bu a{stem} örnek")  # only at the start of a word
    if form.endswith("-"):
        assert found.search(f"bu {stem}ülür")
    else:
        assert not found.search(f"bu {stem}ler")


def test_the_courses_turkish_uses_no_form_the_table_rules_out():
    files = turkish_files()
    assert len(files) > 100  # both courses' translations were found
    used = [
        f"{path.relative_to(COURSES)}:{number}: `{form}` ({FORMS[form]}): {line.strip()[:100]}"
        for path in files
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        for form in FORMS
        if pattern(form).search(line)
    ]
    assert not used, "docs/translating.md rules these out:\n" + "\n".join(used)
