"""CI's fixed sample of gcc's c-torture/execute (the whole suite is
scripts/torture; both use tests/torture/torture.py).

The sample (torture.sample: every 20th program by sorted name, and a fixed
list that exercises recursion, variadic functions, attributes, function
pointers and struct copies) runs at -O0, -O1 and -O2, one test per program
and level. Each is built by gcc (the baseline, cached in build/torture-src/)
and by pipecc to an object, linked and run; it passes when the result is
what tests/torture/expected-failures.list says: exit 0 and the same global
symbols as gcc's object when the program is not listed, the listed cause
when it is. A listed program that passes fails here too, until
`scripts/torture --update-expected` shrinks the list. At -O1 and -O2 pipecc
runs with --check-each: sonopt and cfgopt run the program under pipe-run
after every pass application, and one that changes what it does fails the
compile, naming the pass (a program pipe-run cannot run is compiled
unchecked, with a warning).

Programs gcc's harness would skip at a level (dg-skip-if,
dg-require-effective-target) are not collected there; a program gcc itself
cannot build or run at a level is skipped with gcc's cause.
"""
import os
import sys

import pytest

from conftest import BUILD, ROOT

sys.path.insert(0, str(ROOT / "tests" / "torture"))
import torture  # noqa: E402  (tests/torture/torture.py)


def collect():
    try:
        programs = [torture.Program(p) for p in torture.sample(torture.all_programs())]
    except (FileNotFoundError, OSError) as e:   # no gcc-12-source: one failing test says so
        return [pytest.param(None, None, str(e), id="source-missing")]
    return [pytest.param(p, level, None, id=f"{p.name}-{level}")
            for p in programs for level in torture.LEVELS if not p.skipped(level)]


@pytest.fixture(scope="module")
def expected():
    return torture.read_expected()


@pytest.fixture(scope="module")
def baseline():
    b = torture.Baseline()
    yield b
    b.save()


@pytest.mark.parametrize("program, level, missing", collect())
def test_torture(program, level, missing, expected, baseline, tmp_path):
    if missing:
        pytest.fail(missing)
    for name in ("pipecc", "regalloc-x64", "codegen-x64"):
        if not (BUILD / name).exists():
            pytest.fail(f"{BUILD / name} is not built; run scripts/test")
    base = baseline.compute(program, level, tmp_path)
    if not base.ok:
        pytest.skip(f"gcc -{level} fails too: {base.cause}")
    result = torture.build_and_run("pipecc", program, level, tmp_path, BUILD, check_each=True)
    result = torture.judge_symbols(result, base)
    problem = torture.judge(program.name, level, result, expected)
    assert problem is None, problem + "\n  reproduce: " + torture.reproduce("pipecc", program, level, BUILD)


def test_sample_is_fixed_and_large_enough():
    names = [p.stem for p in torture.sample(torture.all_programs())]
    assert names == sorted(names) and len(names) >= 90
    assert set(torture.SAMPLE_EXTRA) <= set(names)


def test_expected_list_names_programs_and_causes():
    """Every line of the list names a program of the suite, a known level,
    and a cause of one of the documented categories."""
    programs = {p.stem for p in torture.all_programs()}
    for (name, level), cause in torture.read_expected().items():
        assert name in programs, f"{name}: no such program"
        assert torture.category(cause) != "other", f"{name} -{level}: unknown cause '{cause}'"


def test_judge():
    ok, bad = torture.Result(True), torture.Result(False, "unsupported: bit-field", "c2ast: x.c:1:2: error: ...")
    listed = {("a", "O0"): "unsupported: bit-field"}
    assert torture.judge("a", "O0", bad, listed) is None
    assert "not an expected failure" in torture.judge("b", "O0", bad, listed)
    assert "passes" in torture.judge("a", "O0", ok, listed)
    assert "expected 'runtime failure: abort'" in torture.judge(
        "a", "O0", bad, {("a", "O0"): "runtime failure: abort"})
    assert torture.judge("b", "O1", ok, listed) is None


def test_clang_style_diagnostics_are_c2ast_causes():
    """pipecc prints c2ast's diagnostics as clang does, without a tool prefix."""
    assert torture.compile_cause("y.c:3:11: error: unsupported: floating point type 'double'\ndouble x;\n", 1)[0] == \
        torture.compile_cause("c2ast: y.c:3:11: error: unsupported: floating point type 'double'\n", 1)[0]
    assert torture.compile_cause("/t/y.c:1:25: error: expected expression\n", 1)[0] == "rejected by clang 14"
    assert torture.compile_cause("error: unsupported: bit-field 'b'\n1 error generated.\n", 1)[0] == \
        "unsupported: bit-field"


def test_causes_are_normalized():
    assert torture.compile_cause(
        "c2ast: /x/y.c:4:1: error: unsupported: K&R-style function definition 'special_format'\n", 1) == (
        "unsupported: K&R-style function definition",
        "c2ast: /x/y.c:4:1: error: unsupported: K&R-style function definition 'special_format'")
    assert torture.compile_cause("c2ast: y.c:3:11: error: unsupported: floating point type 'double'\n", 1)[0] == \
        "unsupported: floating point type"
    assert torture.compile_cause("c2ast: y.c:3:1: error: unsupported: builtin '__builtin_foo'\n", 1)[0] == \
        "unsupported: builtin '__builtin_foo'"
    assert torture.compile_cause("c2ast: y.c:13:3: error: function definition is not allowed here\n", 1)[0] == \
        "rejected by clang 14"
    assert torture.compile_cause("pipecc: error: unknown option '-fgnu89-inline'\n", 2)[0] == \
        "pipecc: unknown option '-fgnu89-inline'"
    stderr = ("codegen-x64: function 'f': i12: error: stack slot aligned to 32\n"
              "pipecc: internal error: stage 'codegen-x64' failed (exit status 3); the pipeline ...\n")
    assert torture.compile_cause(stderr, 3)[0] == "internal error in codegen-x64: stack slot aligned to 32"
    assert torture.runtime_cause(-6) == "runtime failure: abort"
    assert torture.runtime_cause(-11) == "runtime failure: SIGSEGV"
    assert torture.runtime_cause(1) == "runtime failure: exit 1"


def test_dg_comments():
    words = torture.tcl_words('"-O2 -fwrapv" { target { i?86-*-* x86_64-*-* } }')
    assert words == ["-O2 -fwrapv", ["target", ["i?86-*-*", "x86_64-*-*"]]]
    assert torture.selector_holds(words[1])
    assert not torture.selector_holds(["target", "ia32"])
    assert torture.selector_holds(["!", "freestanding"])
    assert not torture.selector_holds([["i?86-*-*", "x86_64-*-*"], "&&", "ia32"])


@pytest.mark.parametrize("text, level, want", [
    ('/* { dg-skip-if "requires higher optimization" { *-*-* } "-O1" "" } */', "O1", True),
    ('/* { dg-skip-if "requires higher optimization" { *-*-* } "-O1" "" } */', "O2", False),
    ('/* { dg-skip-if "requires alloca" { ! alloca } { "-O0" } { "" } } */', "O0", False),
    ('/* { dg-skip-if "requires io" { freestanding } }  */', "O0", False),
    ('/* { dg-require-effective-target ia32 } */', "O2", True),
    ('/* { dg-require-effective-target int32plus } */', "O2", False),
])
def test_skips(text, level, want, tmp_path):
    src = tmp_path / "t.c"
    src.write_text(text + "\nint main(void) { return 0; }\n")
    assert bool(torture.Program(src).skipped(level)) == want


def test_flags(tmp_path):
    src = tmp_path / "t.c"
    src.write_text('/* { dg-options "-fgnu89-inline -fno-inline" } */\n'
                   '/* { dg-additional-options "-mno-stv" { target i?86-*-* x86_64-*-* } } */\n'
                   '/* { dg-additional-options "-fpic" { target powerpc-*-* } } */\n')
    p = torture.Program(src)
    assert p.flags("gcc", "O1") == ["-O1", "-fgnu89-inline", "-fno-inline", "-mno-stv"]
    assert p.flags("pipecc", "O1") == ["-O1", "-fgnu89-inline"]
    src.write_text("int main(void) { return 0; }\n")
    assert torture.Program(src).flags("pipecc", "O2") == ["-O2", "-w"]
