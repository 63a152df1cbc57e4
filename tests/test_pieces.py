"""Module pieces (FORMAT.md section 1, "Module pieces"): header contents
between functions.

Each encoding carries them where they are (the round trips through every
pair of encodings keep their places byte for byte), every module stage
passes them through in order, a stage that collects the module puts them in
its header, bad pieces are refused with a position, and c2ast streams: each
function goes out after a piece with the data and externs it added, so the
next stage starts before c2ast has converted the whole file.
"""
import itertools
import json
import re
import subprocess

import pytest

from conftest import ROOT, run_tool, tool_path

PIECES = ROOT / "tests" / "formats" / "pieces.txt"
ENCODINGS = ["json", "bin", "text"]


def convert(data, encoding, *extra):
    return run_tool("pipe-fmt", "-", "-f", encoding, *extra, input=data, check=0).stdout


def test_pieces_keep_their_places_through_every_encoding():
    text = convert(PIECES.read_bytes(), "text")
    # Two pieces: before g, and after the last function.
    assert text.count(b"\n\nfile 1 \"b.h\"\nextern function puts(ptr) -> i32\n") == 1
    assert text.rstrip().endswith(b"data late size 8 align 8 reloc 0 f+0")
    for order in itertools.permutations(ENCODINGS):
        current = text
        for encoding in order:
            current = convert(current, encoding)
        assert convert(current, "text") == text, f"through {' -> '.join(order)} the pieces moved"


def test_json_piece_element():
    module = json.loads(convert(PIECES.read_bytes(), "json"))
    elements = module["functions"]
    assert [("piece" if "piece" in e else e["name"]) for e in elements] == ["f", "piece", "g", "piece"]
    assert list(elements[1]["piece"]) == ["files", "externs", "data"]
    assert elements[3]["piece"]["data"][0]["name"] == "late"
    assert module["files"] == ["a.c"] and [d["name"] for d in module["data"]] == [".str.0"]


def test_binary_piece_frames():
    data = convert(PIECES.read_bytes(), "bin")
    assert data.count(b"PIPP") == 2 and data.count(b"PIPF") == 2


@pytest.mark.parametrize("stage,args", [("pipe-verify", ["-o", "-"]), ("son-lower-x64", []), ("son2cfg", []),
                                        ("sonopt", ["-O0"])])
def test_streaming_stages_pass_pieces_through(stage, args):
    out = run_tool(stage, PIECES, *args, "-f", "text", check=0).stdout
    text = out.decode()
    assert re.search(r"^pipeline f\b.*?^}\n\nfile 1 \"b\.h\"\nextern function puts", text, re.S | re.M), text
    assert text.rstrip().endswith("data late size 8 align 8 reloc 0 f+0"), text


def test_collecting_stage_writes_pieces_in_its_header():
    """sonopt -O2 holds the whole module (module passes): one header."""
    text = run_tool("sonopt", PIECES, "-O2", "-f", "text", check=0).stdout.decode()
    header = text.split("\npipeline", 1)[0]
    for line in ('file 1 "b.h"', "extern function puts(ptr) -> i32", "data late size 8"):
        assert line in header, text
    assert "\n\nfile" not in text.split("\npipeline", 1)[1]


BAD = {
    "text-asm-after-pipeline": (b'module son\npipeline f() -> void {\n  i0 = start\n}\nasm "nop"\n', "5:1",
                                "only the file, extern and data lines of a module piece"),
    "text-piece-out-of-order": (b'module son\npipeline f() -> void {\n  i0 = start\n}\ndata d size 1 align 1\n'
                                b'extern data e\n', "6:1", "out of order"),
    "text-piece-file-number": (b'module son\nfile 0 "a.c"\npipeline f() -> void {\n  i0 = start\n}\n'
                               b'file 0 "b.c"\n', "6:", "expected file 1"),
    "json-piece-extra-key": (b'{"level": "son", "functions": [{"piece": {}, "name": "f"}]}', "1:",
                             "after 'piece'"),
    "json-piece-unknown-key": (b'{"level": "son", "functions": [{"piece": {"asm": []}}]}', "1:",
                               "unknown key 'asm' in piece"),
    "json-piece-in-function": (b'{"level": "son", "functions": [{"name": "f", "piece": {}}]}', "1:",
                               "unexpected key 'piece' in function"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_pieces_are_refused_with_a_position(case):
    data, where, message = BAD[case]
    proc = run_tool("pipe-fmt", "-", "-f", "json", input=data, check=1)
    err = proc.stderr.decode()
    assert f"<stdin>:{where}" in err and message in err, err


def test_binary_piece_as_first_frame_is_refused():
    data = bytearray(convert(PIECES.read_bytes(), "bin"))
    assert data[20:24] == b"PIPH"  # magic, frame header, then the FlatBuffer's identifier
    data[20:24] = b"PIPP"
    err = run_tool("pipe-fmt", "-", "-f", "json", input=bytes(data), check=1).stderr.decode()
    assert "byte 20" in err and "expected a module header frame, found a module piece frame" in err, err


def test_piece_after_its_use_is_refused_by_every_stage():
    data = (b'module son\npipeline f() -> void {\n  i0 = start\n  i1 = entrymem ^i0\n  i2 = symaddr "d"\n'
            b'  i3 = return ^i0, i1\n}\ndata d size 4 align 4\n')
    for stage in ("pipe-verify", "son-lower-x64", "sonopt"):
        err = run_tool(stage, "-", "-f", "text", input=data, check=1).stderr.decode()
        assert "symbol 'd' is declared by a module piece after this function" in err, (stage, err)


C_PROGRAM = r"""
#include <stdio.h>
static int counter;
static const char *name(int i) { return i ? "one" : "zero"; }
void greet(int i) { printf("hello %s\n", name(i)); }
int main(void) { greet(counter); puts("bye"); return 0; }
"""


def test_c2ast_streams_each_function_after_its_piece(tmp_path):
    src = tmp_path / "p.c"
    src.write_text(C_PROGRAM)
    text = run_tool("c2ast", src, "-f", "text", check=0).stdout.decode()
    header, *rest = text.split("\npipeline", 1)
    # Functions go out as converted (main first, then what it calls), each
    # after the piece with its literals and externs.
    assert '"zero"' not in header and "zero" not in header
    order = re.findall(r"^(?:internal )?pipeline (\S+?)\(|^data internal readonly \"?(\.str\.\d+)", text, re.M)
    names = [a or b for a, b in order]
    assert names.index("name") > names.index(".str.0"), names
    assert run_tool("pipe-verify", "-", input=text.encode(), check=0)
    # The front stages pass the pieces on; sonopt -O2 collects them.
    module = text.encode()
    for stage in ("ast2cfg", "cfg2ssa", "ssa2son"):
        module = run_tool(stage, "-", "-f", "text", input=module, check=0).stdout
    assert b"\n\nextern function puts" in module
    merged = run_tool("sonopt", "-", "-O2", "-f", "text", input=module, check=0).stdout
    assert b"\n\nextern" not in merged and b"\n\ndata" not in merged and b"extern function puts" in merged


def test_c2ast_output_is_byte_deterministic(tmp_path):
    src = tmp_path / "p.c"
    src.write_text(C_PROGRAM)
    runs = {run_tool("c2ast", src, "-f", "bin", check=0).stdout for _ in range(3)}
    assert len(runs) == 1


def test_c2ast_writes_a_function_before_it_converts_the_next(tmp_path):
    """Streaming: `main` leaves c2ast before `later` is converted, so when
    `later` is refused (by name, exit 1) main is already on stdout; a
    c2ast that converted the whole file first would have written nothing."""
    src = tmp_path / "p.c"
    src.write_text("static int later(int x) { struct { __int128 b : 3; } s; s.b = x; return s.b; }\n"
                   "int main(void) { return later(1); }\n")
    proc = run_tool("c2ast", src, "-f", "text", check=1)
    assert "bit-field 'b' of 128-bit integer type" in proc.stderr.decode()
    assert b"pipeline main() -> i32 {" in proc.stdout and b"later(" not in proc.stdout
