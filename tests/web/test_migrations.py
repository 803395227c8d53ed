import pytest
from django.core.management import call_command


@pytest.mark.django_db
def test_the_committed_migrations_match_the_models():
    call_command("makemigrations", "codeblanks", "--check", "--dry-run", verbosity=0)
