"""The worked examples of an explanation are run and their shown output checked
(grading/examples.py), through the real sandbox."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

from codeblanks.grading.examples import aprove_examples, examples, fenced_blocks

from .grading_helpers import make_lesson

GOOD = """# Softmax

Some prose, then code:

```python
import numpy as np
z = np.array([2.0, 1.0, 0.0])
```

The next block sees `z` from the one before:

```python
e = np.exp(z - z.max())
print(np.round(e / e.sum(), 3))
```

```text
[0.665 0.245 0.09 ]
```

A fragment that is shown, not run:

```python skip
np.ones(3) @ np.ones(2)
```

```text
this text block follows a skipped block: it is not checked
```
"""


def explained(markdown: str):
    return dataclasses.replace(make_lesson("softmax-rows"), explanation_md=markdown)


def codes(problems):
    return [(p.code, p.line) for p in problems]


def test_blocks_are_found_with_their_lines_and_flags():
    blocks = fenced_blocks(GOOD)
    assert [(b.lang, b.flags, b.line) for b in blocks] == [
        ("python", (), 5),
        ("python", (), 12),
        ("text", (), 17),
        ("python", ("skip",), 23),
        ("text", (), 27),
    ]
    assert blocks[1].code == "e = np.exp(z - z.max())\nprint(np.round(e / e.sum(), 3))"


def test_only_a_directly_following_text_block_is_an_expected_output():
    found = examples(GOOD)
    assert [e.block.line for e in found] == [5, 12]
    assert found[0].expected is None  # prose stands between it and any text block
    assert found[1].expected.line == 17


def test_indented_code_keeps_its_own_indentation():
    md = "```python\ndef f(x):\n    return x + 1\nprint(f(1))\n```\n"
    (block,) = fenced_blocks(md)
    assert block.code == "def f(x):\n    return x + 1\nprint(f(1))"


def test_examples_that_agree_are_proven(sandbox):
    assert asyncio.run(aprove_examples(explained(GOOD), sandbox)) == []


def test_a_wrong_worked_number_is_a_problem_at_its_text_block(sandbox):
    wrong = GOOD.replace("[0.665 0.245 0.09 ]", "[0.665 0.245 0.1]")
    (problem,) = asyncio.run(aprove_examples(explained(wrong), sandbox))
    assert (problem.code, problem.line) == ("grading.E031", 17)
    assert "[0.665 0.245 0.09 ]" in problem.message


def test_a_block_that_fails_is_named_by_its_line(sandbox):
    broken = GOOD.replace("e = np.exp(z - z.max())", "e = np.exp(q)")
    problems = asyncio.run(aprove_examples(explained(broken), sandbox))
    assert ("grading.E030", 12) in codes(problems)
    assert "NameError" in next(p.message for p in problems if p.code == "grading.E030")


@pytest.mark.parametrize("fence", ["~~~", "````"])
def test_other_fences_are_blocks_too(fence):
    md = f"{fence}python\nprint(1)\n{fence}\n\n{fence}text\n1\n{fence}\n"
    (found,) = examples(md)
    assert found.expected is not None and found.expected.code == "1"
