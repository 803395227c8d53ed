"""What the sandbox promises to code that behaves: verdicts, tracebacks, values, concurrency."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
import threading

import numpy as np
import pytest

from codeblanks.sandbox import RunLimits, Sandbox, SandboxUnavailable
from codeblanks.sandbox.config import SandboxConfig, unsafe_no_sandbox
from codeblanks.sandbox.preflight import isolation_problem
from codeblanks.sandbox.result import RunRequest
from codeblanks.sandbox.testing import PATIENCE_S, CountedCases, wait_until

QKV = """\
import numpy as np
X = np.array([[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 0, 0]], dtype=float)
W_q, W_k, W_v = np.eye(4)[:, :2], np.eye(4)[:, 1:3], np.eye(4)
Q, K, V = X @ W_q, X @ W_k, X @ W_v
S = Q @ K.T
A = np.exp(S - S.max(axis=1, keepdims=True))
A = A / A.sum(axis=1, keepdims=True)
Y = A @ V
print(Q.shape, K.shape, V.shape, A.shape)
print(np.round(A[0], 3))
"""


def test_ok_run_returns_stdout_and_exit_code(sandbox):
    r = sandbox.run(QKV)
    assert r.verdict == "ok" and r.exit_code == 0 and r.ok
    assert r.stdout == "(3, 2) (3, 2) (3, 4) (3, 3)\n[0.155 0.422 0.422]\n"
    assert r.stderr == "" and r.duration_ms > 0


def test_exception_is_an_error_with_the_learners_file_and_line(sandbox):
    code = (
        "import numpy as np\n\n"
        "def attend(x):\n    return x @ np.ones((3, 3))\n\n"
        "attend(np.ones((2, 2)))\n"
    )
    r = sandbox.run(code, filename="model.py")
    assert r.verdict == "error" and r.exit_code == 1
    assert 'File "model.py", line 6, in <module>' in r.stderr
    assert 'File "model.py", line 4, in attend' in r.stderr
    assert "return x @ np.ones((3, 3))" in r.stderr  # the learner's source line is shown
    assert "ValueError: matmul" in r.stderr
    # platform frames are hidden
    for platform in ("runner.py", "zygote.py", "/opt/codeblanks", "exec("):
        assert platform not in r.stderr


def test_syntax_error_points_at_the_learners_line(sandbox):
    r = sandbox.run("x = 1\ny = (2\n", filename="model.py")
    assert r.verdict == "error"
    assert 'File "model.py", line 2' in r.stderr and "SyntaxError" in r.stderr
    assert "runner.py" not in r.stderr


def test_sys_exit_codes(sandbox):
    assert sandbox.run("import sys\nsys.exit(0)").verdict == "ok"
    r = sandbox.run("import sys\nsys.exit(3)")
    assert (r.verdict, r.exit_code) == ("error", 3)
    r = sandbox.run("raise SystemExit('bye')")
    assert (r.verdict, r.stderr) == ("error", "bye\n")


def test_capture_sends_numbers_as_arrays_and_the_rest_as_json(sandbox):
    code = QKV + "n = 3\nflag = True\nname = 'qkv'\nrows = [1, 2]\nobj = object\n"
    r = sandbox.run(code, capture=("A", "Y", "n", "flag", "name", "rows", "obj", "missing"))
    assert r.verdict == "ok"
    A = r.values["A"]
    assert isinstance(A, np.ndarray) and A.shape == (3, 3)
    np.testing.assert_allclose(A.sum(axis=1), 1.0)
    assert r.values["Y"].shape == (3, 4)
    assert r.values["n"] == 3 and r.values["n"].dtype.kind == "i"
    assert r.values["flag"].dtype == bool and bool(r.values["flag"])
    assert r.values["name"] == '"qkv"'
    assert r.values["rows"] == "[1,2]"
    assert json.loads(r.values["obj"]) == {"$": "object", "t": "type", "r": "<class 'object'>"}
    assert "missing" not in r.values


def test_capture_of_an_object_array_is_json_never_a_pickle(sandbox):
    r = sandbox.run("import numpy as np\nA = np.array([object(), 1], dtype=object)\n",
                    capture=("A",))  # fmt: skip
    assert r.verdict == "ok" and json.loads(r.values["A"])["$"] == "object"


# Arrays of every kind of number the child writes as .npy itself (runner._npy), each made as the
# program makes it: orders, strides, no dimension or an empty one, both byte orders, NumPy and
# Python scalars.
ARRAYS = {
    "c_order": "np.arange(12.0).reshape(3, 4)",
    "f_order": "np.ones((2, 3, 4), dtype=np.float32, order='F') * np.arange(4)",
    "strided": "np.arange(20)[::3]",
    "no_dimension": "np.float64(2.5)",
    "empty": "np.zeros((0, 3))",
    "booleans": "np.array([True, False])",
    "int8": "np.arange(-3, 2, dtype=np.int8)",
    "uint16": "np.arange(6, dtype=np.uint16).reshape(2, 3)",
    "float16": "np.arange(4, dtype=np.float16) / 3",
    "complex": "np.arange(3) * (1 + 2j)",
    "longdouble": "np.arange(3, dtype=np.longdouble) / 7",
    "big_endian": "np.arange(4, dtype='>i4')",
    "python_int": "7",
    "python_complex": "1 - 2j",
}


def test_every_kind_of_number_array_arrives_with_its_dtype_shape_and_values(sandbox):
    code = "import numpy as np\n" + "".join(f"{k} = {v}\n" for k, v in ARRAYS.items())
    code += "huge = np.zeros(1 << 20)\n"  # 8 MiB: past the budget of every value together
    r = sandbox.run(code, capture=(*ARRAYS, "huge"))
    assert r.verdict == "ok", r
    assert "huge" not in r.values
    for name, expression in ARRAYS.items():
        expected, got = np.asarray(eval(expression)), r.values[name]  # noqa: S307 (ours)
        assert isinstance(got, np.ndarray), (name, got)
        assert (got.dtype, got.shape) == (expected.dtype, expected.shape), name
        assert np.array_equal(got, expected), name


def test_a_long_value_is_captured_whole_and_one_past_the_budget_not_at_all(sandbox):
    code = "text = 'ab' * 100_000\nrows = list(range(100_000))\nhuge = list(range(2_100_000))\n"
    r = sandbox.run(code, capture=("text", "rows", "huge"))
    assert r.verdict == "ok"
    assert json.loads(r.values["text"]) == "ab" * 100_000
    assert json.loads(r.values["rows"]) == list(range(100_000))
    assert "huge" not in r.values  # more values than lessontest writes: too large to hand over


def test_a_value_whose_writing_raises_is_captured_as_an_object(sandbox):
    code = (
        "class Odd:\n    @property\n    def __dict__(self):\n        raise KeyError('x')\n"
        "o = Odd()\n"
    )
    r = sandbox.run(code, capture=("o",))
    assert r.verdict == "ok"
    found = json.loads(r.values["o"])
    assert (found["$"], found["t"], found["why"]) == ("object", "Odd", "writing it raised KeyError")


def test_stdin_is_empty(sandbox):
    r = sandbox.run("import sys\nprint(repr(sys.stdin.read()))\ninput()")
    assert r.verdict == "error" and r.stdout == "''\n" and "EOFError" in r.stderr


def test_random_state_differs_between_runs(sandbox):
    """Every generator a program may use starts from its own state in each run: Python's
    ``random``, NumPy's global one (uniform and Gaussian draws) and a fresh ``default_rng``."""
    code = (
        "import random, numpy as np\n"
        "print(random.random())\nprint(np.random.rand())\nprint(np.random.normal())\n"
        "print(np.random.default_rng().random())\nprint(np.random.randint(0, 2**31, 4))"
    )
    runs = [sandbox.run(code) for _ in range(4)]
    assert all(r.ok for r in runs), runs
    columns = zip(*(r.stdout.splitlines() for r in runs), strict=True)
    for draws in columns:
        assert len(set(draws)) == 4, draws


# A batch of two in one child: once the first case has reported, the long one is under way
# (a slot held is not enough: the run may not have reached its child yet). A kill ends it.
UNDER_WAY = ["print(0)", "import time\ntime.sleep(600)\nprint('woke')"]
PATIENT = RunLimits(wall_s=900, cpu_s=2)


def start_long_run(counted: CountedCases) -> tuple[threading.Thread, list]:
    """A run that sleeps in a child until the zygote is killed, started and under way."""
    got: list = []
    long = threading.Thread(
        target=lambda: got.extend(
            counted.run_cases(UNDER_WAY, limits=PATIENT, stop=lambda *_: False)
        )
    )
    long.start()
    counted.wait_for_cases(1)
    return long, got


def test_runs_execute_concurrently_across_slots():
    box = Sandbox(config=SandboxConfig(slots=2, spares=2))
    try:
        long, first = start_long_run(CountedCases(box))
        # Two slots: a second run is done while the first still runs, not after it.
        assert box.run("print('done')").stdout == "done\n"
        assert long.is_alive() and not first
        os.kill(box.zygote()[1], 9)
        long.join(PATIENCE_S)
        assert [r.verdict for r in first] == ["ok", "sandbox-error"]
    finally:
        box.close()


def test_arun_does_not_block_the_event_loop():
    box = Sandbox(config=SandboxConfig(slots=1, spares=1))
    counted = CountedCases(box)

    async def main():
        request = RunRequest(tuple(UNDER_WAY), limits=PATIENT, stop=lambda *_: False)
        task = asyncio.create_task(counted.arun_cases(request))
        # The loop goes on turning while the run is under way: a blocking arun would only let
        # this loop look again once the run had ended.
        while counted.reported == 0:
            await asyncio.sleep(0.01)
        pending = not task.done()
        os.kill(box.zygote()[1], 9)
        return pending, await task

    try:
        pending, results = asyncio.run(main())
        assert pending and [r.verdict for r in results] == ["ok", "sandbox-error"]
    finally:
        box.close()


def test_busy_when_the_queue_is_full():
    box = Sandbox(config=SandboxConfig(slots=1, queue=0, spares=1))
    try:
        slow, _ = start_long_run(CountedCases(box))
        r = box.run("print(1)")
        assert r.verdict == "busy" and "busy" in r.stderr.lower()
        os.kill(box.zygote()[1], 9)  # the slow run ends, and with it the wait
        slow.join(PATIENCE_S)
        assert box.run("print(1)").stdout == "1\n"
    finally:
        box.close()


def test_zygote_killed_in_flight_runs_get_sandbox_error_then_it_restarts():
    box = Sandbox(config=SandboxConfig(slots=2, queue=4, spares=2))
    counted = CountedCases(box)
    try:
        assert box.run("print(1)").verdict == "ok"
        results = []
        codes = ["print(0)", "while True: pass"]
        t = threading.Thread(
            target=lambda: results.extend(
                counted.run_cases(codes, limits=RunLimits(wall_s=600, cpu_s=300))
            )
        )
        t.start()
        counted.wait_for_cases(1)  # the loop is under way in the same child
        os.kill(box.zygote()[1], 9)
        t.join(timeout=PATIENCE_S)
        assert not t.is_alive()
        assert [r.verdict for r in results] == ["ok", "sandbox-error"]
        assert box.zygote(after=1)[0] == 2
        r = box.run("print('back')")
        assert r.stdout == "back\n"
    finally:
        box.close()


def test_closed_sandbox_answers_sandbox_error():
    box = Sandbox(config=SandboxConfig(slots=1, spares=1))
    box.close()
    assert box.run("print(1)").verdict == "sandbox-error"


def test_non_root_gets_a_plain_explanation(monkeypatch):
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    problem = isolation_problem()
    assert problem and "root" in problem and "CODEBLANKS_UNSAFE_NO_SANDBOX" in problem
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    try:
        Sandbox(config=SandboxConfig(slots=1))
    except SandboxUnavailable as e:
        assert "docs/sandbox.md" in str(e)
    else:
        raise AssertionError("a non-root start must refuse")


def test_unsafe_mode_runs_without_isolation_and_says_so_loudly(capsys):
    box = Sandbox(config=SandboxConfig(slots=1, spares=1, unsafe=True))
    try:
        assert "WITHOUT ISOLATION" in capsys.readouterr().err
        r = box.run("import os\nopen('x.txt', 'w').write('1')\nprint(os.getcwd())")
        assert r.verdict == "ok" and "codeblanks-run-" in r.stdout
    finally:
        box.close()
    folder = r.stdout.strip()
    wait_until(lambda: not os.path.exists(folder), "its directory went with it")


def test_settings_come_from_the_environment(monkeypatch):
    monkeypatch.setenv("CODEBLANKS_SANDBOX_SLOTS", "3")
    monkeypatch.setenv("CODEBLANKS_SANDBOX_QUEUE", "0")
    monkeypatch.setenv("CODEBLANKS_SANDBOX_MODULES", "numpy, json")
    monkeypatch.delenv("CODEBLANKS_SANDBOX_SPARES", raising=False)
    monkeypatch.delenv("CODEBLANKS_UNSAFE_NO_SANDBOX", raising=False)
    c = SandboxConfig.from_env()
    assert (c.slots, c.queue_size, c.spare_count, c.modules, c.unsafe) == (
        3, 0, 2 * (os.cpu_count() or 1) + 4, ("numpy", "json"), False
    )  # fmt: skip
    monkeypatch.setenv("CODEBLANKS_SANDBOX_SLOTS", "many")
    try:
        SandboxConfig.from_env()
    except ValueError as e:
        assert "CODEBLANKS_SANDBOX_SLOTS" in str(e)
    else:
        raise AssertionError("a bad setting must be reported")


@pytest.mark.parametrize(("value", "off"), [("1", True), ("0", False), ("yes", False), ("", False)])
def test_isolation_is_off_only_for_exactly_1(monkeypatch, value, off):
    """One reader for the sandbox and the command line: only ``1`` turns isolation off."""
    monkeypatch.setenv("CODEBLANKS_UNSAFE_NO_SANDBOX", value)
    assert unsafe_no_sandbox() is off and SandboxConfig.from_env().unsafe is off


def test_preloaded_modules_are_configurable(sandbox):
    probe = "import sys\nprint('fractions' in sys.modules, 'numpy' in sys.modules)"
    assert sandbox.run(probe).stdout == "False True\n"
    box = Sandbox(config=SandboxConfig(slots=1, spares=1, modules=("numpy", "fractions")))
    try:
        assert box.run(probe).stdout == "True True\n"
    finally:
        box.close()


def test_a_spare_that_died_while_waiting_is_replaced_silently():
    box = Sandbox(config=SandboxConfig(slots=1, spares=2))
    try:
        assert box.run("print(1)").verdict == "ok"
        wait_until(lambda: box.spares_ready() == 2, "the pool is full again")
        zygote = box.zygote()[1]
        with open(f"/proc/{zygote}/task/{zygote}/children") as f:
            spares = [int(pid) for pid in f.read().split()]
        for pid in spares:
            os.kill(pid, 9)  # as if the kernel had killed them
        # Dead, not dying: a spare killed at the very moment it is handed a program is that
        # run's SIGKILL (nothing tells the two apart), which is not what this test is about.
        wait_until(lambda: all(_dead(pid) for pid in spares), "the spares are dead")
        r = box.run("print('still fine')")
        assert (r.verdict, r.stdout) == ("ok", "still fine\n")
    finally:
        box.close()


def _dead(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] in "ZX"
    except (FileNotFoundError, ProcessLookupError):  # gone, before the open or during the read
        return True


def test_without_the_capability_to_isolate_start_up_says_why():
    """Root without CAP_SYS_ADMIN (as in an unprivileged container): a plain refusal."""
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("util-linux setpriv is not installed")
    probe = (
        "from codeblanks.sandbox import Sandbox, SandboxUnavailable\n"
        "try:\n    Sandbox()\nexcept SandboxUnavailable as e:\n    print('REFUSED', e)\n"
    )
    out = subprocess.run(
        [setpriv, "--bounding-set", "-sys_admin", "--inh-caps", "-sys_admin",
         sys.executable, "-c", probe],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert out.stdout.startswith("REFUSED"), out
    assert "cannot create Linux namespaces" in out.stdout and "docs/sandbox.md" in out.stdout


def test_non_daemon_threads_finish_before_the_run_ends(sandbox):
    code = (
        "import threading, time\n"
        "def late():\n    time.sleep(0.2)\n    print('late')\n"
        "threading.Thread(target=late).start()\nprint('main done')\n"
    )
    r = sandbox.run(code)
    assert (r.verdict, r.stdout) == ("ok", "main done\nlate\n")
    daemon = code.replace("target=late)", "target=late, daemon=True)")
    assert sandbox.run(daemon).stdout == "main done\n"  # daemon threads do not hold it up


def test_slots_argument_keeps_the_rest_of_the_configuration():
    """``Sandbox(slots=N, config=...)`` changes the slots only: every other setting stays."""
    config = SandboxConfig(slots=2, queue=3, spares=1, disk_kib=4096)
    box = Sandbox(slots=1, config=config)
    try:
        assert box.config == SandboxConfig(slots=1, queue=3, spares=1, disk_kib=4096)
        assert box.run("print(1)").stdout == "1\n"
    finally:
        box.close()
