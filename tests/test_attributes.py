"""GCC attributes (issue 17, item 3): implemented ones against gcc, their
trip through every stage, the hints sonopt uses.

- tests/attributes/*.c built by `pipecc -O0` and `-O2` run as gcc's build
  runs (stdout, exit status), and their objects define the same symbols
  (name, binding, type, visibility: tests/symbols.py) as gcc's objects;
- the same programs under pipe-run at the cfg, son (after sonopt -O2) and
  ra-x64 levels (constructors before main, destructors after, aliases,
  null weak references);
- the symbol attributes c2ast writes reach codegen-x64's input unchanged;
- sonopt honours noinline and always_inline.
Refused attributes are bad-input cases in tests/c2ast/attr_*.c
(test_c2ast.py checks their messages); the format's rules are
tests/verify/f_attrs_*.txt, the encodings tests/formats/symbol_attrs.txt.
"""
import re
import subprocess

import pytest

from conftest import BUILD, ROOT
from symbols import compare_symbols

PROGRAMS = sorted((ROOT / "tests" / "attributes").glob("*.c"))
FRONT = ["c2ast", "ast2cfg", "cfg2ssa", "ssa2son"]
BACK = ["son-lower-x64", "son2cfg", "cfgopt", "regalloc-x64"]


def run(argv, input=None, check=True):
    p = subprocess.run([str(a) for a in argv], input=input, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=300)
    if check:
        assert p.returncode == 0, (f"$ {' '.join(map(str, argv))}\nexit {p.returncode}\n"
                                   f"{p.stderr.decode(errors='replace')}")
    return p


def stages(src, names, extra=None):
    """The module after running `names` (c2ast first) on src, binary."""
    data = None
    for name in names:
        args = [BUILD / name] + ([src] if name == "c2ast" else ["-"]) + (extra or {}).get(name, [])
        data = run(args, input=data).stdout
    return data


def gcc_run(src, tmp_path, opt="-O0"):
    exe = tmp_path / "gcc.exe"
    run(["gcc", "-std=gnu11", opt, "-w", src, "-o", exe])
    p = run([exe], check=False)
    return p.stdout, p.returncode


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
@pytest.mark.parametrize("src", PROGRAMS, ids=lambda p: p.stem)
def test_native_against_gcc(src, opt, tmp_path):
    want = gcc_run(src, tmp_path, opt)
    exe = tmp_path / "ours.exe"
    run([BUILD / "pipecc", opt, src, "-o", exe])
    p = run([exe], check=False)
    assert (p.stdout, p.returncode) == want, f"{src.name} {opt}: pipecc's build differs from gcc's"
    gcc_o, ours_o = tmp_path / "gcc.o", tmp_path / "ours.o"
    run(["gcc", "-std=gnu11", opt, "-w", "-c", src, "-o", gcc_o])
    run([BUILD / "pipecc", opt, "-c", src, "-o", ours_o])
    problem = compare_symbols(gcc_o, ours_o)
    assert problem is None, f"symbols of {src.name} differ from gcc's ({opt}):\n{problem}"


@pytest.mark.parametrize("level", ["cfg", "son", "ra-x64"])
@pytest.mark.parametrize("src", PROGRAMS, ids=lambda p: p.stem)
def test_interpreted_against_gcc(src, level, tmp_path):
    want = gcc_run(src, tmp_path)
    names = {"cfg": FRONT[:2], "son": FRONT + ["sonopt"], "ra-x64": FRONT + ["sonopt"] + BACK}[level]
    module = stages(src, names, {"sonopt": ["-O2"]})
    p = run([BUILD / "pipe-run", "-"], input=module, check=False)
    assert (p.stdout, p.returncode) == want, (f"{src.name} at {level}: pipe-run gives {p.returncode} "
                                              f"{p.stdout[-300:]!r}\n{p.stderr.decode(errors='replace')[-2000:]}")


ATTRIBUTE_WORDS = re.compile(r" (weak|visibility \w+|used|section \"[^\"]*\"|alias \S+|constructor \d+|"
                             r"destructor \d+|hint \w+)")


def symbol_attributes(module):
    """{symbol: attribute text} of a module's externs, data and functions."""
    text = run([BUILD / "pipe-fmt", "-", "-f", "text"], input=module).stdout.decode()
    out = {}
    for line in text.splitlines():
        m = re.match(r"(?:extern (?:function|data)|data(?: internal)?(?: readonly)?|(?:internal )?pipeline) "
                     r"(\"[^\"]*\"|[^\s(]+)", line)
        if m:
            out[m.group(1)] = " ".join(ATTRIBUTE_WORDS.findall(line))
    return out


def test_symbol_attributes_pass_every_stage():
    src = ROOT / "tests" / "attributes" / "symbols.c"
    first = symbol_attributes(stages(src, ["c2ast"]))
    assert first["b"] == "alias a" and first["wref"] == "weak" and "constructor 101" in first["c1"]
    chain = ["c2ast"]
    for name in FRONT[1:] + ["sonopt"] + BACK:
        chain.append(name)
        now = symbol_attributes(stages(src, chain, {"sonopt": ["-O2"]}))
        for symbol, attrs in first.items():
            if attrs and symbol in now:
                assert now[symbol] == attrs, f"{name} changed the attributes of {symbol}: {now[symbol]!r}"
        kept = [s for s, a in first.items() if a and s not in now]
        assert not kept, f"{name} dropped {kept}"


def test_inline_honours_noinline_and_always_inline(tmp_path):
    src = tmp_path / "h.c"
    src.write_text("__attribute__((noinline)) int small(int x) { return x + 1; }\n"
                   "static inline __attribute__((always_inline)) int big(int x) {\n"
                   + "".join(f"  x = x * {i} + (x >> 3);\n" for i in range(3, 40)) +
                   "  return x; }\n"
                   "int main(int argc, char **argv) { return small(argc) + big(argc) + big(argc + 1); }\n")
    text = run([BUILD / "pipe-fmt", "-", "-f", "text"], input=stages(src, FRONT + ["sonopt"], {"sonopt": ["-O2"]}))
    main = text.stdout.decode().split("pipeline main")[1]
    assert 'symaddr "small"' in main, "a noinline function was inlined"
    assert 'symaddr "big"' not in main, "an always_inline function was not inlined"
    # Without the attributes sonopt does the opposite (the test can fail).
    plain = src.read_text().replace("__attribute__((noinline)) ", "").replace("__attribute__((always_inline)) ", "")
    src.write_text(plain)
    text = run([BUILD / "pipe-fmt", "-", "-f", "text"], input=stages(src, FRONT + ["sonopt"], {"sonopt": ["-O2"]}))
    main = text.stdout.decode().split("pipeline main")[1]
    assert 'symaddr "small"' not in main and 'symaddr "big"' in main
