"""The bad-input corpus, run against every tool that reads a module, on the
release build and on the ASan+UBSan build.

Each case must give exit status 1 and an `error:` diagnostic naming a
position (line:col, byte offset, or function and node), within a time and
memory bound, and leave no output file. Never a crash (sanitizer reports and
signals fail the test), a hang or silent acceptance.
"""
import json
import os
import random
import resource
import struct
import subprocess

import pytest

from conftest import ASAN_BUILD, BUILD, ROOT, run_tool, tool_path

# Every tool that reads a module. pipe-run, codegen-x64 (machine code) and
# pipe-dot (a drawing) write no module: they run without -o and -f.
READERS = ["pipe-fmt", "pipe-verify", "ast2cfg", "cfg2ssa", "ssa2son", "sonopt", "son-lower-x64", "son2cfg",
           "cfgopt", "regalloc-x64", "codegen-x64", "pipe-run", "pipe-dot"]
WRITES_MODULE = {"pipe-fmt", "pipe-verify", "ast2cfg", "cfg2ssa", "ssa2son", "sonopt", "son-lower-x64", "son2cfg",
                 "cfgopt", "regalloc-x64"}
BUILDS = [pytest.param(BUILD, id="release")]
if ASAN_BUILD:
    BUILDS.append(pytest.param(ASAN_BUILD, id="asan"))

MEMORY_LIMIT = 1 << 30


def gen(fmt, seed=4, level="ssa", nodes=120, functions=2):
    return run_tool("pipe-gen", "--seed", seed, "--level", level, "--nodes", nodes,
                    "--functions", functions, "-f", fmt, check=0).stdout


def text_fn(body, level="son", sig="f() -> void"):
    return f"module {level}\npipeline {sig} {{\n{body}\n}}\n".encode()


def bare_json(nodes, **extra):
    return json.dumps({"nodes": nodes, **extra}).encode()


def node(opcode, control=(), literals=(), inputs=()):
    return {"opcode": opcode, "control": list(control), "literals": list(literals), "inputs": list(inputs)}


def corpus():
    """name -> (input bytes, substring the diagnostic must contain)."""
    cases = {
        "empty-json-object": (b"{}", "error:"),
        "garbage": (bytes(random.Random(1).randrange(256) for _ in range(4000)), "error:"),
        "nul-bytes": (b"\0" * 100, "error:"),
        "json-not-an-object": (b"{\"nodes\": 5}", "1:"),
        "json-trailing-garbage": (bare_json([node("start")]) + b" xyz", "error:"),
        "json-negative-id": (bare_json([node("start"), node("jump", control=[-1])]), "error:"),
        "json-dangling-id": (bare_json([node("start"), node("jump", control=[7])]), "i1"),
        "json-huge-id": (bare_json([node("start"), node("jump", control=[2 ** 40])]), "error:"),
        "json-float-id": (bare_json([node("start"), node("jump", control=[0.5])]), "error:"),
        "json-string-opcode-number": (bare_json([{"opcode": 5}]), "error:"),
        "json-deep-nesting": (b'{"nodes": [{"opcode": "x", "literals": [' + b"[" * 100000 + b"]" * 100000
                              + b"]}]}", "error:"),
        "json-deep-nesting-unclosed": (b"[" * 100000, "error:"),
        "json-bad-version": (b'{"format": "pipe", "version": 99, "level": "son", "functions": []}', "version"),
        "json-bad-level": (b'{"format": "pipe", "version": 1, "level": "nope", "functions": []}', "level"),
        "json-unknown-key": (bare_json([node("start")], nodse=1), "nodse"),
        "json-nan-literal": (b'{"nodes": [{"opcode": "const", "literals": ["i32", NaN]}]}', "error:"),
        "text-missing-equals": (text_fn("  i0 start"), "3:"),
        "text-dangling-ref": (text_fn("  i0 = start\n  i1 = jump ^i9"), "4:"),
        "text-negative-id": (text_fn("  i0 = start\n  i1 = jump ^i-1"), "4:"),
        "text-huge-id": (text_fn("  i0 = start\n  i99999999999999 = jump ^i0"), "4:"),
        "text-literal-after-input": (text_fn("  i0 = start\n  i1 = const \"i32\", 1\n  i2 = add i1, \"i32\", i1"),
                                     "5:"),
        "text-unterminated-string": (text_fn("  i0 = start\n  i1 = const \"i32, 1"), "4:"),
        "text-unclosed-pipeline": (b"module son\npipeline f() -> void {\n  i0 = start\n", "error:"),
        "text-duplicate-label": (text_fn("  i0 = start\n  i0 = start"), "4:"),
        "text-deep-literal": (text_fn("  i0 = start\n  i1 = x.y " + "[" * 100000 + "]" * 100000), "4:"),
        "text-unknown-level": (b"module quantum\n", "1:"),
        "verify-wrong-literal-kind": (text_fn("  i0 = start\n  i1 = const 5, \"i32\""), "i1"),
        "verify-cycle": (text_fn("  i0 = start\n  i1 = add \"i32\", i2, i2\n  i2 = add \"i32\", i1, i1"), "i1"),
        "verify-unknown-opcode": (text_fn("  i0 = start\n  i1 = frobnicate"), "i1"),
        "bin-bad-magic-tail": (b"PIPEBIN\0" + b"\xff" * 16, "byte"),
        "bin-only-magic": (b"PIPEBIN\0", "byte"),
        "bin-gigabyte-frame": (b"PIPEBIN\0" + struct.pack("<I", 1 << 30) + b"\0" * 64, "byte"),
        "bin-max-frame": (b"PIPEBIN\0" + struct.pack("<I", 0xFFFFFFFF) + b"\0" * 64, "byte"),
    }
    binary = gen("bin")
    json_text = gen("json")
    text = gen("text")
    for cut in sorted({9, 13, 40, len(binary) // 3, len(binary) // 2, len(binary) - 5, len(binary) - 1}):
        cases[f"bin-truncated-{cut}"] = (binary[:cut], "byte")
    for cut in sorted({1, 10, len(json_text) // 2, len(json_text) - 3, len(json_text.rstrip()) - 1}):
        cases[f"json-truncated-{cut}"] = (json_text[:cut], "error:")
    for cut in sorted({len(text) // 2, len(text.rstrip()) - 1}):
        cases[f"text-truncated-{cut}"] = (text[:cut], "error:")
    cases["bin-trailing-garbage"] = (binary + b"junk", "byte")
    cases["bin-invalid-utf8"] = ((ROOT / "tests" / "data" / "invalid-utf8.bin").read_bytes(), "error:")
    return cases


CORPUS = corpus()


def limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def run_bad(build, name, data, tmp_path):
    out = tmp_path / "out"
    is_asan = build != BUILD
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0:abort_on_error=0:exitcode=99",
               UBSAN_OPTIONS="halt_on_error=1:exitcode=98:print_stacktrace=1")
    args = ["-", "-o", str(out), "-f", "json"] if name in WRITES_MODULE else ["-"]
    proc = subprocess.run([tool_path(name, build), *args], input=data,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60, env=env,
                          preexec_fn=None if is_asan else limit_memory)
    if proc.returncode != 0:
        assert not out.exists(), "a failed run left an output file"
    return proc


@pytest.mark.parametrize("build", BUILDS)
@pytest.mark.parametrize("name", READERS)
@pytest.mark.parametrize("case", sorted(CORPUS))
def test_bad_input_is_diagnosed(build, name, case, tmp_path):
    data, expected = CORPUS[case]
    proc = run_bad(build, name, data, tmp_path)
    err = proc.stderr.decode(errors="replace")
    assert proc.returncode == 1, f"exit {proc.returncode}\n{err}"
    assert f"{name}: <stdin>" in err and "error:" in err, err
    # A stage that takes one level may refuse the header's level before it
    # reaches the damage further on; that is a correct diagnosis too.
    refused_level = name not in ("pipe-fmt", "pipe-verify") and "expected a module at level" in err
    assert expected in err or refused_level, f"want {expected!r} in:\n{err}"
    assert "Sanitizer" not in err and "runtime error" not in err, err


@pytest.mark.parametrize("build", BUILDS)
def test_binary_word_corruption_never_crashes(build, tmp_path):
    """Every 4-byte word of a small binary module overwritten in turn with a
    huge count (as a corrupted vector length would be): each run either
    succeeds or fails cleanly, never crashes or runs away with memory."""
    binary = bytearray(gen("bin", nodes=40, functions=1))
    for offset in range(8, len(binary) - 4, 4 if build == BUILD else 12):
        corrupt = bytearray(binary)
        corrupt[offset:offset + 4] = struct.pack("<I", 0x40000000)
        proc = run_bad(build, "pipe-fmt", bytes(corrupt), tmp_path)
        err = proc.stderr.decode(errors="replace")
        assert proc.returncode in (0, 1), f"offset {offset}: exit {proc.returncode}\n{err}"
        if proc.returncode == 1:
            assert "error:" in err
        (tmp_path / "out").unlink(missing_ok=True)


@pytest.mark.parametrize("build", BUILDS)
def test_binary_string_must_be_utf8(build):
    """Found by scripts/fuzz-readers: the binary reader took a string literal
    that is not UTF-8, which JSON and text (rightly) cannot carry, so the
    module could not be converted. Every reader now rejects it."""
    data = (ROOT / "tests" / "data" / "invalid-utf8.bin").read_bytes()
    proc = run_tool("pipe-fmt", "-", "-f", "text", "--no-verify", input=data, build=build, check=1)
    assert b"byte" in proc.stderr and b"string is not valid utf-8" in proc.stderr


SIGNATURE_CASES = {
    "data-extern-with-signature": (
        {"externs": [{"name": "environ", "kind": "data",
                      "signature": {"params": [], "result": "void", "variadic": False}}]},
        "extern 'environ': error: a data extern cannot have a signature"),
    "extern-bad-param": (
        {"externs": [{"name": "g", "kind": "function",
                      "signature": {"params": ["i7"], "result": "i32", "variadic": False}}]},
        "extern 'g': error: parameter 0 has an invalid type: 'i7' does not start with a value type"),
    "extern-sret-not-first": (
        {"externs": [{"name": "g", "kind": "function",
                      "signature": {"params": ["i32", "ptr sret(8,8)"], "result": "void", "variadic": False}}]},
        "extern 'g': error: parameter 1 has an invalid type: 'ptr sret(8,8)': 'sret' is valid only on parameter 0"),
    "extern-attribute-not-canonical": (
        {"externs": [{"name": "g", "kind": "function",
                      "signature": {"params": ["ptr byval(8, 8)"], "result": "void", "variadic": False}}]},
        "extern 'g': error: parameter 0 has an invalid type: 'ptr byval(8, 8)': the alignment must be a decimal"),
    "function-bad-result": (
        {"functions": [{"name": "f", "signature": {"params": [], "result": "float", "variadic": False},
                        "nodes": [{"opcode": "start"}]}]},
        "function 'f': signature: error: result type 'float' is neither a value type nor void"),
}


@pytest.mark.parametrize("case", sorted(SIGNATURE_CASES))
def test_signature_rules_hold_in_every_reader(case):
    """Found by scripts/fuzz-readers: the JSON reader took signatures the
    binary and printable readers refuse (and the printable form cannot
    express), so such a module could not be converted. The rule is now a
    structural one (check_header_structure, check_structure) for all."""
    extra, message = SIGNATURE_CASES[case]
    module = {"format": "pipe", "version": 1, "level": "son", **extra}
    module.setdefault("functions", [])  # last: the module streams
    proc = run_tool("pipe-fmt", "-", "-f", "text", "--no-verify", input=json.dumps(module).encode(), check=1)
    assert message in proc.stderr.decode(), proc.stderr.decode()
