"""The arithmetic of the hall's scale and TLS figures (bench/hall.py, bench/hall_tls.py),
without a broker: a p99 over its goal is marked, a handshake step is priced by what it
reads and writes on each hall board's chip figures."""

from bench import goals, hall_audit, hall_scale, hall_tls
from boards import load
from sim.latency import chip_of


def run(clocks, pages, p99):
    return {
        "clocks": clocks,
        "venues": 5,
        "pages": pages,
        "latency_ms_p50": 40.0,
        "latency_ms_p99": p99,
        "goal_p99_ms": hall_scale.SCALE_P99_MS,
        "meets_goal": p99 <= hall_scale.SCALE_P99_MS,
        "view_cpu_percent": 20.0,
        "broker_cpu_percent": 5.0,
        "view_resident_kib_before": 27000,
        "view_resident_kib": 33000,
    }


def test_a_p99_over_its_goal_in_any_run_is_marked_and_runs_within_are_not():
    within = dict(run(1000, 1, 100.0), p99_ms_of_each_run=[90.0, 100.0, 41.0])
    within["driver_lag_ms_p99_of_each_run"] = [3.0, 5.5, 2.0]
    # one run of three over the goal: a median would have passed it
    one_over = dict(run(2000, 16, 163.1), p99_ms_of_each_run=[40.9, 163.1, 40.6])
    one_over["driver_lag_ms_p99_of_each_run"] = [4.0, 120.0, 3.0]
    scale = {"runs": {"1000_clocks_1_pages": within, "2000_clocks_16_pages": one_over}}
    rows = hall_scale.scale_rows(scale)
    latency = [row for row in rows if row[0].endswith("edge to page, p99 of each run")]
    assert latency[0][1] == "90.0, 100.0, 41.0 ms"
    assert latency[0][2] == "≤ 100 ms" and goals.row_verdict(latency[0]) == goals.MET
    assert latency[3][1] == "40.9, 163.1, 40.6 ms"
    assert goals.row_verdict(latency[3]) == goals.MISSED
    assert goals.table(latency)[3].endswith(goals.MISS_MARK)
    assert "2,000 clocks, 16 pages" in latency[3][0]
    # the cells that did not run are said so, not judged
    assert [row[1] for row in latency[1:3]] == ["not measured"] * 2
    assert [goals.row_verdict(row) for row in latency[1:3]] == [None, None]


# A TLS 1.2 handshake's steps as the broker's flights come (bench/hall_tls.py notes them):
# the ClientHello; the broker's hello, certificate, key exchange and done with the
# client's key exchange and Finished; the session ticket and the broker's Finished.
STEPS = [
    {"read": [], "written": [1], "bytes_read": 0},
    {"read": [2, 11, 12, 14], "written": [16, 20], "bytes_read": 886},
    {"read": [4, 20], "written": [], "bytes_read": 202},
]


def test_the_step_with_the_certificate_and_the_key_exchange_takes_every_public_key_operation():
    for name in hall_tls.BOARDS:
        chip = chip_of(load(name))
        costs = [hall_tls.step_us(step, chip, 0) for step in STEPS]
        assert max(range(3), key=costs.__getitem__) == 1
        public_key = 2 * chip.TLS_ECDSA_VERIFY_US[0] + 2 * chip.TLS_SCALAR_MULT_US[0]
        assert costs[1] >= public_key
        assert costs[0] < chip.TLS_ECDSA_VERIFY_US[0] // 10
        for step in STEPS:
            assert hall_tls.step_us(step, chip, 1) >= hall_tls.step_us(step, chip, 0)


def test_the_record_buffers_follow_micropythons_mbedtls_configuration():
    assert hall_tls.IN_BUFFER == 16_384 + 13 + 16 + 64 + 256
    assert hall_tls.OUT_BUFFER == 4_096 + 13 + 16 + 64 + 256
    assert chip_of(load("pico_w")).TLS_ON_GC_HEAP and not chip_of(load("esp32")).TLS_ON_GC_HEAP


def test_a_card_older_than_a_move_published_a_second_before_is_timed_and_a_step_back_counted():
    # board 1: move 1 at 0 ms, move 2 at 1,000 ms; the page shows 1 at 100, 2 at 2,500,
    # back to 1 at 3,000 (a poll's older state), 2 again at 3,400
    published = [[0, 1, 1], [1000, 1, 2]]
    seen = [[100, 1, 1], [2500, 1, 2], [3000, 1, 1], [3400, 1, 2]]
    longest, went_back = hall_audit.stale_and_back(published, seen, 0, 5000)
    assert went_back == 1
    # older than move 2 (published at 1,000) from 2,000 to 2,500, and 3,000 to 3,400
    assert 500 <= longest <= 520
    on_time = [[100, 1, 1], [1900, 1, 2]]
    assert hall_audit.stale_and_back(published, on_time, 0, 5000) == (0, 0)
