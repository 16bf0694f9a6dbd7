import asyncio
import json

from tracker.live.hub import Hub


def test_a_stalled_client_loses_its_backlog_for_a_snapshot_and_never_blocks_the_publisher():
    async def scenario():
        state = {"n": 0}
        hub = Hub(lambda: json.dumps({"type": "snapshot", "n": state["n"]}), queue_size=8)
        hub.bind(asyncio.get_running_loop())
        stalled, reader = hub.add(), hub.add()
        got = []
        for n in range(1, 101):
            state["n"] = n
            hub.publish(json.dumps({"type": "update", "n": n}))
            await asyncio.sleep(0)  # the fan-out runs on the loop
            while not reader.queue.empty():
                got.append(json.loads(reader.queue.get_nowait()))
        return hub, stalled, got

    hub, stalled, got = asyncio.run(scenario())
    assert [m["n"] for m in got if m["type"] == "update"] == list(range(1, 101))  # the reader lost nothing
    assert stalled.queue.qsize() <= 8 and stalled.dropped > 80
    backlog = [json.loads(stalled.queue.get_nowait()) for _ in range(stalled.queue.qsize())]
    snapshots = [m for m in backlog if m["type"] == "snapshot"]
    assert snapshots and snapshots[-1]["n"] >= 90  # it resumes from a fresh state, not a stale backlog


def test_publishing_before_the_loop_is_bound_is_a_no_op():
    hub = Hub(lambda: "{}")
    hub.publish("{}")
    assert hub.dropped == 0
