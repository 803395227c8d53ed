"""What of the Python installation a run sees (docs/sandbox.md, "What a run can read").

The sandbox's root holds the interpreter and its standard library, plus the few libraries the
zygote imports (NumPy). Never a whole site-packages: installed from a wheel, CodeBlanks itself
sits there with its courses (solutions, hidden tests, mistakes, answers), and so do the web
side's packages. So:

* ``libraries()`` - the top-level entries (``numpy/``, ``numpy.libs/``, its ``.dist-info``) of the
  distributions that provide the configured modules and of what they require, each bound alone
  into ``/opt/site-packages``;
* ``hidden()`` - every folder Python may install packages into (site-packages, dist-packages,
  ``sys.path``, CodeBlanks's own folder) that lies inside a tree the root binds whole (``/usr``,
  the interpreter's prefix): the launcher covers each with an empty read-only tmpfs.
"""

from __future__ import annotations

import glob
import importlib.metadata as metadata
import importlib.util
import logging
import os
import re
import site
import sys
import sysconfig
from pathlib import Path

import codeblanks

log = logging.getLogger("codeblanks.sandbox")

# Never bound into the sandbox, whatever the configuration names: the package of the courses.
OURS = "codeblanks"
INSIDE_MODULES = {p.stem for p in (Path(__file__).parent / "inside").glob("*.py")}
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _requirements(dist: metadata.Distribution) -> list[str]:
    """Names of what ``dist`` requires, leaving out the optional extras."""
    names = []
    for requirement in dist.requires or ():
        spec, _, marker = requirement.partition(";")
        if "extra" in marker:
            continue
        match = _NAME.match(spec.strip())
        if match:
            names.append(match.group(0))
    return names


def _distributions(modules: tuple[str, ...]) -> list[metadata.Distribution]:
    by_module = metadata.packages_distributions()
    wanted = [name for m in modules for name in by_module.get(m.split(".")[0], ())]
    found: dict[str, metadata.Distribution] = {}
    while wanted:
        name = _canonical(wanted.pop())
        if name in found or name == OURS:
            continue
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue  # an optional dependency that is not installed
        found[name] = dist
        wanted.extend(_requirements(dist))
    return list(found.values())


def libraries(modules: tuple[str, ...]) -> list[str]:
    """Host paths of the site-packages entries that importing ``modules`` needs, at most one per
    name (the first on ``sys.path`` wins, as it does for imports)."""
    entries: dict[str, str] = {}
    for dist in _distributions(modules):
        base = Path(str(dist.locate_file("")))
        for top in sorted({f.parts[0] for f in dist.files or () if f.parts}):
            # Not the scripts in bin/ (..), nor a __pycache__ or .pth shared by the whole folder.
            if top in ("..", "__pycache__") or top.endswith(".pth") or top.startswith(OURS):
                continue
            if (base / top).exists():
                entries.setdefault(top, str(base / top))
    for module in modules:
        top = module.split(".")[0]
        if top in sys.stdlib_module_names or top in INSIDE_MODULES or top == OURS:
            continue
        if any(name.split(".")[0] == top for name in entries):
            continue
        # A module that no distribution claims (e.g. a folder on PYTHONPATH): its own file or
        # package folder.
        spec = importlib.util.find_spec(top)
        if spec is None or not spec.origin or spec.origin in ("built-in", "frozen"):
            log.warning("sandbox: module %s is not installed; the zygote will say so", top)
            continue
        locations = list(spec.submodule_search_locations or ())
        path = locations[0] if locations else spec.origin
        entries.setdefault(os.path.basename(path), path)
    return list(entries.values())


def _within(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def hidden() -> list[str]:
    """Host folders (real paths) where Python packages may be installed: the launcher covers
    each one that lies inside a tree the root binds whole with an empty folder. Never one that
    holds the interpreter or its standard library."""
    prefixes = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix, "/usr",
                "/usr/local"}  # fmt: skip
    candidates = set(sys.path)
    candidates.update(site.getsitepackages(list(prefixes)))
    candidates.add(site.getusersitepackages())
    for base in prefixes:
        paths = sysconfig.get_paths(vars={"base": base, "platbase": base})
        candidates.update((paths["purelib"], paths["platlib"]))
        for lib in ("lib", "lib64"):
            # site-packages, and Debian's dist-packages (python3/ is shared by its versions)
            candidates.update(glob.glob(f"{base}/{lib}/python3*/*-packages"))
    candidates.add(os.path.dirname(codeblanks.__file__))
    stdlib = [
        os.path.realpath(p)
        for p in (sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["platstdlib"])
    ]
    needed = [*stdlib, os.path.realpath(sys._base_executable)]  # type: ignore[attr-defined]
    result = set()
    for candidate in candidates:
        if not candidate or not os.path.isabs(candidate) or not os.path.isdir(candidate):
            continue
        path = os.path.realpath(candidate)
        if any(_within(n, path) for n in needed):
            continue  # e.g. /usr/lib/python3.11 itself, or the folder of the interpreter
        in_stdlib = any(_within(path, s) for s in stdlib)
        if in_stdlib and not path.endswith("-packages"):
            continue  # lib-dynload and the like: part of the standard library
        result.add(path)
    # An outer folder covers the inner ones.
    return sorted(p for p in result if not any(q != p and _within(p, q) for q in result))
