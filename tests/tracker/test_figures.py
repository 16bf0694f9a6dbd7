import json

from tracker.figures import emit_figures


def test_figures_are_printed_and_written_when_asked(tmp_path, capsys):
    assert emit_figures({"recall": 0.5, "clips": ["a"]}, tmp_path / "out.json", "evaluate")
    assert json.loads(capsys.readouterr().out) == {"recall": 0.5, "clips": ["a"]}
    assert json.loads((tmp_path / "out.json").read_text()) == {"recall": 0.5, "clips": ["a"]}


def test_figures_without_a_path_only_print(tmp_path, capsys):
    assert emit_figures({"n": 1}, None, "evaluate")
    assert json.loads(capsys.readouterr().out) == {"n": 1}
    assert list(tmp_path.iterdir()) == []


def test_figures_that_cannot_be_written_are_printed_then_said_in_one_line(tmp_path, capsys):
    target = tmp_path / "missing-folder" / "out.json"
    assert not emit_figures({"n": 1}, target, "evaluate")
    out = capsys.readouterr()
    assert json.loads(out.out) == {"n": 1}
    assert out.err == f"evaluate: cannot write {target}: No such file or directory\n"


def test_measured_on_names_the_cpu_flags_that_change_integer_kernels(tmp_path):
    from tracker.figures import environment_text, measured_on

    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text(
        "processor\t: 0\nmodel name\t: Some CPU 9000\nflags\t\t: fpu sse2 avx2 avx512f avx512_vnni\n"
        "processor\t: 1\nmodel name\t: Some CPU 9000\nflags\t\t: fpu sse2 avx2 avx512f avx512_vnni\n"
    )
    env = measured_on(cpuinfo)
    assert env["cpu"] == {"model": "Some CPU 9000", "flags": ["avx2", "avx512f", "avx512_vnni"]}
    assert env["libraries"]["numpy"] and env["libraries"]["onnxruntime"]  # installed with mjmon
    cpuinfo.write_text("model name\t: Old CPU\nflags\t\t: fpu sse2\n")
    assert "Old CPU (flags none of avx2 avx512f avx512_vnni avx_vnni)" in environment_text(
        measured_on(cpuinfo)
    )
    assert "flags unknown" in environment_text(measured_on(tmp_path / "absent"))
