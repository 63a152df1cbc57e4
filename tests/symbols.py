"""Symbols of ELF objects, for holding pipecc's objects to gcc's
(tests/test_multifile.py, tests/test_attributes.py).

defined_symbols(obj): {name: (binding, type, visibility)} of the symbols the
object defines or references weakly, local ones left out (gcc and pipecc
name their local labels and string literals differently), from
`readelf -sW`. A weak undefined reference counts: it is what `weak` on a
declaration means."""
import subprocess


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
