"""Every interface string has its Turkish translation (docs/translating.md).

The strings are extracted afresh from the code, as ``make messages`` does (Django's
makemessages, GNU gettext's xgettext underneath), into a copy of the source tree, so the
committed catalogue is never touched; then the fresh catalogue must list exactly the committed
entries, each translated and none fuzzy. A string added to a template or a view without
``make messages`` and a translation fails here, naming the string.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from codeblanks import i18n

SOURCE = Path(i18n.__file__).parent  # src/codeblanks
LOCALE = i18n.LOCALE_DIR.relative_to(SOURCE)  # the catalogues, in the source tree
# As the Makefile's `messages` target runs it (keep the two alike).
MAKEMESSAGES = [
    "makemessages",
    "--add-location",
    "file",
    "--no-obsolete",
    "--ignore",
    "courses/*",
    "--ignore",
    "sandbox/inside/*",
]
TRANSLATED = [code for code in i18n.LANGUAGES if code != i18n.DEFAULT]


def entries(po: Path) -> dict:
    """(context, msgid) -> the message, for every entry but the header."""
    with po.open("rb") as f:
        catalogue = read_po(f, locale=po.parent.parent.name)
    found = {}
    for m in catalogue:
        if m.id:
            found[(m.context, m.id if isinstance(m.id, str) else tuple(m.id))] = m
    return found


def untranslated(message) -> bool:
    strings = message.string if isinstance(message.string, tuple | list) else (message.string,)
    return not all(s.strip() for s in strings)


def shown(key) -> str:
    context, msgid = key
    text = msgid if isinstance(msgid, str) else msgid[0]
    return repr(text) + (f" (context {context!r})" if context else "")


@pytest.fixture(scope="module")
def fresh(tmp_path_factory) -> Path:
    """A copy of the source tree whose catalogues makemessages refreshed from the code."""
    if shutil.which("xgettext") is None or shutil.which("msgmerge") is None:
        pytest.fail("GNU gettext is missing (xgettext, msgmerge): apt-get install gettext")
    root = tmp_path_factory.mktemp("catalogue")
    copy = root / "codeblanks"
    shutil.copytree(
        SOURCE,
        copy,
        ignore=shutil.ignore_patterns("courses", "__pycache__", "static", "*.mo"),
    )
    # The project's settings, with the catalogues of the copy instead of the committed ones.
    (root / "catalogue_settings.py").write_text(
        "from codeblanks.web.settings import *  # noqa: F403\n"
        f"LOCALE_PATHS = [{str(copy / LOCALE)!r}]\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), *sys.path])}
    env["DJANGO_SETTINGS_MODULE"] = "catalogue_settings"
    for code in TRANSLATED:
        command = [sys.executable, "-m", "django", *MAKEMESSAGES, "--locale", code]
        done = subprocess.run(command, cwd=copy, env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
    return copy / LOCALE


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_committed_catalogue_lists_exactly_the_strings_in_the_code(fresh, code):
    po = Path("LC_MESSAGES") / "django.po"
    committed = entries(i18n.LOCALE_DIR / code / po)
    extracted = entries(fresh / code / po)
    new = sorted(map(shown, extracted.keys() - committed.keys()))
    gone = sorted(map(shown, committed.keys() - extracted.keys()))
    assert not new, f"strings in the code but not in {code}/django.po (run make messages): {new}"
    assert not gone, f"strings in {code}/django.po no longer in the code (make messages): {gone}"


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_string_is_translated_and_none_is_fuzzy(fresh, code):
    found = entries(fresh / code / "LC_MESSAGES" / "django.po")
    empty = sorted(shown(k) for k, m in found.items() if untranslated(m))
    fuzzy = sorted(shown(k) for k, m in found.items() if m.fuzzy)
    assert not empty, f"{len(empty)} string(s) without a translation in {code}: {empty}"
    assert not fuzzy, f"{len(fuzzy)} fuzzy translation(s) in {code} (check, then unmark): {fuzzy}"


def test_the_translations_keep_every_placeholder():
    """A translation that drops or renames ``%(name)s`` would fail (or lie) at run time."""
    import re

    placeholder = re.compile(r"%\(\w+\)[sd]|\{\w*\}")
    wrong = []
    for code in TRANSLATED:
        for key, m in entries(i18n.LOCALE_DIR / code / "LC_MESSAGES" / "django.po").items():
            ids = m.id if isinstance(m.id, tuple | list) else (m.id,)
            strings = m.string if isinstance(m.string, tuple | list) else (m.string,)
            want = sorted(placeholder.findall(ids[-1]))
            for s in strings:
                if sorted(placeholder.findall(s)) != want:
                    wrong.append(f"{code}: {shown(key)} -> {s!r}")
    assert not wrong, wrong
