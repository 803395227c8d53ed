"""Grading real programs through the real sandbox: hidden variants, values, mistakes, tolerance,
missing inputs and the Grade's JSON."""

from __future__ import annotations

import asyncio
from pathlib import Path

from codeblanks.content.model import Limits, Mistake
from codeblanks.grading import agrade, grade
from codeblanks.grading.reference import areference, clear_cache
from codeblanks.sandbox.result import OK, Runner, RunRequest, RunResult
from codeblanks.sandbox.testing import FakeRunner

from .grading_helpers import AXIS_0, with_grading

SETUP = "import numpy as np\n\nS = np.array([[1.0, 2.0, 3.0], [2.0, 0.0, 2.0], [3.0, 1.0, 0.0]])\n"
PRINT = "print(np.round(P, 3))\n"


def test_the_solution_and_another_correct_program_pass(softmax_lesson):
    g = grade(softmax_lesson, softmax_lesson.exercise.solution)
    assert g.correct, g.feedback
    assert g.cases == ("visible", "four random rows", "wide rows")
    looped = SETUP + (
        "P = np.empty_like(S)\n"
        "for i, row in enumerate(S):\n"
        "    w = [np.exp(x - max(row)) for x in row]\n"
        "    P[i] = np.array(w) / sum(w)\n" + PRINT
    )
    g = grade(softmax_lesson, looped)
    assert g.correct, g.feedback


def test_the_starter_fails_with_a_diff(softmax_lesson):
    g = grade(softmax_lesson, softmax_lesson.exercise.starter)
    assert g.verdict == "incorrect" and g.case == "visible"
    assert g.feedback[0] == "The output differs from the expected output."
    assert g.diff[:2] == ("--- expected", "+++ your output")
    assert "-[[0.09  0.245 0.665]" in g.diff and "+[[1. 2. 3.]" in g.diff


def test_an_anticipated_mistake_gets_its_message_however_it_is_written(softmax_lesson):
    code = SETUP + "P = np.exp(S) / np.exp(S).sum(axis=0)\n" + PRINT
    g = grade(softmax_lesson, code)
    assert g.verdict == "incorrect"
    assert g.feedback[0] == AXIS_0
    assert any("which axis did softmax normalise?" in f for f in g.feedback)


def test_printing_the_expected_output_fails_on_a_hidden_case(softmax_lesson):
    expected = softmax_lesson.exercise.expected_output
    # It even computes P as asked: only its printout ignores the data.
    code = softmax_lesson.exercise.solution.replace(PRINT, f"print({expected!r}, end='')\n")
    assert code != softmax_lesson.exercise.solution
    g = grade(softmax_lesson, code)
    assert g.verdict == "incorrect" and g.case == "four random rows"
    assert g.feedback[0].startswith("Your program prints the same thing whatever the data")
    assert any("not on the hidden case “four random rows”" in f for f in g.feedback)
    assert any(line.startswith("+[[0.09 ") for line in g.diff)  # what it printed there
    assert g.stdout == expected  # the visible case is what is shown


def test_a_value_check_catches_what_the_output_hides(softmax_lesson):
    # Correct printout, but P left as something else.
    code = softmax_lesson.exercise.solution.replace(
        "print(np.round(P, 3))", "print(np.round(P, 3))\nP = P.T"
    )
    g = grade(softmax_lesson, code)
    assert g.verdict == "incorrect" and g.case == "visible"
    assert g.feedback[0].startswith("Your printed output is right, but it does not show")
    assert g.feedback[1].startswith("`P` has shape (3, 3), good; but its values differ")


def test_a_renamed_input_is_asked_back(softmax_lesson):
    code = softmax_lesson.exercise.solution.replace("S", "scores")
    g = grade(softmax_lesson, code)
    assert g.verdict == "incorrect" and g.case == "visible"
    assert g.feedback == (
        "Keep `S = …` as a top-level assignment: the grader gives this line other data to check "
        "that your program computes its result rather than knowing it. Rename your own "
        "variables instead.",
    )


def test_tolerance_follows_the_lesson(softmax_lesson):
    four = softmax_lesson.exercise.solution.replace("np.round(P, 3)", "np.round(P, 4)")
    assert grade(softmax_lesson, four).verdict == "incorrect"
    tolerant = with_grading(softmax_lesson, atol=1e-3)
    g = grade(tolerant, four)
    assert g.correct, g.feedback
    two = softmax_lesson.exercise.solution.replace("np.round(P, 3)", "np.round(P, 1)")
    g = grade(tolerant, two)
    assert g.verdict == "incorrect" and "allows a difference" in g.feedback[0]


def test_a_timeout_is_a_verdict(softmax_lesson):
    quick = with_grading(softmax_lesson, limits=Limits(wall_s=1.0, cpu_s=1.0))
    g = grade(quick, SETUP + "import time\ntime.sleep(30)\n")
    assert g.verdict == "timeout" and g.case == "visible"
    assert "ran out of time (the limit is 1 s)" in g.feedback[0]


def test_a_timeout_names_the_limit_that_stopped_it(softmax_lesson):
    """A loop that burns CPU is stopped by the CPU limit, well before the wall clock's: the
    sentence names the CPU time, not the wall limit the program never reached."""
    busy = with_grading(softmax_lesson, limits=Limits(wall_s=5.0, cpu_s=0.2))
    g = grade(busy, SETUP + "while True:\n    pass\n")
    assert g.verdict == "timeout", g
    assert "it used more than 0.2 s of CPU time, the limit" in g.feedback[0]
    assert "5 s" not in g.feedback[0]


def test_json_keeps_its_keys_and_adds_the_new_ones(softmax_lesson):
    data = grade(softmax_lesson, softmax_lesson.exercise.starter).to_json()
    assert list(data)[:7] == [
        "verdict",
        "stdout",
        "stderr",
        "expected",
        "feedback",
        "case",
        "duration_ms",
    ]
    assert {"diff", "line", "cases"} <= set(data)
    assert isinstance(data["feedback"], list) and isinstance(data["diff"], list)


def counting(real) -> FakeRunner:
    """The real sandbox, through a ``FakeRunner`` that keeps the batches asked of it (``requests``)
    and every case that ran (``results``)."""
    return FakeRunner(real.arun_cases, slots=real.slots)


def test_grading_stops_at_a_visible_case_that_fails(softmax_lesson, sandbox):
    quick = with_grading(softmax_lesson, limits=Limits(wall_s=0.5, cpu_s=0.5))
    assert grade(quick, quick.exercise.solution, sandbox).correct  # the reference is cached
    runs = counting(sandbox)
    g = grade(quick, SETUP + "import time\ntime.sleep(5)\n", runs, client="learner-1")
    assert g.verdict == "timeout" and g.case == "visible"
    assert len(runs.results) == 1 and g.cases == ("visible",)  # no variant slept as well
    assert runs.clients == ["learner-1"]
    runs = counting(sandbox)
    g = grade(quick, SETUP + "P = S[:, 12]\n", runs)
    assert g.verdict == "error" and len(runs.results) == 1
    # A program that runs on the visible case is run on every variant, all for one client.
    runs = counting(sandbox)
    g = grade(quick, quick.exercise.starter, runs, client="learner-2")
    assert len(runs.results) == 3 and g.cases == ("visible", "four random rows", "wide rows")
    assert set(runs.clients) == {"learner-2"}


def test_a_mistake_that_fails_on_the_visible_case_still_gets_its_message(softmax_lesson):
    message = "S has one column per key: index within its width."
    lesson = with_grading(
        softmax_lesson,
        mistakes=(Mistake(Path("cols.py"), SETUP + "P = S[:, 9]\n" + PRINT, message),),
    )
    # the same failure (another layout, a comment); S[:, 12] would be another index, and its
    # IndexError another message: not the same mistake
    g = grade(lesson, SETUP + "\nP = S[:,9]  # the tenth column\n" + PRINT)
    assert g.verdict == "error" and g.case == "visible" and g.cases == ("visible",)
    assert g.feedback[0] == message


def test_reference_results_are_cached_per_lesson_version(softmax_lesson, sandbox):
    clear_cache()
    runs = counting(sandbox)
    assert grade(softmax_lesson, softmax_lesson.exercise.solution, runs).correct
    # 3 learner runs + 3 solution runs + 3 runs of the mistake + the 2 variants' inputs (the
    # solution up to its last input assignment: the words of a failing hidden case).
    assert len(runs.results) == 11
    runs = counting(sandbox)
    assert not grade(softmax_lesson, softmax_lesson.exercise.starter, runs).correct
    assert len(runs.results) == 3


def test_async_and_sync_grading_from_inside_an_event_loop(softmax_lesson):
    async def main():
        a = await agrade(softmax_lesson, softmax_lesson.exercise.solution)
        b = grade(softmax_lesson, softmax_lesson.exercise.solution)  # sync call in a loop thread
        return a, b

    a, b = asyncio.run(main())
    assert a.correct and b.correct


def test_the_test_doubles_are_runners(sandbox):
    """Each double implements the one seam (type-checked where it is used: ``Runner``)."""
    doubles: list[Runner] = [sandbox, counting(sandbox), FakeRunner(RunResult(OK, "42\n"))]
    for double in doubles:
        runs = asyncio.run(double.arun_cases(RunRequest(("print(6 * 7)",))))
        assert [r.stdout for r in runs] == ["42\n"]


def test_busy_and_broken_sandboxes_are_verdicts_not_exceptions(softmax_lesson, sandbox):
    clear_cache()
    assert grade(softmax_lesson, softmax_lesson.exercise.solution, sandbox).correct
    full = FakeRunner(sandbox.arun_cases, slots=sandbox.slots, busy=1)
    g = grade(softmax_lesson, softmax_lesson.exercise.solution, full)
    assert g.verdict == "busy" and "try again" in g.feedback[0]

    def broken(request: RunRequest) -> list[RunResult]:
        raise RuntimeError("broken sandbox")

    g = grade(softmax_lesson, "print(1)", FakeRunner(broken))
    assert g.verdict == "sandbox-error"
    # Reference results are patient: a busy moment while computing them is waited out.
    clear_cache()
    patient = FakeRunner(sandbox.arun_cases, slots=sandbox.slots, busy=2)
    ref = asyncio.run(areference(softmax_lesson, patient))
    assert ref.platform_failure is None
    assert all(run.ok for run in ref.solution.values())


def test_the_verdict_is_judged_off_the_event_loop(softmax_lesson, monkeypatch):
    """Feedback costs what the learner's output costs: the event loop must not pay it."""
    import importlib
    import threading

    grade_module = importlib.import_module("codeblanks.grading.grade")

    threads = []
    real = grade_module.judge

    def observed(*args):
        threads.append(threading.get_ident())
        return real(*args)

    monkeypatch.setattr(grade_module, "judge", observed)

    async def main():
        return threading.get_ident(), await agrade(softmax_lesson, softmax_lesson.exercise.starter)

    loop_thread, g = asyncio.run(main())
    assert g.verdict == "incorrect" and g.diff  # the diff was made...
    assert threads and threads[0] != loop_thread  # ...on another thread


# ---- a grade's cases in one sandbox child ----------------------------------------------------

WIDE_ONLY = "if S.shape[1] == 5:\n    raise ValueError('only on wide rows')\n"


def test_a_failure_on_the_last_variant_only_is_found(softmax_lesson, sandbox):
    code = softmax_lesson.exercise.solution + WIDE_ONLY
    assert grade(softmax_lesson, softmax_lesson.exercise.solution, sandbox).correct  # cached
    runs = counting(sandbox)
    g = grade(softmax_lesson, code, runs)
    assert g.verdict == "error" and g.case == "wide rows"
    assert g.cases == ("visible", "four random rows", "wide rows") and len(runs.results) == 3
    assert any("ValueError: only on wide rows" in f for f in g.feedback)


def test_an_error_on_a_variant_does_not_keep_the_later_ones_from_running(softmax_lesson):
    code = softmax_lesson.exercise.solution + "if S.shape[0] == 4:\n    raise KeyError('four')\n"
    g = grade(softmax_lesson, code)
    assert g.verdict == "error" and g.case == "four random rows"
    assert g.cases == ("visible", "four random rows", "wide rows")


def test_a_runaway_on_a_variant_is_stopped_at_its_limit_and_ends_the_grade(softmax_lesson, sandbox):
    quick = with_grading(softmax_lesson, limits=Limits(wall_s=1.0, cpu_s=0.3))
    assert grade(quick, quick.exercise.solution, sandbox).correct  # the reference is cached
    runs = counting(sandbox)
    looped = quick.exercise.solution + "while S.shape[0] == 4:\n    pass\n"
    g = grade(quick, looped, runs, client="learner-3")
    assert g.verdict == "timeout" and g.case == "four random rows"
    assert g.cases == ("visible", "four random rows") and len(runs.results) == 2
    slept = quick.exercise.solution + "import time\nif S.shape[1] == 5:\n    time.sleep(30)\n"
    g = grade(quick, slept, runs)
    assert g.verdict == "timeout" and g.case == "wide rows"


def test_a_sandbox_dying_mid_grade_ends_the_grade_as_sandbox_error(softmax_lesson):
    import os
    import threading

    from codeblanks.sandbox import Sandbox
    from codeblanks.sandbox.config import SandboxConfig
    from codeblanks.sandbox.testing import PATIENCE_S, CountedCases

    quick = with_grading(softmax_lesson, limits=Limits(wall_s=600.0, cpu_s=1.0))
    box = Sandbox(config=SandboxConfig(slots=2, spares=2))
    counted = CountedCases(box)
    try:
        assert grade(quick, quick.exercise.solution, box).correct  # the reference is cached
        slow = quick.exercise.solution + "import time\nif S.shape[1] == 5:\n    time.sleep(500)\n"
        got = []
        job = threading.Thread(target=lambda: got.append(grade(quick, slow, counted)))
        job.start()
        counted.wait_for_cases(2)  # the visible case and the first variant; the last sleeps
        os.kill(box.zygote()[1], 9)  # the zygote, and every child with it
        job.join(timeout=PATIENCE_S)
        (g,) = got
        assert g.verdict == "sandbox-error" and g.case == "wide rows"
    finally:
        box.close()


def test_a_shape_error_among_thousands_of_matmul_operands_is_explained(softmax_lesson):
    """The grade asked the sandbox for every ``@`` operand of the program; past 1,024
    the sandbox's own report was refused as garbage and the learner was told their program
    wrote garbage. Only the failing line's operands are asked for."""
    many = "".join(f"a{i} = np.ones((2, 2))\n" for i in range(1100))
    chain = "t = " + " @ ".join(f"a{i}" for i in range(1100)) + "\n"
    code = SETUP + many + chain + "v = np.ones(3)\nbad = a0 @ v\n"
    g = grade(softmax_lesson, code)
    assert g.verdict == "error", g.feedback
    assert "garbage" not in g.stderr and not any("garbage" in f for f in g.feedback)
    assert any("`a0 @ v` cannot be computed" in f for f in g.feedback), g.feedback
    assert "(2, 2)" in " ".join(g.feedback) and "(3,)" in " ".join(g.feedback)


def test_patient_runs_wait_longer_for_a_core_but_never_use_more_cpu(softmax_lesson, sandbox):
    """References and proofs may wait out a loaded machine (a 24-sample lesson once ran out of
    its 2 s wall clock beside the whole suite); the CPU limit and a learner's run stay the
    lesson's own, and so do the limits a learner is told."""
    from codeblanks.grading.reference import PATIENT_WALL, limits_for

    lesson = with_grading(softmax_lesson, limits=Limits(wall_s=1.5, cpu_s=0.5))
    own = limits_for(lesson)
    clear_cache()
    seen = counting(sandbox)  # the limits of every batch: its requests'
    asyncio.run(areference(lesson, seen))
    assert seen.requests and {(r.limits.wall_s, r.limits.cpu_s) for r in seen.requests} == {
        (own.wall_s * PATIENT_WALL, own.cpu_s)
    }
    seen.requests.clear()
    g = grade(lesson, "while True:\n    pass\n", seen)
    assert [(r.limits.wall_s, r.limits.cpu_s) for r in seen.requests] == [(1.5, 0.5)]
    assert g.verdict == "timeout" and "0.5" in " ".join(g.feedback)
