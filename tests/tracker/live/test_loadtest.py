"""The load script's one pass, small: the replay with 3 clients (one stalled) through the live
path reaches every reader and costs the web process, not the analysis."""

from tests.tracker.live.conftest import TRUTH, VIDEO


def test_one_pass_with_a_few_clients_reaches_the_readers():
    from tracker.live.loadtest import analyzer_factories, run_pass

    factory = analyzer_factories(VIDEO, TRUTH, None, ["replay"])["replay"]
    run = run_pass(VIDEO, factory, clients=3, stalled=1, paced=False, seconds=None)
    assert run["error"] is None and run["frames"] == 2739
    assert run["connected"] == 3
    assert run["messages"] > 50  # the clip's updates, ticks and source statuses
    readers = run["messages_per_client"]
    assert len(readers) == 2 and min(readers) >= run["messages"]  # each reader got every one
    assert len(run["latency_s"]) > 0 and max(run["latency_s"]) < 30
    assert len(run["serving_latency_s"]) == len(run["latency_s"]) and min(run["serving_latency_s"]) >= 0
    assert run["web_cpu_s"] > 0 and run["analysis_cpu_s"] > 0
