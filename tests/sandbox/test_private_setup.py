"""A private setup (``wire.PRIVATE_END``): the lesson's solution runs before a blank's answer,
which must find none of its text (an answer object once read the solution back through its
program's own text). The probe below looks everywhere a Python program can: linecache, every
frame's locals and code constants, every object the collector knows, the files the traceback
module would read."""

from __future__ import annotations

from codeblanks.sandbox import RunLimits
from codeblanks.sandbox.inside.wire import PRIVATE_END

FAST = RunLimits(wall_s=10.0, cpu_s=10.0)
# Built at run time, so that the probe's own text does not hold it.
MARK = "zq" + "private" + "setup"
SETUP = (
    f"# the solution: {MARK} in a comment\n"
    "import numpy as np\n"
    f"hidden = '{MARK} in a constant'\n"
    "kept = np.arange(3) * 2\n"
    "del hidden\n"
)
PROBE = """\
import gc, linecache, sys, traceback
mark = "".join(["zq", "private", "setup"])  # not folded into a constant
seen, places = set(), []

def holds(value, depth=0):
    if value is mark or id(value) in seen or depth > 4:
        return False
    seen.add(id(value))
    if isinstance(value, str):
        return mark in value
    if isinstance(value, (bytes, bytearray)):
        return mark.encode() in value
    if isinstance(value, dict):
        return any(holds(k, depth + 1) or holds(v, depth + 1) for k, v in list(value.items()))
    if isinstance(value, (list, tuple, set, frozenset)):
        return any(holds(v, depth + 1) for v in list(value))
    if type(value).__name__ == "code":
        return holds(value.co_consts, depth + 1) or holds(value.co_code, depth + 1)
    return False

for name, entry in list(linecache.cache.items()):
    if holds(entry):
        places.append("linecache " + name)
frame = sys._getframe()
while frame is not None:
    seen.clear()
    if holds(dict(frame.f_locals)) or holds(frame.f_code):
        places.append("frame " + frame.f_code.co_name)
    frame = frame.f_back
for obj in gc.get_objects():
    seen.clear()
    if obj is not places and holds(obj):
        places.append("object " + type(obj).__name__)
places += ["traceback"] if mark in "".join(traceback.format_stack()) else []
print(sorted(set(places)))
print(kept.tolist())
"""


def test_a_private_setup_runs_but_leaves_no_text_behind(sandbox):
    r = sandbox.run(SETUP + PRIVATE_END + PROBE, limits=FAST, filename="blank.py")
    assert r.verdict == "ok", r.stderr
    assert r.stdout == "[]\n[0, 2, 4]\n", r.stdout


def test_the_probe_finds_the_text_of_a_setup_run_in_the_open(sandbox):
    """The same probe on the same program without the private end finds the text: the test
    above is not vacuous."""
    r = sandbox.run(SETUP + PROBE, limits=FAST, filename="blank.py")
    assert r.verdict == "ok", r.stderr
    assert "linecache blank.py" in r.stdout and "frame _run_case" in r.stdout, r.stdout


def test_an_error_in_the_program_after_a_private_setup_points_at_its_own_lines(sandbox):
    r = sandbox.run(SETUP + PRIVATE_END + "x = 1\nkept @ np.ones(4)\n", limits=FAST)
    assert r.verdict == "error"
    assert 'File "main.py", line 2' in r.stderr and "kept @ np.ones(4)" in r.stderr
    assert MARK not in r.stderr
