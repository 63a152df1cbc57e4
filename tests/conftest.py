"""Shared pytest fixtures: where the built tools are, and how to run them.

The README's test command (scripts/test) builds first and exports
PIPE_BUILD_DIR (release build) and PIPE_ASAN_BUILD_DIR (sanitizer build).
Run by hand: `scripts/test` or, after a build,
`PIPE_BUILD_DIR=build /usr/bin/python3 -m pytest tests`.
"""
import os
import re
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
BUILD = pathlib.Path(os.environ.get("PIPE_BUILD_DIR", ROOT / "build"))
ASAN_BUILD = os.environ.get("PIPE_ASAN_BUILD_DIR")


def tool_path(name, build=BUILD):
    path = pathlib.Path(build) / name
    if not path.exists():
        pytest.fail(f"{path} is not built; run scripts/test")
    return str(path)


def disassembly(binary):
    """{function: [instruction text, with relocation lines]} of an object or
    program, from `objdump -dr`."""
    import subprocess
    out = subprocess.run(["objdump", "-dr", "--no-show-raw-insn", str(binary)], stdout=subprocess.PIPE,
                         check=True).stdout.decode()
    functions, current = {}, None
    for line in out.splitlines():
        m = re.match(r"^[0-9a-f]+ <(.+)>:$", line)
        if m:
            current = functions.setdefault(m.group(1), [])
        elif current is not None and ":" in line:
            current.append(line.split(":", 1)[1].strip())  # relocations: "R_X86_64_PLT32\tname-0x4"
    return functions


def run_tool(name, *args, input=None, build=BUILD, timeout=60, check=None):
    """Runs a tool; returns CompletedProcess with bytes stdout/stderr."""
    proc = subprocess.run([tool_path(name, build), *map(str, args)], input=input,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    if check is not None:
        assert proc.returncode == check, (
            f"{name} {' '.join(map(str, args))}: exit {proc.returncode}, want {check}\n"
            f"stderr:\n{proc.stderr.decode(errors='replace')}")
    return proc


def collected(module):
    """A module's JSON object with its module pieces (FORMAT.md section 1,
    "Module pieces": elements {"piece": {...}} of `functions`) moved into the
    header's lists, as a stage that collects the module sees it."""
    functions = []
    for element in module.get("functions", []):
        if "piece" not in element:
            functions.append(element)
            continue
        for key in ("files", "externs", "data"):
            module.setdefault(key, []).extend(element["piece"].get(key, []))
    module["functions"] = functions
    return module


@pytest.fixture
def tool():
    return run_tool
