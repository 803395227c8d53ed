"""Prometheus metrics of one node, served on a port of their own (``CODEBLANKS_METRICS_LISTEN``,
off by default) so that the balancer never exposes them: learners reach the app's port only.

    codeblanks_runs_total{verdict}        programs run, by verdict (busy included)
    codeblanks_run_seconds                a program's run time in the sandbox (histogram)
    codeblanks_busy_total                 runs answered "busy" (no slot within the wait)
    codeblanks_grade_seconds{view}        a grading request, as this node served it (histogram)
    codeblanks_requests_total{status}     HTTP answers by status code
    codeblanks_request_seconds{view}      HTTP requests by view (histogram)
    codeblanks_sandbox_running            runs holding a slot now
    codeblanks_sandbox_waiting            runs waiting for a slot now (the queue)
    codeblanks_sandbox_zygote_restarts    zygotes that died and were started again
    codeblanks_reference_failures_total   grades not judged: the sample solution's run failed
    codeblanks_draining                   1 while the node stops (SIGTERM), else 0
"""

from __future__ import annotations

import logging

from prometheus_client import CollectorRegistry, Counter, Histogram, start_http_server
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily

from codeblanks.grading import reference
from codeblanks.grading.verdicts import Verdict
from codeblanks.sandbox import RunResult

log = logging.getLogger("codeblanks.web")

REGISTRY = CollectorRegistry()  # ours alone: nothing a library registers leaks out
_LATENCY = (0.01, 0.025, 0.05, 0.1, 0.2, 0.4, 0.8, 1.5, 3, 6, 12, 30)

runs = Counter("codeblanks_runs", "Programs run, by verdict.", ["verdict"], registry=REGISTRY)
run_seconds = Histogram(
    "codeblanks_run_seconds", "A program's run time.", buckets=_LATENCY, registry=REGISTRY
)
busy = Counter("codeblanks_busy", "Runs answered busy.", registry=REGISTRY)
grade_seconds = Histogram(
    "codeblanks_grade_seconds",
    "A grading request as the node served it.",
    ["view"],
    buckets=_LATENCY,
    registry=REGISTRY,
)
requests = Counter("codeblanks_requests", "HTTP answers, by status.", ["status"], registry=REGISTRY)
request_seconds = Histogram(
    "codeblanks_request_seconds",
    "HTTP requests, by view.",
    ["view"],
    buckets=_LATENCY,
    registry=REGISTRY,
)
# Counted where the grade happens, like the requests: with several web processes each worker
# writes its count to the node's shared folder and the node's port serves the sum.
reference_failures = Counter(
    "codeblanks_reference_failures",
    "Grades not judged because the sample solution's run failed.",
    registry=REGISTRY,
)
reference.FAILURE_WATCHERS.append(reference_failures.inc)


def watch_run(result: RunResult) -> None:
    """A ``Sandbox.watchers`` entry: count every finished run."""
    runs.labels(result.verdict).inc()
    if result.verdict == Verdict.BUSY:
        busy.inc()
    else:
        run_seconds.observe(result.duration_ms / 1000)


class SandboxCollector:
    """The sandbox's and the node's state, read when Prometheus asks."""

    def __init__(self, sandbox, draining) -> None:
        self.sandbox, self.draining = sandbox, draining

    def collect(self):
        stats = self.sandbox.stats()
        yield GaugeMetricFamily(
            "codeblanks_sandbox_running", "Runs holding a slot now.", value=stats["running"]
        )
        yield GaugeMetricFamily(
            "codeblanks_sandbox_waiting", "Runs waiting for a slot.", value=stats["waiting"]
        )
        yield CounterMetricFamily(
            "codeblanks_sandbox_zygote_restarts",
            "Zygotes that died and were started again.",
            value=stats["zygote_restarts"],
        )
        yield GaugeMetricFamily(
            "codeblanks_draining", "1 while the node stops.", value=int(self.draining())
        )


def start(listen: str, sandbox, draining, registry: CollectorRegistry | None = None) -> str:
    """Watch ``sandbox`` and serve the metrics on ``listen`` (``host:port``); the URL.
    ``registry``: what to serve instead of this process's own (the web workers' sum)."""
    registry = registry or REGISTRY
    sandbox.watchers.append(watch_run)
    registry.register(SandboxCollector(sandbox, draining))
    host, _, port = listen.rpartition(":")
    host = host.strip("[]") or "0.0.0.0"
    start_http_server(int(port), addr=host, registry=registry)
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/metrics"
