"""Evaluation scripts' output: their figures as JSON on stdout, and in a file when asked, and
what they were measured on (libraries, CPU)."""

from __future__ import annotations

import json
import platform
import sys
from importlib import metadata
from pathlib import Path

#: the libraries a figure depends on: the decoder, the inference runtime, the array maths
LIBRARIES = ("numpy", "opencv-python-headless", "opencv-python", "onnxruntime", "av", "pydantic")
#: CPU flags that change onnxruntime's integer kernels (without VNNI, int8 x int8 products saturate:
#: models/README.md, "Integer kernels on AVX2-only CPUs")
CPU_FLAGS = ("avx2", "avx512f", "avx512_vnni", "avx_vnni")


def _cpu(cpuinfo: Path) -> dict:
    """The CPU's model name and which of ``CPU_FLAGS`` it has (Linux ``/proc/cpuinfo``)."""
    try:
        text = cpuinfo.read_text()
    except OSError:
        return {"model": platform.processor() or platform.machine(), "flags": None}
    model = next(
        (line.split(":", 1)[1].strip() for line in text.splitlines() if line.startswith("model name")), ""
    )
    flags = next(
        (line.split(":", 1)[1].split() for line in text.splitlines() if line.startswith("flags")), []
    )
    return {"model": model or platform.machine(), "flags": [f for f in CPU_FLAGS if f in flags]}


def measured_on(cpuinfo: Path = Path("/proc/cpuinfo")) -> dict:
    """The machine and library versions behind a figure, to print and keep beside it: figures from
    another CPU or another onnxruntime / OpenCV are not comparable (both have changed readings)."""
    versions = {}
    for name in LIBRARIES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return {"python": platform.python_version(), "libraries": versions, "cpu": _cpu(cpuinfo)}


def write_output(path: Path, text: str, prog: str) -> bool:
    """Write ``text`` to ``path``; when that fails, say so in one line on stderr (``PROG: cannot
    write PATH: why``) and return False, for the script to exit 2 after what it printed."""
    try:
        Path(path).write_text(text)
    except OSError as err:
        print(f"{prog}: cannot write {path}: {err.strerror or err}", file=sys.stderr)
        return False
    return True


def emit_figures(figures: dict, path: Path | None, prog: str) -> bool:
    """Print ``figures`` as indented JSON; also write them to ``path`` when one is given (False,
    said in one line, when it cannot be written: the figures are printed first either way)."""
    text = json.dumps(figures, indent=1)
    print(text)
    return not path or write_output(path, text + "\n", prog)


def environment_text(env: dict) -> str:
    """``measured_on()`` in one line, for a report."""
    cpu = env["cpu"]
    flags = (
        "flags unknown"
        if cpu["flags"] is None
        else "flags " + (" ".join(cpu["flags"]) or "none of " + " ".join(CPU_FLAGS))
    )
    libraries = ", ".join(f"{k} {v}" for k, v in env["libraries"].items())
    return f"{cpu['model']} ({flags}), Python {env['python']}, {libraries}"
