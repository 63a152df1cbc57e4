"""Debug information (FORMAT.md "Debug information"; issue 20's "Debug
info"): the debug sections c2ast -g writes, carried by every stage and every
encoding, checked by the readers and the verifier, and the DWARF that
codegen-x64 -g makes of them, read by gdb (batch mode) and checked by
llvm-dwarfdump --verify.
"""
import ast
import json
import pathlib
import re
import shutil
import subprocess

import pytest

from conftest import BUILD, ROOT, run_tool

PROGRAM = ROOT / "tests" / "debug" / "vars.c"
STAGES = ["ast2cfg", "cfg2ssa", "ssa2son", "son-lower-x64", "son2cfg", "regalloc-x64"]


def pipecc(*args, cwd):
    proc = subprocess.run([str(BUILD / "pipecc"), *map(str, args)], cwd=cwd, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=120)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")
    return proc


def gdb(program, commands, cwd):
    if shutil.which("gdb") is None:
        pytest.fail("gdb is not installed (scripts/lib.sh PIPE_PACKAGES has it; run scripts/test)")
    script = pathlib.Path(cwd) / "script.gdb"
    script.write_text("set pagination off\nset confirm off\nset debuginfod enabled off\n" + commands + "\nkill\n")
    proc = subprocess.run(["gdb", "-nx", "-batch", "-x", str(script), str(program)], cwd=cwd,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120)
    return proc.stdout.decode(errors="replace")


def sections(output):
    """gdb output split at `echo @NAME\\n` markers: {NAME: text after it}."""
    parts = re.split(r"^@(\w+)$", output, flags=re.M)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts) - 1, 2)}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    d = tmp_path_factory.mktemp("debug")
    shutil.copy(PROGRAM, d / "vars.c")
    for level in ("0", "2"):
        pipecc(f"-O{level}", "-g", "vars.c", "-o", f"vars{level}", cwd=d)
        pipecc(f"-O{level}", "-g", "-c", "vars.c", "-o", f"vars{level}.o", cwd=d)
    return d


O0_SCRIPT = """
break work
run
echo @source\\n
info source
echo @bt\\n
bt
echo @args\\n
p n
p *p
p p->x
p q
p q.y
next
next
next
next
echo @locals\\n
p arr
p arr[2]
p c
p u
info locals
echo @types\\n
ptype struct node
ptype binop
ptype ulong
whatis big
ptype u
p counter
p greeting
echo @loop\\n
break 27
continue
p sq
p i
p total
echo @finish\\n
delete
finish
echo @step\\n
next
step
bt
info args
p doubled
next
p doubled
p calls
"""


def test_gdb_at_O0(built):
    s = sections(gdb(built / "vars0", O0_SCRIPT, built))
    assert "Source language is c." in s["source"]
    assert "Producer is clang version 14.0.6 (pipecc 0.1.0)." in s["source"]
    assert re.search(r"#0  work \(n=3, p=0x[0-9a-f]+, q=\.\.\.\) at .*vars\.c:18", s["bt"]), s["bt"]
    assert re.search(r"#1  0x[0-9a-f]+ in main \(\) at .*vars\.c:43", s["bt"]), s["bt"]
    args = s["args"]
    for want in ("$1 = 3", "$2 = {x = 10, y = 20}", "$3 = 10", "$4 = {x = 10, y = 20}", "$5 = 20"):
        assert want in args, args
    locals_ = s["locals"]
    for want in ("= {1, 2, 3, 4}", "= 3", "= GREEN", '= {i = 1094861636, c = "DCBA"}', "op = ", "big = ",
                 "total = 0"):
        assert want in locals_, locals_
    assert "sq =" not in locals_ and "i =" not in locals_.replace("i = 1094861636", "")  # not in scope yet
    types = s["types"]
    assert "type = struct node {\n    struct node *next;\n    const char *name;\n    volatile int hits;\n}" in types
    assert "type = int (*)(int, int)" in types
    assert "type = unsigned long" in types
    assert "type = ulong" in types
    assert "type = union num {\n    int i;\n    char c[4];\n}" in types
    assert "= 7" in types and '= "hi"' in types
    loop = s["loop"]
    assert re.search(r"\$\d+ = 0\n\$\d+ = 0\n\$\d+ = 0", loop), loop  # sq, i, total on the first trip
    assert "Value returned is $" in s["finish"] and "= 120" in s["finish"], s["finish"]
    step = s["step"]
    assert re.search(r"scale \(v=120, k=3\) at .*vars\.c:34", step), step
    assert "#1  0x" in step and "in main ()" in step
    assert re.search(r"v = 120\nk = 3", step), step
    assert re.search(r"= 240\n\$\d+ = 0", step), step  # doubled after its line; calls before calls++


O2_SCRIPT = """
break scale
run
echo @bt\\n
bt
echo @vars\\n
info args
info locals
echo @source\\n
info source
ptype struct point
"""


def test_gdb_at_O2(built):
    """Optimized code: functions, types and the backtrace; a variable whose
    storage did not survive is <optimized out>, never a wrong value."""
    s = sections(gdb(built / "vars2", O2_SCRIPT, built))
    assert re.search(r"#0  scale \(v=(120|<optimized out>), k=(3|<optimized out>)\) at .*vars\.c:\d+", s["bt"]), s["bt"]
    assert re.search(r"#1  0x[0-9a-f]+ in main \(\) at .*vars\.c:44", s["bt"]), s["bt"]
    for line in s["vars"].strip().splitlines():
        name, _, value = line.partition(" = ")
        assert value == "<optimized out>" or (name, value) in {("v", "120"), ("k", "3"), ("calls", "0")}, line
    assert "Source language is c." in s["source"]
    assert "type = struct point {\n    int x;\n    int y;\n}" in s["source"]


OPT_PROGRAM = ROOT / "tests" / "debug" / "opt.c"


@pytest.fixture(scope="module")
def optimized(tmp_path_factory):
    d = tmp_path_factory.mktemp("debug-opt")
    shutil.copy(OPT_PROGRAM, d / "opt.c")
    pipecc("-O2", "-g", "opt.c", "-o", "opt", cwd=d)
    return d


def test_gdb_at_O2_backtrace_shows_the_parameters(optimized):
    """Location lists: a parameter the function never changes is where the
    allocator put its value, also in a caller's frame across a call (a
    callee-saved register, or a spill slot for the double)."""
    s = sections(gdb(optimized / "opt", "break leaf\nrun\necho @first\\n\nbt\ncontinue\necho @second\\n\nbt\n",
                     optimized))
    keep = r'#1  0x[0-9a-f]+ in keep \(a=5, b=7, s=0x[0-9a-f]+ (<[.\w]+> )?"hi", d=1\.5\) at .*opt\.c:'
    assert re.search(r"#0  leaf \(x=5\) at .*opt\.c:9", s["first"]) and re.search(keep + "12", s["first"]), s["first"]
    assert re.search(r"#0  leaf \(x=7\) at .*opt\.c:9", s["second"]) and re.search(keep + "13", s["second"]), s["second"]


# gdb's Python: `info args` at every instruction of the current call of
# FN (nexti steps over the calls it makes) until it returns.
STEP_THROUGH = """
def step_through(fn):
    frame = gdb.selected_frame()
    while gdb.selected_frame() == frame:
        print("#step " + hex(frame.pc()))
        print(gdb.execute("info args", to_string=True), end="")
        gdb.execute("nexti", to_string=True)
        frame = gdb.newest_frame() if gdb.newest_frame().name() == fn else None
        if frame is None:
            break
"""

def test_lldb_reads_the_same_information(built, optimized):
    """lldb (the issue: "DWARF that gdb and lldb read fully"): the -O0
    program's parameters, locals and types, and the -O2 location lists in
    a caller's frame."""
    if shutil.which("lldb-14") is None:
        pytest.fail("lldb-14 is not installed (scripts/lib.sh PIPE_PACKAGES has it; run scripts/test)")

    def lldb(program, *commands):
        argv = ["lldb-14", "-b", "--no-use-colors"] + [a for c in commands for a in ("-o", c)] + [str(program)]
        return subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120,
                              cwd=program.parent).stdout.decode(errors="replace")
    out = lldb(built / "vars0", "b vars.c:25", "run", "frame variable", "p p->x", "p q.y", "kill")
    assert re.search(r"frame #0: .* vars0`work\(n=3, p=0x[0-9a-f]+, q=\(x = 10, y = 20\)\) at vars\.c:25", out), out
    for want in ("(int[4]) arr = ([0] = 1, [1] = 2, [2] = 3, [3] = 4)", "(color) c = GREEN", "(binop) op = ",
                 "(ulong) big = 123456789", "(int) $0 = 10", "(int) $1 = 20"):
        assert want in out, (want, out)
    out = lldb(optimized / "opt", "b leaf", "run", "bt", "kill")
    assert re.search(r'frame #1: .* opt`keep\(a=5, b=7, s="hi", d=1\.5\) at opt\.c:12', out), out
    assert re.search(r"frame #0: .* opt`leaf\(x=5\) at opt\.c:9", out), out


STEPPED = {  # function: {parameter: its value in the call main makes}
    "keep": {"a": "5", "b": "7", "s": None, "d": "1.5"},
    "changes": {"n": {"4", "17"}, "m": "9"},  # n: its entry value, then the one it is assigned
    "tri": {"n": None},
}


def test_gdb_at_O2_never_shows_a_wrong_value(optimized):
    """Every instruction of each function, from its first byte to the
    return: `info args` shows each parameter's value or <optimized out>.
    The ones kept in a register or slot are shown somewhere; `changes`'s n
    (reassigned: a binding per value, FORMAT.md "Bindings through the
    pipeline") shows its entry value and its new one, and `tri`'s n (a loop
    after tail-recurse, which makes its bindings lost) never is."""
    script = "python\n" + STEP_THROUGH + "end\n"
    for fn in STEPPED:
        script += f"break *{fn}\n" + ("run\n" if fn == "keep" else "continue\n") + f"delete\necho @{fn}\\n\n"
        script += f"python step_through('{fn}')\n"
    s = sections(gdb(optimized / "opt", script, optimized))
    assert all(len(re.findall(r"^#step", s[fn], flags=re.M)) > 4 for fn in STEPPED), s
    for fn, params in STEPPED.items():
        shown = {name: set() for name in params}
        for line in s[fn].splitlines():
            name, sep, value = line.partition(" = ")
            if not sep or name not in params:
                continue
            if value != "<optimized out>":
                shown[name].add(value)
        for name, right in params.items():
            if name == "s":
                assert all(re.fullmatch(r'0x[0-9a-f]+ (<[.\w]+> )?"hi"', v) for v in shown[name]) and shown[name], (fn, shown)
            elif right is None:
                assert not shown[name], (fn, name, shown[name])
            elif isinstance(right, set):
                assert shown[name] and shown[name] <= right, (fn, name, shown[name])
            else:
                assert shown[name] == {right}, (fn, name, shown[name], s[fn])


def test_location_lists_are_in_debug_loc(optimized):
    info = subprocess.run(["llvm-dwarfdump-14", "--debug-info", str(optimized / "opt")], stdout=subprocess.PIPE,
                          timeout=60).stdout.decode()
    # keep's a: in rdi at entry, then in a callee-saved register across the calls.
    a = info[info.index('DW_AT_name\t("a")'):]
    a = a[:a.index("DW_TAG")]
    assert "DW_OP_reg5 RDI" in a and re.search(r"DW_OP_reg(3 RBX|6 RBP|1[2-5] R1[2-5])", a), a
    d = info[info.index('DW_AT_name\t("d")'):]
    d = d[:d.index("DW_TAG")]
    assert "DW_OP_reg17 XMM0" in d and "DW_OP_fbreg" in d, d
    proc = subprocess.run(["llvm-dwarfdump-14", "--verify", str(optimized / "opt")], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, timeout=60)
    assert proc.returncode == 0, proc.stdout.decode()


def test_value_bindings_through_the_stages(optimized):
    """c2ast marks the parameters that keep their entry value (unchanged),
    tail-recurse clears the mark, son-lower-x64 binds each unchanged
    parameter to its x64:argreg, and every later stage carries the binding
    to the node's new number."""
    def debug_of(printed, fn):
        m = re.search(r"^(?:internal )?pipeline " + fn + r"\(.*\n  debug (\{.*\})$", printed, flags=re.M)
        return json.loads(m.group(1))
    args = ["-O2", "-g", "opt.c", "--save-temps", "-c", "-o", "opt.o"]
    pipecc(*args, cwd=optimized)
    def printed(stage):
        return run_tool("pipe-fmt", optimized / f"opt.{stage}.bin", "-f", "text", check=0).stdout.decode()
    ast = printed("c2ast")
    assert [v.get("unchanged", False) for v in debug_of(ast, "changes")["vars"]] == [False, True]
    assert debug_of(ast, "tri")["vars"][0]["unchanged"] is True
    assert "unchanged" not in debug_of(printed("sonopt"), "tri")["vars"][0]
    for stage in ("son-lower-x64", "son2cfg", "cfgopt", "regalloc-x64"):
        text = printed(stage)
        for v in debug_of(text, "keep")["vars"][:4]:
            node = re.search(r"^ +i%d = (\S+) .*$" % v["value"], text.split("pipeline keep")[1], flags=re.M)
            assert node and node.group(1) == "x64:argreg", (stage, v, node and node.group(0))
        assert all("value" not in v for v in debug_of(text, "tri")["vars"]), stage


def test_a_value_binding_must_name_a_value_node(optimized):
    """Verifier rule M: a value is a node that makes one value, and only
    from son-x64 on; the readers check that it is a node of the function."""
    pipecc("-O2", "-g", "opt.c", "--stop-after=regalloc-x64", "-c", "-o", "opt.ra.txt", cwd=optimized)
    text = (optimized / "opt.ra.txt").read_text()
    keep = text.index("pipeline keep")
    store = re.search(r"^ +i(\d+) = x64:(store|ret) ", text[keep:], flags=re.M)
    bad = text[:keep] + re.sub(r'"value":\d+', '"value":' + store.group(1), text[keep:], count=1)
    (optimized / "bad.txt").write_text(bad)
    err = run_tool("pipe-verify", optimized / "bad.txt").stderr.decode()
    assert "variable 'a' of the debug section has this node for its value, but it makes no value" in err, err
    bad = text[:keep] + re.sub(r'"value":\d+', '"value":99999', text[keep:], count=1)
    (optimized / "bad.txt").write_text(bad)
    err = run_tool("pipe-verify", optimized / "bad.txt").stderr.decode()
    assert "value i99999 is not a node" in err, err
    ast = debug_module(optimized)
    bad = re.sub(r'"slot":\d+,"unchanged":true', '"unchanged":true,"value":1', ast, count=1)
    (optimized / "bad.txt").write_text(bad)
    err = run_tool("pipe-verify", optimized / "bad.txt").stderr.decode()
    assert "values are bound only from son-x64 on" in err, err


LOOP_PROGRAM = ROOT / "tests" / "debug" / "loop.c"


@pytest.fixture(scope="module")
def looped(tmp_path_factory):
    d = tmp_path_factory.mktemp("debug-loop")
    shutil.copy(LOOP_PROGRAM, d / "loop.c")
    pipecc("-O2", "-g", "loop.c", "-o", "loop", cwd=d)
    return d


def loop_values(k):
    """sum()'s variables in loop.c when it calls work() for the k-th time."""
    return {"n": "5", "step": "1", "i": str(k), "s": str(sum(j * j + 1 for j in range(k))),
            "last": str(-1 if k == 0 else (k - 1) ** 2 + 1)}


def test_gdb_at_O2_shows_a_loop_counter_and_locals(looped):
    """Debug value bindings (FORMAT.md "Debug information"): at each call
    of work(), sum's frame shows the loop counter, the accumulator and the
    parameters with their values (or <optimized out>, never another value),
    and the loop counter at every call. gcc -O2 -g shows i as <optimized
    out> there and `last` as -1 after it changed."""
    script = "break work\nrun\n" + "".join(f"echo @hit{k}\\n\nup\ninfo args\ninfo locals\ncontinue\n"
                                              for k in range(5))
    s = sections(gdb(looped / "loop", script, looped))
    for k in range(5):
        want = loop_values(k)
        shown = {}
        for line in s[f"hit{k}"].splitlines():
            name, sep, value = line.partition(" = ")
            if sep and name in want:
                shown[name] = value
                assert value in (want[name], "<optimized out>"), (k, name, value, s[f"hit{k}"])
        assert shown.get("i") == want["i"] and shown.get("n") == "5", (k, s[f"hit{k}"])
        assert set(shown) == set(want), (k, s[f"hit{k}"])


def test_gdb_at_O2_never_shows_a_value_a_loop_variable_does_not_take(looped):
    """Every instruction of sum(), from its first byte to the return: each
    variable gdb shows holds one of the values the variable takes in the
    call (a wrong place would show another one)."""
    script = "python\n" + STEP_THROUGH.replace("info args", "info locals") + "end\n"
    script += "break *sum\nrun\ndelete\necho @sum\\n\npython step_through('sum')\n"
    s = sections(gdb(looped / "loop", script, looped))
    assert len(re.findall(r"^#step", s["sum"], flags=re.M)) > 8, s
    takes = {name: {loop_values(k)[name] for k in range(6)} | {"0"} for name in ("i", "s", "last")}
    takes["s"] |= {str(sum(j * j + 1 for j in range(5)) )}
    seen = set()
    for line in s["sum"].splitlines():
        name, sep, value = line.partition(" = ")
        if sep and name in takes and value != "<optimized out>":
            assert value in takes[name], (name, value)
            seen.add(name)
    assert "i" in seen, s["sum"]


def test_text_is_the_same_with_and_without_debug_information(looped, optimized):
    """Bindings are no inputs of the nodes they name: -g changes no code."""
    for d, name in ((looped, "loop"), (optimized, "opt")):
        texts = []
        for flag in ("-g", "-O2"):
            pipecc("-O2", flag, "-c", f"{name}.c", "-o", f"{name}{flag}.o", cwd=d)
            subprocess.run(["objcopy", "-O", "binary", "-j", ".text", f"{name}{flag}.o", f"{name}{flag}.text"],
                           cwd=d, check=True, timeout=60)
            texts.append((d / f"{name}{flag}.text").read_bytes())
        assert texts[0] == texts[1] and texts[0], name
    proc = subprocess.run(["llvm-dwarfdump-14", "--verify", str(looped / "loop-g.o")], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, timeout=60)
    assert proc.returncode == 0, proc.stdout.decode()


def test_bindings_from_cfg2ssa_to_codegen(looped):
    """ast2cfg names each variable's ssa: slot, cfg2ssa binds the variable
    to the stored values and its phis, every later stage maps the bindings
    (the verifier, rule M, checks each names a value node), and
    codegen-x64 makes location lists of them."""
    def debug_of(printed, fn):
        m = re.search(r"^(?:internal )?pipeline " + fn + r"\(.*\n  debug (\{.*\})$", printed, flags=re.M)
        return json.loads(m.group(1))
    pipecc("-O2", "-g", "loop.c", "--save-temps", "-c", "-o", "loop.o", cwd=looped)
    def printed(stage):
        return run_tool("pipe-fmt", looped / f"loop.{stage}.bin", "-f", "text", check=0).stdout.decode()
    cfg = debug_of(printed("ast2cfg"), "sum")
    assert all("ssa_slot" in v for v in cfg["vars"]) and "binds" not in cfg, cfg
    names = [v["name"] for v in cfg["vars"]]
    ssa = debug_of(printed("cfg2ssa"), "sum")
    assert all("ssa_slot" not in v for v in ssa["vars"]), ssa
    bound = {names[b["var"]] for b in ssa["binds"]}
    assert bound == {"n", "step", "s", "last", "i"}, ssa["binds"]
    assert any(b.get("droppable") and names[b["var"]] == "i" for b in ssa["binds"]), ssa["binds"]
    for stage in ("sonopt", "son-lower-x64", "son2cfg", "cfgopt", "regalloc-x64"):
        text = printed(stage)
        binds = debug_of(text, "sum")["binds"]
        assert any(names[b["var"]] == "i" and "value" in b for b in binds), (stage, binds)
        path = looped / f"loop.{stage}.bin"
        assert run_tool("pipe-verify", path).returncode == 0, stage
        assert all("pos" in b for b in binds if "value" in b), (stage, binds)
        # Value, position, kill: lossless through the three encodings.
        run_tool("pipe-fmt", path, "-f", "json", "-o", looped / "rt.json", check=0)
        run_tool("pipe-fmt", looped / "rt.json", "-f", "bin", "-o", looped / "rt.bin", check=0)
        assert run_tool("pipe-fmt", looped / "rt.bin", "-f", "text", check=0).stdout.decode() == text, stage
    info = subprocess.run(["llvm-dwarfdump-14", "--debug-info", str(looped / "loop.o")], stdout=subprocess.PIPE,
                          timeout=60).stdout.decode()
    i = info[info.rindex('DW_AT_name\t("i")'):]  # sum's (work's parameter comes first)
    i = i[:i.index("DW_TAG") if "DW_TAG" in i else len(i)]
    assert "DW_AT_location\t(0x" in i and "DW_OP_reg" in i, i


def test_a_binding_must_name_a_value_node(looped):
    pipecc("-O2", "-g", "loop.c", "--stop-after=regalloc-x64", "-c", "-o", "loop.ra.txt", cwd=looped)
    text = (looped / "loop.ra.txt").read_text()
    at = text.index("pipeline sum")
    store = re.search(r"^ +i(\d+) = x64:ret ", text[at:], flags=re.M)
    bad = text[:at] + re.sub(r'"binds":\[\{"var":(\d+),"value":\d+', lambda m: '"binds":[{"var":%s,"value":%s'
                              % (m.group(1), store.group(1)), text[at:], count=1)
    (looped / "bad.txt").write_text(bad)
    err = run_tool("pipe-verify", looped / "bad.txt").stderr.decode()
    assert "of the debug section is bound to this node, but it makes no value" in err, err
    bad = text[:at] + re.sub(r'"binds":\[\{"var":\d+', '"binds":[{"var":99', text[at:], count=1)
    (looped / "bad.txt").write_text(bad)
    err = run_tool("pipe-verify", looped / "bad.txt").stderr.decode()
    assert "binding 0: variable 99 of" in err, err
    # A binding takes effect at its position: one without is refused by
    # every reader, one at a node that is neither a block nor a memory
    # state by the verifier (rule M; tests/verify/m_binding_positions.txt).
    bad = text[:at] + re.sub(r'"binds":\[\{"var":(\d+),"value":(\d+),"pos":\d+', r'"binds":[{"var":\1,"value":\2',
                             text[at:], count=1)
    (looped / "bad.txt").write_text(bad)
    err = run_tool("pipe-verify", looped / "bad.txt").stderr.decode()
    assert "binding 0: a binding to a value has a position" in err, err
    bad = text[:at] + re.sub(r'"binds":\[\{"var":(\d+),"value":(\d+),"pos":\d+',
                             lambda m: '"binds":[{"var":%s,"value":%s,"pos":%s' % (m.group(1), m.group(2), m.group(2)),
                             text[at:], count=1)
    (looped / "bad.txt").write_text(bad)
    err = run_tool("pipe-verify", looped / "bad.txt").stderr.decode()
    assert "is bound at this node, but it is no block node and makes no memory state" in err, err


EARLY_PROGRAM = ROOT / "tests" / "debug" / "early.c"


def frame_values(text):
    """`up`'s frame line (function and line) and `info args`/`info locals`
    values in one gdb section."""
    frame = re.search(r"^#1 .* in (\w+) \(.*\) at [\w.]+:(\d+)$", text, flags=re.M)
    values = {}
    for line in text.splitlines():
        name, sep, value = line.partition(" = ")
        if sep and re.fullmatch(r"\w+", name):
            values[name] = value
    return (frame.group(1), frame.group(2)) if frame else None, values


def test_gdb_at_O2_shows_no_assignment_before_it_happens(tmp_path):
    """Binding positions (FORMAT.md "Bindings through the pipeline"): at
    every call of g() in early.c, each variable of the caller shows the
    value gcc -O0's build shows at that call, or <optimized out>. Its
    assignments have values computed before them: constants, a loop
    counter's increment, a hoisted invariant, another variable's value, a
    value GVN merged with an earlier one, a branch's value computed ahead
    of the branch; without positions the debugger showed them early
    (`invariant`'s i was 1 at its first call, `branch`'s x was a + 1 in
    the call before the assignment). `promoted`'s x is in memory until
    scalar-replace makes values of it, with bindings."""
    shutil.copy(EARLY_PROGRAM, tmp_path / "early.c")
    pipecc("-O2", "-g", "early.c", "-o", "early", cwd=tmp_path)
    subprocess.run(["gcc", "-O0", "-g", "early.c", "-o", "early-gcc"], cwd=tmp_path, check=True, timeout=120)
    hits = 28
    script = "break g\nrun\n" + "".join(f"echo @hit{k}\\n\nup\ninfo args\ninfo locals\ncontinue\n"
                                          for k in range(hits))
    want = sections(gdb(tmp_path / "early-gcc", script, tmp_path))
    got = sections(gdb(tmp_path / "early", script, tmp_path))
    shown = set()
    for k in range(hits):
        where, reference = frame_values(want[f"hit{k}"])
        where_o2, values = frame_values(got[f"hit{k}"])
        assert where and where_o2 and where[0] == where_o2[0], (k, want[f"hit{k}"], got[f"hit{k}"])
        for name, value in values.items():
            if value == "<optimized out>":
                continue
            assert value == reference.get(name), (k, where, name, value, reference, got[f"hit{k}"])
            shown.add((where[0], name))
    # Not vacuous: variables whose assignment positions matter are shown.
    # promoted's x lives in memory until sonopt's scalar-replace takes it
    # out, which binds it. deleted's s is shown before the loop
    # exit-values deletes: the loop's bindings are kills where the loop
    # ends (dce's retire_dead_sides), no longer lost in the whole function.
    assert {("consts", "x"), ("copied", "x"), ("merged", "y"), ("branch", "x"), ("promoted", "x"),
            ("picked", "x"), ("deleted", "s")} <= shown, shown


@pytest.mark.parametrize("name", ["vars0", "vars2", "vars0.o", "vars2.o"])
def test_dwarfdump_verify(built, name):
    proc = subprocess.run(["llvm-dwarfdump-14", "--verify", str(built / name)], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, timeout=60)
    out = proc.stdout.decode(errors="replace")
    assert proc.returncode == 0 and "No errors." in out, out


def test_line_table_flags(built):
    out = subprocess.run(["llvm-dwarfdump-14", "--debug-line", str(built / "vars0.o")], stdout=subprocess.PIPE,
                         timeout=60).stdout.decode()
    rows = [line for line in out.splitlines() if line.startswith("0x")]
    # One prologue_end per function (add, work, scale, main), each is_stmt.
    ends = [r for r in rows if "prologue_end" in r]
    assert len(ends) == 4 and all("is_stmt" in r for r in ends), ends
    assert any("is_stmt" not in r and "end_sequence" not in r for r in rows)  # early computations
    info = subprocess.run(["llvm-dwarfdump-14", "--debug-info", str(built / "vars0.o")], stdout=subprocess.PIPE,
                          timeout=60).stdout.decode()
    for want in ("DW_LANG_C11", "DW_AT_comp_dir", "DW_TAG_lexical_block", "DW_TAG_formal_parameter",
                 "DW_OP_call_frame_cfa", "DW_OP_fbreg", "DW_TAG_enumeration_type", "DW_TAG_union_type",
                 "DW_TAG_subroutine_type", "DW_TAG_typedef", "DW_TAG_const_type", "DW_TAG_volatile_type",
                 "DW_TAG_array_type"):
        assert want in info, want


def test_objects_are_reproducible(built, tmp_path):
    shutil.copy(PROGRAM, tmp_path / "vars.c")
    pipecc("-O0", "-g", "-c", "vars.c", "-o", "again.o", cwd=built)
    assert (built / "again.o").read_bytes() == (built / "vars0.o").read_bytes()


def debug_module(tmp_path):
    """The ast module of vars.c with its debug sections, as text."""
    shutil.copy(PROGRAM, tmp_path / "vars.c")
    proc = subprocess.run([str(BUILD / "c2ast"), "-g", "vars.c", "-f", "text"], cwd=tmp_path,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    assert proc.returncode == 0, proc.stderr.decode()
    return proc.stdout.decode()


def test_every_stage_keeps_the_slots(tmp_path):
    """At -O0 (ast2cfg --vars-in-memory) every named variable keeps a slot
    through every stage, and the verifier (rule M) accepts each output."""
    text = debug_module(tmp_path)
    (tmp_path / "m.txt").write_text(text)
    current = tmp_path / "m.txt"
    for stage in STAGES:
        out = tmp_path / f"{stage}.bin"
        args = [current, "-o", out] + (["--vars-in-memory"] if stage == "ast2cfg" else [])
        run_tool(stage, *args, check=0)
        current = out
        printed = run_tool("pipe-fmt", current, "-f", "text", check=0).stdout.decode()
        fns = re.findall(r"^(?:internal )?pipeline (\w+).*\n  debug (\{.*\})$", printed, flags=re.M)
        assert sorted(f for f, _ in fns) == ["add", "main", "scale", "work"], (stage, fns)
        for fn, section in fns:
            d = json.loads(section)
            named = [v for v in d["vars"] if "symbol" not in v]
            assert named and all("slot" in v for v in named), (stage, fn, d["vars"])
        assert re.search(r"^debug \{", printed, flags=re.M), stage


def test_encodings_are_lossless(tmp_path):
    text = debug_module(tmp_path)
    (tmp_path / "m.txt").write_text(text)
    run_tool("pipe-fmt", tmp_path / "m.txt", "-f", "json", "-o", tmp_path / "m.json", check=0)
    run_tool("pipe-fmt", tmp_path / "m.json", "-f", "bin", "-o", tmp_path / "m.bin", check=0)
    back = run_tool("pipe-fmt", tmp_path / "m.bin", "-f", "text", check=0).stdout.decode()
    assert back == text
    assert '"debug": {' in (tmp_path / "m.json").read_text()


def test_optimizers_drop_slots(tmp_path):
    text = debug_module(tmp_path)
    (tmp_path / "m.txt").write_text(text)
    son = tmp_path / "m.son"
    cur = tmp_path / "m.txt"
    for stage in ["ast2cfg", "cfg2ssa", "ssa2son"]:
        out = tmp_path / f"{stage}.bin"
        run_tool(stage, cur, "-o", out, *(["--vars-in-memory"] if stage == "ast2cfg" else []), check=0)
        cur = out
    run_tool("sonopt", cur, "-O2", "-o", son, check=0)
    printed = run_tool("pipe-fmt", son, "-f", "text", check=0).stdout.decode()
    for section in re.findall(r"^  debug (\{.*\})$", printed, flags=re.M):
        assert all("slot" not in v for v in json.loads(section).get("vars", [])), section


BAD = [
    (r'"type":0,"param":0', '"type":999,"param":0', "refers to type 999"),
    (r'"slot":\d+', '"slot":4000', "is not a node"),
    (r'"scope":0,', '"scope":77,', "scope 77"),
]


@pytest.mark.parametrize("pattern,new,message", BAD)
def test_bad_debug_sections_are_rejected(tmp_path, pattern, new, message):
    """Dangling type, node and scope ids: every reader rejects them, naming
    the function and its debug section."""
    text = debug_module(tmp_path)
    (tmp_path / "good.txt").write_text(text)
    run_tool("pipe-fmt", tmp_path / "good.txt", "-f", "json", "-o", tmp_path / "good.json", check=0)
    for fmt in ("txt", "json"):
        good = (tmp_path / f"good.{fmt}").read_text()
        bad = None
        for line in good.splitlines():
            if '"vars"' in line and re.search(pattern, line):
                bad = good.replace(line, re.sub(pattern, new, line, count=1), 1)
                break
        assert bad is not None, pattern
        (tmp_path / f"bad.{fmt}").write_text(bad)
        proc = run_tool("pipe-verify", tmp_path / f"bad.{fmt}")
        err = proc.stderr.decode()
        assert proc.returncode == 1 and message in err and "debug" in err and "function '" in err, err


def test_slot_must_be_a_slot_node(tmp_path):
    """Verifier rule M: a slot names the level's slot opcode."""
    text = debug_module(tmp_path)
    bad = re.sub(r'("name":"n","type":\d+,"param":0,"loc":\[\d+,\d+,\d+\],"slot":)\d+', r"\g<1>1", text, count=1)
    assert bad != text
    (tmp_path / "bad.txt").write_text(bad)
    proc = run_tool("pipe-verify", tmp_path / "bad.txt")
    err = proc.stderr.decode()
    assert proc.returncode == 1 and "variable 'n'" in err and "not an ast:var" in err and "i1" in err, err


# gdb's Python: the values of a frame's variables (its blocks up to the
# function), each as gdb prints it ("<optimized out>" for one without a
# location there); `every_stop` breaks on every line of a range and prints
# the innermost frame at each stop, `at_calls` the caller of `callee` at
# each of its calls.
FRAME_VALUES = """
def frame_values(f):
    out = {}
    b = f.block()
    while b is not None:
        for sym in b:
            if (sym.is_variable or sym.is_argument) and sym.name not in out:
                try:
                    out[sym.name] = str(sym.value(f))  # parts may be <optimized out>
                except gdb.error:
                    out[sym.name] = "<error>"
        if b.function is not None:
            break
        b = b.superblock
    return out

def alive():
    return gdb.selected_inferior().pid != 0 and len(gdb.selected_inferior().threads()) > 0

def every_stop(source, first, last):
    for n in range(first, last + 1):
        try:
            gdb.execute("break %s:%d" % (source, n), to_string=True)
        except gdb.error:
            pass
    gdb.execute("run", to_string=True)
    while alive():
        f = gdb.selected_frame()
        print("@stop %s %d %r" % (f.name(), f.find_sal().line, sorted(frame_values(f).items())))
        gdb.execute("continue", to_string=True)

def at_calls(callee):
    gdb.execute("break " + callee, to_string=True)
    gdb.execute("run", to_string=True)
    while alive():
        f = gdb.selected_frame().older()
        print("@call %s %d %r" % (f.name(), f.find_sal().line, sorted(frame_values(f).items())))
        gdb.execute("continue", to_string=True)
"""


def python_stops(program, call, cwd):
    """The `@stop`/`@call` lines of gdb running `program` under `call` (a
    FRAME_VALUES function call): [(function, line, {name: value})]."""
    out = gdb(program, "python\n" + FRAME_VALUES + "end\npython " + call + "\n", cwd)
    stops = []
    for m in re.finditer(r"^@(?:stop|call) (\w+) (\d+) (\[.*\])$", out, flags=re.M):
        stops.append((m.group(1), int(m.group(2)), dict(ast.literal_eval(m.group(3)))))
    assert stops, out
    return stops


RUNS_PROGRAM = ROOT / "tests" / "debug" / "runs.c"


def test_gdb_at_O2_shows_no_value_out_of_order_within_a_run(tmp_path):
    """Runs of code between effects (value_places.h, FORMAT.md "Runs"):
    gdb stops on every line of runs.c's functions (loads, divisions and
    branches are is_stmt rows in the runs of code around an assignment
    whose value the code computes early: a product, a constant, a value
    GVN merged, one computed ahead of a branch, an invariant in a loop).
    Each variable shows the value gcc -O0's build has at that line, or
    <optimized out>: a binding takes effect where its run ends, not at its
    position. (Before, `merged`'s t showed a + b, GVN merged with s, at
    the division on the line before its assignment.) `looped`'s lines run three times: there a
    value must be one the line sees at -O0."""
    shutil.copy(RUNS_PROGRAM, tmp_path / "runs.c")
    lines = (tmp_path / "runs.c").read_text().splitlines()
    first = next(i for i, l in enumerate(lines, 1) if l.startswith("__attribute__((noinline)) int"))
    last = next(i for i, l in enumerate(lines, 1) if l.startswith("volatile int four")) - 1
    pipecc("-O2", "-g", "runs.c", "-o", "runs", cwd=tmp_path)
    subprocess.run(["gcc", "-O0", "-g", "runs.c", "-o", "runs-gcc"], cwd=tmp_path, check=True, timeout=120)
    call = f"every_stop('runs.c', {first}, {last})"
    want = {}
    for fn, line, values in python_stops(tmp_path / "runs-gcc", call, tmp_path):
        want.setdefault((fn, line), []).append(values)
    shown = set()
    for fn, line, values in python_stops(tmp_path / "runs", call, tmp_path):
        if (fn, line) not in want:
            continue
        for name, value in values.items():
            if value == "<optimized out>":
                continue
            assert any(w.get(name) == value for w in want[(fn, line)]), (fn, line, name, value, want[(fn, line)])
            shown.add((fn, name))
    # Not vacuous: the assigned variables are shown somewhere.
    assert {("product", "x"), ("constant", "x"), ("merged", "t"), ("ahead", "x"), ("quotient", "q")} <= shown, shown


FIELDS_PROGRAM = ROOT / "tests" / "debug" / "fields.c"


def matches_with_holes(got, want):
    """Whether gdb value `got`, whose parts may be <optimized out>, agrees
    with `want` everywhere else."""
    pattern = re.escape(got).replace(re.escape("<optimized out>"), r"[^,{}]+")
    return re.fullmatch(pattern, want) is not None


def test_gdb_at_O2_shows_the_fields_scalar_replace_splits(tmp_path):
    """Pieces (FORMAT.md "Pieces"): the struct and array locals of
    fields.c, which sonopt's scalar-replace splits into a value per field,
    get a binding per field (a piece) and a location list of composite
    locations (DW_OP_piece); at every call of g() `p s` shows each field
    gcc -O0's build shows there, or <optimized out> for that field alone.
    Before, the whole variable was <optimized out>."""
    shutil.copy(FIELDS_PROGRAM, tmp_path / "fields.c")
    pipecc("-O2", "-g", "fields.c", "-o", "fields", cwd=tmp_path)
    subprocess.run(["gcc", "-O0", "-g", "fields.c", "-o", "fields-gcc"], cwd=tmp_path, check=True, timeout=120)
    want = python_stops(tmp_path / "fields-gcc", "at_calls('g')", tmp_path)
    got = python_stops(tmp_path / "fields", "at_calls('g')", tmp_path)
    assert [w[0] for w in want] == [g[0] for g in got], (want, got)
    shown = set()
    for (fn, _, reference), (_, _, values) in zip(want, got):
        for name, value in values.items():
            if value == "<optimized out>" or name not in reference:
                continue
            assert matches_with_holes(value, reference[name]), (fn, name, value, reference[name])
            if "{" in value and re.search(r"[{,] *(\w+ = )?-?\d", value):
                shown.add((fn, name))
    assert {("point", "s"), ("mix", "m"), ("arr", "v"), ("looping", "p")} <= shown, (shown, got)
    proc = subprocess.run(["llvm-dwarfdump-14", "--verify", str(tmp_path / "fields")], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, timeout=60)
    assert proc.returncode == 0, proc.stdout.decode(errors="replace")
    loc = subprocess.run(["llvm-dwarfdump-14", "--debug-loc", str(tmp_path / "fields")], stdout=subprocess.PIPE,
                         timeout=60).stdout.decode()
    assert "DW_OP_piece" in loc, loc


def test_jump_threading_kills_the_bindings_it_skips(tmp_path):
    """cfgopt's thread-jumps (tests/stages/cfgopt/thread-jumps.in.txt)
    sends both predecessors of b5 (i22) past it; a binding at b5's start
    that is not a phi's (x = i5, computed elsewhere) is skipped on those
    paths. The loss begins at the end of each predecessor: x gets a kill
    there (unknown until its next binding) and b5's binding goes with b5,
    instead of x being lost in the whole function (FORMAT.md, "Mapping")."""
    text = (ROOT / "tests" / "stages" / "cfgopt" / "thread-jumps.in.txt").read_text()
    text = text.replace('file 0 "thread.c"\n', 'file 0 "thread.c"\n'
                        'debug {"types":[{"kind":"base","name":"int","size":4,"encoding":"signed"}]}\n')
    text = text.replace("pipeline find(ptr, i32, i32) -> i32 {\n", "pipeline find(ptr, i32, i32) -> i32 {\n"
                        '  debug {"vars":[{"name":"x","type":0}],"binds":[{"var":0,"value":0,"pos":1},'
                        '{"var":0,"value":5,"pos":22}]}\n')
    (tmp_path / "in.txt").write_text(text)
    run_tool("cfgopt", "--passes=thread-jumps", tmp_path / "in.txt", "-f", "text", "-o", tmp_path / "out.txt", check=0)
    out = (tmp_path / "out.txt").read_text()
    binds = json.loads(re.search(r"pipeline find.*\n  debug (.*)\n", out).group(1))["binds"]
    assert {"var": 0} not in binds, binds  # not lost
    kills = [b for b in binds if "value" not in b]
    assert len(kills) == 2 and all("pos" in b for b in kills), binds
    assert {"var": 0, "value": 0, "pos": 1} in binds and len(binds) == 3, binds
    run_tool("pipe-verify", tmp_path / "out.txt", check=0)


PIECES_BAD = [
    ('{"var":0,"value":2,"pos":4,"offset":0,"size":4},{"var":0,"value":5,"pos":9,"offset":2,"size":4}',
     "binding 1: piece [2, 6) overlaps another piece of variable 's'"),
    ('{"var":0,"value":2,"pos":4,"offset":6,"size":4}', "binding 0: piece [6, 10) is not inside variable 's' (8 bytes)"),
    ('{"var":0,"value":2,"pos":4,"offset":0,"size":4},{"var":0,"value":5,"pos":9}',
     "binding 1: variable 's' has both whole and piece bindings"),
    ('{"var":0,"offset":0,"size":4}', "binding 0: a lost binding is whole (no 'offset' or 'size')"),
]


@pytest.mark.parametrize("binds,message", PIECES_BAD)
def test_bad_pieces_are_rejected(tmp_path, binds, message):
    """Pieces (FORMAT.md "Pieces", the structural rules): every reader
    rejects a piece outside its variable, overlapping pieces, a variable
    bound both whole and in pieces, and a lost piece
    (tests/verify/m_binding_pieces_ok.txt is the good case)."""
    good = (ROOT / "tests" / "verify" / "m_binding_pieces_ok.txt").read_text()
    bad = re.sub(r'"binds":\[.*\]\}', '"binds":[' + binds + ']}', good)
    assert bad != good
    (tmp_path / "bad.txt").write_text(bad)
    proc = run_tool("pipe-verify", tmp_path / "bad.txt")
    err = proc.stderr.decode()
    assert proc.returncode == 1 and message in err and "function 'f': debug" in err, err
