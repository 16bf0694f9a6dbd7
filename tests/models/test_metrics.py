import numpy as np

from models.metrics import count_image, greedy_match, iou_matrix, unmatched_detections


def test_iou_matrix():
    a = np.array([[0, 0, 10, 10]], float)
    b = np.array([[0, 0, 10, 10], [5, 0, 15, 10], [20, 20, 30, 30]], float)
    assert iou_matrix(a, b)[0].tolist() == [1.0, 50 / 150, 0.0]


def test_greedy_match_is_one_to_one_best_first():
    iou = np.array([[0.9, 0.6], [0.8, 0.55]])
    pairs = greedy_match(iou, np.ones_like(iou, bool))
    assert sorted(map(tuple, pairs.tolist())) == [(0, 0), (1, 1)]


def test_counts_correct_needs_iou_and_code():
    truth = np.array([[0, 0, 10, 14], [20, 0, 30, 14], [40, 0, 50, 14]], float)
    found = np.array([[0, 0, 10, 14], [21, 0, 31, 14], [60, 0, 70, 14], [40, 8, 50, 22]], float)
    c = count_image(truth, ["1m", "E", "5p"], found, ["1m", "S", "9s", "5p"])
    # 1m right; E matched by box but wrong code; 5p box IoU too low; 9s is a false detection
    assert (c.truths, c.detections, c.matched, c.correct) == (3, 4, 2, 1)
    s = c.summary()
    assert s["correct_recall"] == round(1 / 3, 4) and s["correct_precision"] == 0.25
    assert s["class_accuracy_on_matched"] == 0.5


def test_empty_sides():
    c = count_image(np.zeros((0, 4)), [], np.array([[0, 0, 1, 1]], float), ["1m"])
    assert (c.truths, c.detections, c.correct) == (0, 1, 0)


def test_unmatched_detections_are_those_not_counted_correct():
    truth = np.array([[0, 0, 10, 14], [20, 0, 30, 14], [40, 0, 50, 14]], float)
    found = np.array([[0, 0, 10, 14], [21, 0, 31, 14], [60, 0, 70, 14], [40, 8, 50, 22]], float)
    rows = unmatched_detections(truth, ["1m", "E", "5p"], found, ["1m", "S", "9s", "5p"])
    # the S on the E (misread), the 9s on nothing, the 5p off its tile (IoU 60/220)
    assert [(d, code) for d, _, code in rows] == [(1, "E"), (2, None), (3, "5p")]
    assert rows[2][1] == round(60 / 220, 3) and rows[1][1] == 0.0
    assert len(rows) == 4 - count_image(truth, ["1m", "E", "5p"], found, ["1m", "S", "9s", "5p"]).correct
    assert unmatched_detections(np.zeros((0, 4)), [], found[:1], ["1m"]) == [(0, 0.0, None)]
