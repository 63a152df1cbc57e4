"""pipe-diff (issue 10, section 2): equal on renumbered and reordered forms,
different on a one-literal change, pointing at that node."""
import json
import random

import pytest

from conftest import ROOT, run_tool


def shuffled(module_json, seed):
    """The same module with node ids permuted and blocks (after the entry) reordered."""
    rng = random.Random(seed)
    m = json.loads(module_json)
    for fn in m["functions"]:
        if "piece" in fn:  # a module piece (FORMAT.md section 1) has no nodes
            continue
        n = len(fn["nodes"])
        perm = list(range(n))
        rng.shuffle(perm)  # old id -> new id
        nodes = [None] * n
        for old, node in enumerate(fn["nodes"]):
            node["control"] = [perm[c] for c in node["control"]]
            node["inputs"] = [perm[i] for i in node["inputs"]]
            nodes[perm[old]] = node
        fn["nodes"] = nodes
        if "cfg" in fn:
            order = [0] + rng.sample(range(1, len(fn["cfg"]["blocks"])), len(fn["cfg"]["blocks"]) - 1)
            blocks = fn["cfg"]["blocks"]
            for b in blocks:
                b["node"] = perm[b["node"]]
                b["successors"] = [perm[s] for s in b["successors"]]
                b["nodes"] = [perm[x] for x in b["nodes"]]
            fn["cfg"]["blocks"] = [blocks[i] for i in order]
            if "dominance" in fn:
                dom = fn["dominance"]["blocks"]
                for d in dom:
                    d["node"] = perm[d["node"]]
                    d["parent"] = None if d["parent"] is None else perm[d["parent"]]
                    d["frontier"] = [perm[f] for f in d["frontier"]]
                fn["dominance"]["blocks"] = [dom[i] for i in order]
    return json.dumps(m).encode()


def module(level, seed, runnable):
    args = ["--seed", seed, "--level", level, "-f", "json"]
    args += ["--runnable"] if runnable else ["--nodes", 1500, "--functions", 3]
    return run_tool("pipe-gen", *args, check=0).stdout


def diff(a, b, tmp_path, *flags, check=None):
    (tmp_path / "a").write_bytes(a)
    (tmp_path / "b").write_bytes(b)
    return run_tool("pipe-diff", tmp_path / "a", tmp_path / "b", *flags, check=check)


@pytest.mark.parametrize("level", ["cfg", "ssa", "son"])
@pytest.mark.parametrize("runnable", [False, True])
def test_equal_on_renumbered_and_shuffled_forms(level, runnable, tmp_path):
    for seed in (1, 2, 3):
        a = module(level, seed, runnable)
        renumbered = run_tool("pipe-fmt", "-", "--renumber", "-f", "json", input=a, check=0).stdout
        assert renumbered != a or level == "cfg"
        diff(a, renumbered, tmp_path, check=0)
        mixed = shuffled(a, seed)
        run_tool("pipe-verify", "-", input=mixed, check=0)
        proc = diff(a, mixed, tmp_path)
        assert proc.returncode == 0, proc.stdout.decode()


def test_equal_at_ast_level_and_after_each_stage(tmp_path):
    src = ROOT / "examples" / "c" / "switch.c"
    ast = run_tool("c2ast", src, "-f", "json", check=0).stdout
    diff(ast, shuffled(ast, 7), tmp_path, check=0)
    cfg = run_tool("ast2cfg", "-", "-f", "json", input=ast, check=0).stdout
    diff(cfg, shuffled(cfg, 8), tmp_path, check=0)
    # A stage's output against its input is a real difference.
    assert diff(ast, cfg, tmp_path).returncode == 1


def test_one_literal_change_points_at_the_node(tmp_path):
    a = run_tool("pipe-gen", "--runnable", "--seed", 5, "-f", "text", check=0).stdout.decode()
    lines = a.splitlines()
    index = next(i for i, l in enumerate(lines) if " = const \"i32\", 1" in l and "@" not in l)
    changed = lines[index].replace("\"i32\", 1", "\"i32\", 2")
    b = "\n".join(lines[:index] + [changed] + lines[index + 1:]) + "\n"
    mixed = shuffled(run_tool("pipe-fmt", "-", "-f", "json", input=b.encode(), check=0).stdout, 3)
    proc = diff(a.encode(), mixed, tmp_path, check=1)
    out = proc.stdout.decode()
    assert "literal 1 differs" in out
    assert f"A: {lines[index].strip()}" in out
    assert 'B: i' in out and '= const "i32", 2' in out
    assert out.count("differs") == 1 and "\n  - " not in out and "\n  + " not in out, out


def test_added_and_removed_nodes_and_functions(tmp_path):
    a = run_tool("pipe-gen", "--runnable", "--seed", 2, "--level", "son", "-f", "json", check=0).stdout
    m = json.loads(a)
    fn = m["functions"][0]
    fn["nodes"].append({"opcode": "const", "control": [], "literals": ["i64", 99], "inputs": []})
    extra = dict(m["functions"][-1], name="extra")
    m["functions"].append(extra)
    out = diff(a, json.dumps(m).encode(), tmp_path, check=1).stdout.decode()
    assert f'  + i{len(fn["nodes"]) - 1} = const "i64", 99' in out
    assert "function 'extra': only in B" in out
    assert diff(json.dumps(m).encode(), a, tmp_path, check=1).stdout.decode().count("  - i") == 1


def test_locations_count_unless_ignored(tmp_path):
    a = run_tool("pipe-gen", "--runnable", "--seed", 4, "-f", "text", check=0).stdout.decode()
    b = a.replace("@0:", "@0:1", 1)
    assert "source location differs" in diff(a.encode(), b.encode(), tmp_path, check=1).stdout.decode()
    diff(a.encode(), b.encode(), tmp_path, "--ignore-locations", check=0)
    assert diff(a.encode(), b.encode(), tmp_path, "--brief", check=1).stdout == b""


def test_trouble_exits_2(tmp_path):
    good = run_tool("pipe-gen", "--runnable", check=0).stdout
    assert diff(good, b"module son\nnonsense\n", tmp_path, check=2).stderr
    run_tool("pipe-diff", tmp_path / "a", check=2)
    run_tool("pipe-diff", tmp_path / "a", tmp_path / "nope", check=2)
