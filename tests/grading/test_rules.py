"""Task rules (``[[grading.rules]]``) through the real sandbox: what the learner's own lines use,
and how much work their program does, with the rule quoted in the feedback."""

from __future__ import annotations

import pytest

from codeblanks.content import catalog
from codeblanks.content.model import Rule
from codeblanks.grading import grade
from codeblanks.grading.reading import read
from codeblanks.grading.rules import own_uses
from codeblanks.i18n import language
from codeblanks.sandbox.inside.wire import PRIVATE_END

from .grading_helpers import with_grading

EINSUM_RULE = "Without a loop over the sentences: use @ for S and np.einsum for Y."
CACHE_RULE = "Nothing else may be recomputed for the old tokens."


def _lesson(lesson_id: str):
    lesson = catalog().lesson(lesson_id)
    if lesson is None:
        pytest.fail(f"the built-in lesson {lesson_id} does not load")
    return lesson


def _swap(code: str, old: str, new: str) -> str:
    assert old in code, old
    return code.replace(old, new)


def test_a_loop_is_refused_in_einsum_with_the_rule_quoted(sandbox):
    lesson = _lesson("batches-and-einsum")
    solution = lesson.exercise.solution
    assert grade(lesson, solution, sandbox).correct
    einsum = 'Y = np.einsum("bnm,bmd->bnd", W, X)'
    looped = _swap(solution, einsum, "Y = np.stack([W[i] @ X[i] for i in range(len(X))])")
    g = grade(lesson, looped, sandbox)
    line = next(i for i, text in enumerate(looped.splitlines(), 1) if "np.stack" in text)
    assert not g.correct and g.case == "visible" and g.line == line
    assert g.feedback == (
        f"The task says: “{EINSUM_RULE}” Your program has a comprehension (a loop inside "
        f"brackets) on line {line}.",
    )
    # a `for` statement, and a right result without np.einsum, are refused too
    statement = _swap(
        solution,
        einsum,
        "Y = np.zeros((X.shape[0], W.shape[1], X.shape[2]))\n"
        "for i in range(X.shape[0]):\n"
        "    Y[i] = W[i] @ X[i]",
    )
    assert "a `for` loop on line" in grade(lesson, statement, sandbox).feedback[0]
    batched = _swap(solution, einsum, "Y = W @ X")
    assert grade(lesson, batched, sandbox).feedback == (
        f"The task says: “{EINSUM_RULE}” Your program does not use `np.einsum`.",
    )


def test_the_rule_is_quoted_in_the_learners_language(sandbox):
    lesson = _lesson("batches-and-einsum").in_language("tr")
    looped = _swap(
        lesson.exercise.solution,
        'Y = np.einsum("bnm,bmd->bnd", W, X)',
        "Y = np.stack([W[i] @ X[i] for i in range(len(X))])",
    )
    with language("tr"):
        (said,) = grade(lesson, looped, sandbox).feedback
    assert said.startswith(
        "Görev şunu söylüyor: “Cümleler üzerinde döngü kullanmadan: S için @, Y için np.einsum "
        "kullan.” Programının "
    )
    assert "satırında bir üreteç ifadesi (parantez içinde bir döngü) var." in said


def test_the_starters_own_loop_is_not_the_learners():
    # kv-cache's starter has the loop over the tokens: a rule forbidding loops reads only what
    # the learner wrote.
    lesson = _lesson("kv-cache")
    ex = lesson.exercise
    assert own_uses(ex.solution, ex.starter, "for") == []
    extra = ex.solution + "\nfor row in Y:\n    pass\n"
    assert own_uses(extra, ex.starter, "for") == [len(ex.solution.splitlines()) + 2]


def test_a_name_is_found_at_the_end_of_any_chain_and_a_long_chain_is_none():
    # A chain longer than any name a rule gives is not walked from each of its nodes (that was
    # quadratic: 189 ms for 2,000 attributes); its first parts still count as the name they are.
    assert own_uses("y = np.einsum('i->', x)\n", "", "np.einsum") == [1]
    assert own_uses("y = numpy.einsum('i->', x)\n", "", "np.einsum") == [1]
    chain = "y = np.einsum" + ".b" * 2000 + "\n"
    assert own_uses(chain, "", "np.einsum") == [1]  # the chain's own `np.einsum` node
    assert own_uses("y = a" + ".b" * 2000 + "\n", "", "np.einsum") == []


def test_a_kv_cache_that_recomputes_full_attention_is_refused(sandbox):
    lesson = _lesson("kv-cache")
    solution = lesson.exercise.solution
    assert grade(lesson, solution, sandbox).correct
    # right on every case, but every step projects every token again
    recompute = _swap(
        solution,
        "y = softmax(q @ K_cache.T / np.sqrt(d_k), axis=1) @ V_cache",
        "y = causal_attention(X[: t + 1], W_q, W_k, W_v)[-1:]",
    )
    g = grade(lesson, recompute, sandbox)
    assert not g.correct and g.case == "visible"
    (said,) = g.feedback
    # 4 tokens: each step's query (4 in all), then 1 + 2 + 3 + 4 rows again and 4 in the given
    # check, where 4 + 4 do
    assert said == (
        f"The task says: “{CACHE_RULE}” Your program multiplies `W_q` with 18 rows on the "
        "visible data, where 8 are enough: it computes something again."
    )
    keys_again = _swap(
        solution,
        "K_cache = np.vstack([K_cache, x @ W_k])",
        "K_cache = X[: t + 1] @ W_k",
    )
    assert "multiplies `W_k` with 14 rows" in grade(lesson, keys_again, sandbox).feedback[0]


def test_a_counted_input_keeps_every_line_number(sandbox):
    # The counting wrapper replaces only the input's own (multi-line) assignment: an error
    # further down is reported on the learner's line.
    lesson = _lesson("kv-cache")
    broken = _swap(
        lesson.exercise.solution, "q = x @ W_q  #", "q = x @ W_q.T  #"
    )  # (1, 4) @ (2, 4)
    counted = with_grading(lesson, rules=(Rule("x", count=("X", "W_q")),))
    line = next(i for i, t in enumerate(broken.splitlines(), 1) if "q = x @ W_q.T" in t)
    for each in (lesson, counted):
        g = grade(each, broken, sandbox)
        assert g.verdict == "error" and g.line == line, g.feedback


# Security review S10: a required construct counts only where it ran, and code run from text
# (which no rule can read) is refused wherever a lesson has rules.
S_LINE = "S = X @ X.swapaxes(1, 2)"
Y_LINE = 'Y = np.einsum("bnm,bmd->bnd", W, X)'
# Right on every case without `@` or np.einsum
S_PLAIN = "S = np.matmul(X, X.swapaxes(1, 2))"
Y_PLAIN = "Y = np.matmul(W, X)"


def _plain(solution: str) -> str:
    return _swap(_swap(solution, S_LINE, S_PLAIN), Y_LINE, Y_PLAIN)


def _line_of(code: str, text: str) -> int:
    return next(i for i, line in enumerate(code.splitlines(), 1) if text in line)


def test_a_loop_inside_exec_is_refused_with_the_rule_quoted(sandbox):
    lesson = _lesson("batches-and-einsum")
    hidden = _swap(
        lesson.exercise.solution,
        Y_LINE,
        "Y = np.zeros((X.shape[0], W.shape[1], X.shape[2]))\n"
        'exec("f" + "or i in range(len(X)): Y[i] = W[i] @ X[i]")\n'
        "if False:\n"
        f"    {Y_LINE}",
    )
    g = grade(lesson, hidden, sandbox)
    line = _line_of(hidden, "exec(")
    assert not g.correct and g.line == line
    assert g.feedback == (
        f"The task says: “{EINSUM_RULE}” Your program uses `exec` on line {line}: code reached "
        "or run through text cannot be checked against the task. Write the code out.",
    )


@pytest.mark.parametrize(
    "text, name",
    [
        ('getattr(np, "ein" + "sum")("bnm,bmd->bnd", W, X)', "getattr"),
        ('eval("np.einsum")("bnm,bmd->bnd", W, X)', "eval"),
        ('__import__("numpy").einsum("bnm,bmd->bnd", W, X)', "__import__"),
    ],
)
def test_code_reached_through_text_is_refused(sandbox, text, name):
    lesson = _lesson("batches-and-einsum")
    dodged = _swap(lesson.exercise.solution, Y_LINE, f"Y = {text}")
    (said,) = grade(lesson, dodged, sandbox).feedback
    assert said.startswith(f"The task says: “{EINSUM_RULE}” Your program uses `{name}` on line")


DEAD = {
    "under if False": "if False:\n    S = X @ X\n    Y = np.einsum('i', X)\n",
    "in an uncalled function": "def never():\n    return X @ X, np.einsum('i', X)\n",
    "in an uncalled lambda": "never = lambda: (X @ X, np.einsum('i', X))\n",
}


@pytest.mark.parametrize("dead", DEAD.values(), ids=list(DEAD))
def test_a_required_construct_only_in_dead_code_is_refused(sandbox, dead):
    lesson = _lesson("batches-and-einsum")
    code = _plain(lesson.exercise.solution) + "\n" + dead
    g = grade(lesson, code, sandbox)
    line = _line_of(code, "X @ X")
    assert not g.correct and g.line == line
    assert g.feedback == (
        f"The task says: “{EINSUM_RULE}” Your program has `@` on line {line}, but that code "
        "never runs: the result must be computed with it.",
    )


def test_a_required_construct_that_runs_in_a_function_counts(sandbox):
    lesson = _lesson("batches-and-einsum")
    called = _swap(
        lesson.exercise.solution,
        S_LINE,
        "def scores(X):\n    return X @ X.swapaxes(1, 2)\n\n\nS = scores(X)",
    )
    assert grade(lesson, called, sandbox).correct
    # a function the program defines but never calls does not count, even when another does
    uncalled = called.replace("S = scores(X)", S_PLAIN)
    assert "never runs" in grade(lesson, uncalled, sandbox).feedback[0]


def test_a_lesson_without_a_required_construct_runs_untraced():
    lesson = _lesson("kv-cache")  # rules, none requiring a construct
    reading = read(lesson, lesson.exercise.solution)
    assert reading.facts.watch(lesson) == frozenset()
    assert not any(PRIVATE_END in case.code for case in reading.cases)
    einsum = _lesson("batches-and-einsum")
    reading = read(einsum, einsum.exercise.solution)
    assert reading.facts.watch(einsum) == {
        _line_of(einsum.exercise.solution, S_LINE),
        _line_of(einsum.exercise.solution, Y_LINE),
    }
    assert all(PRIVATE_END in case.code for case in reading.cases)


def test_a_program_cannot_say_itself_which_lines_ran(sandbox):
    lesson = _lesson("batches-and-einsum")
    code = (
        _plain(lesson.exercise.solution) + "\nif False:\n    S = X @ X\n    Y = np.einsum('i', X)\n"
    )
    line = _line_of(code, "X @ X")
    forged = code + f"__ran_lines__ = {{('<module>', 1, {line}), ('<module>', 1, {line + 1})}}\n"
    assert "never runs" in grade(lesson, forged, sandbox).feedback[0]


def test_a_comprehension_that_never_runs_is_refused_and_one_that_runs_counts(sandbox):
    # a function exercise: its tests call the learner's function, and that run counts
    lesson = _lesson("py-comprehensions")
    solution = lesson.exercise.solution
    assert grade(lesson, solution, sandbox).correct
    looped = _swap(
        solution,
        "    return [word.upper() for word in words if len(word) >= n]",
        "    kept = []\n"
        "    for word in words:\n"
        "        if len(word) >= n:\n"
        "            kept.append(word.upper())\n"
        "    return kept\n"
        "    return [word.upper() for word in words if len(word) >= n]",
    )
    g = grade(lesson, looped, sandbox)
    assert not g.correct and "never runs" in g.feedback[0], g.feedback


def test_a_module_the_program_writes_or_runs_text_with_is_refused(sandbox):
    lesson = _lesson("batches-and-einsum")
    helper = "def mix(W, X):\\n    return np.stack([w @ x for w, x in zip(W, X)])\\n"
    written = _swap(
        lesson.exercise.solution,
        Y_LINE,
        f'open("helper.py", "w").write("import numpy as np\\n{helper}")\n'
        "import sys\n"
        'sys.path.insert(0, ".")\n'
        "import helper\n"
        "Y = helper.mix(W, X)",
    )
    line = _line_of(written, "import helper")
    assert grade(lesson, written, sandbox).feedback == (
        f"The task says: “{EINSUM_RULE}” Your program uses `import helper` on line {line}: code "
        "reached or run through text cannot be checked against the task. Write the code out.",
    )
    runner = _swap(lesson.exercise.solution, "import numpy as np", "import numpy as np, runpy")
    assert "uses `import runpy` on line 1" in grade(lesson, runner, sandbox).feedback[0]
