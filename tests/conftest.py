"""Shared test set-up for the whole suite."""


def pytest_collection_modifyitems(session, config, items):
    """Run the browser tests last. Playwright's sync API keeps an asyncio event loop running in
    the main thread from its first use to the end of the session, and while it runs, code that
    starts its own loop there (asyncio.run, asgiref's async_to_sync behind Django's test client
    calling async views) refuses to work. Every other test runs before that loop exists."""
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)
