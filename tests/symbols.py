"""The global symbols an object defines, held to gcc's object of the same file.

Shared by every test that compiles C to an object (tests/test_native.py: the
corpus, csmith, interop and the make project; the torture suite in
tests/torture/torture.py, which scripts/torture and tests/test_torture.py
both use). Nothing here depends on pytest.

A C file's external definitions are its interface: a function or variable
missing from the object, or defined with another binding or in another kind
of section, links into a different program (issue 17 item 2: c2ast dropped
the definitions of an included file unless the main file used them; item 3:
`__attribute__((weak))` ignored). `nm` gives each defined symbol a letter:

  T text, D initialized data, B zero-initialized data (.bss), R read-only
  data, W weak function (or weak object of unknown kind), V weak object,
  C common, i indirect function (ifunc), u unique global.

Only global and weak symbols count (upper-case letters, and the weak w/v/W/V
letters, whose case says only whether they are defined); local (static)
symbols and where each symbol sits are the compiler's choice. The letters
must be equal, with no exceptions: gcc puts zero-initialized data in .bss
(B), const data in .rodata (R), a weak object in V and a weak function in W,
and we must do the same, because the letter is what a linker, `nm`-driven
build step or a reader of the object sees.
"""
import pathlib
import subprocess

# nm's letters for a symbol some other object can link against.
GLOBAL_LETTERS = set("TDBRWVCGSAIiu")


def defined_globals(obj):
    """{name: nm letter} for the global and weak symbols `obj` defines."""
    p = subprocess.run(["nm", "--defined-only", "--format=posix", str(obj)],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    if p.returncode != 0:
        raise RuntimeError(f"nm {obj}: {p.stderr.decode(errors='replace').strip()}")
    symbols = {}
    for line in p.stdout.decode().splitlines():
        fields = line.split()
        if len(fields) >= 2 and fields[1] in GLOBAL_LETTERS:
            symbols[fields[0]] = fields[1]
    return symbols


def difference(ours, gccs, ours_label="ours", gcc_label="gcc's"):
    """None when the two {name: letter} tables agree, else one line per
    difference: missing, extra, or another letter."""
    lines = []
    for name in sorted(set(ours) | set(gccs)):
        a, b = ours.get(name), gccs.get(name)
        if a == b:
            continue
        if a is None:
            lines.append(f"{name}: missing ({gcc_label}: {b})")
        elif b is None:
            lines.append(f"{name}: extra {a} (not defined by {gcc_label})")
        else:
            lines.append(f"{name}: {a} ({gcc_label}: {b})")
    return "\n".join(lines) if lines else None


def compare_objects(ours, gcc_obj):
    """None when object `ours` defines the global symbols `gcc_obj` does,
    each with the same nm letter; else a description naming each symbol."""
    problem = difference(defined_globals(ours), defined_globals(gcc_obj))
    if problem is None:
        return None
    return f"global symbols of {ours} differ from gcc's {gcc_obj}:\n  " + problem.replace("\n", "\n  ")


def gcc_object(src, obj, opt="-O0", cflags=()):
    """Compiles `src` with `gcc -std=gnu11 OPT -w CFLAGS -c` (the flags the
    tests build gcc's reference programs with) to `obj`; returns `obj`."""
    cc = ["gcc", "-std=gnu11", opt, "-w", *map(str, cflags), "-c", str(src), "-o", str(obj)]
    p = subprocess.run(cc, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    if p.returncode != 0:
        raise RuntimeError(f"$ {' '.join(cc)}\n{p.stderr.decode(errors='replace')}")
    return obj


def check_against_gcc(obj, src, opt, workdir, cflags=()):
    """None when `obj` (our object of `src` at OPT) defines the global
    symbols gcc's object of `src` at OPT defines; else the differences.
    gcc's object is written to WORKDIR/STEM.gcc-symbols.OPT.o."""
    ref = gcc_object(src, f"{workdir}/{pathlib.Path(src).stem}.gcc-symbols{opt}.o", opt, cflags)
    return compare_objects(obj, ref)


# ---- with visibility (readelf) ----------------------------------------------
#
# defined_symbols(obj): {name: (binding, type, visibility)} of the symbols the
# object defines or references weakly, local ones left out, from `readelf
# -sW`: nm's letters do not show visibility, which the attribute tests
# (tests/test_attributes.py, tests/test_multifile.py) must compare. A weak
# undefined reference counts: it is what `weak` on a declaration means.

def symbol_table(obj):
    """Rows (name, value, size, type, binding, visibility, section index)."""
    out = subprocess.run(["readelf", "-sW", str(obj)], check=True, stdout=subprocess.PIPE, text=True).stdout
    rows = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 8 or not parts[0].rstrip(":").isdigit():
            continue
        num, value, size, typ, bind, vis, ndx = parts[:7]
        name = parts[7] if len(parts) > 7 else ""
        rows.append((name, int(value, 16), int(size, 0) if size.isdigit() else size, typ, bind, vis, ndx))
    return rows


def defined_symbols(obj):
    result = {}
    for name, _value, _size, typ, bind, vis, ndx in symbol_table(obj):
        if bind == "LOCAL" or not name:
            continue
        if ndx == "UND" and bind != "WEAK":
            continue
        result[name] = (bind, "UND" if ndx == "UND" else typ, vis)
    return result


def compare_symbols(want_obj, got_obj):
    """None when the two objects define the same symbols alike, else the
    differences, one per line."""
    want, got = defined_symbols(want_obj), defined_symbols(got_obj)
    lines = []
    for name in sorted(set(want) | set(got)):
        if want.get(name) != got.get(name):
            lines.append(f"  {name}: gcc {want.get(name, 'absent')}, pipecc {got.get(name, 'absent')}")
    return "\n".join(lines) or None
