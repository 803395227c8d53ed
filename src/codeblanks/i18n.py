"""The interface's languages, for every layer.

There is one gettext catalogue for the whole interface, ``locale/<lang>/LC_MESSAGES/django.po``
beside this module (not inside ``web/``: every layer reads it): Django reads it for templates
and views, and this module reads the same compiled file for the grader's feedback and the CLI,
which run without Django. The current language is a context
variable, so each request (or each grading thread, which sets it with ``language()``) has its own.
The ``.mo`` files are built from the ``.po`` files by ``make install`` (``compile``), never by
hand and never committed (docs/translating.md).
"""

from __future__ import annotations

import gettext as _gettext
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path

LANGUAGES: dict[str, str] = {"en": "English", "tr": "Türkçe"}  # code -> its own name
DEFAULT = "en"  # the language the interface's strings are written in
LOCALE_DIR = Path(__file__).parent / "locale"  # beside this module: every layer reads it
DOMAIN = "django"  # Django's domain, so both read one catalogue

_current: ContextVar[str] = ContextVar("codeblanks_language", default=DEFAULT)


def normalize(code: str | None) -> str:
    """A supported language for ``code`` (``tr-TR`` → ``tr``); the default for anything else."""
    base = (code or "").strip().lower().replace("_", "-").split("-")[0]
    return base if base in LANGUAGES else DEFAULT


def supported(code: str | None) -> bool:
    return (code or "").strip().lower().replace("_", "-").split("-")[0] in LANGUAGES


def current() -> str:
    return _current.get()


@contextmanager
def language(code: str | None) -> Iterator[str]:
    """Speak ``code`` (normalised) inside the block: ``with language("tr"): grade(...)``."""
    token = _current.set(normalize(code))
    try:
        yield _current.get()
    finally:
        _current.reset(token)


@cache
def _catalogue(code: str) -> _gettext.NullTranslations:
    if code == DEFAULT:
        return _gettext.NullTranslations()
    return _gettext.translation(DOMAIN, LOCALE_DIR, languages=[code], fallback=True)


def gettext(message: str) -> str:
    """``message`` in the current language (itself where the catalogue has no translation)."""
    return _catalogue(_current.get()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _catalogue(_current.get()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    return _catalogue(_current.get()).pgettext(context, message)


def compile_catalogues(locale_dir: Path = LOCALE_DIR) -> list[Path]:
    """Write each ``.mo`` beside its ``.po`` (make install runs this); the files it wrote."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    written = []
    for po in sorted(locale_dir.glob("*/LC_MESSAGES/*.po")):
        with po.open("rb") as source:
            catalog = read_po(source, locale=po.parent.parent.name)
        mo = po.with_suffix(".mo")
        with mo.open("wb") as target:
            write_mo(target, catalog, use_fuzzy=False)
        written.append(mo)
    _catalogue.cache_clear()
    return written


if __name__ == "__main__":  # python -m codeblanks.i18n: compile the catalogues
    for path in compile_catalogues():
        print(f"compiled {path.relative_to(LOCALE_DIR.parent.parent.parent)}")
