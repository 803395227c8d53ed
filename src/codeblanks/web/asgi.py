"""The ASGI application (``codeblanks serve`` runs it under uvicorn)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "codeblanks.web.settings")

application = get_asgi_application()
