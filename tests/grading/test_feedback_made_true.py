"""Feedback that says what the program did. Each test grades a real program
through the real sandbox and fails on the feedback given before (a NameError in every test, a
line offered as a clue that every right program prints, a keepdims guess for `*`, no words for a
float size or a misspelt attribute, a method printed instead of called)."""

from __future__ import annotations

import pytest

from codeblanks.content import catalog
from codeblanks.grading import grade
from codeblanks.grading.clues import reversed_line, uncalled_method

from .grading_helpers import make_lesson


def _lesson(lesson_id: str):
    lesson = catalog().lesson(lesson_id)
    assert lesson is not None, lesson_id
    return lesson


def _sol(lesson, old: str, new: str) -> str:
    assert old in lesson.exercise.solution, old
    return lesson.exercise.solution.replace(old, new)


def _text(g) -> str:
    return "\n".join(g.feedback)


# a. a blank left in a function the tests call


def test_a_blank_in_a_class_exercise_is_named_not_a_name_error_in_every_test():
    lesson = _lesson("py-classes")
    g = grade(lesson, lesson.exercise.starter)
    assert g.verdict == "incorrect"
    assert g.feedback == ("Fill in the blank (`____`) on line 6: replace it with your code.",)
    assert g.line == 6 and "NameError" not in _text(g)


def test_the_blank_named_is_the_one_the_tests_stopped_on():
    lesson = _lesson("py-classes")
    code = _sol(lesson, "        for title, seconds in self.songs:\n", "        ____\n")
    code = code.replace("            total = total + seconds\n", "")
    g = grade(lesson, code)
    line = code.splitlines().index("        ____") + 1
    assert g.verdict == "incorrect" and g.line == line
    assert g.feedback[0].startswith(f"Fill in the blank (`____`) on line {line}")


# b. a line every right program prints is no clue


def test_a_line_the_solution_prints_in_every_case_is_not_offered_as_a_clue():
    lesson = _lesson("characters-to-tokens")
    code = _sol(
        lesson, "ids = np.array([stoi[ch] for ch in text])", "ids = [stoi[ch] for ch in text]"
    )
    g = grade(lesson, code)
    assert g.verdict == "incorrect"
    assert "stays the same whatever the data" not in _text(g)


# c. broadcasting and a float size, in words of what the line did


def test_star_for_at_is_named_not_keepdims():
    lesson = _lesson("shapes-and-matmul")
    g = grade(lesson, _sol(lesson, "Y = X @ W", "Y = X * W"))
    assert g.verdict == "error"
    assert "`X * W` multiplies element by element" in _text(g) and "did you mean `@`" in _text(g)
    assert "keepdims" not in _text(g)


def test_a_size_typed_in_is_named_on_the_case_that_has_another_size():
    lesson = _lesson("causal-mask")
    g = grade(lesson, _sol(lesson, "n = Q.shape[0]", "n = 4"))
    assert g.verdict == "error" and g.case != "visible"
    line = (
        _sol(lesson, "n = Q.shape[0]", "n = 4").splitlines().index("n = 4  # the number of tokens")
    )
    assert f"Line {line + 1} types in the size 4 (`n = 4`)" in _text(g)
    assert "keepdims" not in _text(g)


def test_a_sum_without_keepdims_is_still_named(softmax_lesson):
    code = softmax_lesson.exercise.solution.replace(
        "E.sum(axis=1, keepdims=True)", "E.sum(axis=0)"
    ).replace("S.max(axis=1, keepdims=True)", "S.max(axis=1)")
    g = grade(softmax_lesson, code.replace("[2.0, 0.0, 2.0], ", ""))
    assert g.verdict == "error"
    assert "without `keepdims=True` loses an axis" in _text(g)


def test_a_float_head_width_gets_words():
    lesson = _lesson("multi-head-attention")
    g = grade(lesson, _sol(lesson, "d_head = d_model // n_heads", "d_head = d_model / n_heads"))
    assert g.verdict == "error"
    assert "must be a whole number (an int), but this line gives a float" in _text(g)


# d. did you mean, in runs


def test_a_misspelt_method_gets_did_you_mean():
    lesson = _lesson("py-strings")
    g = grade(lesson, _sol(lesson, "print(full.title())", "print(full.titel())"))
    assert g.verdict == "error"
    assert "`titel` does not exist here. Did you mean `title`?" in _text(g)


def test_a_built_in_name_for_a_variable_gets_did_you_mean():
    lesson = _lesson("arrays-and-shapes")
    assert "[ids]" in lesson.exercise.solution
    g = grade(lesson, lesson.exercise.solution.replace("[ids]", "[id]", 1))
    assert g.verdict == "error"
    assert "`id` here is Python's built-in `id`, not a value of your program." in _text(g)
    assert "Did you mean `ids`?" in _text(g)


# e. a method not called; the right items the other way round


def test_a_method_named_without_brackets_gets_a_nudge():
    lesson = _lesson("py-strings")
    g = grade(lesson, _sol(lesson, "print(full.title())", "print(full.title)"))
    assert g.verdict == "incorrect"
    assert "a method named without `()` is not called. Write `.title()`" in _text(g)
    assert "0x" not in _text(g)  # no memory address in the words


@pytest.fixture(scope="module")
def top_k():
    return make_lesson("top-k", values=("top",))


def test_the_right_items_in_the_opposite_order_are_named(top_k):
    code = top_k.exercise.solution.replace(
        'np.argsort(-z, kind="stable")[:3]', "np.argsort(z)[-3:]"
    )
    g = grade(top_k, code)
    assert g.verdict == "incorrect"
    assert "Line 1 of your output has the right items, in the opposite order" in _text(g)
    assert "it holds the right items, in the opposite order" in _text(g)


def test_the_clues_stay_silent_where_the_output_does_not_show_them():
    assert uncalled_method("<built-in function print>\nmethod upper") is None
    assert reversed_line("[5 3 1]", "[5 1 3]") is None
    assert reversed_line("[7]", "[7]") is None
    assert reversed_line("15 2", "2 15") is None  # hours and minutes swapped: another mistake
    assert reversed_line("[ 2. 0. -2.]", "[-2. 0. 2.]") is None  # measures, not an order
    assert reversed_line("[3 1 5]\n", "[5 1 3]\n").startswith("Line 1 ")


def test_the_new_words_are_turkish_too(top_k):
    from codeblanks import i18n

    matmul = _lesson("shapes-and-matmul")
    with i18n.language("tr"):
        star = grade(matmul, _sol(matmul, "Y = X @ W", "Y = X * W"))
        order = grade(
            top_k,
            top_k.exercise.solution.replace(
                'np.argsort(-z, kind="stable")[:3]', "np.argsort(z)[-3:]"
            ),
        )
    assert "`X * W` eleman eleman çarpar" in _text(star) and "`@` mı demek istedin?" in _text(star)
    assert "Çıktının 1. satırında doğru öğeler var, ama ters sırada" in _text(order)


def test_a_function_result_in_the_opposite_order_is_named():
    from codeblanks import i18n
    from codeblanks.grading.pyvalues import Rules, difference

    assert difference(["c", "b", "a"], ["a", "b", "c"], Rules(0.0, 0.0)) == (
        "the result holds the right items, in the opposite order: check which way it is "
        "sorted (`reverse=True`, `[::-1]`)."
    )
    assert "opposite order" not in difference([3, 1, 2], [1, 2, 3], Rules(0.0, 0.0))
    assert "opposite order" not in difference([2, 1], [1, 2], Rules(0.0, 0.0))
    with i18n.language("tr"):
        assert "ters sırada" in difference([3, 2, 1], [1, 2, 3], Rules(0.0, 0.0))


def test_a_forged_error_message_is_read_in_bounded_time():
    # a program can raise any text: shapes beyond NumPy's own limits are not read
    from codeblanks.grading.tracebacks import broadcast_message, friendly

    crafted = "could not be broadcast " + "(1) " * 20_000 + "(" + "2, " * 20_000 + ")"
    frame = '  File "m.py", line 1, in <module>'
    stderr = f"Traceback (most recent call last):\n{frame}\nValueError: {crafted}\n"
    err = friendly(stderr, "x = 1\n", "m.py", None, given=("x",))
    assert err.error_type == "ValueError" and len(" ".join(err.explanation)) < 5_000
    assert "(1,)" in broadcast_message(["1"] * 40, "x = 1\n", 1)
