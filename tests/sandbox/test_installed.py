"""A course's secrets stay out of every run however CodeBlanks is installed.

With ``pip install .`` or a wheel, ``codeblanks/courses/`` (solutions, hidden tests, mistakes,
answers) sits in site-packages next to NumPy. Here a wheel is built from this tree and installed
the ordinary way into a fresh venv, and that install's own sandbox runs a program that looks for
the course everywhere it can reach.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[2]
# The files of a lesson that a learner must never read (docs/authoring.md).
SECRET_NAMES = ("solution.py", "questions.toml", "expected.txt", "lesson.toml", "course.toml")
LESSON = Path("codeblanks/courses/attention-from-scratch/01-arrays-and-shapes")

# Walks the whole file tree the run can see and names every course file it finds.
WALK = f"""\
import os
secret = {SECRET_NAMES!r}
seen, found = 0, []
for folder, dirs, files in os.walk("/"):
    if folder in ("/proc", "/dev"):
        dirs[:] = []
        continue
    seen += len(files)
    found += [os.path.join(folder, f) for f in files if f in secret]
    kept = [f for f in files if f.startswith("course-") and f.endswith(".pickle")]
    found += [os.path.join(folder, f) for f in kept]  # the courses kept parsed (content/kept.py)
    found += [os.path.join(folder, d) for d in dirs if d in ("courses", "mistakes")]
print(seen)
for path in found:
    print(path)
"""

# The installed package's own sandbox, with limits that no machine's speed can reach.
DRIVER = """\
import json, sys
import codeblanks
from codeblanks.sandbox import RunLimits, get_sandbox
result = get_sandbox().run(open(sys.argv[1]).read(), limits=RunLimits(wall_s=120, cpu_s=60))
print(json.dumps({"package": codeblanks.__file__, **result.to_json()}))
"""


def _link_tree(source: Path, target: Path) -> None:
    """Copy by hard links where the file system allows it (NumPy is 70 MB), else by copying."""
    if source.is_dir():
        try:
            shutil.copytree(source, target, copy_function=os.link)
        except (OSError, shutil.Error):
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(source, target)
    else:
        shutil.copy2(source, target)


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> dict:
    """A fresh venv (no system site-packages) holding the wheel of this tree, installed by pip,
    with NumPy beside it in the same site-packages; the web side's other dependencies are read
    from the current venv through a .pth file (they are not what is tested, and installing them
    again would take minutes)."""
    tmp = tmp_path_factory.mktemp("installed")
    tree = tmp / "tree"
    junk = shutil.ignore_patterns("__pycache__", "*.egg-info", "data")
    shutil.copytree(PROJECT / "src", tree / "src", ignore=junk)
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy2(PROJECT / name, tree / name)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run([*pip, "wheel", "--no-deps", "-w", tmp / "dist", tree], check=True, timeout=600)
    (wheel,) = (tmp / "dist").glob("codeblanks-*.whl")
    venv = tmp / "venv"
    subprocess.run([sys._base_executable, "-m", "venv", "--without-pip", venv], check=True,
                   timeout=300)  # fmt: skip
    python = venv / "bin" / "python"
    subprocess.run([*pip, "--python", python, "install", "--no-deps", "--no-index", wheel],
                   check=True, timeout=600)  # fmt: skip
    site = Path(
        subprocess.run(
            [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            check=True, capture_output=True, text=True, timeout=60,
        ).stdout.strip()
    )  # fmt: skip
    ours = Path(sysconfig.get_paths()["purelib"])
    for entry in ours.iterdir():
        if entry.name == "numpy.libs" or entry.name.split("-")[0] == "numpy":
            _link_tree(entry, site / entry.name)
    (site / "zz-test-dependencies.pth").write_text(f"{ours}\n")
    assert (site / LESSON / "solution.py").is_file(), "the wheel did not install the course"
    return {"venv": venv, "site": site, "tmp": tmp}


def _env() -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CODEBLANKS_")}
    env.pop("PYTHONPATH", None)
    env["CODEBLANKS_WARM"] = "0"  # the command runs cold: no warm server outlives the test
    return env


def test_a_run_finds_no_course_file_anywhere_in_a_wheel_install(installed):
    # The installed package keeps its courses parsed (content/kept.py): made first, so that the
    # walk would find them too if the run could see the package's folder.
    subprocess.run(
        [installed["venv"] / "bin" / "python", "-c",
         "from codeblanks.content import catalog; catalog()"],
        check=True, capture_output=True, timeout=300, env=_env(), cwd=installed["tmp"],
    )  # fmt: skip
    assert list((installed["site"] / "codeblanks" / "__pycache__").glob("course-*.pickle"))
    program = installed["tmp"] / "walk.py"
    program.write_text(WALK)
    driver = installed["tmp"] / "driver.py"
    driver.write_text(DRIVER)
    out = subprocess.run(
        [installed["venv"] / "bin" / "python", driver, program],
        capture_output=True, text=True, timeout=300, env=_env(), cwd=installed["tmp"],
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout.splitlines()[-1])
    # The sandbox under test is the wheel's, in the fresh venv's site-packages.
    assert Path(result["package"]).resolve().is_relative_to(installed["site"].resolve())
    assert result["verdict"] == "ok", result
    seen, *found = result["stdout"].splitlines()
    assert int(seen) > 1000, result  # it did walk the run's world: /usr, the interpreter...
    assert found == [], "a run can see the course:\n" + "\n".join(found[:20])


def test_codeblanks_run_cannot_open_the_installed_lessons(installed):
    site = installed["site"]
    targets = [site / LESSON / name for name in ("solution.py", "questions.toml", "expected.txt")]
    targets += sorted((site / LESSON / "mistakes").glob("*.py"))
    assert all(t.is_file() for t in targets)
    inside = [f"/opt/site-packages/{LESSON}/solution.py", f"/opt/site-packages/0/{LESSON}/task.md"]
    program = installed["tmp"] / "peek.py"
    program.write_text(
        "import os\n"
        f"for path in {[str(t) for t in targets] + inside!r}:\n"
        "    try:\n"
        "        with open(path) as f:\n"
        "            print('READ', path, len(f.read()))\n"
        "    except OSError as e:\n"
        "        print('refused', type(e).__name__)\n"
        "for folder in sorted(os.listdir('/opt/site-packages')):\n"
        "    print('library', folder)\n"
    )
    out = subprocess.run(
        [installed["venv"] / "bin" / "codeblanks", "run", program],
        capture_output=True, text=True, timeout=300, env=_env(), cwd=installed["tmp"],
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert [line for line in lines if line.startswith("READ")] == []
    assert lines.count("refused FileNotFoundError") == len(targets) + len(inside)
    libraries = [line.split()[1] for line in lines if line.startswith("library")]
    # Only what the zygote imports (NumPy) is there: not CodeBlanks, not the web side's packages.
    assert libraries and all(name.split("-")[0].startswith("numpy") for name in libraries), lines
