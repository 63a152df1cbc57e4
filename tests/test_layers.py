"""common/'s layers include one way: from the upper layers to the IR core.

common/README.md names the layers; ALLOWED below is the same table. A file in
common/LAYER/ may include only headers of the layers ALLOWED[LAYER] lists (its
own included), and every header it includes must exist where the path says.
"""
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent
COMMON = ROOT / "common"

ALLOWED = {
    "ir": {"ir"},
    "x64": {"ir", "x64"},
    "encoding": {"ir", "x64", "encoding"},
    "check": {"ir", "x64", "encoding", "check"},
    "view": {"ir", "x64", "encoding", "view"},
    "gen": {"ir", "x64", "gen"},
    "tool": {"ir", "x64", "encoding", "check", "view", "tool"},
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def common_includes(path):
    for name in INCLUDE.findall(path.read_text()):
        if name == "pipe_generated.h":  # FlatBuffers' header, generated into the build tree
            continue
        yield name


def test_every_file_is_in_a_layer():
    assert not [p.name for p in COMMON.iterdir() if p.is_file() and p.suffix in (".h", ".cpp", ".def")]
    assert {p.name for p in COMMON.iterdir() if p.is_dir()} == set(ALLOWED)


def test_includes_point_down():
    wrong = []
    for layer, allowed in ALLOWED.items():
        for path in sorted((COMMON / layer).iterdir()):
            for name in common_includes(path):
                target = name.split("/")[0]
                if "/" not in name or not (COMMON / name).is_file():
                    wrong.append(f"{layer}/{path.name}: #include \"{name}\" names no file under common/")
                elif target not in allowed:
                    wrong.append(f"{layer}/{path.name}: #include \"{name}\" points up ({layer} may use {sorted(allowed)})")
    assert not wrong, "\n".join(wrong)


def test_stages_name_the_layer():
    """A stage includes a common header by its layer's path, never by a bare name."""
    bare = {p.name for p in COMMON.glob("*/*") if p.suffix in (".h", ".def")}
    wrong = []
    for path in sorted((ROOT / "stages").rglob("*")):
        if path.suffix not in (".h", ".cpp"):
            continue
        for name in INCLUDE.findall(path.read_text()):
            if name in bare and not (path.parent / name).exists():
                wrong.append(f"{path.relative_to(ROOT)}: #include \"{name}\"")
    assert not wrong, "\n".join(wrong)
