"""c2ast, the C front end (stages/c2ast): its command line, its errors, what
reaches the module, deep nesting, and a few front-end corner-case programs
run through the whole pipeline against gcc.

- tests/c2ast/*.c: one file per unsupported construct or clang error; the
  first line says `/* expect: LINE:COL: error: MESSAGE */` and c2ast must
  print exactly `c2ast: FILE:LINE:COL: error: MESSAGE`, exit 1 and leave no
  output file.
- tests/c2ast/programs/*.c: programs whose output must match gcc's at the
  cfg, ssa and son levels (tests/c/pipeline.py runs them).
- Golden printable outputs are in tests/stages/c2ast (test_stage_golden.py).
"""
import json
import pathlib
import re
import sys

import pytest

from conftest import BUILD, ROOT, collected, run_tool, tool_path

HERE = ROOT / "tests" / "c2ast"
sys.path.insert(0, str(ROOT / "tests" / "c"))
import pipeline  # noqa: E402  (tests/c/pipeline.py)

ERROR_CASES = sorted(HERE.glob("*.c"))
PROGRAMS = sorted((HERE / "programs").glob("*.c"))
# c2ast and gcc flags per program (the same for both).
PROGRAM_FLAGS = {"headers": ["-I", str(HERE / "include"), "-D", "HELPER_SCALE=5"]}


def c2ast(*args, check=None, input=None, cwd=None):
    import subprocess
    proc = subprocess.run([tool_path("c2ast"), *map(str, args)], input=input, cwd=cwd,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    if check is not None:
        assert proc.returncode == check, (
            f"c2ast {' '.join(map(str, args))}: exit {proc.returncode}, want {check}\n"
            f"stderr:\n{proc.stderr.decode(errors='replace')}")
    return proc


def module_json(*args, **kw):
    return collected(json.loads(c2ast(*args, "-f", "json", check=0, **kw).stdout))


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


# ---- errors -------------------------------------------------------------------------

def expected_error(path):
    first = path.read_text().splitlines()[0]
    m = re.fullmatch(r"/\* expect: (\d+:\d+: error: .*) \*/", first)
    assert m, f"{path.name}: the first line must be /* expect: LINE:COL: error: MESSAGE */"
    return m.group(1)


@pytest.mark.parametrize("path", ERROR_CASES, ids=lambda p: p.stem)
def test_error_is_reported_at_its_location(path, tmp_path):
    out = tmp_path / "out.bin"
    proc = c2ast(path.name, "-o", out, cwd=HERE, check=1)
    assert proc.stderr.decode() == f"c2ast: {path.name}:{expected_error(path)}\n"
    assert not out.exists(), "a failed run must leave no output file"
    assert list(tmp_path.iterdir()) == [], "no temporary file left behind either"


def test_every_unsupported_construct_of_the_issue_has_a_case():
    names = {p.stem for p in ERROR_CASES}
    for construct in ["float", "bitfield_sizeof", "vla", "inline_asm", "computed_goto", "statement_expression",
                      "complex", "atomic", "int128", "syntax_error"]:
        assert construct in names


def test_missing_input_file(tmp_path):
    proc = c2ast(tmp_path / "nope.c", check=1)
    assert b"nope.c: error: cannot open" in proc.stderr


def test_bad_standard_is_clangs_error(tmp_path):
    src = write(tmp_path, "a.c", "int main(void) { return 0; }\n")
    proc = c2ast(src, "-std=c99x", check=1)
    assert proc.stderr.decode() == "c2ast: error: invalid value 'c99x' in '-std=c99x'\n"


def test_several_clang_errors_are_all_printed(tmp_path):
    src = write(tmp_path, "two.c", "int f(void) { return x; }\nint g(void) { return y; }\n")
    lines = c2ast("two.c", cwd=tmp_path, check=1).stderr.decode().splitlines()
    assert lines == ["c2ast: two.c:1:22: error: use of undeclared identifier 'x'",
                     "c2ast: two.c:2:22: error: use of undeclared identifier 'y'"]


# ---- command line ---------------------------------------------------------------------

def test_help_and_version():
    out = c2ast("--help", check=0).stdout
    assert b"Example:" in out and b"-I" in out and b"--std" in out
    assert c2ast("--version", check=0).stdout.startswith(b"c2ast")
    c2ast("--no-such-flag", check=2)


def test_stdin_and_text_output():
    out = c2ast("-", "-f", "text", input=b"int main(void) { return 3; }\n", check=0).stdout.decode()
    assert out.startswith('module ast\nfile 0 "<stdin>"\n')
    assert "ast:return" in out


def test_include_define_undefine_and_std(tmp_path):
    inc = tmp_path / "inc"
    inc.mkdir()
    (inc / "k.h").write_text("#define K 7\n")
    src = write(tmp_path, "a.c", "#include \"k.h\"\n#ifdef GONE\n#error gone\n#endif\n"
                "int main(void) { return K + N + __STDC_VERSION__ / 100000; }\n")
    # -I DIR and -IDIR, -D NAME=VALUE, -U, and clang's -std= spelling.
    for args in (["-I", inc], [f"-I{inc}"]):
        text = c2ast(src, *args, "-D", "N=2", "-DGONE", "-U", "GONE", "-std=c99", "-f", "text", check=0).stdout
        consts = re.findall(r'ast:const "i(?:32|64)", (\d+)', text.decode())
        assert consts == ["7", "2", "199901", "100000"]
    c2ast(src, "-I", inc, "-DN=1", "-DGONE", check=1)


# What c2ast implements, what it refuses: __has_builtin and __has_attribute
# answer from the same tables the conversion dispatches on
# (stages/c2ast/builtins.cpp, attributes.cpp).
SUPPORTED_BUILTINS = ["__builtin_assume", "__builtin_expect", "__builtin_popcountll", "__builtin_clz",
                      "__builtin_bswap64", "__builtin_rotateleft32", "__builtin_add_overflow",
                      "__builtin_umulll_overflow", "__builtin_constant_p", "__builtin_object_size",
                      "__builtin_alloca", "__builtin_frame_address", "__builtin_memcpy", "memcpy",
                      "__builtin_sqrt", "__builtin_isnan", "__builtin_creal", "__builtin_unreachable",
                      "__builtin_va_arg", "__builtin_offsetof", "__builtin_choose_expr", "__sync_fetch_and_add",
                      "__atomic_load_n", "__c11_atomic_fetch_add", "__atomic_thread_fence",
                      "__builtin_shufflevector", "__builtin_ia32_paddsw128", "__builtin_ia32_pmovmskb128",
                      "__builtin_setjmp", "__builtin_longjmp", "__builtin_return_address"]
REFUSED_BUILTINS = ["__builtin_unwind_init", "__builtin_apply_args", "__builtin_ia32_pause", "__builtin_clzs",
                    "__builtin_ia32_aesenc128", "__builtin_no_such_thing", "__atomic_fetch_max",
                    "__sync_fetch_and_add_16"]
SUPPORTED_ATTRIBUTES = ["packed", "__packed__", "aligned", "noinline", "cleanup", "const", "noclone", "format",
                        "tls_model"]
REFUSED_ATTRIBUTES = ["weakref", "__transparent_union__", "ifunc", "no_such_attribute"]


def feature_probe(tests):
    return "".join(f"#if {test}\nyes {i}\n#else\nno {i}\n#endif\n" for i, test in enumerate(tests))


def test_feature_tests_answer_from_our_tables(tmp_path):
    tests = ([f"__has_builtin({b})" for b in SUPPORTED_BUILTINS + REFUSED_BUILTINS] +
             [f"__has_attribute({a})" for a in SUPPORTED_ATTRIBUTES + REFUSED_ATTRIBUTES] +
             ["__has_feature(c_static_assert)", "__has_feature(c_atomic)", "__has_feature(c_thread_local)",
              "__has_extension(c_generic_selections)", "__has_feature(address_sanitizer)",
              "defined(__has_builtin) && defined(__has_attribute)"])
    want = ["yes"] * len(SUPPORTED_BUILTINS) + ["no"] * len(REFUSED_BUILTINS)
    want += ["yes"] * len(SUPPORTED_ATTRIBUTES) + ["no"] * len(REFUSED_ATTRIBUTES)
    want += ["yes", "yes", "yes", "yes", "no", "yes"]
    src = write(tmp_path, "probe.c", feature_probe(tests))
    out = c2ast("-E", src, "--", "-P", check=0).stdout.decode().split()
    answers = [word for word in out if word in ("yes", "no")]
    assert dict(zip(tests, answers)) == dict(zip(tests, want))
    # The same answers in a compile (the preprocessor is the same), and with
    # -fno-builtin the library functions are no builtins, as for clang.
    compiled = write(tmp_path, "compiled.c", "#if __has_builtin(__builtin_assume) && !__has_builtin(__builtin_unwind_init)"
                     "\nint main(void) { return 0; }\n#endif\n")
    assert b"main()" in c2ast(compiled, "-f", "text", check=0).stdout
    nobuiltin = write(tmp_path, "nobuiltin.c", "#if __has_builtin(memcpy)\nyes\n#endif\n")
    assert b"yes" not in c2ast("-E", nobuiltin, "--", "-fno-builtin", check=0).stdout


def test_every_builtin_said_to_exist_converts_and_every_other_is_refused(tmp_path):
    """A call of each refused builtin stops with its name; the supported ones
    in SUPPORTED_BUILTINS that are calls convert (the answer and the
    dispatch read one table, so they cannot disagree)."""
    for name, call in [("__builtin_ia32_pause", "__builtin_ia32_pause()"), ("__builtin_clzs", "__builtin_clzs(3)"),
                       ("__builtin_unwind_init", "__builtin_unwind_init()")]:
        src = write(tmp_path, "r.c", f"void f(void **p) {{ {call}; }}\n")
        assert f"unsupported: builtin '{name}'" in c2ast(src, check=1).stderr.decode()
    defined = c2ast("-E", write(tmp_path, "e.c", ""), "--", "-dM", check=0).stdout.decode()
    said = {line.split()[1][len("__pipe_has_builtin_"):] for line in defined.splitlines()
            if line.startswith("#define __pipe_has_builtin_")}
    assert set(SUPPORTED_BUILTINS) <= said and not (set(REFUSED_BUILTINS) & said)
    assert "__builtin_unwind_init" not in said and "__builtin_ia32_pause" not in said


def test_output_is_verified_and_deterministic(tmp_path):
    src = ROOT / "tests" / "c2ast" / "programs" / "edges.c"
    a = c2ast(src, "-o", tmp_path / "a.bin", check=0)
    b = c2ast(src, "-o", tmp_path / "b.bin", check=0)
    assert not a.stderr and not b.stderr
    assert (tmp_path / "a.bin").read_bytes() == (tmp_path / "b.bin").read_bytes()
    run_tool("pipe-verify", tmp_path / "a.bin", check=0)
    # The three encodings carry the same module.
    text = c2ast(src, "-f", "text", check=0).stdout
    assert run_tool("pipe-fmt", tmp_path / "a.bin", "-f", "text", check=0).stdout == text


# ---- what reaches the module ---------------------------------------------------------------

def test_what_gcc_emits_from_a_header(tmp_path):
    """Every external definition, wherever written (issue 17: the header's
    unused global was dropped); static inline ones only when used."""
    m = module_json(HERE / "programs" / "headers.c", *PROGRAM_FLAGS["headers"])
    assert m["level"] == "ast"
    assert [f["name"] for f in m["functions"]] == ["main", "helper_twice"]
    assert m["functions"][1]["linkage"] == "internal"
    assert [d["name"] for d in m["data"] if not d["name"].startswith(".")] == ["helper_counter",
                                                                               "helper_unused_global"]
    assert [e["name"] for e in m["externs"]] == ["printf"]
    assert m["externs"][0]["signature"] == {"params": ["ptr"], "result": "i32", "variadic": True}
    assert m["files"][0].endswith("headers.c")


def test_externs_signatures_and_data(tmp_path):
    src = write(tmp_path, "x.c", """
        struct big { long a, b, c; };
        extern int counter;
        int unknown();
        struct big make(char c, short s, long l, void *p, struct big b);
        static const char *names[] = {"ab", "cd", "ab"};
        int keep(void) { return names[2][0] + counter + unknown(1) + make(1, 2, 3, 0, make(0, 0, 0, 0, (struct big){0})).a; }
        """)
    m = module_json(src)
    externs = {e["name"]: e for e in m["externs"]}
    assert externs["counter"] == {"name": "counter", "kind": "data"}
    assert "signature" not in externs["unknown"]
    assert externs["make"]["signature"] == {"params": ["ptr sret(24,8)", "i8 signext", "i16 signext", "i64", "ptr",
                                                       "ptr byval(24,8)"],
                                            "result": "void", "variadic": False}
    calls = [n["literals"] for n in m["functions"][0]["nodes"] if n["opcode"] == "ast:call"]
    make_list = "(ptr sret(24,8), i8 signext, i16 signext, i64, ptr, ptr byval(24,8))"
    assert sorted(calls) == sorted([["i32", "(i32, ...)"], ["void", make_list], ["void", make_list]]), \
        "calls carry the callee's parameter list (a callee without prototype: its arguments, variadic)"
    data = {d["name"]: d for d in m["data"]}
    strings = [d for d in m["data"] if d["name"].startswith(".str.")]
    assert len(strings) == 2, "identical string literals share one data item"
    assert all(s["readonly"] and s["linkage"] == "internal" for s in strings)
    names = data["names"]
    assert names["linkage"] == "internal" and names["size"] == 24 and not names["readonly"]
    assert [r["offset"] for r in names["relocs"]] == [0, 8, 16]
    assert names["relocs"][0]["symbol"] == names["relocs"][2]["symbol"]


def test_static_locals_and_string_initializers(tmp_path):
    src = write(tmp_path, "s.c", """
        int f(void) { static int n = 3; { static int n; n++; } return n++; }
        int g(void) { static int n; return n; }
        char text[8] = "hi";
        int *p = &((int[]){1, 2, 3})[1];
        """)
    m = module_json(src)
    data = {d["name"]: d for d in m["data"]}
    assert {"f.n", "f.n.1", "g.n"} <= set(data)
    assert data["f.n"]["init"] == "03" and data["f.n"]["linkage"] == "internal"
    assert data["text"] == {"name": "text", "linkage": "external", "size": 8, "align": 1, "readonly": False,
                            "init": "6869", "relocs": []}
    reloc = data["p"]["relocs"][0]
    assert reloc["symbol"].startswith(".compound.") and reloc["addend"] == 4


def test_unsupported_in_a_header_names_the_header(tmp_path):
    (tmp_path / "h.h").write_text("static inline int half(int x) { return x * (__float128)0.5; }\n")
    write(tmp_path, "m.c", '#include "h.h"\nint main(void) { return half(4); }\n')
    proc = c2ast("m.c", cwd=tmp_path, check=1)
    assert proc.stderr.decode() == "c2ast: ./h.h:1:42: error: unsupported: floating point type '__float128'\n"


# ---- deep nesting ---------------------------------------------------------------------------

@pytest.mark.parametrize("terms", [10_000, 100_000])
def test_long_operator_chains_do_not_overflow_the_stack(terms, tmp_path):
    chain = "+".join(["a"] * terms)
    commas = ",".join(["a"] * terms)
    ors = "||".join(["a"] * terms)
    src = write(tmp_path, "deep.c", f"int f(int a) {{ int s = {chain}; s += ({commas}); return s + ({ors}); }}\n")
    out = tmp_path / "deep.bin"
    c2ast(src, "-o", out, check=0)
    run_tool("pipe-verify", out, check=0)


def test_deep_right_nesting_and_else_if_chains(tmp_path):
    n = 20_000
    assigns = "a = " * n + "3"
    negations = "- " * n + "a"
    conds = "a ? " * n + "1" + " : 2" * n
    elifs = " else ".join(f"if (a == {i}) a = {i + 1};" for i in range(n))
    cases = " ".join(f"case {i}:" for i in range(n))
    src = write(tmp_path, "deep.c", f"int f(int a) {{ {assigns}; a = {negations}; a = {conds}; {elifs}\n"
                                    f"switch (a) {{ {cases} a++; }} return a; }}\n")
    out = tmp_path / "deep.bin"
    c2ast(src, "-o", out, check=0)
    run_tool("pipe-verify", out, check=0)


# ---- programs against gcc -------------------------------------------------------------------

@pytest.mark.parametrize("src", PROGRAMS, ids=lambda p: p.stem)
def test_program_matches_gcc(src, tmp_path):
    flags = PROGRAM_FLAGS.get(src.stem, [])
    want, problem = pipeline.gcc_behaviour(src, tmp_path / src.stem, cflags=flags)
    if problem:
        pytest.fail(problem)
    pipe = pipeline.Pipeline(src, tmp_path, c2ast_args=flags, build=BUILD)
    try:
        problem = pipe.run()
        if problem:
            pytest.fail(f"{src.name}: {problem}")
        problems = pipe.compare(want, pipe.run_levels())
    except pipeline.ToolMissing as e:
        pytest.fail(str(e))
    assert not problems, f"{src.name}:\n" + "\n".join(problems)


def test_constant_p_is_left_to_the_optimizer_only_when_optimizing():
    """__builtin_constant_p (issue 19/21): with -O2 given to clang the harmless
    operands of tests/stages/c2ast/constant_p.in.c (x, x * 2 + 1, d < 1.0 ? x
    : -x, a defined global) become `ast:op "constant_p"`; the others stay
    constants; without -O (gcc's -O0) none does."""
    src = ROOT / "tests" / "stages" / "c2ast" / "constant_p.in.c"
    optimized = run_tool("c2ast", str(src), "-f", "text", "--", "-O2").stdout.decode()
    assert optimized.count('ast:op "constant_p"') == 4, optimized
    plain = run_tool("c2ast", str(src), "-f", "text").stdout.decode()
    assert '"constant_p"' not in plain, plain
