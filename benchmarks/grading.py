"""How long grading takes, against a single sandbox run in the same process: the QKV exercise,
then a function exercise (layer-norm-residual: 8 tests, 5 hidden, run after the program).

    .venv/bin/python benchmarks/grading.py [--n 200] [--pause 0.05] [--http | --direct]
                                           [--lesson ID ...]

Grades the sample solution of `query-key-value` (a correct program, so every hidden variant runs)
through the JSON API, ``POST /api/lessons/query-key-value/grade`` with ``{"code": ...}``, by
calling ``codeblanks.web.door.asgi.application`` (what uvicorn calls) in-process with an ASGI scope,
``receive`` and ``send``. ``--http`` starts uvicorn on 127.0.0.1 inside this process and sends
the requests over one kept-alive TCP connection instead (what ``codeblanks serve`` does, plus
the HTTP parsing); ``--direct`` (or a missing web app) times ``agrade()`` itself. Each round also
times one plain sandbox run of the same program, so the ratio compares like with like. The
first grade of a lesson version computes and caches the reference results; it is done during
warm-up and not counted.

Target: grading with all variants <= 4x a single run, and <= 15 ms p50; for a function
exercise the grade with all its tests, hidden ones included, stays <= 4x a single run
of the program alone.
A pause between rounds lets the sandbox refill its spare processes, as between real requests.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

LESSONS = ("query-key-value", "layer-norm-residual")


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    k = (len(ordered) - 1) * p
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def web_app(lesson_id: str):
    """The ASGI application, the grade URL and an allowed host, or None without the web app."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "codeblanks.web.settings")
    # The benchmark is not a flood to refuse: no per-address limit.
    for name in ("CODEBLANKS_RUN_RATE", "CODEBLANKS_RUN_CPU_PER_MINUTE", "CODEBLANKS_RUNS_AT_ONCE"):
        os.environ.setdefault(name, "0")
    try:
        from django.conf import settings
        from django.urls import reverse

        from codeblanks.web.door.asgi import application  # sets Django up

        url = reverse("api-grade", args=[lesson_id])
        host = next(h for h in settings.ALLOWED_HOSTS if not h.startswith("."))
    except Exception as exc:  # the web app is not there (yet): time grade() directly
        print(f"(no JSON API: {type(exc).__name__}: {exc}; timing agrade() directly)")
        return None
    return application, url, host


async def asgi_post(app, host: str, url: str, body: bytes) -> tuple[int, bytes, float]:
    """A JSON POST (``asgi_request``): the status, the body, and when the last byte of the answer
    was handed to the server (``send``), which is when a client has it. Django's clean-up after
    that (``request_finished``, on a thread) is not part of the answer's latency; ``app_done``
    keeps when the application returned."""
    from codeblanks.web.door.inprocess import asgi_request

    json_type = [(b"content-type", b"application/json")]
    length = [(b"content-length", str(len(body)).encode())]
    answer = await asgi_request(app, "POST", url, [*length, *json_type], body, host=host)
    app_done.append(time.perf_counter() - answer.sent_at)
    return answer.status, answer.body, answer.sent_at


app_done: list[float] = []  # seconds from the answer sent to the application returning


class HttpClient:
    """uvicorn serving the application on 127.0.0.1 in this process, and one keep-alive
    connection to it."""

    async def start(self, app, host: str):
        import uvicorn

        config = uvicorn.Config(app, host="127.0.0.1", port=0, lifespan="off",
                                log_level="warning", access_log=False)  # fmt: skip
        self.server = uvicorn.Server(config)
        self.task = asyncio.create_task(self.server.serve())
        while not self.server.started:
            await asyncio.sleep(0.01)
        port = self.server.servers[0].sockets[0].getsockname()[1]
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", port)
        self.host = host
        return self

    async def post(self, url: str, body: bytes) -> tuple[int, bytes, float]:
        head = (f"POST {url} HTTP/1.1\r\nHost: {self.host}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\n\r\n")  # fmt: skip
        self.writer.write(head.encode() + body)
        status_line, *lines = (await self.reader.readuntil(b"\r\n\r\n")).decode().split("\r\n")
        headers = dict(x.split(": ", 1) for x in lines if x)
        length = int(next(v for k, v in headers.items() if k.lower() == "content-length"))
        content = await self.reader.readexactly(length)
        return int(status_line.split()[1]), content, time.perf_counter()

    async def stop(self):
        self.writer.close()
        self.server.should_exit = True
        await self.task


async def main(n: int, pause: float, mode: str, lessons: list[str]) -> int:
    for lesson_id in lessons:
        status = await bench(n, pause, mode, lesson_id)
        if status:
            return status
    return 0


async def bench(n: int, pause: float, mode: str, LESSON: str) -> int:
    from codeblanks.content import catalog
    from codeblanks.grading import agrade
    from codeblanks.grading.reference import limits_for
    from codeblanks.sandbox import get_sandbox

    lesson = catalog().lesson(LESSON)
    if lesson is None:
        print(f"the lesson {LESSON} does not load")
        return 2
    code = lesson.exercise.solution
    sandbox = get_sandbox()
    web = None if mode == "direct" else web_app(LESSON)
    if web is None:
        mode, via, post = "direct", "agrade()", None
    else:
        app, url, host = web
        body = json.dumps({"code": code}).encode()
        if mode == "http":
            http = await HttpClient().start(app, host)
            via = f"POST {url} over HTTP to uvicorn on 127.0.0.1"

            def post():
                return http.post(url, body)
        else:
            via = f"POST {url} through asgi.application"

            def post():
                return asgi_post(app, host, url, body)

    async def single() -> float:
        t = time.perf_counter()
        run = await sandbox.arun(
            code,
            filename=lesson.exercise.filename,
            limits=limits_for(lesson),
            capture=lesson.exercise.grading.values,
        )
        ms = (time.perf_counter() - t) * 1000
        assert run.ok, run.stderr
        return ms

    async def graded() -> float:
        t = time.perf_counter()
        if post:  # until the client has the whole answer
            status, content, end = await post()
            verdict = json.loads(content).get("verdict") if status == 200 else (status, content)
        else:
            verdict = (await agrade(lesson, code)).verdict
            end = time.perf_counter()
        assert verdict == "correct", verdict
        return (end - t) * 1000

    for _ in range(5):  # warm-up: start the sandbox, cache the reference results
        await single()
        await graded()
        await asyncio.sleep(pause)
    app_done.clear()
    singles, grades = [], []
    for _ in range(n):
        singles.append(await single())
        await asyncio.sleep(pause)
        grades.append(await graded())
        await asyncio.sleep(pause)

    if mode == "http":
        await http.stop()
    cases = 1 + len(lesson.exercise.grading.variants)
    s50, s95 = statistics.median(singles), percentile(singles, 0.95)
    g50, g95 = statistics.median(grades), percentile(grades, 0.95)
    ratio = g50 / s50
    suite = lesson.exercise.tests
    tests = ""
    if suite is not None:
        hidden = sum(t.hidden for t in suite.tests)
        tests = f", {len(suite.tests)} function tests ({hidden} hidden) after the program"
    print(f"grading {LESSON}: {cases} cases ({cases - 1} hidden variants){tests}, via {via}, n={n}")
    print(f"  single sandbox run   p50 {s50:7.2f} ms   p95 {s95:7.2f} ms")
    print(f"  grade, all variants  p50 {g50:7.2f} ms   p95 {g95:7.2f} ms")
    if app_done:
        d50 = statistics.median(app_done) * 1000
        print(f"  (then Django's clean-up until the app returned: p50 {d50:.2f} ms, not counted)")
    ratio_ok, time_ok = ("met" if ok else "NOT met" for ok in (ratio <= 4, g50 <= 15))
    print(f"  ratio (p50)          {ratio:5.2f}x   target <= 4x:    {ratio_ok}")
    print(f"  grade p50            {g50:5.2f} ms  target <= 15 ms: {time_ok}")
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=200, help="timed rounds (default 200)")
    parser.add_argument("--pause", type=float, default=0.05, help="seconds between requests")
    how = parser.add_mutually_exclusive_group()
    how.add_argument("--http", action="store_true", help="through uvicorn on 127.0.0.1")
    how.add_argument("--direct", action="store_true", help="time agrade(), not the API")
    parser.add_argument(
        "--lesson", action="append", help=f"a lesson id, repeatable (default: {', '.join(LESSONS)})"
    )
    args = parser.parse_args()
    mode = "http" if args.http else "direct" if args.direct else "asgi"
    sys.exit(asyncio.run(main(args.n, args.pause, mode, args.lesson or list(LESSONS))))
