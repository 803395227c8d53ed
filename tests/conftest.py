"""Shared test set-up for the whole suite."""

import os

from hypothesis import settings

# Machines here are shared and noisy: no per-example deadline. In CI (CI=true) Hypothesis derives
# its examples from each test's name, so a red run can be replayed; locally they stay random, so
# new cases keep being tried.
settings.register_profile("codeblanks", deadline=None)
settings.register_profile("ci", parent=settings.get_profile("codeblanks"), derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "codeblanks")

# A command line a test starts runs cold: a warm sandbox server would outlive the test
# (tests/cli/test_warm.py turns it on, in a private folder of its own, and stops it).
os.environ["CODEBLANKS_WARM"] = "0"


def pytest_collection_modifyitems(session, config, items):
    """Run the browser tests last. Playwright's sync API keeps an asyncio event loop running in
    the main thread from its first use to the end of the session, and while it runs, code that
    starts its own loop there (asyncio.run, asgiref's async_to_sync behind Django's test client
    calling async views) refuses to work. Every other test runs before that loop exists."""
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)
