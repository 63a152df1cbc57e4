"""codegen-x64, the tool: hand-written ra-x64 functions for every x64 opcode,
operand size and condition (tests/codegen-x64/gen_ops.py, with the results
computed from FORMAT.md's meanings) are compiled to an object (-f obj) and
to assembly (-f asm, assembled by `as`), linked with a gcc-built C main that
checks every result, the stack alignment at calls into C and unwinding
through our frames; `as` on the text gives the object's bytes, relocations
and symbols; -g line tables map addresses to the nodes' lines; the output
is deterministic; bad input exits 1 with a diagnostic."""
import importlib.util
import subprocess

import pytest

from conftest import ROOT, tool_path
from test_codegen_emit import SECTIONS, relocations, section_bytes, symbols

spec = importlib.util.spec_from_file_location("gen_ops", ROOT / "tests" / "codegen-x64" / "gen_ops.py")
gen_ops = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gen_ops)


def run(*args, **kw):
    return subprocess.run(list(map(str, args)), check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw).stdout


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("codegen")
    module, main = gen_ops.gen()
    (tmp / "ops.txt").write_text(module)
    (tmp / "main.c").write_text(main)
    run(tool_path("codegen-x64"), tmp / "ops.txt", "-o", tmp / "ops.o")
    run(tool_path("codegen-x64"), tmp / "ops.txt", "-f", "asm", "-o", tmp / "ops.s")
    run("as", tmp / "ops.s", "-o", tmp / "gas.o")
    return tmp


@pytest.mark.parametrize("form", ["ops.o", "gas.o"])
def test_every_opcode_runs(built, form):
    exe = built / ("prog_" + form.replace(".", "_"))
    # A frame pointer in the C functions lets them check the alignment they
    # were called with; -rdynamic lets dladdr name our functions.
    run("gcc", "-O1", "-fno-omit-frame-pointer", "-rdynamic", built / "main.c", built / form, "-o", exe)
    proc = subprocess.run([str(exe)], stdout=subprocess.PIPE, timeout=60)
    out = proc.stdout.decode()
    assert proc.returncode == 0 and out.startswith("all ") and out.endswith(" ok\n"), out[-3000:]


def test_every_x64_opcode_is_covered(built):
    text = (built / "ops.txt").read_text()
    ops = set()
    for line in (ROOT / "common" / "ir" / "opcodes.def").read_text().splitlines():
        if line.startswith("X64(") or line.startswith("X64RA("):
            ops.add(line.split('"')[1])
    missing = {op for op in ops if f" {op} " not in text and f" {op}\n" not in text}
    assert not missing, missing


@pytest.mark.parametrize("section", SECTIONS)
def test_as_gives_the_same_section(built, section):
    mine, theirs = section_bytes(built / "ops.o", section, built), section_bytes(built / "gas.o", section, built)
    assert mine == theirs, section


def test_as_gives_the_same_relocations_and_symbols(built):
    assert relocations(built / "ops.o") == relocations(built / "gas.o")
    mine = symbols(built / "ops.o")
    assert mine == symbols(built / "gas.o")
    names = {s[0]: s for s in mine}
    assert names["pipe_exported"][1:3] == ("OBJECT", "GLOBAL") and names["d_words"][1:3] == ("OBJECT", "LOCAL")
    assert names["d_bytes"][4] == ".rodata" and names["d_ptr"][4] == ".data.rel.ro" and names["d_zero"][4] == ".bss"
    assert names["c_buf"][4] == "UND" and names["t_add_64"][1:3] == ("FUNC", "GLOBAL")


def test_linearization(built):
    """No jump to the next block; a jcc whose taken successor is next is
    negated; neither next: jcc and jmp."""
    text = (built / "ops.s").read_text()
    def body(name):
        return text[text.index(name + ":\n"):text.index(".size\t" + name)]
    assert "jge\t" in body("t_jl_0") and "jmp" not in body("t_jl_0")  # taken successor next
    assert "jl\t" in body("t_jl_1") and "jmp" not in body("t_jl_1")
    assert "jl\t" in body("t_jl_2") and body("t_jl_2").count("jmp") == 2
    loop = body("t_loop")
    assert loop.count("jmp") == 1 and "movl\t$0, %eax" not in loop
    assert "movl\t$0, %eax" in body("t_call8")  # al for the variadic call


def test_deterministic(built, tmp_path):
    for form, name in (("obj", "again.o"), ("asm", "again.s")):
        run(tool_path("codegen-x64"), built / "ops.txt", "-f", form, "-g", "-o", tmp_path / name)
        run(tool_path("codegen-x64"), built / "ops.txt", "-f", form, "-g", "-o", tmp_path / ("2" + name))
        assert (tmp_path / name).read_bytes() == (tmp_path / ("2" + name)).read_bytes()
    assert (tmp_path / "again.o").read_bytes() != (built / "ops.o").read_bytes()  # -g adds DWARF


LINES = """module ra-x64
file 0 "lines.c"
pipeline twice(i64) -> i64 {
  b0 {
    i0 = start @0:1:1
    i1 = entrymem ^i0
    i2 = x64:argreg ^i0, "i64", "rdi" in rdi @0:1:1
    i3 = x64:mov i2 in rax @0:2:10
    i4 = x64:addi "i64", 5, i3 in rax @0:3:10
    i5 = x64:imuli "i64", 7, i4 in rax @0:4:10
    i6 = x64:ret ^i0, i1, i5 @0:5:3
  }
  b0 =>
}
"""


@pytest.mark.parametrize("form", ["obj", "asm"])
def test_debug_lines(tmp_path, form):
    (tmp_path / "lines.txt").write_text(LINES)
    out = tmp_path / ("lines.o" if form == "obj" else "lines.s")
    run(tool_path("codegen-x64"), tmp_path / "lines.txt", "-f", form, "-g", "-o", out)
    if form == "asm":
        assert ".loc\t1 4 10" in out.read_text()
        run("as", out, "-o", tmp_path / "lines.o")
    dis = run("objdump", "-d", tmp_path / "lines.o").decode()
    imul = next(line for line in dis.splitlines() if "imul" in line)
    address = imul.split(":")[0].strip()
    where = run("addr2line", "-e", tmp_path / "lines.o", address).decode()
    assert where.strip().endswith("lines.c:4"), where


def test_bad_input(tmp_path):
    def fails(text, message, *flags):
        (tmp_path / "bad.txt").write_text(text)
        proc = subprocess.run([tool_path("codegen-x64"), tmp_path / "bad.txt", "-o", tmp_path / "bad.o", *flags],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        err = proc.stderr.decode()
        assert proc.returncode == 1 and message in err, err
        assert not (tmp_path / "bad.o").exists()
    fails(LINES.replace("module ra-x64", "module cfg-x64").replace(" in rdi", "").replace(" in rax", ""),
          "expected a module at level 'ra-x64', found level 'cfg-x64'")
    # A value read where it is not: the checker (dangling place).
    fails(LINES.replace("i3 in rax @0:3:10", "i3 in rcx @0:3:10"), "i4")
    # The same without the verifier: the translation itself refuses it.
    fails(LINES.replace("i3 = x64:mov i2 in rax", "i3 = x64:mov i2 in s0"), "i3: error: the result is in s0", "--no-verify")


def test_refuses_object_to_terminal_and_checks_format(tmp_path):
    (tmp_path / "lines.txt").write_text(LINES)
    proc = subprocess.run([tool_path("codegen-x64"), tmp_path / "lines.txt", "-f", "text"], stderr=subprocess.PIPE)
    assert proc.returncode == 2
    out = run(tool_path("codegen-x64"), tmp_path / "lines.txt", "-f", "asm")
    assert b"twice:" in out


SWAP = """module ra-x64
pipeline swapsub(i64, i64) -> i64 {
  b0 {
    i0 = start
    i1 = entrymem ^i0
    i2 = x64:argreg ^i0, "i64", "rdi" in rdi
    i3 = x64:argreg ^i0, "i64", "rsi" in rsi
    i4 = jump ^i0
  }
  b0 -> b1
  b0 => b1
  b1 {
    i5 = region ^i4
    i6 = phi ^i5, i2 in rsi
    i7 = phi ^i5, i3 in s0
    i8 = phi ^i5, i3 in rdi
    i9 = x64:reload i7 in rax
    i10 = x64:sub "i64", i6, i8 in rsi
    i11 = x64:add "i64", i10, i9 in rsi
    i12 = x64:mov i11 in rax
    i13 = x64:ret ^i5, i1, i12
  }
  b1 =>
}
"""


def test_phi_moves_through_the_parallel_move_engine(tmp_path):
    """Phi inputs not in the phi's place (ra-x64 forbids it: --no-verify)
    become a parallel move on the edge: here a register swap and a store."""
    (tmp_path / "swap.txt").write_text(SWAP)
    run(tool_path("codegen-x64"), tmp_path / "swap.txt", "--no-verify", "-o", tmp_path / "swap.o")
    (tmp_path / "m.c").write_text('#include <stdio.h>\nlong swapsub(long, long);\n'
                                  'int main(void) { printf("%ld\\n", swapsub(10, 3)); return 0; }\n')
    run("gcc", tmp_path / "m.c", tmp_path / "swap.o", "-o", tmp_path / "swap")
    assert run(tmp_path / "swap") == b"10\n"  # (a - b) + b with a, b swapped by the edge
    text = run(tool_path("codegen-x64"), tmp_path / "swap.txt", "--no-verify", "-f", "asm").decode()
    assert "xchgq" in text


def test_branches_skip_blocks_that_only_jump(tmp_path):
    """Branch chaining: no branch targets a label whose code is one jmp (the
    merge blocks whose phis regalloc-x64 resolved on the incoming edges, as
    the end of each case of vm.c's switch), at -O0 and -O2."""
    for level in ("-O0", "-O2"):
        asm = tmp_path / f"vm{level}.s"
        run(tool_path("pipecc"), level, "-w", "-S", ROOT / "scripts" / "kernels" / "vm.c", "-o", asm)
        lines = [l.strip() for l in asm.read_text().splitlines() if l.strip() and not l.strip().startswith(".cfi")]
        only_jump = set()
        for i, line in enumerate(lines):
            k = i
            while k < len(lines) and lines[k].endswith(":"):
                k += 1
            if line.endswith(":") and k < len(lines) and lines[k].startswith("jmp\t"):
                only_jump.add(line[:-1])
        targets = [l.split("\t")[1] for l in lines if l.startswith("j") and "\t" in l]
        assert only_jump, level  # vm.c has such blocks
        chained = [t for t in targets if t in only_jump]
        assert not chained, f"{level}: branches to a block that only jumps: {chained}"


RECURSIVE = """#include <stdio.h>
#include <stdlib.h>
__attribute__((noinline)) static int fib(int n) { return n < 2 ? n : 2 * fib(n - 1) - fib(n - 2); }
int main(int argc, char **argv) { printf("fib(%d) = %d\\n", atoi(argv[1]), fib(atoi(argv[1]))); return 0; }
"""


def test_callee_saved_registers_are_pushed_and_returns_inlined(tmp_path):
    """A recursive fib (2 fib(n-1) - fib(n-2): no tail call sonopt could
    turn into a loop; noinline, so that sonopt's inline-recursive leaves its
    two calls as they are) saves rbx: a push and a pop (the frame then needs
    no rsp adjustment), and the jump to the return block is the epilogue
    itself."""
    src = tmp_path / "fib.c"
    src.write_text(RECURSIVE)
    asm = tmp_path / "fib.s"
    run(tool_path("pipecc"), "-O2", "-w", "-S", src, "-o", asm)
    text = asm.read_text()
    body = [l.strip() for l in text[text.index("\nfib:\n"):text.index(".size\tfib,")].splitlines()
            if l.strip() and not l.strip().startswith(".cfi")]
    assert body[1] == "pushq\t%rbx", body
    assert not any(l.startswith(("subq\t", "addq\t")) and l.endswith("%rsp") for l in body), body
    assert not any("(%rsp)" in l for l in body), body
    assert [l for l in body if l.startswith(("popq", "retq"))] == ["popq\t%rbx", "retq"] * 2, body
    assert not any(l.startswith("jmp") for l in body), body
    exe = tmp_path / "fib"
    run(tool_path("pipecc"), "-O2", "-w", src, "-o", exe)
    assert run(exe, "20") == b"fib(20) = 20\n"
