"""The grader speaks the learner's language: the same programs through the real sandbox, graded
inside ``i18n.language("tr")``, get their feedback in Turkish, whole sentences with the values
filled in; English stays as it was, and a grade never leaks from one language to the other."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

from codeblanks import i18n
from codeblanks.content.model import Limits, Mistake
from codeblanks.grading import acheck_blank, check_blank, grade
from codeblanks.grading.reference import cache_key

from .grading_helpers import AXIS_0, make_lesson, with_grading

SETUP = "import numpy as np\n\nS = np.array([[1.0, 2.0, 3.0], [2.0, 0.0, 2.0], [3.0, 1.0, 0.0]])\n"
SOFTMAX = "E = np.exp(S - S.max(axis=1, keepdims=True))\nP = E / E.sum(axis=1, keepdims=True)\n"
PRINT = "print(np.round(P, 3))\n"


def in_turkish(lesson, code, sandbox=None):
    with i18n.language("tr"):
        return grade(lesson, code, sandbox)


@pytest.fixture(scope="module")
def plain(softmax_lesson):
    """The softmax lesson without its anticipated mistake, so the grader's own words show."""
    return with_grading(softmax_lesson, mistakes=())


def test_a_wrong_shape(plain):
    g = in_turkish(plain, SETUP + SOFTMAX + "P = P[:2]\n" + PRINT)
    assert g.verdict == "incorrect"
    assert g.feedback[0] == "Çıktı beklenen çıktıdan farklı."
    assert "`P`: şekil (2, 3), oysa (3, 3) şekli bekleniyor." in g.feedback
    assert g.diff[:2] == ("--- beklenen", "+++ senin çıktın")


def test_a_transposed_value(plain):
    lesson = with_grading(plain, distributions={})
    g = in_turkish(lesson, SETUP + SOFTMAX + "P = P.T\n" + PRINT)
    assert (
        "`P`: şekil (3, 3), bu doğru; ama değerler beklenen değerlerin devriği, bu yüzden "
        "beklenen sonuçta satırların toplamı 1 iken seninkinde sütunların toplamı 1: yanlış "
        "eksen boyunca mı normalleştirildi, yoksa devriği mi alındı (`@` işlecindeki sıra, bir "
        "`.T`)?" in g.feedback
    ), g.feedback


def test_a_softmax_along_the_wrong_axis(plain):
    code = SETUP + SOFTMAX.replace("axis=1", "axis=0") + PRINT
    g = in_turkish(plain, code)
    (axis,) = [f for f in g.feedback if f.startswith("`P`")]
    assert axis.startswith(
        "`P`: şekil (3, 3), bu doğru; ama satırların toplamı 1 olmalı, oysa 0 numaralı satırın "
        "toplamı "
    ), axis
    assert axis.endswith(
        " — softmax hangi eksen boyunca normalleştirildi? Buna karşılık sütunların toplamı 1."
    )


def test_the_authors_mistake_message_comes_first(softmax_lesson):
    """An anticipated mistake's message is the lesson's own (its translation is the lesson's
    tr/ folder); the grader's sentences around it are Turkish."""
    code = (softmax_lesson.path / "mistakes" / "axis-0.py").read_text()
    g = in_turkish(softmax_lesson, code)
    assert g.feedback[:2] == (AXIS_0, "Çıktı beklenen çıktıdan farklı.")


def test_an_error_with_its_traceback(plain):
    g = in_turkish(plain, SETUP + "W = np.ones((2, 2))\nP = S @ W\n" + PRINT)
    assert g.verdict == "error" and g.line == 5
    assert g.feedback[:2] == (
        "Programın bir hatayla durdu.",
        "Hata: model.py, 5. satır: `P = S @ W`.",
    )
    assert g.feedback[2] == (
        "`S @ W` hesaplanamıyor: `S` dizisinin şekli (3, 3), `W` dizisinin şekli (2, 2). `@` "
        "için soldakinin son ekseni (3) sağdakinin ilk eksenine (2) eşit olmalıdır — bunlardan "
        "birinin devriği (`.T`) mi alınmalı?"
    )
    assert 'File "model.py", line 5' in g.stderr  # Python's own traceback stays as Python wrote it


def test_a_misspelt_name_gets_a_did_you_mean(plain):
    g = in_turkish(plain, SETUP + "scores = S\nP = scoress\n" + PRINT)
    assert (
        "`scoress` o noktada tanımlı değil: adı yanlış yazılmış ya da kendisine değer veren "
        "satırdan önce kullanılmış. Şunu mu demek istedin: `scores`?" in g.feedback
    ), g.feedback


def test_a_timeout_names_the_cpu_limit(plain):
    busy = with_grading(plain, limits=Limits(wall_s=5.0, cpu_s=0.2))
    g = in_turkish(busy, SETUP + "while True:\n    pass\n")
    assert g.verdict == "timeout"
    assert g.feedback[0] == (
        "Programının süresi doldu (sınır olan 0.2 sn'den fazla işlemci zamanı kullandı): hiç "
        "bitmeyen bir döngü mü var?"
    )


def test_a_timeout_on_the_wall_clock(plain):
    slow = with_grading(plain, limits=Limits(wall_s=1.0, cpu_s=1.0))
    g = in_turkish(slow, SETUP + "import time\ntime.sleep(30)\n")
    assert g.verdict == "timeout"
    assert g.feedback[0] == (
        "Programının süresi doldu (sınır 1 sn): hiç bitmeyen bir döngü mü var?"
    )


def test_an_unfilled_blank(plain):
    g = in_turkish(plain, SETUP + "P = ____\n" + PRINT)
    assert g.feedback == ("4. satırdaki boşluğu (`____`) doldur: yerine kendi kodunu yaz.",)


def test_a_kept_input_and_a_hidden_case(plain):
    unpacked = SETUP.replace("S = np.array(", "S, _ = np.array(").rstrip("\n") + ", 0\n"
    g = in_turkish(plain, unpacked + SOFTMAX + PRINT)
    assert g.feedback == (
        "`S = …` satırını en üst düzeyde bir atama olarak bırak: değerlendirici, programının "
        "sonucu önceden bilmeyip hesapladığını denetlemek için bu satıra başka veriler verir. "
        "Bunun yerine kendi değişkenlerinin adını değiştir.",
    )
    g = in_turkish(plain, SETUP + SOFTMAX + "P = P if S.shape == (3, 3) else P * 2\n" + PRINT)
    assert g.feedback[0].startswith(
        "Programın görünen verilerde beklenen sonucu veriyor, ama gizli “four random rows” "
        "durumunda (`S`: 4×3 boyutlu bir ondalıklı sayı dizisi) vermiyor."
    ), g.feedback


@pytest.fixture(scope="module")
def tested():
    return make_lesson("causal-softmax", lesson_id="causal-softmax-tr")


def _with_body(lesson, body: str) -> str:
    start = lesson.exercise.solution.index("    scores = np.asarray")
    end = lesson.exercise.solution.index("\n\n\nS = ")
    return lesson.exercise.solution[:start] + body + lesson.exercise.solution[end:]


def test_a_function_that_returns_nothing(tested):
    code = _with_body(tested, "    print('working on it')")
    code = code.replace("print(np.round(causal_softmax(S), 3))", "print(np.round(S * 0, 3))")
    g = in_turkish(tested, code)
    assert (
        "“the scores of the task” testi yanlış bir sonuç alıyor: fonksiyon hiçbir şey döndürmedi "
        "(None). Fonksiyon sonucunu `return` ile döndürüyor mu? Yaptığı çağrı: "
        "`causal_softmax(np.array([[1.0, 2.0, 0.5], [0.0, 1.0, 3.0], [2.0, 1.0, 1.0]]))`."
    ) in g.feedback, g.feedback


def test_a_hidden_test_that_stops_with_an_error(tested):
    code = _with_body(
        tested,
        "    scores = np.asarray(scores, dtype=float)\n"
        "    if scores.ndim < 2 or scores.shape[-1] != scores.shape[-2]:\n"
        "        raise ValueError('not square')\n"
        "    n = scores.shape[0]\n"
        "    masked = np.where(np.triu(np.ones((n, n), dtype=bool), k=1), -np.inf, scores)\n"
        "    w = np.exp(masked - masked.max(axis=-1, keepdims=True))\n"
        "    return w / w.sum(axis=-1, keepdims=True)",
    )
    g = in_turkish(tested, code)
    count, message = g.feedback
    assert count == "6 testten 1 tanesi başarısız:"
    assert message.startswith(
        "Gizli “a batch of two sequences” testi dosyanın 10. satırında şu hatayla durdu: "
        "ValueError: operands could not be broadcast"
    ), message
    assert " Yaptığı çağrı: `causal_softmax(np.array([[[0.0, 0.25" in message


def test_a_hidden_test_with_a_wrong_result(tested):
    # No shift by the maximum: exp(1000) overflows, the large scores give nan.
    code = _with_body(
        tested,
        "    scores = np.asarray(scores, dtype=float)\n"
        "    if scores.ndim < 2 or scores.shape[-1] != scores.shape[-2]:\n"
        "        raise ValueError('not square')\n"
        "    n = scores.shape[-1]\n"
        "    later = np.triu(np.ones((n, n), dtype=bool), k=1)\n"
        "    w = np.where(later, 0.0, np.exp(scores))\n"
        "    return w / w.sum(axis=-1, keepdims=True)",
    )
    g = in_turkish(tested, code)
    count, message = g.feedback
    assert count == "6 testten 1 tanesi başarısız:"
    assert message.startswith(
        "Gizli “large scores” testi yanlış bir sonuç alıyor — sonuç: şekil (2, 2), bu doğru; ama "
        "değerler farklı: "
    ), message
    assert message.endswith(
        " Yaptığı çağrı: `causal_softmax(np.array([[1000.0, 0.0], [1000.0, 1001.0]]))`."
    )


def test_blank_answers(qkv):
    (question,) = [q for q in qkv.questions if q.id == "scores-line"]
    with i18n.language("tr"):
        empty = check_blank(qkv, question, "  ")
        wrong = check_blank(qkv, question, "Q.T")
        fails = check_blank(qkv, question, "K")
        right = check_blank(qkv, question, "K.T")
    assert empty.message == "Önce boşluğu doldur."
    # A blank's answer is told only its value's shape and kind, not its numbers.
    assert wrong.message == (
        "Bu cevap farklı bir değer veriyor — `scores`: şekil doğru ((3, 3)), ama değerler farklı."
    ), wrong.message
    assert fails.message.startswith("Bu cevap çalışırken hata veriyor. "), fails.message
    assert "`@` işlecindeki şekiller uyuşmuyor" in fails.message
    assert fails.error.startswith("ValueError: matmul")  # Python's words stay Python's
    assert right.correct and right.message == "Doğru."


def test_english_is_unchanged_after_turkish(plain):
    code = SETUP + SOFTMAX + "P = P[:2]\n" + PRINT
    assert in_turkish(plain, code).feedback[0] == "Çıktı beklenen çıktıdan farklı."
    g = grade(plain, code)
    assert g.feedback[0] == "The output differs from the expected output."
    assert "`P` has shape (2, 3), but shape (3, 3) is expected." in g.feedback


def test_grading_inside_a_running_loop_keeps_the_language(plain):
    """``grade()`` called where an event loop runs drives the grade in a thread of its own; the
    language goes along (a pool's thread does not inherit context variables by itself)."""
    code = SETUP + "P = ____\n" + PRINT

    async def inside_a_loop():
        with i18n.language("tr"):
            return grade(plain, code)

    g = asyncio.run(inside_a_loop())
    assert g.feedback[0].startswith("4. satırdaki boşluğu")


def test_async_blank_check_in_turkish(qkv):
    (question,) = [q for q in qkv.questions if q.id == "scores-line"]

    async def check():
        with i18n.language("tr"):
            return await acheck_blank(qkv, question, "Q.T")

    assert asyncio.run(check()).message.startswith("Bu cevap farklı bir değer veriyor")


def test_a_translated_lesson_has_its_own_reference(softmax_lesson):
    """The references (the solution's and the mistakes' runs, and the mistakes' messages) are
    cached per lesson version and language: a Turkish lesson never gets the English lesson's
    mistake message, even when both share a version."""
    english = dataclasses.replace(softmax_lesson, version="v-tr-test")
    mistakes = tuple(
        Mistake(m.path, m.code, "Her satırı normalleştirin: softmax axis=1 boyunca.")
        for m in english.exercise.grading.mistakes
    )
    turkish = dataclasses.replace(
        with_grading(english, mistakes=mistakes), version="v-tr-test", language="tr"
    )
    assert cache_key(english) != cache_key(turkish)
    code = (softmax_lesson.path / "mistakes" / "axis-0.py").read_text()
    assert grade(english, code).feedback[0] == AXIS_0
    assert in_turkish(turkish, code).feedback[0] == (
        "Her satırı normalleştirin: softmax axis=1 boyunca."
    )
    assert grade(english, code).feedback[0] == AXIS_0


def test_a_property_test_in_turkish(tested):
    """lessontest words its own reasons in English inside the sandbox; the grader says them
    again in the learner's language."""
    g = in_turkish(tested, (tested.path / "mistakes" / "in-place.py").read_text())
    assert g.feedback == (
        "6 testten 1 tanesi başarısız:",
        "“leaves its argument unchanged” testi başarısız: fonksiyon argümanını yerinde "
        "değiştirdi; bunun yerine yeni bir değer hesapla. Yaptığı çağrı: "
        "`causal_softmax(np.array([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]]))`.",
    )


def test_a_raises_test_in_turkish(tested):
    code = _with_body(
        tested,
        "    later = np.triu(np.ones(scores.shape[-2:], dtype=bool), k=1)\n"
        "    masked = np.where(later, -np.inf, scores)\n"
        "    w = np.exp(masked - masked.max(axis=-1, keepdims=True))\n"
        "    return w / w.sum(axis=-1, keepdims=True)",
    )
    g = in_turkish(tested, code)
    assert g.feedback == (
        "6 testten 1 tanesi başarısız:",
        "Gizli “refuses scores that are not square” testi başarısız: ValueError hatası "
        "bekleniyordu, ama hiçbir hata fırlatılmadı. Yaptığı çağrı: "
        "`causal_softmax(np.array([[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]))`.",
    )


def test_python_values_and_the_count_of_failing_tests_in_turkish(tmp_path):
    from .test_function_values import function_lesson

    tests = "".join(f'@test("t{i}")\ndef t{i}():\n    return f({i})\n\n' for i in range(3))
    lesson = function_lesson(tmp_path, "def f(x):\n    return [x, {'k': x}]\n", tests)
    g = in_turkish(lesson, "def f(x):\n    return [x, {'k': -x}] if x else (x,)\n")
    assert g.feedback == (
        "3 testten 3 tanesi başarısız:",
        "“t0” testi yanlış bir sonuç alıyor — sonuç: değer (0,) (türü `tuple`), oysa "
        "[0, {'k': 0}] (türü `list`) bekleniyor. Yaptığı çağrı: `f(0)`.",
        "“t1” testi yanlış bir sonuç alıyor — sonucun `[1]['k']` öğesi: değer -1, oysa 1 "
        "bekleniyor. Yaptığı çağrı: `f(1)`.",
        "“t2” testi yanlış bir sonuç alıyor — sonucun `[1]['k']` öğesi: değer -2, oysa 2 "
        "bekleniyor. Yaptığı çağrı: `f(2)`.",
    )
