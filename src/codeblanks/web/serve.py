"""``codeblanks serve``: the web app under uvicorn, ready for real use.

One process per node: views that wait on the sandbox are async, so a long run never holds up
other learners; the sandbox runs programs in parallel in its own processes. Static files are
served by whitenoise from the installed package. In local mode (SQLite) migrations are applied
on start; with PostgreSQL run ``django-admin migrate`` once per release instead (docs/deploy.md).
"""

from __future__ import annotations

import os
import sys


def serve(host: str = "127.0.0.1", port: int = 8000) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "codeblanks.web.settings")
    import django
    from django.conf import settings

    django.setup()
    config = settings.CODEBLANKS
    if config.local:
        from django.core.management import call_command

        config.data_dir.mkdir(parents=True, exist_ok=True)
        call_command("migrate", interactive=False, verbosity=0)
    elif not config.secret_key_from_env:
        sys.exit(
            "CODEBLANKS_SECRET_KEY is not set. With a shared database every node must use the "
            "same key: set it to a long random string (docs/settings.md)."
        )
    import uvicorn

    from codeblanks.web.asgi import application

    shown = f"[{host}]" if ":" in host else host
    print(f"CodeBlanks is serving on http://{shown}:{port}/  (data: {config.data_dir})", flush=True)
    uvicorn.run(
        application,
        host=host,
        port=port,
        lifespan="off",  # Django's ASGI handler has no lifespan events
        # X-Forwarded-* only from the proxies an operator names; none by default, so a client
        # cannot pick its own address (and with it a fresh run rate).
        proxy_headers=bool(config.forwarded_allow_ips),
        forwarded_allow_ips=config.forwarded_allow_ips or None,
        server_header=False,
        log_level="info",
    )
