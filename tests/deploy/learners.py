"""Simulated learners for the fault tests: each signs up through the balancer, then keeps saving
and grading a lesson (the Run button's request) and running a program through the API, and
keeps a ledger of what the site acknowledged. Afterwards ``lost()`` asks the site, with the
learner's own cookies, whether everything acknowledged is still there.

An acknowledgement is a 200 with a verdict: the code was saved (it is saved before it is graded)
and, for a correct verdict, the lesson counts as solved. Every other answer is an error the
learner saw, which must be in words (a page with a heading, or the API's JSON message)."""

from __future__ import annotations

import html
import json
import re
import secrets
import threading
import time
from dataclasses import dataclass, field

from codeblanks.content import catalog

from .nodes import Browser, csrf_token

LESSON = "query-key-value"
MARK = re.compile(r"# attempt (\d+)\n")


@dataclass
class Seen:
    at: float  # when the request was sent
    what: str  # "run", "api", "signup"
    status: int
    words: bool  # the answer explains itself
    excerpt: str


@dataclass
class Ledger:
    username: str
    password: str
    signed_up: bool = False
    saved: int = 0  # the highest attempt whose save was acknowledged
    solved: bool = False
    acks: list[float] = field(default_factory=list)  # when each acknowledgement came
    errors: list[Seen] = field(default_factory=list)


def in_words(status: int, body: str, content_type: str) -> bool:
    if "json" in content_type:
        try:
            return bool(json.loads(body).get("message"))
        except (ValueError, AttributeError):
            return False
    text = re.sub(r"<[^>]+>", " ", body)
    return "Traceback" not in body and len(text.split()) >= 8


class Learner(threading.Thread):
    def __init__(self, url: str, stop: threading.Event, pause_s: float = 0.05) -> None:
        super().__init__(daemon=True)
        self.url, self.stop, self.pause_s = url, stop, pause_s
        self.browser = Browser()
        self.ledger = Ledger(f"l{secrets.token_hex(5)}", secrets.token_urlsafe(12))
        self.solution = catalog().lesson(LESSON).exercise.solution
        self.failure: BaseException | None = None
        self.sent = 0.0  # when the last request went out

    def _error(self, what: str, status: int, body: str, headers: dict) -> None:
        kind = headers.get("Content-Type", "")
        self.ledger.errors.append(
            Seen(self.sent, what, status, in_words(status, body, kind), body[:300])
        )

    def _call(self, what, method, path, **kw):
        """The answer, or None after recording a failure to get one at all (not in words)."""
        self.sent = time.monotonic()
        try:
            return self.browser.request(method, f"{self.url}{path}", **kw)
        except OSError as exc:
            self.ledger.errors.append(Seen(self.sent, what, 0, False, repr(exc)))
            time.sleep(0.2)
            return None

    def sign_up(self) -> bool:
        form = self._call("signup", "GET", "/accounts/signup/")
        if form is None or form.status != 200:
            return False
        data = {
            "csrfmiddlewaretoken": csrf_token(form.body),
            "username": self.ledger.username,
            "password1": self.ledger.password,
            "password2": self.ledger.password,
        }
        done = self._call("signup", "POST", "/accounts/signup/", data=data)
        if done is None:
            return False
        if done.status == 302:
            self.ledger.signed_up = True
            return True
        self._error("signup", done.status, done.body, done.headers)
        return False

    def grade(self, attempt: int) -> None:
        page = self._call("run", "GET", f"/lessons/{LESSON}/")
        if page is None:
            return
        if page.status != 200:
            self._error("run", page.status, page.body, page.headers)
            return
        code = f"{self.solution}\n# attempt {attempt}\n"
        run = self._call(
            "run",
            "POST",
            f"/lessons/{LESSON}/run",
            data={"csrfmiddlewaretoken": csrf_token(page.body), "code": code},
            headers={"HX-Request": "true"},
        )
        if run is None:
            return
        verdict = re.search(r'data-verdict="([a-z-]+)"', run.body)
        if run.status == 200 and verdict and verdict.group(1) not in ("refused",):
            self.ledger.saved = attempt
            self.ledger.solved |= verdict.group(1) == "correct"
            self.ledger.acks.append(time.monotonic())
        else:
            self._error("run", run.status, run.body, run.headers)

    def api_run(self) -> None:
        answer = self._call(
            "api", "POST", "/api/run", data=json.dumps({"code": "print(6 * 7)"}).encode()
        )
        if answer is None:
            return
        if answer.status == 200 and json.loads(answer.body).get("stdout") == "42\n":
            self.ledger.acks.append(time.monotonic())
        else:
            self._error("api", answer.status, answer.body, answer.headers)

    def run(self) -> None:
        try:
            while not self.stop.is_set() and not self.sign_up():
                time.sleep(0.3)
            attempt = 0
            while not self.stop.is_set():
                attempt += 1
                self.grade(attempt)
                self.api_run()
                time.sleep(self.pause_s)
        except BaseException as exc:  # reported by the test, not lost in a thread
            self.failure = exc

    def lost(self) -> list[str]:
        """What the site acknowledged to this learner and no longer shows them."""
        if not self.ledger.signed_up:
            return []
        problems = []
        page = self.browser.get(f"{self.url}/lessons/{LESSON}/")
        if self.ledger.username not in page.body:
            problems.append(f"{self.ledger.username}: logged out (session lost)")
        found = re.search(r'<textarea[^>]*name="code"[^>]*>\n?(.*?)</textarea>', page.body, re.S)
        stored = MARK.search(html.unescape(found.group(1))) if found else None
        kept = int(stored.group(1)) if stored else 0
        if kept < self.ledger.saved:
            problems.append(
                f"{self.ledger.username}: attempt {self.ledger.saved} was saved, the editor "
                f"shows attempt {kept}"
            )
        if self.ledger.solved:
            progress = self.browser.get(f"{self.url}/progress/").body
            title = catalog().lesson(LESSON).title
            rows = [r for r in re.findall(r"<tr>.*?</tr>", progress, re.S) if f">{title}</a>" in r]
            if not (len(rows) == 1 and "Solved" in rows[0]):
                problems.append(f"{self.ledger.username}: the solved lesson is no longer solved")
        return problems


class Crowd:
    """A few learners working through the balancer, started and stopped together."""

    def __init__(self, url: str, size: int = 3) -> None:
        self.stop = threading.Event()
        self.learners = [Learner(url, self.stop) for _ in range(size)]

    def __enter__(self) -> Crowd:
        for learner in self.learners:
            learner.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        for learner in self.learners:
            learner.join(timeout=60)

    def wait_working(self, timeout: float = 60.0) -> None:
        """Until every learner has had an acknowledgement."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if all(learner.ledger.acks for learner in self.learners):
                return
            time.sleep(0.1)
        raise AssertionError(f"learners not working after {timeout:.0f} s: {self.errors()[:5]}")

    def acks_between(self, start: float, end: float = float("inf")) -> int:
        return sum(start <= t < end for x in self.learners for t in x.ledger.acks)

    def errors(self, since: float = 0.0) -> list[Seen]:
        return [e for x in self.learners for e in x.ledger.errors if e.at >= since]

    def lost(self) -> list[str]:
        failures = [repr(x.failure) for x in self.learners if x.failure]
        return failures + [problem for x in self.learners for problem in x.lost()]
