"""The typed core stays strict: content, the sandbox, grading and the learning core are checked
by ``make lint``'s mypy with every flag of ``mypy --strict``. That run is the check; this test
holds its configuration, so that no flag is dropped from pyproject.toml unseen (a second mypy run
here cost 8.5 s of CPU per suite and found only what lint finds)."""

from __future__ import annotations

import tomllib
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"
STRICT_PACKAGES = {
    "codeblanks.content.*",
    "codeblanks.sandbox.*",
    "codeblanks.grading.*",
    "codeblanks.learning.*",
}
# What ``mypy --strict`` turns on (``mypy --help``), split as mypy's configuration allows:
# some flags hold per module, the others only for the whole run.
PER_MODULE = {
    "disallow_any_generics",
    "disallow_subclassing_any",
    "disallow_untyped_calls",
    "disallow_untyped_defs",
    "disallow_incomplete_defs",
    "check_untyped_defs",
    "disallow_untyped_decorators",
    "warn_return_any",
    "no_implicit_reexport",
    "strict_equality",
    "extra_checks",
}
WHOLE_RUN = {"warn_redundant_casts", "warn_unused_ignores"}


def _mypy() -> dict:
    return tomllib.loads(PYPROJECT.read_text())["tool"]["mypy"]


def test_the_typed_core_has_every_per_module_flag_of_strict():
    mypy = _mypy()
    strict = [o for o in mypy["overrides"] if set(o["module"]) >= STRICT_PACKAGES]
    assert strict, f"no [[tool.mypy.overrides]] names all of {sorted(STRICT_PACKAGES)}"
    missing = {flag for flag in PER_MODULE if strict[0].get(flag) is not True}
    assert not missing, f"pyproject.toml's strict override lost {sorted(missing)}"


def test_the_whole_run_has_the_rest_of_strict_and_checks_the_package():
    mypy = _mypy()
    assert {flag for flag in WHOLE_RUN if mypy.get(flag) is not True} == set()
    assert mypy["packages"] == ["codeblanks"]
