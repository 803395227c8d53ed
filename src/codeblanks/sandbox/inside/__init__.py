"""The trust boundary: the code that builds the sandbox or runs inside it.

Everything in this folder is bind-mounted, alone and read-only, as ``/opt/codeblanks`` in the
sandbox, and imported there as top-level modules (``import wire``). It uses the standard library
only (tests/sandbox/test_boundary.py checks it): NumPy is the learner's, imported by the zygote,
and nothing of the trusted side is visible in there.

| module | runs |
|---|---|
| ``namespaces.py`` | on the host, as root: unshare, build the read-only root, exec the zygote |
| ``zygote.py`` | inside, PID 1: the fork-server; **the wire protocol is written at its top** |
| ``runner.py`` | inside, in each child: limits, the program, its traceback, values, report |
| ``kernel.py`` | both: ctypes wrappers for the Linux calls Python 3.11 lacks |
| ``wire.py`` | both: the message constants and framing |
| ``lessontest.py`` | inside, after the learner's code: a lesson's tests (grading reads its names) |
"""
