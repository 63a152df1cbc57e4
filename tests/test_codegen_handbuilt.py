"""Hand-built functions (tests/codegen-x64/handbuilt.cpp: the emitter, the
frame layout and the parallel move engine together) linked with gcc-built C
(tests/codegen-x64/handbuilt_main.c) and run, once from our ELF object and
once from our assembly text through `as`. The C side checks the results, the
16-byte stack alignment at every call into C, unwinding through our frames
(.cfi_), callee-saved registers, RIP-relative data, the GOT and the PLT."""
import pathlib
import subprocess

import pytest

from conftest import ROOT, tool_path

MAIN = ROOT / "tests" / "codegen-x64" / "handbuilt_main.c"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("handbuilt")
    subprocess.run([tool_path("codegen-x64-handbuilt"), tmp / "h.s", tmp / "h.o"], check=True)
    return tmp


@pytest.mark.parametrize("form", ["h.o", "h.s"])
def test_links_with_gcc_and_runs(built, form):
    exe = built / ("prog_" + form.replace(".", "_"))
    # -O2 keeps main's values in callee-saved registers across our calls;
    # the frame pointer lets the C side check the alignment it was called with.
    subprocess.run(["gcc", "-O2", "-fno-omit-frame-pointer", "-rdynamic", str(MAIN), str(built / form),
                    "-o", str(exe)], check=True)
    proc = subprocess.run([str(exe)], stdout=subprocess.PIPE, timeout=30)
    out = proc.stdout.decode()
    assert proc.returncode == 0 and out.endswith("all ok\n"), out
    assert "rotate: 2 3 4 5 6 1" in out and "slots: 20 30 10 30" in out


def test_rotation_uses_exchanges_and_no_text_relocations(built):
    text = (built / "h.s").read_text()
    rotate = text[text.index("pipe_rotate:"):text.index(".size\tpipe_rotate")]
    assert rotate.count("xchgq") == 5, rotate
    exe = built / "prog_pie"
    subprocess.run(["gcc", "-pie", "-fPIE", str(MAIN), str(built / "h.o"), "-o", str(exe), "-rdynamic"], check=True)
    dynamic = subprocess.run(["readelf", "-d", str(exe)], stdout=subprocess.PIPE, check=True).stdout.decode()
    assert "TEXTREL" not in dynamic
