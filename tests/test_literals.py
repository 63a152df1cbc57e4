"""Node literals read alike by the printable and the JSON readers.

Both readers parse array and object literals with one parser
(json_lex::read_nested): integers are exact 64-bit values (anything beyond
is an error, never a rounded float), a key given twice is an error, a float
that underflows rounds (`1e-999` reads as 0.0), nesting is limited to 128
levels counted from the literal, and the canonical text is nlohmann's compact
dump with sorted keys. Graphs are bare, with foreign opcodes, so every run
passes --no-verify.
"""
import json
import re

import pytest

from conftest import ASAN_BUILD, BUILD, run_tool

BUILDS = [pytest.param(BUILD, id="release")]
if ASAN_BUILD:
    BUILDS.append(pytest.param(ASAN_BUILD, id="asan"))

TEXT_PREFIX = "  i0 = x.note "
JSON_PREFIX = '{"nodes":[{"opcode":"x.note","literals":['


def text_graph(literal):
    """A bare printable graph whose one node carries `literal` (on line 2)."""
    return f"pipeline {{\n{TEXT_PREFIX}{literal}\n}}\n".encode()


def json_graph(literal):
    """A bare JSON graph (one line) whose one node carries `literal`."""
    return f"{JSON_PREFIX}{literal}]}}]}}".encode()


def graph(encoding, literal):
    return text_graph(literal) if encoding == "text" else json_graph(literal)


def column(encoding, literal, offset):
    """1-based column (in bytes) of byte `offset` of the literal in its line."""
    prefix = TEXT_PREFIX if encoding == "text" else JSON_PREFIX
    return len(prefix.encode()) + len(literal[:offset].encode()) + 1


def fmt(data, *args, build=BUILD, check=0):
    return run_tool("pipe-fmt", "--no-verify", *args, input=data, build=build, check=check)


def to_json(data, build=BUILD):
    return fmt(data, "-f", "json", build=build).stdout


def error_of(proc):
    """(line, col, message) of the one diagnostic of a failed run."""
    err = proc.stderr.decode(errors="replace")
    m = re.match(r"pipe-fmt: <stdin>:(\d+):(\d+): error: (.*)", err)
    assert m, f"no positioned error in:\n{err}"
    assert "Sanitizer" not in err and "runtime error" not in err, err
    return int(m.group(1)), int(m.group(2)), m.group(3)


def literal_texts(json_out):
    """Each x.note node's literals as the JSON writer wrote them (one string a
    node, literals separated by ", ")."""
    texts = []
    for line in json_out.decode().splitlines():
        if '"opcode": "x.note"' in line:
            body = line[line.index('"literals": [') + len('"literals": ['):line.rindex('], "inputs"')]
            texts.append(body)
    return texts


# ---- rejected: out-of-range integers and duplicate keys ---------------------

# literal -> (byte offset of the offending character in it, message)
REJECTED = {
    "[18446744073709551616]": (1, "integer is out of range (above 2^64-1)"),
    "[-9223372036854775809]": (1, "integer is out of range (below -2^63)"),
    '{"a":1,"a":2}': (7, "duplicate key 'a' in a literal object"),
    '[1, {"n": [0, 18446744073709551616]}]': (14, "integer is out of range (above 2^64-1)"),
    '[{"a": {"é": 1, "b": 2, "é": 3}}]': (24, "duplicate key 'é' in a literal object"),
}


@pytest.mark.parametrize("build", BUILDS)
@pytest.mark.parametrize("encoding", ["text", "json"])
@pytest.mark.parametrize("literal", sorted(REJECTED))
def test_rejected_with_position(build, encoding, literal):
    offset, message = REJECTED[literal]
    proc = fmt(graph(encoding, literal), "-f", "json", build=build, check=1)
    assert proc.stdout == b""
    line, col, got = error_of(proc)
    assert (line, col, got) == (2 if encoding == "text" else 1, column(encoding, literal, offset), message)


def test_rejected_top_level_integers():
    """The same bounds for a literal that is a plain number."""
    for literal in ["18446744073709551616", "-9223372036854775809", "1e999"]:
        for encoding in ["text", "json"]:
            proc = fmt(graph(encoding, literal), "-f", "json", check=1)
            _, col, _ = error_of(proc)
            assert col == column(encoding, literal, 0)


# ---- accepted: exact integers, unicode keys, underflow -------------------------

# literal -> its canonical text (nlohmann's compact dump, keys sorted)
ACCEPTED = {
    "[9223372036854775807, -9223372036854775808, 18446744073709551615]":
        "[9223372036854775807,-9223372036854775808,18446744073709551615]",
    '{"ü": {"z": [1, {"é": 2.50, "e": null}], "a": "x\\ty"}, "A": true, "\\u00e9": "😀", "\\ud83d\\ude00": []}':
        '{"A":true,"é":"😀","ü":{"a":"x\\ty","z":[1,{"e":null,"é":2.5}]},"😀":[]}',
    "1e-999": "0.0",
    "-1e-999": "-0.0",
    "5e-324": "5e-324",
    "[1e-999, 5e-324, -1e-999, 1.0e-400]": "[0.0,5e-324,-0.0,0.0]",
    '{"b": {}, "a": [[], {}], "": 0}': '{"":0,"a":[[],{}],"b":{}}',
}


@pytest.mark.parametrize("encoding", ["text", "json"])
@pytest.mark.parametrize("literal", sorted(ACCEPTED))
def test_accepted_and_round_trips(encoding, literal):
    source = graph(encoding, literal)
    want = to_json(source)
    assert literal_texts(want) == [ACCEPTED[literal]]
    # Through every encoding and back: the same JSON bytes.
    for via in ["json", "bin", "text"]:
        middle = fmt(source, "-f", via).stdout
        assert to_json(middle) == want, f"via {via}"
    # And the other encoding of the same literal reads the same.
    other = "json" if encoding == "text" else "text"
    assert to_json(graph(other, literal)) == want


# ---- nesting: 128 levels from the literal, in both readers -----------------------


@pytest.mark.parametrize("build", BUILDS)
def test_depth_limit_is_the_same(build):
    deep = "[" * 128 + "]" * 128
    too_deep = "[" * 129 + "]" * 129
    outputs = [to_json(graph(encoding, deep), build=build) for encoding in ["text", "json"]]
    assert outputs[0] == outputs[1]
    assert literal_texts(outputs[0]) == [deep]
    for encoding in ["text", "json"]:
        proc = fmt(graph(encoding, too_deep), "-f", "json", build=build, check=1)
        _, col, message = error_of(proc)
        assert message == "literal is nested deeper than 128 levels"
        assert col == column(encoding, too_deep, 128)
    # Objects count as levels too.
    obj_deep = '{"a":' * 128 + "1" + "}" * 128
    assert literal_texts(to_json(graph("text", obj_deep), build=build)) == [obj_deep]
    assert literal_texts(to_json(graph("json", obj_deep), build=build)) == [obj_deep]


# ---- the same errors, wherever the literal is -----------------------------------

SYNTAX = {
    '{"a" 1}': (5, "expected ':' after key 'a', found a number"),
    "[1,]": (3, "expected a value after ',' in a literal array, found ']'"),
    '{"a":1,}': (7, "expected a key string in a literal object, found '}'"),
    "[tru]": (1, "unknown word 'tru' (expected true, false or null)"),
    "[01]": (2, "expected ',' or ']' in a literal array, found a number"),
    "[1 2]": (3, "expected ',' or ']' in a literal array, found a number"),
    '{"a":1 "b":2}': (7, "expected ',' or '}' in a literal object, found a string"),
    "[NaN]": (1, "expected a JSON value, found 'NaN'"),
}


@pytest.mark.parametrize("literal", sorted(SYNTAX))
def test_same_syntax_errors(literal):
    offset, message = SYNTAX[literal]
    for encoding in ["text", "json"]:
        proc = fmt(graph(encoding, literal), "-f", "json", check=1)
        _, col, got = error_of(proc)
        assert (col, got) == (column(encoding, literal, offset), message), encoding


def test_unterminated_in_text():
    """On a line, a literal left open (or cut by a comment) is reported at its
    innermost construct still open."""
    cases = {
        "[1, [2], 3": (0, "unterminated array literal (missing ']')"),
        '[1, {"a": 2': (4, "unterminated object literal (missing '}')"),
        '[1, "ab': (4, "unterminated string (missing closing '\"')"),
        "[1, # 2]": (0, "unterminated array literal (missing ']')"),
    }
    for literal, (offset, message) in cases.items():
        proc = fmt(text_graph(literal), "-f", "json", check=1)
        assert error_of(proc) == (2, column("text", literal, offset), message)
    # A `#` inside a string is no comment.
    assert literal_texts(to_json(text_graph('["#", {"#": 1}] # note'))) == ['["#",{"#":1}]']


# ---- JSON: literals across lines and across the reader's window -------------------


def test_json_literal_spanning_lines_keeps_positions():
    data = (b'{"nodes": [\n{"opcode": "x.note", "literals": [[1,\n  2,\n   {"b": 1,\n "a": 2}]]},\n'
            b'{"opcode": "x.note", "literals": [{"k": 1,\n  "k": 2}]}]}')
    line, col, message = error_of(fmt(data, "-f", "json", check=1))
    assert (line, col, message) == (7, 3, "duplicate key 'k' in a literal object")
    ok = data.replace(b'"k": 2', b'"j": 2')
    assert literal_texts(to_json(ok)) == ['[1,2,{"a":2,"b":1}]', '{"j":2,"k":1}']


def test_json_literal_larger_than_the_window():
    """A literal of several hundred KB is read whole across refills of the
    reader's 64 KiB window, and an error at its end has its position."""
    items = ",".join(f'"{i:060d}"' for i in range(6000))
    big = f"[{items}, 18446744073709551615]"
    data = (JSON_PREFIX + big + ', {"x": [1,\n 2]}]}]}').encode()
    out = to_json(data)
    texts = literal_texts(out)
    assert texts == [json.dumps(json.loads(big), separators=(",", ":")) + ', {"x":[1,2]}']
    bad = (JSON_PREFIX + big[:-1] + ',\n  {"a": 1, "a": 2}]]}]}').encode()
    assert error_of(fmt(bad, "-f", "json", check=1)) == (2, 12, "duplicate key 'a' in a literal object")
    cut = (JSON_PREFIX + big[:300000]).encode()
    assert error_of(fmt(cut, "-f", "json", check=1))[2] == "unexpected end of input"


# ---- floating-point literals: exact bits in every encoding (FORMAT.md 2) ---------

# printable spelling -> the literal as the JSON writer writes it
FLOATS = {
    "-0.0": "-0.0",
    "0.1": "0.1",
    "5e-324": "5e-324",
    "inf": '{"float":"inf"}',
    "-inf": '{"float":"-inf"}',
    "nan": '{"float":"nan"}',
    "-nan": '{"float":"-nan"}',
    "nan(0x1)": '{"float":"nan(0x1)"}',
    "-nan(0x8000000000abc)": '{"float":"-nan(0x8000000000abc)"}',
    "nan(0x8000000000000)": '{"float":"nan"}',
    "0x1.8p+1": "3.0",
    "-0x1p-1074": "-5e-324",
    "0x1.fffffffffffffp+1023": "1.7976931348623157e+308",
    '{"float": "nan(0x2)"}': '{"float":"nan(0x2)"}',
    '{"float":"0x1p-1"}': "0.5",
    '{"float":"-0.0"}': "-0.0",
}


@pytest.mark.parametrize("literal", sorted(FLOATS))
def test_float_literal_keeps_its_bits(literal):
    want = to_json(text_graph(literal))
    assert literal_texts(want) == [FLOATS[literal]]
    for via in ["json", "bin", "text"]:
        assert to_json(fmt(text_graph(literal), "-f", via).stdout) == want, f"via {via}"
    # The JSON writer's form reads back the same, and the printable form
    # writes the spelling bare (inf, nan(0x1)), never the object.
    assert to_json(json_graph(FLOATS[literal])) == want
    printed = fmt(text_graph(literal), "-f", "text").stdout.decode()
    assert "{" not in printed.splitlines()[1]


def test_float_literals_are_distinct_by_bits(tmp_path):
    """-0.0 and 0.0, and NaNs of different payloads or signs, are different
    literals: to every encoding and to pipe-diff, which compares literals
    with the same equality; the same bits are equal."""
    def module(lit):
        path = tmp_path / f"m{len(list(tmp_path.iterdir()))}.txt"
        path.write_text(f"module son\npipeline f() -> void {{\n  i0 = start\n  i1 = entrymem ^i0\n"
                        f"  i2 = fconst \"f64\", {lit}\n  i3 = return ^i0, i1\n}}\n")
        return path
    for a, b in [("0.0", "-0.0"), ("nan", "nan(0x1)"), ("nan", "-nan"), ("inf", "-inf")]:
        assert run_tool("pipe-diff", module(a), module(b), check=1).returncode == 1, (a, b)
    assert run_tool("pipe-diff", module("nan(0x8000000000000)"), module("nan"), check=0).returncode == 0


# literal -> (byte offset of the error in it, message start)
BAD_FLOATS = {
    "nan(0xz)": (0, "invalid floating-point literal 'nan(0xz)'"),
    "-infinity": (0, "invalid floating-point literal '-infinity'"),
    "0x1.8": (0, "invalid floating-point literal '0x1.8'"),
    "nan(0x0)": (0, "invalid floating-point literal 'nan(0x0)'"),
    "nan(0x10000000000000)": (0, "invalid floating-point literal"),
    '{"float":"bogus"}': (0, "invalid floating-point spelling in {\"float\":\"bogus\"}"),
    '{"float":1}': (0, "invalid floating-point spelling in {\"float\":1}"),
}


@pytest.mark.parametrize("literal", sorted(BAD_FLOATS))
def test_malformed_float_literal_has_its_position(literal):
    offset, message = BAD_FLOATS[literal]
    encodings = ["text", "json"] if literal.startswith("{") else ["text"]
    for encoding in encodings:
        proc = fmt(graph(encoding, literal), "-f", "json", check=1)
        assert proc.stdout == b""
        line, col, got = error_of(proc)
        assert (line, col) == (2 if encoding == "text" else 1, column(encoding, literal, offset)), encoding
        assert got.startswith(message), got
