from tests.tracker.live.conftest import TRUTH, VIDEO
from tracker.cli import main


def test_live_is_a_registered_command_with_the_fixed_options(capsys):
    try:
        main(["live", "--help"])
    except SystemExit as done:
        assert done.code == 0
    text = capsys.readouterr().out
    for option in ("--rules", "--host", "--port", "--db", "--replay", "--token"):
        assert option in text


def test_user_errors_are_one_line_and_exit_2(tmp_path, capsys):
    assert main(["live", str(VIDEO), "--host", "0.0.0.0", "--replay", str(TRUTH)]) == 2
    assert "--allow-remote" in capsys.readouterr().err
    assert main(["live", str(VIDEO), "--replay", str(tmp_path / "none.json")]) == 2
    assert "cannot read the truth file" in capsys.readouterr().err
    (tmp_path / "x.json").write_text("{}")
    assert main(["live", str(VIDEO), "--replay", str(tmp_path / "x.json")]) == 2
    assert "not a truth.json" in capsys.readouterr().err
    assert main(["live", "rtsp://127.0.0.1:1/table", "--db", str(tmp_path / "a.sqlite")]) == 2
    assert "needs a saved calibration" in capsys.readouterr().err
    (tmp_path / "broken.mp4").write_bytes(b"not a video")
    assert (
        main(["live", str(tmp_path / "broken.mp4"), "--replay", str(TRUTH), "--db", str(tmp_path / "b")]) == 2
    )
    assert "cannot open this video" in capsys.readouterr().err


def test_a_port_in_use_is_a_one_line_error(tmp_path, capsys):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        argv = ["live", str(VIDEO), "--replay", str(TRUTH), "--db", str(tmp_path / "a"), "--port", str(port)]
        assert main(argv) == 2
    captured = capsys.readouterr()
    assert f"cannot serve on 127.0.0.1:{port}" in captured.err
    assert "token" not in captured.out  # nothing claims to be serving
