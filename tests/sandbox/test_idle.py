"""The idle-core meter that decides whether a spare warms up (sandbox/idle.py)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from codeblanks.sandbox import idle
from codeblanks.sandbox.config import SandboxConfig
from codeblanks.sandbox.spare_pool import _warm_up_now

STAT = "cpu  {user} 0 {system} {idle} {iowait} 0 0 0 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\nintr 1\n"


def test_the_first_line_gives_idle_with_iowait_and_the_total():
    assert idle.read_stat(STAT.format(user=10, system=5, idle=80, iowait=5)) == (85, 100)


@pytest.mark.parametrize(
    "text", ["", "intr 1 2 3\n", "cpu 1 2\n", "cpu 1 2 3 4\n", "cpu a b c d e f g h\n"]
)
def test_a_stat_file_it_cannot_read_is_an_error_not_a_guess(text):
    with pytest.raises(ValueError):
        idle.read_stat(text)


@given(st.integers(0, 10_000), st.integers(1, 10_000), st.integers(1, 64))
def test_idle_cores_is_the_idle_share_of_the_cores(idle_ticks, busy_ticks, cores):
    before = (1000, 5000)
    after = (1000 + idle_ticks, 5000 + idle_ticks + busy_ticks)
    value = idle.idle_cores(before, after, cores)
    assert value == pytest.approx(cores * idle_ticks / (idle_ticks + busy_ticks))
    assert 0 <= value < cores


def test_no_tick_between_readings_tells_nothing():
    assert idle.idle_cores((5, 10), (5, 10), 2) is None


def readings(tmp_path, monkeypatch, lines):
    """A meter on a stat file rewritten before each reading, with a clock moved a second."""
    path = tmp_path / "stat"
    clock = iter(range(0, 100))
    monkeypatch.setattr(idle.time, "monotonic", lambda: float(next(clock)))
    meter = idle.IdleMeter(2, str(path))
    out = []
    for busy, quiet in lines:
        path.write_text(STAT.format(user=busy, system=0, idle=quiet, iowait=0))
        out.append(meter.idle_cores())
    return out


def test_the_meter_reads_the_time_since_its_last_reading(tmp_path, monkeypatch):
    # two cores: 100 ticks a second in all; a quiet second, then one at 80 % busy
    got = readings(tmp_path, monkeypatch, [(0, 0), (10, 90), (90, 110)])
    assert got[0] is None  # nothing to compare the first reading with
    assert got[1] == pytest.approx(1.8)
    assert got[2] == pytest.approx(0.4)


def test_auto_warms_a_spare_only_while_the_machine_sat_mostly_idle(tmp_path, monkeypatch):
    path = tmp_path / "stat"
    monkeypatch.setattr(idle.time, "monotonic", iter([0.0, 1.0, 2.0, 3.0]).__next__)
    meter = idle.IdleMeter(2, str(path))
    auto = SandboxConfig(warm_up="auto")
    monkeypatch.setattr(SandboxConfig, "cores", property(lambda self: 2))
    path.write_text(STAT.format(user=0, system=0, idle=0, iowait=0))
    meter.idle_cores()
    path.write_text(STAT.format(user=20, system=0, idle=80, iowait=0))  # 20 % busy: 1.6 idle
    assert _warm_up_now(auto, meter) is True
    path.write_text(STAT.format(user=60, system=0, idle=140, iowait=0))  # 40 % busy: 1.2 idle
    assert _warm_up_now(auto, meter) is False
    path.write_text(STAT.format(user=120, system=0, idle=180, iowait=0))  # 60 % busy: 0.8 idle
    assert _warm_up_now(auto, meter) is False
    assert _warm_up_now(SandboxConfig(warm_up="always"), meter) is True
    assert _warm_up_now(SandboxConfig(warm_up="never"), meter) is False


@pytest.mark.parametrize(("load", "warm"), [(0.3, True), (1.2, False), (1000.0, False)])
def test_without_proc_stat_auto_falls_back_to_the_load_average(tmp_path, monkeypatch, load, warm):
    monkeypatch.setattr(SandboxConfig, "cores", property(lambda self: 2))
    meter = idle.IdleMeter(2, str(tmp_path / "missing"))
    monkeypatch.setattr("os.getloadavg", lambda: (load, load, load))
    assert _warm_up_now(SandboxConfig(warm_up="auto"), meter) is warm
