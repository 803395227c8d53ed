"""``codeblanks learn`` against a hostile server: a real HTTP server on loopback (a thread of
``http.server``) that answers what an attacker would, and the real command line in this process.
Whatever the server sends, the client writes only inside the folder the learner named (or the
working folder), prints text and never a terminal's control sequence, keeps the token from any
other origin, gives up on a slow or endless answer, and says what is wrong without a traceback.
A lesson folder's ``.codeblanks.json`` is not trusted either (docs/learners.md)."""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from codeblanks.cli.learn.backends import write_credentials
from codeblanks.cli.main import main

LESSON = "sum-two"
TOKEN = "cbt-the-learners-own-token"


def lesson(**changes):
    """A lesson as a real server would send it, with the hostile ``changes``."""
    return {
        "id": LESSON,
        "uuid": "0f2a",
        "course": "tiny",
        "level": "1",
        "level_name": "Level 1",
        "title": "Sum two numbers",
        "summary": "Add them.",
        "language": "en",
        "filename": "solution.py",
        "explanation": "Read two numbers.",
        "task": "Print their sum.",
        "starter": "# your code\n",
        "expected_output": "3\n",
        "hints": 1,
        "questions": [],
        **changes,
    }


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args) -> None:  # quiet
        pass

    def handle_one(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        self.server.seen.append(
            {"method": self.command, "path": self.path, "headers": dict(self.headers), "body": body}
        )
        answer = self.server.routes.get(self.path) or self.server.routes.get("*")
        if answer is None:
            send(self, 404, {"error": "not-found", "message": "no such page"})
        else:
            answer(self)

    do_GET = do_POST = handle_one


class Hostile(ThreadingHTTPServer):
    """Answers each path with the function the test gives (``routes``); remembers every request
    (``seen``). ``stop`` ends whatever answer is still dripping."""

    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.routes: dict[str, Callable[[Handler], None]] = {}
        self.seen: list[dict] = []
        self.stop = threading.Event()
        self.cut = threading.Event()  # the client hung up on an answer still being sent
        self.url = f"http://127.0.0.1:{self.server_address[1]}"

    def received(self) -> bytes:
        """Everything every request brought, headers and bodies, as bytes."""
        return b"".join(
            json.dumps(s["headers"]).encode() + s["path"].encode() + s["body"] for s in self.seen
        )


def send(handler: Handler, status: int, data, reason: str | None = None) -> None:
    body = data if isinstance(data, bytes) else json.dumps(data).encode()
    handler.send_response(status, reason)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    handler.wfile.write(body)


def answering(data, status: int = 200, reason: str | None = None):
    return lambda handler: send(handler, status, data, reason)


@pytest.fixture
def server():
    hostile = Hostile()
    thread = threading.Thread(target=hostile.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    yield hostile
    hostile.stop.set()
    hostile.shutdown()
    hostile.server_close()
    thread.join(timeout=30)


@pytest.fixture
def other():
    """A second server, on another port: another origin."""
    elsewhere = Hostile()
    threading.Thread(target=elsewhere.serve_forever, args=(0.05,), daemon=True).start()
    yield elsewhere
    elsewhere.shutdown()
    elsewhere.server_close()


@pytest.fixture(autouse=True)
def learner(tmp_path, monkeypatch) -> Path:
    """A learner's own config and data folders, working two folders down in ``tmp_path`` (so
    ``../..`` leads out), no server set, no proxy between the client and loopback."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    for name in ("CODEBLANKS_SERVER", "http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY"):
        monkeypatch.delenv(name, raising=False)
    work = tmp_path / "home" / "work"
    work.mkdir(parents=True)
    monkeypatch.chdir(work)
    return work


def files(root: Path) -> set[Path]:
    return {p for p in root.rglob("*") if not p.is_dir()}


def learn(*args: str) -> int:
    return main(["learn", *args])


# ---- names the server picks -----------------------------------------------------------------


@pytest.mark.parametrize(
    "bad_id",
    ["../..", "../escaped", "ABSOLUTE", ".hidden", "a/b", "..", "x\x1b[2J", "x\\..\\y", ""],
)
@pytest.mark.parametrize("named", [None, "mine"])
def test_a_lesson_id_is_one_plain_name_or_nothing_is_written(
    server, learner, tmp_path, capsys, bad_id, named
):
    bad_id = str(tmp_path / "absolute") if bad_id == "ABSOLUTE" else bad_id
    server.routes["*"] = answering(lesson(id=bad_id))
    before = files(tmp_path)
    assert learn("start", LESSON, *([named] if named else []), "--server", server.url) == 2
    err = capsys.readouterr().err
    assert "is not a plain file name" in err and "\x1b" not in err
    assert files(tmp_path) == before  # nothing written, here or anywhere


@pytest.mark.parametrize(
    "bad_name", [".bash_profile", "../../.bash_profile", "/tmp/evil.py", "sub/x.py", "..", "a\0b"]
)
def test_the_exercise_file_name_is_one_plain_name(server, learner, tmp_path, capsys, bad_name):
    server.routes["*"] = answering(lesson(filename=bad_name))
    before = files(tmp_path)
    assert learn("start", LESSON, "--server", server.url) == 2
    assert "is not a plain file name" in capsys.readouterr().err
    assert files(tmp_path) == before
    assert not (learner / LESSON).exists()


def test_the_lesson_folder_of_the_working_folder_does_not_lead_out(server, learner, tmp_path):
    """A link in the working folder, named as the lesson, leading elsewhere: not followed."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (learner / LESSON).symlink_to(elsewhere)
    server.routes["*"] = answering(lesson())
    assert learn("start", LESSON, "--server", server.url) == 2
    assert list(elsewhere.iterdir()) == []


def test_start_never_writes_through_a_link_in_the_folder(server, learner, tmp_path, capsys):
    """A folder with links where the README and the exercise file go (a folder downloaded from
    someone): the files they point to outside are neither created nor overwritten."""
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n")
    folder = learner / "lesson"
    folder.mkdir()
    (folder / "solution.py").symlink_to(tmp_path / "created.py")  # leads nowhere yet
    server.routes["*"] = answering(lesson())
    assert learn("start", LESSON, "lesson", "--server", server.url) == 0
    assert not (tmp_path / "created.py").exists()
    (folder / "README.md").unlink()
    (folder / "README.md").symlink_to(victim)
    assert learn("start", LESSON, "lesson", "--server", server.url) == 2
    assert "is a symbolic link" in capsys.readouterr().err
    assert victim.read_text() == "keep me\n"


# ---- what is printed and written ------------------------------------------------------------

ESCAPES = "\x1b]0;owned\x07\x1b[2J\x9b31m\u202egnp.exe"
MARKUP = "[bold red]loud[/] [/]"


def test_control_characters_and_markup_are_shown_as_text(server, learner, capsys):
    server.routes["*"] = answering(
        lesson(
            title=f"Sum {ESCAPES} {MARKUP}",
            summary="one\nline",
            explanation=f"Read {ESCAPES}.",
            task=f"Print {MARKUP}.",
            expected_output=f"3{ESCAPES}\n",
        )
    )
    assert learn("start", LESSON, "--server", server.url) == 0
    out = capsys.readouterr().out
    readme = (learner / LESSON / "README.md").read_text()
    for shown in (out, readme):
        assert not any(c in shown for c in "\x1b\x07\x9b\u202e"), repr(shown)
        assert "\\x1b]0;owned\\x07" in shown and "\\u202e" in shown
    assert MARKUP in out  # printed as it is, not as Rich's markup
    assert "tiny* — one line" in readme  # one line stays one line


@pytest.mark.parametrize(
    "answer",
    [
        answering({"error": "gone", "message": f"no {ESCAPES} {MARKUP}"}, status=404),
        answering(b"<html>", status=404, reason="Not " + ESCAPES.split("\u202e")[0]),
        answering({"message": f"bad {ESCAPES}"}, status=401),
    ],
    ids=["json-message", "reason-phrase", "refused-token"],
)
def test_a_refusal_is_printed_with_its_control_characters_escaped(server, capsys, answer):
    server.routes["*"] = answer
    assert learn("start", LESSON, "--server", server.url) == 2
    err = capsys.readouterr().err
    assert "\\x1b]0;owned\\x07" in err
    assert not any(c in err for c in "\x1b\x07\x9b\u202e"), repr(err)


def test_the_messages_of_a_request_speak_the_learners_language(server, capsys):
    """The request runs in a thread of its own (for its deadline): in the learner's language."""
    server.routes["*"] = answering(b"<html>", status=404, reason="Not Found")
    assert learn("lessons", "--lang", "tr", "--server", server.url) == 2
    assert "sunucu 404 ile yanıt verdi: Not Found" in capsys.readouterr().err


def test_json_output_carries_no_control_character(server, learner, capsys):
    server.routes["*"] = answering(lesson())
    assert learn("start", LESSON, "--server", server.url) == 0
    server.routes[f"/api/lessons/{LESSON}/grade"] = answering(
        {"verdict": "incorrect", "feedback": [f"Wrong {ESCAPES}"], "diff": [], "case": None}
    )
    capsys.readouterr()
    assert learn("test", LESSON, "--json") == 1
    out = capsys.readouterr().out
    assert not any(c in out for c in "\x1b\x07\x9b\u202e"), repr(out)
    assert json.loads(out)["feedback"] == [f"Wrong {ESCAPES}"]  # the same data, escaped
    assert learn("test", LESSON) == 1  # and on the terminal, as text
    out = capsys.readouterr().out
    assert not any(c in out for c in "\x1b\x07\x9b\u202e") and "\\x1b]0;owned" in out


def test_a_hidden_cases_setup_is_shown_as_text(server, learner, capsys):
    server.routes["*"] = answering(lesson())
    assert learn("start", LESSON, "--server", server.url) == 0
    server.routes[f"/api/lessons/{LESSON}/grade"] = answering(
        {"verdict": "incorrect", "feedback": ["Wrong."], "case": "big", "setup": f"X = {ESCAPES}"}
    )
    capsys.readouterr()
    assert learn("test", LESSON) == 1
    assert "--setup" in capsys.readouterr().out  # named, not shown
    assert learn("test", LESSON, "--setup") == 1
    out = capsys.readouterr().out
    assert not any(c in out for c in "\x1b\x07\x9b\u202e"), repr(out)
    assert "X = \\x1b]0;owned" in out


def test_the_catalogue_title_is_not_markup(server, capsys):
    """The server's address in the catalogue's title: a Rich tag in it would raise."""
    server.routes["*"] = answering({"lessons": [lesson(title=MARKUP)]})
    assert learn("lessons", "--server", server.url + "/[/]x") == 0
    out = capsys.readouterr().out
    assert "[/]x" in out and MARKUP in out


@pytest.mark.parametrize(
    "address", ["file:///etc/passwd", "ftp://127.0.0.1/", "http://", "http://x:99999", "http://a b"]
)
def test_only_an_http_address_is_a_server(capsys, address):
    assert learn("lessons", "--server", address) == 2
    assert "is not a server's address" in capsys.readouterr().err


# ---- where the token goes -------------------------------------------------------------------


def test_the_token_is_never_sent_to_another_origin(server, other, capsys):
    write_credentials(server.url, TOKEN)
    other.routes["*"] = answering({"lessons": []})

    def moved(handler: Handler) -> None:
        handler.send_response(302)
        handler.send_header("Location", other.url + "/api/lessons")
        handler.send_header("Content-Length", "0")
        handler.end_headers()

    server.routes["/api/lessons"] = moved
    code = learn("lessons", "--server", server.url)
    assert TOKEN.encode() not in other.received()
    assert TOKEN.encode() in server.received()  # it did go where the learner logged in
    assert code == 2
    err = capsys.readouterr().err
    assert other.url in err and "--server URL" in err


def test_a_redirect_within_the_server_is_followed_with_the_token(server, capsys):
    write_credentials(server.url, TOKEN)

    def moved(handler: Handler) -> None:
        handler.send_response(301)
        handler.send_header("Location", "/api/v2/lessons")
        handler.send_header("Content-Length", "0")
        handler.end_headers()

    def lessons(handler: Handler) -> None:
        mine = handler.headers.get("Authorization") == f"Bearer {TOKEN}"
        send(handler, 200, {"lessons": [lesson(title="for you" if mine else "anonymous")]})

    server.routes["/api/lessons"] = moved
    server.routes["/api/v2/lessons"] = lessons
    assert learn("lessons", "--server", server.url) == 0
    assert "for you" in capsys.readouterr().out


# ---- time and size --------------------------------------------------------------------------


def dripping(headers_too: bool):
    """An answer a byte at a time, each soon after the last (no read ever waits long), that
    would take far longer than any deadline (it breaks off after a minute, unfinished); ``cut``
    is set when the client hangs up."""

    def answer(handler: Handler) -> None:
        give_up = time.monotonic() + 60
        head = b"HTTP/1.0 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n"
        body = b"\r\n" + b" " * 100000
        sent = b"" if headers_too else head
        if not headers_too:
            handler.wfile.write(head)
        try:
            for byte in (head + body)[len(sent) :]:
                if handler.server.stop.wait(0.02) or time.monotonic() > give_up:
                    return
                handler.wfile.write(bytes([byte]))
                handler.wfile.flush()
        except OSError:
            handler.server.cut.set()

    return answer


@pytest.mark.parametrize("headers_too", [False, True], ids=["body", "headers"])
def test_an_answer_dripping_a_byte_at_a_time_is_cut_off(server, monkeypatch, capsys, headers_too):
    monkeypatch.setattr("codeblanks.cli.learn.fetch.DEADLINE_S", 1.0)
    server.routes["*"] = dripping(headers_too)
    assert learn("lessons", "--server", server.url) == 2
    assert "did not finish answering within 1 seconds" in capsys.readouterr().err
    assert server.cut.wait(60), "the client never hung up"


def test_an_answer_announced_longer_than_the_limit_is_refused_at_once(server, capsys):
    def huge(handler: Handler) -> None:
        handler.send_response(200)
        handler.send_header("Content-Length", str(64 * 1024 * 1024))
        handler.end_headers()
        handler.wfile.write(b'{"lessons": [')
        handler.server.stop.wait(60)  # and then nothing: only the header can refuse it

    server.routes["*"] = huge
    assert learn("lessons", "--server", server.url) == 2
    assert "sent an answer longer than 4 MB" in capsys.readouterr().err


def test_an_endless_answer_is_cut_at_the_limit(server, capsys):
    def endless(handler: Handler) -> None:
        handler.send_response(200)
        handler.end_headers()  # no length: the answer ends when the connection does
        chunk = b"0," * 32768
        handler.wfile.write(b"[")
        try:
            for _ in range(6 * 1024 * 1024 // len(chunk) + 1):
                handler.wfile.write(chunk)
            handler.wfile.write(b"0]")
        except OSError:
            handler.server.cut.set()

    server.routes["*"] = endless
    assert learn("lessons", "--server", server.url) == 2
    assert "sent an answer longer than 4 MB" in capsys.readouterr().err


# ---- answers of the wrong shape -------------------------------------------------------------

MALFORMED = {
    "not-json": (["lessons"], b"<html>hello</html>"),
    "not-utf8": (["lessons"], b'{"lessons": ["\xff"]}'),
    "nested-too-deep": (["lessons"], b"[" * 200000),
    "a-list": (["lessons"], []),
    "lessons-text": (["lessons"], {"lessons": "abc"}),
    "id-a-number": (["lessons"], {"lessons": [{"id": 3, "title": "t", "level": "1"}]}),
    "progress-text": (["lessons"], {"lessons": [lesson(progress="all")]}),
    "lesson-missing-fields": (["start", LESSON], {"id": LESSON}),
    "question-unknown-kind": (
        ["start", LESSON],
        lesson(questions=[{"id": "q", "kind": "essay", "prompt": "?"}]),
    ),
    "choice-without-options": (
        ["start", LESSON],
        lesson(questions=[{"id": "q", "kind": "choice", "prompt": "?"}]),
    ),
    "me-a-list": (["login", "--token", TOKEN], []),
}


@pytest.mark.parametrize("case", MALFORMED, ids=list(MALFORMED))
def test_a_malformed_answer_is_an_error_in_words(server, capsys, case):
    argv, data = MALFORMED[case]
    server.routes["*"] = answering(data)
    assert learn(*argv, "--server", server.url) == 2
    err = capsys.readouterr().err
    assert err.startswith("codeblanks: error: ") and server.url in err, err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    "grade",
    [
        {"verdict": "incorrect", "diff": [1, 2]},
        {"feedback": ["no verdict"]},
        "correct",
        {"verdict": "incorrect", "setup": ["E = 1"]},
    ],
    ids=["diff-numbers", "no-verdict", "text", "setup-a-list"],
)
def test_a_malformed_grade_is_an_error_in_words(server, learner, capsys, grade):
    server.routes["*"] = answering(lesson())
    assert learn("start", LESSON, "--server", server.url) == 0
    server.routes[f"/api/lessons/{LESSON}/grade"] = answering(grade)
    capsys.readouterr()
    assert learn("test", LESSON) == 2
    assert "sent a malformed answer to POST /api/lessons/sum-two/grade" in capsys.readouterr().err


def test_a_review_pair_that_is_not_a_pair_is_an_error_in_words(server, learner, capsys):
    question = {"id": "q", "kind": "match", "prompt": "?", "terms": ["a"], "meanings": ["b"]}
    server.routes["*"] = answering(lesson())
    assert learn("start", LESSON, "--server", server.url) == 0
    review = {**question, "answer": [["a", "b", "c"]], "explanation": "why"}
    server.routes[f"/api/lessons/{LESSON}/review"] = answering({"questions": [review]})
    capsys.readouterr()
    assert learn("quiz", LESSON, "--review") == 2
    assert "sent a malformed answer" in capsys.readouterr().err


# ---- the lesson folder's own file -----------------------------------------------------------


def lesson_folder(learner: Path, server_url: str, **meta) -> Path:
    folder = learner / "lesson"
    folder.mkdir(exist_ok=True)
    data = {"lesson": LESSON, "filename": "solution.py", "server": server_url, "hints_seen": 0}
    (folder / ".codeblanks.json").write_text(json.dumps({**data, **meta}))
    (folder / "solution.py").write_text("print(3)\n")
    return folder


@pytest.mark.parametrize("how", ["climbs", "absolute", "link"])
def test_the_folder_file_cannot_send_a_file_from_outside(server, learner, tmp_path, capsys, how):
    secret = tmp_path / "secret.txt"
    secret.write_text("ssh-ed25519 THE-SECRET-KEY\n")
    server.routes["*"] = answering({"verdict": "correct", "feedback": []})
    if how == "link":
        folder = lesson_folder(learner, server.url, filename="solution.py")
        (folder / "solution.py").unlink()
        (folder / "solution.py").symlink_to(secret)
    else:
        name = os.path.relpath(secret, learner / "lesson") if how == "climbs" else str(secret)
        folder = lesson_folder(learner, server.url, filename=name)
    assert learn("test", str(folder)) == 2
    assert b"THE-SECRET-KEY" not in server.received()
    err = capsys.readouterr().err
    assert "not a plain file name" in err or "leads out of the lesson folder" in err


@pytest.mark.parametrize(
    "text",
    [
        "[]",
        '{"lesson": "sum-two", "filename": "solution.py", "hints_seen": 1e999}',
        '{"lesson": "sum-two", "filename": "solution.py", "hints_seen": "two"}',
        '{"lesson": {"id": "sum-two"}, "filename": "solution.py"}',
        '{"lesson": "sum-two", "filename": "solution.py", "server": ["http://x"]}',
        "[" * 200000,
        "\xff\xfe",
    ],
    ids=["a-list", "infinite-hints", "hints-text", "lesson-object", "server-list", "deep", "bytes"],
)
def test_a_broken_folder_file_is_a_clear_error(server, learner, capsys, text):
    folder = lesson_folder(learner, server.url)
    (folder / ".codeblanks.json").write_bytes(text.encode("latin-1"))
    assert learn("hint", str(folder), "--server", server.url) == 2
    err = capsys.readouterr().err
    assert ".codeblanks.json" in err and ("is damaged" in err or "not a plain file name" in err)
    assert server.seen == []  # nothing asked of the server on a damaged folder's behalf


@pytest.mark.parametrize("expected", ["3\n", None], ids=["program", "function"])
def test_a_lesson_started_from_a_server_still_works(server, learner, capsys, expected):
    """The whole round, to be sure the checks let a real answer through (a function exercise
    has no expected output)."""
    server.routes["*"] = answering(lesson(expected_output=expected))
    server.routes[f"/api/lessons/{LESSON}/grade"] = answering(
        {"verdict": "correct", "feedback": [], "diff": [], "stderr": "", "case": None}
    )
    server.routes[f"/api/lessons/{LESSON}/hint"] = answering({"number": 1, "of": 1, "text": "Add."})
    assert learn("start", LESSON, "--server", server.url) == 0
    assert (learner / LESSON / "solution.py").read_text() == "# your code\n"
    readme = (learner / LESSON / "README.md").read_text()
    assert ("Expected output" in readme) == (expected is not None)
    assert learn("test", LESSON) == 0
    assert learn("hint", LESSON) == 0
    assert "Add." in capsys.readouterr().out
    posted = [s for s in server.seen if s["path"].endswith("/grade")]
    assert json.loads(posted[0]["body"]) == {"code": "# your code\n"}
