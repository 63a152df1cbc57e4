"""codegen-x64's emission layer (stages/codegen-x64/mc_emitter.h): every
instruction form, written once as assembly text and once as an ELF object
from the same calls (tests/codegen-x64/emit_forms.cpp). GNU `as` on the text
must give the object we wrote ourselves: the same bytes in every section
that holds code or data, the same relocations, symbols, line table and call
frame information; objdump must decode every instruction."""
import pathlib
import re
import subprocess

import pytest

from conftest import tool_path

SECTIONS = [".text", ".data", ".rodata", ".data.rel.ro", ".eh_frame"]


def run(*args, **kw):
    return subprocess.run(list(map(str, args)), check=True, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, **kw).stdout


@pytest.fixture(scope="module")
def objects(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("emit")
    ours_s, ours_o, gas_o = tmp / "forms.s", tmp / "forms.o", tmp / "gas.o"
    run(tool_path("codegen-x64-emit-forms"), ours_s, ours_o, "--debug")
    run("as", ours_s, "-o", gas_o)
    return tmp, ours_s, ours_o, gas_o


def section_bytes(obj, name, tmp):
    out = tmp / ("section" + name.replace(".", "_"))
    run("objcopy", "-O", "binary", "--only-section=" + name, obj, out)
    return out.read_bytes()


@pytest.mark.parametrize("section", SECTIONS)
def test_as_gives_the_same_bytes(objects, section):
    tmp, _, ours, gas = objects
    mine, theirs = section_bytes(ours, section, tmp), section_bytes(gas, section, tmp)
    assert mine, f"{section} is empty"
    if mine != theirs:
        at = next((i for i, (a, b) in enumerate(zip(mine, theirs)) if a != b), min(len(mine), len(theirs)))
        pytest.fail(f"{section} differs at byte {at:#x} (ours {len(mine)} bytes, as {len(theirs)})")


def relocations(obj):
    """Relocation lines per section, for the code and data sections (the
    debug sections differ: `as` describes each function in .debug_info)."""
    result, current = {}, None
    for line in run("objdump", "-r", obj).decode().splitlines():
        m = re.match(r"RELOCATION RECORDS FOR \[(.*)\]:", line)
        if m:
            current = result.setdefault(m.group(1), []) if m.group(1) in SECTIONS else None
        elif current is not None and line and not line.startswith("OFFSET"):
            current.append(line)
    return result


def test_same_relocations(objects):
    _, _, ours, gas = objects
    mine = relocations(ours)
    assert mine == relocations(gas)
    kinds = {line.split()[1] for lines in mine.values() for line in lines}
    # PLT calls, GOT loads, RIP-relative data, 8-byte data pointers.
    assert {"R_X86_64_PLT32", "R_X86_64_REX_GOTPCRELX", "R_X86_64_PC32", "R_X86_64_64"} <= kinds, kinds


def symbols(obj):
    """(name, type, binding, size, section name) of every named symbol."""
    sections = {}
    for line in run("readelf", "-SW", obj).decode().splitlines():
        m = re.match(r"\s*\[\s*(\d+)\]\s+(\S+)", line)
        if m:
            sections[m.group(1)] = m.group(2)
    result = set()
    for line in run("readelf", "-sW", obj).decode().splitlines():
        f = line.split()
        if len(f) == 8 and f[0].endswith(":") and f[7] != "_GLOBAL_OFFSET_TABLE_" and f[3] not in ("SECTION", "FILE"):
            result.add((f[7], f[3], f[4], f[2], sections.get(f[6], f[6])))
    return result


def test_same_symbols(objects):
    _, _, ours, gas = objects
    mine = symbols(ours)
    assert mine == symbols(gas)
    assert ("helper", "FUNC", "LOCAL", "16", ".text") in mine
    assert ("table", "OBJECT", "GLOBAL", "32", ".data") in mine
    assert ("message", "OBJECT", "LOCAL", "6", ".rodata") in mine
    assert ("pointers", "OBJECT", "LOCAL", "16", ".data.rel.ro") in mine
    assert ("counter", "OBJECT", "GLOBAL", "8", ".bss") in mine
    assert ("puts", "NOTYPE", "GLOBAL", "0", "UND") in mine


def test_sections_and_stack_note(objects):
    _, _, ours, gas = objects
    for obj in (ours, gas):
        headers = run("readelf", "-SW", obj).decode()
        note = re.search(r"\.note\.GNU-stack\s+PROGBITS(.*)", headers)
        assert note and " X " not in note.group(1), "the stack must not be executable"
        bss = re.search(r"\.bss\s+NOBITS\s+\S+\s+\S+\s+(\S+)", headers)
        assert bss and int(bss.group(1), 16) == 108


def test_same_line_table_and_compile_unit(objects):
    _, _, ours, gas = objects

    def lines(obj):
        text = run("readelf", "--debug-dump=decodedline", obj).decode()
        return [line.split()[:3] for line in text.splitlines() if re.match(r"^forms\.[ch]\s", line)]

    mine = lines(ours)
    assert mine == lines(gas)
    assert ["forms.h", "7", "0x3"] in mine
    info = run("readelf", "--debug-dump=info", ours).decode()
    assert "DW_TAG_compile_unit" in info and "forms.c" in info


def test_objdump_decodes_every_instruction(objects):
    _, ours_s, ours, _ = objects
    dis = run("objdump", "-d", "--no-show-raw-insn", ours).decode()
    assert "(bad)" not in dis
    decoded = sum(1 for line in dis.splitlines() if re.match(r"^\s+[0-9a-f]+:\t", line))
    written = sum(1 for line in ours_s.read_text().splitlines()
                  if line.startswith("\t") and not line.startswith("\t."))
    # Every instruction line of the text is one decoded instruction (plus the
    # alignment padding between the two functions).
    assert written <= decoded <= written + 4, (written, decoded)


def test_deterministic(objects, tmp_path):
    _, ours_s, ours, _ = objects
    run(tool_path("codegen-x64-emit-forms"), tmp_path / "again.s", tmp_path / "again.o", "--debug")
    assert (tmp_path / "again.s").read_bytes() == ours_s.read_bytes()
    assert (tmp_path / "again.o").read_bytes() == ours.read_bytes()
