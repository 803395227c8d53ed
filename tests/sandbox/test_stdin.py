"""A case's standard input: given as data beside its program, read by ``input()`` line by line,
and Python's EOFError past its end. Through the real sandbox, and the wire format alone."""

from __future__ import annotations

from codeblanks.sandbox import RunLimits
from codeblanks.sandbox.inside import wire

QUICK = RunLimits(wall_s=2.0, cpu_s=1.0)
READS_TWO = "a = input()\nb = input()\nprint(int(a) + int(b))\n"


def never(index, result):
    return False


def test_a_program_reads_the_lines_it_is_given(sandbox):
    result = sandbox.run(READS_TWO, limits=QUICK, stdin="12\n30\n")
    assert result.verdict == "ok", result.stderr
    assert result.stdout == "42\n"


def test_the_last_line_needs_no_line_break_and_sys_stdin_reads_the_rest(sandbox):
    code = "import sys\nfirst = input()\nprint(repr(first), repr(sys.stdin.read()))\n"
    result = sandbox.run(code, limits=QUICK, stdin="one\ntwo\nthree")
    assert result.stdout == "'one' 'two\\nthree'\n", result.stderr


def test_reading_past_the_end_is_python_s_eof_error(sandbox):
    result = sandbox.run(READS_TWO, limits=QUICK, stdin="12\n")
    assert result.verdict == "error"
    assert "EOFError: EOF when reading a line" in result.stderr
    assert "line 2" in result.stderr


def test_without_input_a_program_reads_nothing(sandbox):
    result = sandbox.run("input()\n", limits=QUICK)
    assert result.verdict == "error"
    assert "EOFError" in result.stderr


def test_each_case_of_a_batch_reads_its_own_input(sandbox):
    results = sandbox.run_cases(
        [READS_TWO, READS_TWO, READS_TWO, "print('no input read')"],
        limits=QUICK,
        stdins=("1\n2\n", "10\n20\n", "5\n", ""),
        stop=never,
    )
    assert [r.verdict for r in results] == ["ok", "ok", "error", "ok"]
    assert [r.stdout for r in results] == ["3\n", "30\n", "", "no input read\n"]
    assert "EOFError" in results[2].stderr


def test_text_beyond_ascii_arrives_as_written(sandbox):
    code = "name = input()\nprint(name.upper(), len(name))\n"
    result = sandbox.run(code, limits=QUICK, stdin="çiğdem\n")
    assert result.stdout == "ÇIĞDEM 6\n", result.stderr


def test_the_wire_keeps_programs_and_inputs_apart():
    codes = ["print(1)", "print(2)", "print(3)"]
    data = wire.encode_request("main.py", {"wall_s": 1}, [], codes, ["a\n", "", "b\nc"])
    request, got, stdins = wire.decode_request(data)
    assert got == codes
    assert stdins == [b"a\n", b"", b"b\nc"]
    # no input at all: nothing in the header, and every program reads fd 0 (empty)
    plain = wire.encode_request("main.py", {"wall_s": 1}, [], codes)
    assert b"stdin_sizes" not in plain
    assert wire.decode_request(plain)[2] == [None, None, None]


def test_an_input_is_cut_at_its_bound_on_the_wire():
    big = "x" * (wire.MAX_STDIN_BYTES + 10)
    data = wire.encode_request("main.py", {}, [], ["pass"], [big])
    _request, _codes, stdins = wire.decode_request(data)
    assert stdins == [b"x" * wire.MAX_STDIN_BYTES]
