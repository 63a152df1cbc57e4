"""File-scope asm (GNU C's top-level `asm("...")`, issue 19).

c2ast puts each statement's text, verbatim and in source order, into the
module header's `asm` list (FORMAT.md section 1); every stage carries it
through; codegen-x64 assembles the texts before the data and functions;
pipe-run refuses a module with any by name. The corpus program
tests/c/asm_toplevel.c runs natively against gcc (tests/test_native.py);
tests/formats/toplevel_asm.json covers the three encodings (round trips and
the golden printable form).
"""
import json
import subprocess

from conftest import BUILD, run_tool

SOURCE = r'''
int before(void) { return 1; }
__asm__(".globl tl_forty_two\n.type tl_forty_two, @function\ntl_forty_two:\n\tmovl $42, %eax\n\tret\n");
int tl_forty_two(void);
int main(void) { return tl_forty_two() + before() - 43; }
asm("# second statement, 100% verbatim");
'''
TEXTS = [".globl tl_forty_two\n.type tl_forty_two, @function\ntl_forty_two:\n\tmovl $42, %eax\n\tret\n",
         "# second statement, 100% verbatim"]
STAGES = ["c2ast", "ast2cfg", "cfg2ssa", "ssa2son", "sonopt", "son-lower-x64", "son2cfg", "cfgopt",
          "regalloc-x64"]


def write_source(tmp_path):
    path = tmp_path / "tl.c"
    path.write_text(SOURCE)
    return path


def header_asm(path):
    return json.loads(run_tool("pipe-fmt", path, "-f", "json", "--no-verify", check=0).stdout).get("asm")


def test_c2ast_puts_the_texts_in_the_header_in_source_order(tmp_path):
    out = tmp_path / "tl.json"
    run_tool("c2ast", write_source(tmp_path), "-f", "json", "-o", out, check=0)
    assert header_asm(out) == TEXTS


def test_every_stage_carries_them_to_codegen(tmp_path):
    src = write_source(tmp_path)
    for level in ("-O0", "-O2"):
        temps = tmp_path / level
        temps.mkdir()
        proc = subprocess.run([str(BUILD / "pipecc"), level, f"--save-temps={temps}", "-c", str(src), "-o",
                               str(temps / "tl.o")], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
        assert proc.returncode == 0, proc.stderr.decode()
        kept = {p.name for p in temps.iterdir()}
        for stage in STAGES:
            if stage in ("sonopt", "cfgopt") and f"tl.{stage}.bin" not in kept:
                continue
            assert header_asm(temps / f"tl.{stage}.bin") == TEXTS, f"{stage} at {level} dropped the asm"


def test_codegen_assembles_them_before_the_functions_and_the_program_links(tmp_path):
    src = write_source(tmp_path)
    asm = tmp_path / "tl.s"
    proc = subprocess.run([str(BUILD / "pipecc"), "-O2", "-S", str(src), "-o", str(asm)],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    assert proc.returncode == 0, proc.stderr.decode()
    text = asm.read_text()
    assert text.index("tl_forty_two:") < text.index("before:") < text.index("main:")
    exe = tmp_path / "tl"
    proc = subprocess.run([str(BUILD / "pipecc"), "-O1", str(src), "-o", str(exe)],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    assert proc.returncode == 0, proc.stderr.decode()
    assert subprocess.run([str(exe)], timeout=20).returncode == 0
    nm = subprocess.run(["nm", str(exe)], stdout=subprocess.PIPE, check=True).stdout.decode()
    assert " T tl_forty_two" in nm


def test_text_that_does_not_assemble_is_bad_input(tmp_path):
    module = tmp_path / "bad.txt"
    module.write_text('module ra-x64\nasm ".globl ok\\nok: ret"\nasm "movq %rax"\n')
    out = tmp_path / "bad.o"
    proc = run_tool("codegen-x64", module, "-o", out, check=1)
    assert b"file-scope asm #1 does not assemble: line 1:" in proc.stderr
    assert not out.exists()


def test_pipe_run_refuses_them_by_name(tmp_path):
    son = tmp_path / "tl.son"
    proc = subprocess.run([str(BUILD / "pipecc"), "--stop-after=ssa2son", str(write_source(tmp_path)), "-o",
                           str(son)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    assert proc.returncode == 0, proc.stderr.decode()
    proc = run_tool("pipe-run", son, check=1)
    assert b"cannot interpret file-scope assembly (it runs natively only)" in proc.stderr


def test_the_text_reader_keeps_the_header_order(tmp_path):
    module = tmp_path / "order.txt"
    module.write_text('module son\nasm "nop"\ndata x size 1 align 1\n')
    proc = run_tool("pipe-fmt", module, "-f", "json", check=1)
    assert b"order.txt:3:1: error: 'data' line out of order (header order: module, file, extern, data, asm, debug)" \
        in proc.stderr
