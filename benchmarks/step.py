"""CPU per learner's step (the target: at most 1/8 of a naive run's CPU), counted from
/proc: one learner in a browser session opens the lesson page, then presses Run on the sample
solution (the page's own htmx form, with its CSRF token and session cookie), through the ASGI
application in-process. Counted apart: this process (the web app, the grader, the sandbox's
supervisor threads) and the sandbox (the zygote and every child it forked and reaped).

    .venv/bin/python benchmarks/step.py [--n 60] [--naive 8] [--lesson query-key-value] [--split]

The baseline, in the same run: a fresh ``python main.py`` of the same program, with one BLAS
thread (as in the sandbox, and as the target counts it) and with this environment's default
(OpenBLAS then starts a thread per core). The ratio is given against both; the target is
counted against the first, the smaller. Every answer is checked (200, and the run said right).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import sys
import tempfile
import time
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from cpu_per_grade import cpu_ms, naive_cpu_ms, sandbox_pids  # noqa: E402

from codeblanks.web.door.inprocess import asgi_request  # noqa: E402
from grading import web_app  # noqa: E402


class Browser:
    """One learner's cookies, and requests made as a browser makes them."""

    def __init__(self, app, host: str) -> None:
        self.app, self.host, self.cookies = app, host, SimpleCookie()

    async def request(self, method: str, path: str, body: bytes = b"", headers=()) -> tuple:
        cookie = "; ".join(f"{k}={m.value}" for k, m in self.cookies.items())
        sent = [(b"accept-language", b"en"), *([(b"cookie", cookie.encode())] if cookie else [])]
        sent.append((b"content-length", str(len(body)).encode()))
        answer = await asgi_request(self.app, method, path, [*sent, *headers], body, host=self.host)
        for name, value in answer.headers:
            if name.lower() == b"set-cookie":
                self.cookies.load(value.decode("latin-1"))
        return answer.status, answer.body


async def open_page(browser: Browser, page: str) -> str:
    """The lesson page; its CSRF token."""
    status, body = await browser.request("GET", page)
    assert status == 200 and b'id="run-form"' in body, (status, body[:300])
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', body)
    assert token, "no CSRF token in the page"
    return token.group(1).decode()


async def press_run(browser: Browser, page: str, run: str, code: str, token: str) -> None:
    """Run, as the page's form sends it; fails loudly on a wrong answer."""
    form = urlencode({"csrfmiddlewaretoken": token, "code": code}).encode()
    status, body = await browser.request(
        "POST",
        run,
        form,
        [
            (b"content-type", b"application/x-www-form-urlencoded"),
            (b"hx-request", b"true"),
            (b"referer", f"http://{browser.host}{page}".encode()),
            (b"origin", f"http://{browser.host}".encode()),
        ],
    )
    assert status == 200 and b'data-verdict="correct"' in body, (status, body[:600])


async def step(browser: Browser, page: str, run: str, code: str) -> None:
    """The lesson page, then Run."""
    await press_run(browser, page, run, code, await open_page(browser, page))


def database() -> str:
    """A database of its own, made before the loop starts (each Run writes the learner's
    progress); the folder it is in, to remove at the end."""
    folder = tempfile.mkdtemp(prefix="codeblanks-step-")
    os.environ["CODEBLANKS_DATABASE_URL"] = f"sqlite:///{folder}/step.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "codeblanks.web.settings")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    return folder


async def main(args, folder: str) -> int:
    from django.urls import reverse

    from codeblanks.content import catalog
    from codeblanks.sandbox import get_sandbox

    lesson = catalog().lesson(args.lesson)
    code = lesson.exercise.solution
    sandbox = get_sandbox()
    app, _, host = web_app(args.lesson)
    page, run = reverse("lesson", args=[lesson.id]), reverse("lesson-run", args=[lesson.id])
    browser = Browser(app, host)
    for _ in range(5):  # warm: templates compiled, caches filled, the learner's row made
        await step(browser, page, run, code)
        await asyncio.sleep(0.05)
    pids = sandbox_pids(sandbox._supervisor.proc.pid)
    await asyncio.sleep(0.5)  # the spares settle

    def sample() -> tuple[float, float]:
        return cpu_ms(os.getpid()), sum(cpu_ms(p, children=True) for p in pids)

    web0, box0 = sample()
    wall = time.perf_counter()
    for _ in range(args.n):
        await step(browser, page, run, code)
        await asyncio.sleep(0.03)
    await asyncio.sleep(0.5)  # the last children are reaped, the spares refilled
    web1, box1 = sample()
    wall = time.perf_counter() - wall
    web, box = (web1 - web0) / args.n, (box1 - box0) / args.n
    total = web + box
    print(f"{args.lesson}: {args.n} steps (the lesson page, then Run), load "
          f"{os.getloadavg()[0]:.1f}, wall {wall:.1f} s")  # fmt: skip
    print(f"  CPU per step: web process {web:6.2f} ms   sandbox {box:6.2f} ms   "
          f"total {total:6.2f} ms")  # fmt: skip
    if args.split:  # the two requests apart: the web process's CPU for each
        token = await open_page(browser, page)
        for name, request in (
            ("the page", lambda: open_page(browser, page)),
            ("Run", lambda: press_run(browser, page, run, code, token)),
        ):
            await asyncio.sleep(0.5)
            web0, box0 = sample()
            for _ in range(args.n):
                await request()
                await asyncio.sleep(0.03)
            await asyncio.sleep(0.5)
            web1, box1 = sample()
            print(f"  {name:8s} alone: web process {(web1 - web0) / args.n:6.2f} ms   "
                  f"sandbox {(box1 - box0) / args.n:6.2f} ms")  # fmt: skip
    one = naive_cpu_ms(code, args.naive, "1")
    default = naive_cpu_ms(code, args.naive, None)
    verdict = "MET" if total * 8 <= one else "MISSED"
    print(f"  baseline: a fresh `python main.py`, one BLAS thread {one:6.1f} ms of CPU: the step "
          f"is 1/{one / total:.1f} of it (target: 1/8 or less) {verdict}")  # fmt: skip
    print(f"            the same with the default BLAS threads {default:6.1f} ms: "
          f"1/{default / total:.1f} (n={args.naive} each)")  # fmt: skip
    shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=60)
    parser.add_argument("--naive", type=int, default=8)
    parser.add_argument("--lesson", default="query-key-value")
    parser.add_argument("--split", action="store_true", help="also the page and Run apart")
    sys.exit(asyncio.run(main(parser.parse_args(), database())))
