"""The seating policy both tables use (pishe.table.seating): who plays a seat now, whose
clock runs, and when timeouts hand a person's seat to a computer until they take over."""

import json

from pishe.table.seating import TIMEOUTS_TO_AUTOPILOT, Seating


def test_people_computers_clocks_and_autopilot():
    seating = Seating([0, 2], clock=30)
    assert [seating.by_computer(s) for s in range(4)] == [False, True, False, True]
    assert [seating.clock_runs(s) for s in range(4)] == [True, False, True, False]
    assert seating.by_computer(2, absent=True) and not seating.clock_runs(2, absent=True)
    for n in range(1, TIMEOUTS_TO_AUTOPILOT):
        seating.timed_out(2)
        assert seating.timeouts(2) == n and not seating.autopilot(2) and not seating.by_computer(2)
    seating.timed_out(2)
    assert seating.autopilot(2) and seating.by_computer(2) and not seating.clock_runs(2)
    seating.played(2)                   # a move of their own takes the seat back
    assert not seating.autopilot(2) and seating.timeouts(2) == 0 and seating.clock_runs(2)
    seating.timed_out(0)
    seating.take_over(0)
    assert seating.timeouts(0) == 0
    assert not Seating([0]).clock_runs(0)      # no clock: nobody's runs


def test_the_computer_table_and_the_host_follow_it():
    import pishe.web as web
    from pishe.table.protocol import Host

    answer = json.loads(web.new_match("51", 3, "pisti", 15))
    while answer["view"]["turn"] != 0:
        answer = json.loads(web.computer_step())
    for _ in range(TIMEOUTS_TO_AUTOPILOT):
        while answer["view"]["turn"] != 0:
            answer = json.loads(web.computer_step())
        assert answer["clock"]["seat"] == 0 and not answer["autopilot"]
        answer = json.loads(web.timeout())
    assert answer["autopilot"] and answer["computer_moves"] and answer["clock"] is None
    assert json.loads(web.take_over())["autopilot"] is False
    host = Host("pisti", "51", guest_seats=[2], clock=15)
    assert host.clock == host.seating.clock == 15 and host.seating.people == {0, 2}
