"""Every translation in the interface's catalogues keeps its message's placeholders, exactly: a
msgstr that drops, renames or adds a ``{name}`` (``str.format``, the grader and the CLI) or a
``%(name)s`` (Django) would raise or show the wrong value at run time, in that language only.
And no entry is left empty or fuzzy (docs/translating.md)."""

from __future__ import annotations

import io
import re
from collections import Counter
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

LOCALE = Path(__file__).resolve().parents[2] / "src" / "codeblanks" / "locale"
CATALOGUES = sorted(LOCALE.glob("*/LC_MESSAGES/*.po"))

# {name}, {name!r}, {name:.3f} (not an escaped {{...}}); %(name)s, %(name)d, %(name).2f
BRACE = re.compile(r"(?<!\{)\{([A-Za-z_]\w*)(?:![rsa])?(?::[^{}]*)?\}")
PERCENT = re.compile(r"%\(([A-Za-z_]\w*)\)[#0 +-]*\d*(?:\.\d+)?[sdifeEgGxXr]")


def placeholders(text: str) -> Counter:
    return Counter(f"{{{n}}}" for n in BRACE.findall(text)) + Counter(
        f"%({n})" for n in PERCENT.findall(text)
    )


def problems(source: bytes, locale: str) -> list[str]:
    """What is wrong with a catalogue's entries: placeholders not kept, empty or fuzzy ones."""
    found = []
    catalog = read_po(io.BytesIO(source), locale=locale)
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        label = ids[0][:60]
        if message.fuzzy:
            found.append(f"fuzzy: {label!r}")
        if not all(strings):
            found.append(f"untranslated: {label!r}")
            continue
        # Each plural form keeps the plural msgid's placeholders (the singular's are the same).
        wanted = placeholders(ids[-1])
        for form, text in enumerate(strings):
            got = placeholders(text)
            if got != wanted:
                lost = sorted((wanted - got).elements())
                extra = sorted((got - wanted).elements())
                found.append(f"{label!r} [{form}]: lost {lost}, added {extra}")
    return found


def test_there_is_a_catalogue():
    assert CATALOGUES, f"no .po file under {LOCALE}"


@pytest.mark.parametrize("po", CATALOGUES, ids=lambda p: p.parent.parent.name)
def test_every_translation_keeps_its_placeholders(po: Path):
    assert problems(po.read_bytes(), po.parent.parent.name) == []


BROKEN = """
msgid ""
msgstr ""
"Language: tr\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Plural-Forms: nplurals=2; plural=(n > 1);\\n"

msgid "{name} has shape {got}, but shape {expected} is expected."
msgstr "{name}: şekil {got}, oysa bekleniyor."

msgid "Hello %(user)s"
msgstr "Merhaba %(username)s"

msgid "{count} hint"
msgid_plural "{count} hints"
msgstr[0] "{count} ipucu"
msgstr[1] "ipuçları"

msgid "Kept {a}"
msgstr "{a} korundu"

msgid "Left out"
msgstr ""

#, fuzzy
msgid "Guessed {x}"
msgstr "Tahmin {x}"
"""


def test_a_dropped_or_renamed_placeholder_is_caught():
    found = problems(BROKEN.encode(), "tr")
    assert found == [
        "'{name} has shape {got}, but shape {expected} is expected.' [0]: lost ['{expected}'], "
        "added []",
        "'Hello %(user)s' [0]: lost ['%(user)'], added ['%(username)']",
        "'{count} hint' [1]: lost ['{count}'], added []",
        "untranslated: 'Left out'",
        "fuzzy: 'Guessed {x}'",
    ]
