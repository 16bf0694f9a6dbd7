import json

from tracker.figures import emit_figures


def test_figures_are_printed_and_written_when_asked(tmp_path, capsys):
    emit_figures({"recall": 0.5, "clips": ["a"]}, tmp_path / "out.json")
    assert json.loads(capsys.readouterr().out) == {"recall": 0.5, "clips": ["a"]}
    assert json.loads((tmp_path / "out.json").read_text()) == {"recall": 0.5, "clips": ["a"]}


def test_figures_without_a_path_only_print(tmp_path, capsys):
    emit_figures({"n": 1}, None)
    assert json.loads(capsys.readouterr().out) == {"n": 1}
    assert list(tmp_path.iterdir()) == []
