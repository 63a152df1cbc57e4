"""The verifier's contract, one small printable file per invariant.

Each file under tests/verify/ opens with directive comments:

    # verify: ok                      the file must verify (exit 0)
    # verify: expect errors           the file must fail (exit 1) ...
    # error: ENTITY: SUBSTRING        ... with a diagnostic at ENTITY whose
                                      message contains SUBSTRING

pipe-verify prints `pipe-verify: FILE: function 'NAME': ENTITY: error: MSG` (header entities such as `data 'x'` have no function part).
Every `# error:` must match its own diagnostic and every diagnostic must be
matched: a file produces exactly the errors it lists. The directive block is
the file's leading comment lines; a leading comment of the form `# word:`
(a word, a colon, then blank or end of line) with an unknown word is
rejected: a typo must not silently disable a check.
Other leading comments are free text.
"""
import json
import pathlib
import re

import pytest

from conftest import ASAN_BUILD, ROOT, run_tool

CASES = sorted((ROOT / "tests" / "verify").glob("*.txt"))
DIRECTIVE = re.compile(r"^#\s*([A-Za-z][A-Za-z-]*):(?:\s+(.*))?$")
KNOWN = {"verify", "error"}
# `ENTITY` never contains ": " (entities are iN, bN, cfg, dominance, graph,
# name, signature, data 'x', extern 'x').
DIAGNOSTIC = re.compile(r"^pipe-verify: .*?: (?:function '(?P<fn>[^']*)': )?(?:(?P<entity>[^:]+): )?error: (?P<msg>.*)$")


class Expectation:
    def __init__(self, ok, errors):
        self.ok = ok              # True: must verify; False: must fail
        self.errors = errors      # [(entity, substring)]


def parse_directives(path):
    ok = None
    errors = []
    for line in pathlib.Path(path).read_text().splitlines():
        if not line.startswith("#"):
            break
        m = DIRECTIVE.match(line)
        if not m:
            continue
        key, value = m.group(1), (m.group(2) or "").strip()
        if key not in KNOWN:
            raise AssertionError(f"{path.name}: unknown directive '{key}' in: {line}")
        if key == "verify":
            if value not in ("ok", "expect errors"):
                raise AssertionError(f"{path.name}: '# verify:' takes 'ok' or 'expect errors', found '{value}'")
            if ok is not None:
                raise AssertionError(f"{path.name}: two '# verify:' directives")
            ok = value == "ok"
        else:
            entity, sep, substring = value.partition(": ")
            if not sep or not entity or not substring:
                raise AssertionError(f"{path.name}: '# error:' takes 'ENTITY: SUBSTRING', found '{value}'")
            errors.append((entity.strip(), substring.strip()))
    if ok is None:
        raise AssertionError(f"{path.name}: no '# verify: ok' or '# verify: expect errors' directive")
    if ok and errors:
        raise AssertionError(f"{path.name}: '# verify: ok' with '# error:' directives")
    if not ok and not errors:
        raise AssertionError(f"{path.name}: '# verify: expect errors' lists no '# error:'")
    return Expectation(ok, errors)


def reported_errors(stderr):
    """[(entity, message)] for every `error:` line; unparsable ones keep the whole line."""
    found = []
    for line in stderr.splitlines():
        if ": error: " not in line or not line.startswith("pipe-verify: "):
            continue
        m = DIAGNOSTIC.match(line)
        found.append((m.group("entity") or "", m.group("msg")) if m else ("?", line))
    return found


def check_result(expect, returncode, stderr):
    """Assertion message if the run does not meet `expect`, else None."""
    if expect.ok:
        if returncode != 0:
            return f"want exit 0, got {returncode}:\n{stderr}"
        return None
    if returncode != 1:
        return f"want exit 1, got {returncode}:\n{stderr}"
    unmatched = list(reported_errors(stderr))
    missing = []
    for entity, substring in expect.errors:
        hit = next((d for d in unmatched if d[0] == entity and substring in d[1]), None)
        if hit is None:
            missing.append(f"{entity}: {substring}")
        else:
            unmatched.remove(hit)
    if missing or unmatched:
        return ("missing: " + "; ".join(missing) + "\nunexpected: " +
                "; ".join(f"{e}: {m}" for e, m in unmatched) + f"\nstderr:\n{stderr}")
    return None


def builds():
    return [None] + ([ASAN_BUILD] if ASAN_BUILD else [])


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.name)
def test_verify_case(path):
    expect = parse_directives(path)
    for build in builds():
        kwargs = {"build": build} if build else {}
        proc = run_tool("pipe-verify", path, **kwargs)
        problem = check_result(expect, proc.returncode, proc.stderr.decode(errors="replace"))
        assert problem is None, f"{path.name} ({build or 'release'} build): {problem}"


def test_cases_exist_for_every_level():
    levels = set()
    for path in CASES:
        m = re.search(r"^module (\S+)", path.read_text(), re.M)
        if m and parse_directives(path).ok:
            levels.add(m.group(1))
    assert {"ast", "cfg", "ssa", "son", "son-x64", "cfg-x64", "ra-x64"} <= levels


def test_unknown_directive_is_rejected(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("# verify: ok\n# eror: i1: typo\nmodule son\n")
    with pytest.raises(AssertionError, match="unknown directive 'eror'"):
        parse_directives(bad)


def test_unmatched_diagnostic_fails_the_case():
    expect = Expectation(False, [("i1", "unknown opcode")])
    stderr = ("pipe-verify: f.txt: function 'f': i1: error: unknown opcode 'x'\n    i1 = x\n"
              "pipe-verify: f.txt: function 'f': b0: error: block is unreachable from b0\n")
    assert "unexpected: b0: block is unreachable" in check_result(expect, 1, stderr)
    assert check_result(Expectation(False, [("i1", "unknown"), ("b0", "unreachable")]), 1, stderr) is None
