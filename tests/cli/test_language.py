"""The learner's commands in the learner's language: ``--lang``, else the environment's (as any
terminal program); the lesson taken in it; a server asked for it (Accept-Language). The real
console script, the real sandbox and grader; the author's commands stay English."""

from __future__ import annotations

import http.server
import json
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from codeblanks import i18n
from codeblanks.cli.console import environment_language
from codeblanks.cli.main import main

from .conftest import FIXTURES

SCRIPT = Path(sys.executable).parent / "codeblanks"
WRONG = "a = 2\nb = 3\ntotal = a * b\nprint(total)\n"


@pytest.mark.parametrize(
    ("environ", "language"),
    [
        ({}, "en"),
        ({"LANG": "tr_TR.UTF-8"}, "tr"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANGUAGE": "de:tr", "LANG": "en_US.UTF-8"}, "tr"),  # the first supported of a list
        ({"LC_ALL": "en_GB.UTF-8", "LANG": "tr_TR.UTF-8"}, "en"),  # LC_ALL wins over LANG
        ({"LC_MESSAGES": "tr_TR@euro"}, "tr"),
        ({"LANG": "fr_FR.UTF-8"}, "en"),  # a language we do not speak: English
    ],
)
def test_the_environment_names_the_language(environ, language):
    assert environment_language(environ) == language


def script(*args: str, cwd=None, **env: str) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL")}
    environ.update(env)
    return subprocess.run(
        [str(SCRIPT), *args], capture_output=True, text=True, timeout=120, env=environ, cwd=cwd
    )


@pytest.fixture
def wrong(tmp_path) -> str:
    path = tmp_path / "main.py"
    path.write_text(WRONG)
    return str(path)


def test_grade_in_turkish_through_the_console_script(tiny, wrong):
    done = script("grade", "sum-two", wrong, "--lang", "tr")
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("yanlış (") and " ms" in lines[0], lines[0]
    assert "  - Çıktı beklenen çıktıdan farklı." in lines
    assert "-5" in lines and "+6" in lines
    assert "--- beklenen" in lines and "+++ senin çıktın" in lines


def test_grade_takes_the_language_from_the_environment(tiny, wrong):
    turkish = script("grade", "sum-two", wrong, LANG="tr_TR.UTF-8")
    assert "  - Çıktı beklenen çıktıdan farklı." in turkish.stdout.splitlines()
    english = script("grade", "sum-two", wrong, "--lang", "en", LANG="tr_TR.UTF-8")
    assert english.stdout.startswith("incorrect (")  # --lang wins over the environment
    assert "  - The output differs from the expected output." in english.stdout.splitlines()
    data = json.loads(script("grade", "sum-two", wrong, "--json", "--lang", "tr").stdout)
    assert data["verdict"] == "incorrect"  # the JSON's words for machines stay as they are
    assert data["feedback"][0] == "Çıktı beklenen çıktıdan farklı."


def test_grade_via_main_in_turkish(tiny, wrong, capsys):
    assert main(["grade", "sum-two", wrong, "--lang", "tr"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("yanlış (") and "Çıktı beklenen çıktıdan farklı." in out
    assert i18n.current() == "en"  # the language was the command's only


def test_a_usage_error_in_turkish(tiny, capsys):
    assert main(["grade", "sum-tw", "nowhere.py", "--lang", "tr"]) == 2
    assert "bilinmeyen ders 'sum-tw'; şunu mu demek istedin: sum-two?" in capsys.readouterr().err


def test_an_unknown_language_is_a_usage_error(capsys):
    assert main(["lessons", "--lang", "xx"]) == 2
    assert "unknown language 'xx'" in capsys.readouterr().err


def test_lessons_in_turkish_through_the_console_script(tmp_path):
    courses = tmp_path / "courses"
    shutil.copytree(FIXTURES / "content.E001", courses / "broken")
    done = script("lessons", "--lang", "tr", CODEBLANKS_COURSES=str(courses))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert any(line.startswith("query-key-value ") for line in lines)
    assert lines[-1].endswith("içerik sorunu: `codeblanks check` komutunu çalıştırın)"), lines[-1]
    rows = json.loads(script("lessons", "--json", "--lang", "tr").stdout)
    assert {row["language"] for row in rows} <= set(i18n.LANGUAGES)


def test_lessons_are_taken_in_the_language_asked_for(capsys):
    """``lessons`` lists each lesson in its translation, with its level's name in the language."""
    assert main(["lessons", "--lang", "tr"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert any(
        line.startswith("query-key-value ") and "Orta" in line and "Sorgu, Anahtar, Değer" in line
        for line in lines
    ), lines
    assert main(["lessons"]) == 0
    out = capsys.readouterr().out
    assert "Sorgu, Anahtar, Değer" not in out and "Query, Key, Value" in out


def test_grade_against_the_turkish_version(tmp_path, capsys):
    """The Turkish solution (its own program: Turkish comments, the code names as in every
    lesson, `axis` and `scores`) is correct in Turkish."""
    from codeblanks.content import catalog

    solution = catalog().lesson("query-key-value").in_language("tr").exercise.solution
    assert "scores = Q @ K.T" in solution and "# " in solution
    program = tmp_path / "model.py"
    program.write_text(solution)
    assert main(["grade", "query-key-value", str(program), "--lang", "tr"]) == 0
    assert capsys.readouterr().out.startswith("doğru")


def test_the_authors_check_stays_english(tiny, capsys):
    main(["check", str(tiny), "--no-run"])
    out = capsys.readouterr().out
    assert out and "ders" not in out


def test_learn_in_turkish(learner_home, capsys):
    assert main(["learn", "start", "query-key-value", "w", "--lang", "tr"]) == 0
    out = capsys.readouterr().out
    assert "konu anlatımı ve görevin" in out and "alıştırma dosyan, yazıldı" in out
    readme = (learner_home / "w" / "README.md").read_text()
    assert "## Görevin" in readme and "## Ne yapmalı" in readme
    assert main(["learn", "test", "w", "--lang", "tr"]) == 1
    out = capsys.readouterr().out
    assert "Programın bir hatayla durdu  (durum: görünen veriler)" in out
    assert "Takıldın mı? `codeblanks learn hint` bir sonraki ipucunu verir." in out
    assert main(["learn", "hint", "w", "--lang", "tr"]) == 0
    assert "İpucu 1/" in capsys.readouterr().out


def test_a_lesson_folder_keeps_its_language_and_names_everything_in_it(learner_home, capsys):
    """Started with --lang tr, the folder's later commands speak Turkish without it, and no
    English is left: the level, the course, the name of the given data."""
    assert main(["learn", "start", "query-key-value", "w", "--lang", "tr"]) == 0
    out = capsys.readouterr().out
    assert "Sorgu, Anahtar, Değer (Orta)" in out and "Intermediate" not in out
    readme = (learner_home / "w" / "README.md").read_text()
    assert readme.splitlines()[2].startswith("*Orta · Sıfırdan dikkat mekanizması*"), readme[:200]
    assert json.loads((learner_home / "w" / ".codeblanks.json").read_text())["language"] == "tr"
    assert main(["learn", "test", "w"]) == 1  # no --lang: the folder's own
    out = capsys.readouterr().out
    assert (
        "Programın bir hatayla durdu  (durum: görünen veriler)" in out and "görünen veriler" in out
    )
    assert "visible" not in out
    assert main(["learn", "hint", "w"]) == 0
    assert "İpucu 1/" in capsys.readouterr().out
    assert main(["learn", "hint", "w", "--lang", "en"]) == 0  # --lang still wins
    assert "Hint 2 of" in capsys.readouterr().out
    assert main(["learn", "lessons", "--lang", "tr"]) == 0
    out = capsys.readouterr().out
    assert "Uzman" in out and "Expert" not in out and "Intermediate" not in out


class _Recorder(http.server.BaseHTTPRequestHandler):
    seen: list[str | None] = []

    def do_GET(self):  # noqa: N802 (the http.server's name)
        _Recorder.seen.append(self.headers.get("Accept-Language"))
        body = json.dumps({"lessons": []}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def test_learn_asks_a_server_for_the_language(learner_home, capsys):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}"
        _Recorder.seen.clear()
        assert main(["learn", "lessons", "--server", url, "--lang", "tr"]) == 0
        assert main(["learn", "lessons", "--server", url, "--json"]) == 0
    finally:
        server.shutdown()
        server.server_close()
    assert _Recorder.seen == ["tr", "en"]
    assert "Dersler (http://127.0.0.1:" in capsys.readouterr().out
