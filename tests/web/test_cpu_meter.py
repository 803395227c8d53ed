"""The rate limit meters work: a token bucket of CPU-seconds per client address,
charged what its runs really used, and a cap on its runs at once. An honest learner at a human
pace is never refused; a runaway client is, with Retry-After. The buckets' clock is driven by
the tests (``quotas.clock``), never waited for."""

from __future__ import annotations

import asyncio
import json

import pytest
from django.core.cache import caches
from django.test import override_settings

from codeblanks.web.learner import cpu_meter, quotas

from .test_run import _config

HTMX = {"HTTP_HX_REQUEST": "true"}


class Clock:
    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch):
    c = Clock()
    monkeypatch.setattr(quotas, "clock", c)
    return c


def _defaults(**changes):
    """The shipped defaults of the meter (12 CPU-s a minute, 20 banked, 2 at once)."""
    meter = {"run_rate": 0, "run_cpu_per_minute": 12.0, "run_cpu_burst": 20.0, "runs_at_once": 2}
    return _config(**{**meter, **changes})


def _step(client: str, cpu_s: float) -> quotas.Refusal | None:
    """One request: let in (or not), then charged ``cpu_s`` as if its runs had used it."""
    refusal = quotas._admit_now(client)
    if refusal is None:
        quotas._settle_now(client, cpu_s)
    return refusal


def test_an_honest_learner_every_3_s_is_never_refused_in_an_hour(clock):
    # A heavy honest grade: four cases of 0.12 s of CPU each, and the server's overhead.
    with override_settings(CODEBLANKS=_defaults()):
        refusals = []
        for _ in range(1200):
            refusals.append(_step("10.0.0.1", 4 * (0.12 + quotas.OVERHEAD_S)))
            clock.now += 3
    assert refusals == [None] * 1200


def test_a_runaway_client_is_refused_with_when_to_retry_and_held_to_its_share(clock):
    with override_settings(CODEBLANKS=_defaults()):
        let_in = 0
        while _step("10.0.0.2", 2.0) is None:  # each run stopped at its 2 s CPU limit
            let_in += 1
            assert let_in < 100, "a runaway is never refused"
        assert let_in == 10  # the burst of 20 CPU-s
        refused = quotas._admit_now("10.0.0.2")
        assert refused.status == 429 and refused.error == "cpu-limited"
        assert quotas.headers(refused) == {"Retry-After": str(refused.retry_after)}
        assert f"{refused.retry_after} s" in refused.message
        clock.now += refused.retry_after
        assert _step("10.0.0.2", 2.0) is None  # let in when told, into debt
        refused = quotas._admit_now("10.0.0.2")
        assert 9 <= refused.retry_after <= 10  # ~1.8 CPU-s of debt at 0.2 CPU-s a second
        clock.now += refused.retry_after - 1
        assert quotas._admit_now("10.0.0.2") is not None  # not yet
        clock.now += 1
        assert _step("10.0.0.2", 2.0) is None  # when it was told
        # Over ten minutes of trying every second it gets its share: 12 CPU-s a minute.
        used = 0.0
        for _ in range(600):
            clock.now += 1
            if _step("10.0.0.2", 2.0) is None:
                used += 2.0
        assert 110 <= used <= 122
        assert quotas._admit_now("10.0.0.9") is None  # another address is not held up


def test_one_huge_charge_costs_at_most_two_bursts_of_waiting(clock):
    with override_settings(CODEBLANKS=_defaults()):
        assert _step("10.0.0.3", 10_000.0) is None
        wait = quotas._admit_now("10.0.0.3").retry_after
        assert 100 <= wait <= 101  # 20 CPU-s of debt (one burst more), at 0.2 CPU-s a second


def test_runs_at_once_are_capped_and_given_back(clock):
    with override_settings(CODEBLANKS=_defaults()):
        assert quotas._admit_now("10.0.0.4") is None and quotas._admit_now("10.0.0.4") is None
        third = quotas._admit_now("10.0.0.4")
        assert third.status == 429 and third.error == "too-many-at-once" and third.retry_after
        quotas._settle_now("10.0.0.4", 0.01)
        assert quotas._admit_now("10.0.0.4") is None  # one ended: a place again


def test_a_body_that_fails_still_gives_its_place_back(clock):
    async def failing():
        async with quotas.metered("10.0.0.5") as refusal:
            assert refusal is None
            raise RuntimeError("the grader broke")

    with override_settings(CODEBLANKS=_defaults(runs_at_once=1)):
        with pytest.raises(RuntimeError):
            asyncio.run(failing())
        assert quotas._admit_now("10.0.0.5") is None


def test_zero_turns_the_meter_and_the_cap_off(clock):
    with override_settings(CODEBLANKS=_defaults(run_cpu_per_minute=0, runs_at_once=0)):
        assert all(_step("10.0.0.6", 100.0) is None for _ in range(50))


def test_nodes_sharing_redis_share_the_bucket(clock):
    redis = pytest.importorskip("redis")
    url = "redis://127.0.0.1:6379/12"  # a database no other test uses: the stages run side by side
    try:
        redis.Redis.from_url(url, socket_timeout=1).ping()
    except redis.RedisError:
        pytest.skip("no Redis on 127.0.0.1:6379")
    backend = {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": url,
        "KEY_PREFIX": "test-cpu-meter-capacity",
    }
    with override_settings(CACHES={"default": backend}, CODEBLANKS=_defaults()):
        caches["default"].clear()
        try:
            assert isinstance(cpu_meter.store_for(), cpu_meter.RedisStore)
            bucket = cpu_meter.Bucket(12.0, 20.0)
            one, two = cpu_meter.RedisStore(caches["default"]), cpu_meter.store_for()
            for store in [one, two, one, two, one, two, one, two, one]:  # two nodes: 9 x 2 s
                store.charge("codeblanks:cpu:10.0.0.7", bucket, clock.now, 2.0)
            assert bucket.wait(two.full_at("codeblanks:cpu:10.0.0.7"), clock.now) == 0
            assert _step("10.0.0.7", 2.0) is None  # the tenth empties the bucket
            refused = quotas._admit_now("10.0.0.7")
            assert refused.error == "cpu-limited" and refused.retry_after >= 1
            assert quotas._admit_now("10.0.0.8") is None  # the cap of 2 at once, then back
            assert quotas._admit_now("10.0.0.8") is None
            assert quotas._admit_now("10.0.0.8").error == "too-many-at-once"
        finally:
            caches["default"].clear()


# ---- through the web, with the real sandbox measuring the CPU ----------------------------------

BURN = "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.15:\n    pass\n"


def test_a_real_run_is_charged_what_it_used_and_the_429_says_when(client, clock):
    # A bucket of 0.1 CPU-s: the first program (0.15 s of CPU) is let in and leaves it in debt.
    with override_settings(CODEBLANKS=_defaults(run_cpu_per_minute=0.6, run_cpu_burst=0.1)):
        body = json.dumps({"code": BURN})
        first = client.post("/api/run", body, "application/json")
        assert first.status_code == 200 and first.json()["verdict"] == "ok"
        second = client.post("/api/run", body, "application/json")
        assert second.status_code == 429 and second.json()["error"] == "cpu-limited"
        wait = int(second.headers["Retry-After"])
        assert 5 <= wait <= 20  # 0.05-0.1 CPU-s of debt (and the overhead) at 0.01 a second
        turkish = client.post("/api/run", body, "application/json", HTTP_ACCEPT_LANGUAGE="tr")
        assert turkish.status_code == 429 and f"{wait} sn sonra" in turkish.json()["message"]
        clock.now += wait
        again = client.post("/api/run", json.dumps({"code": "print(1)"}), "application/json")
        assert again.status_code == 200, again.content


@pytest.mark.django_db
def test_the_lesson_pages_run_says_when_to_retry(client, clock):
    from .conftest import FIRST

    with override_settings(CODEBLANKS=_defaults(run_cpu_per_minute=0.6, run_cpu_burst=0.1)):
        url = f"/lessons/{FIRST.id}/run"
        assert client.post(url, {"code": BURN}, **HTMX).status_code == 200
        refused = client.post(url, {"code": BURN}, **HTMX)
        assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
        assert f"Try again in {refused.headers['Retry-After']} s" in refused.content.decode()


def test_the_time_told_is_always_a_time_it_lets_in():
    # Debts of whole ticks (the CPU comes in 10 ms steps) land on whole seconds, where rounding
    # could tell a second too early; at the time told the bucket always holds something.
    bucket = cpu_meter.Bucket(per_minute=0.6, burst=0.1)
    now = 1_000_000.0
    for ticks in range(11, 600):
        full_at = bucket.charged(0.0, now, ticks * 0.01)
        wait = bucket.wait(full_at, now)
        assert wait >= 1 and bucket.wait(full_at, now + wait) == 0, ticks
        assert bucket.wait(full_at, now + wait - 2) > 0, ticks  # and not much later than needed
