"""A value blank runs the learner's answer after the lesson's solution: an answer
object that turns the `@` into a read of its program's text got the solution back, some 50
characters a request, in the feedback. The answer now runs where the solution's text cannot be
read, and the feedback says of the answer's value only its kind and shape. Through the real
sandbox, on the built-in lesson the issue used."""

from __future__ import annotations

import pytest

from codeblanks.grading import check_blank

# Each builds an object whose `__array_ufunc__` (what `Q @ answer` calls) returns, or raises,
# a slice of what it can read of its program: linecache, a frame's locals, code constants.
READS = {
    "linecache": "''.join(__import__('linecache').cache['blank.py'][2])",
    "frame-locals": "str(__import__('sys')._getframe(2).f_locals.get('code'))",
    "code-constants": "str(__import__('sys')._getframe(1).f_code.co_consts)",
    "all-frames": "str([__import__('sys')._getframe(i).f_locals for i in range(1, 5)])",
}


def _hostile(read: str, how: str) -> str:
    text = f"({read})[0:60]"
    body = {
        "value": text,
        "message": f"(_ for _ in ()).throw(ValueError({text}))",
        "exception-name": f"(_ for _ in ()).throw(type({text}, (Exception,), {{}})())",
        "numbers": f"__import__('numpy').frombuffer(({text} + 9 * ' ')[:9].encode(), 'u1')"
        ".reshape(3, 3)",
    }[how]
    return f"type('X', (), {{'__array_ufunc__': lambda s, *a, **k: {body}}})()"


@pytest.fixture(scope="module")
def scores_line(qkv):
    (q,) = [q for q in qkv.questions if q.id == "scores-line"]
    return q


def _fragments(text: str) -> set[str]:
    """The solution's lines worth hiding (long enough to mean something)."""
    return {line.strip() for line in text.splitlines() if len(line.strip()) >= 10}


@pytest.mark.parametrize("how", ["value", "message", "exception-name", "numbers"])
@pytest.mark.parametrize("read", sorted(READS))
def test_a_blank_answer_cannot_read_the_solution(qkv, scores_line, read, how):
    v = check_blank(qkv, scores_line, _hostile(READS[read], how))
    assert not v.correct and v.verdict == "incorrect", v
    said = " ".join((v.message, v.error))
    solution = qkv.exercise.solution
    assert "import numpy" not in said and "def softmax" not in said, said
    leaked = [f for f in _fragments(solution) if f[:10] in said]
    assert leaked == [], said
    if how == "numbers":
        # The answer's numbers are its own to choose: only the shape is said.
        assert "right shape (3, 3), but different values" in v.message, v.message


def test_the_feedback_still_says_what_went_wrong_in_shapes_and_names(qkv, scores_line):
    v = check_blank(qkv, scores_line, "K")
    assert v.error == "ValueError: matmul" and "The shapes in `@` do not align" in v.message
    v = check_blank(qkv, scores_line, "softmx(K, 1).T")
    assert v.error == "NameError: name 'softmx' is not defined", v.error
    assert "Did you mean `softmax`?" in v.message  # a name of the setup
    v = check_blank(qkv, scores_line, "Q.T")
    assert v.message.startswith("That gives a different value:")
