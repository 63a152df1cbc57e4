"""pipecc as a drop-in cc (issue 20): the gcc/clang command line read with
clang's option table, depfiles, one preprocessor (clang's, in c2ast) for -E
and the compile, .S through it, @files, stdin, the link order, the identity
questions, and clang's diagnostics with carets and warnings."""
import os
import subprocess

from conftest import BUILD

PIPECC = str((BUILD / "pipecc").resolve())


def cc(*args, cwd=None, input=None, check=None, env=None):
    proc = subprocess.run([PIPECC, *map(str, args)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          timeout=120, cwd=cwd, input=input, env=env)
    if check is not None:
        assert proc.returncode == check, (args, proc.stderr.decode())
    return proc


def write(path, text):
    path.write_text(text)
    return path


def project(tmp_path):
    """main.c uses inc/h.h; v.S uses the same header through the preprocessor."""
    (tmp_path / "inc").mkdir()
    write(tmp_path / "inc" / "h.h", "#define BASE 40\n#ifndef __ASSEMBLER__\nint two(void);\n#endif\n")
    write(tmp_path / "main.c", '#include "h.h"\nextern int val;\nint main(void) { return BASE + two() + val - EXTRA; }\n')
    write(tmp_path / "two.c", "int two(void) { return 2; }\n")
    write(tmp_path / "v.S", '#include "h.h"\n.globl val\n.data\nval: .long BASE + EXTRA\n'
                            '.section .note.GNU-stack,"",@progbits\n')
    return tmp_path


def run_exe(path):
    return subprocess.run([str(path)], timeout=30).returncode


def test_build_flags_of_debian_and_cmake_are_accepted_and_the_program_runs(tmp_path):
    p = project(tmp_path)
    flags = ["-g", "-O2", f"-ffile-prefix-map={p}=.", "-fstack-protector-strong", "-Wformat",
             "-Werror=format-security", "-Wdate-time", "-D_FORTIFY_SOURCE=2", "-fcf-protection",
             "-fstack-clash-protection", "-fvisibility=hidden", "-fcolor-diagnostics", "-ffunction-sections",
             "-fdata-sections", "-march=x86-64-v2", "-mtune=generic", "-m64", "-pipe", "-std=gnu11", "-pedantic",
             "-fPIC", "-fno-strict-aliasing", "-fwrapv", "-fno-omit-frame-pointer", "-Og", "-isystem", "/usr/include",
             "-Iinc", "-DEXTRA=1"]
    cc(*flags, "main.c", "v.S", "two.c", "-o", "prog", "-Wl,-z,relro", "-Xlinker", "--as-needed", "-z", "now",
       "-static-libgcc", cwd=p, check=0)
    assert run_exe(p / "prog") == 82


def test_notes_say_why_an_option_has_no_effect(tmp_path):
    err = cc("-v", "-###", "-fwrapv", "-c", "x.c", cwd=tmp_path, check=0).stderr.decode()
    assert "pipecc: note: '-fwrapv' accepted: what pipecc does: the IR has no signed-overflow" in err, err


def test_options_that_would_change_the_meaning_are_refused_by_name(tmp_path):
    for flag, why in [("-fsanitize=address", "sanitizers"), ("-flto", "link-time"), ("-finput-charset=latin1", "UTF-8"),
                      ("-m32", "x86-64"), ("-fshort-wchar", "wchar_t"), ("-mno-red-zone", "target option"),
                      ("-fshort-enums", "enums"), ("--coverage", "coverage"), ("-x", "c++")]:
        args = [flag, "c++"] if flag == "-x" else [flag]
        err = cc(*args, "-c", "x.c", cwd=tmp_path, check=2).stderr.decode()
        assert err.startswith("pipecc: error: '") and why in err, (flag, err)
        assert "\n" == err[-1] and err.count("\n") == 1, err  # one line, no usage dump


def test_unknown_options_name_clangs_nearest_spelling(tmp_path):
    err = cc("-fstack-protector-strng", "-c", "x.c", cwd=tmp_path, check=2).stderr.decode()
    assert "unknown option '-fstack-protector-strng'; did you mean '-fstack-protector-strong'?" in err, err
    assert "unknown option '--bogus'" in cc("--bogus", "x.c", check=2).stderr.decode()


def test_optimization_levels_map_onto_the_pipes(tmp_path):
    def level(flag):
        line = cc("-###", flag, "-c", "x.c", cwd=tmp_path, check=0).stderr.decode().splitlines()[0]
        return next((p.split()[1] for p in line.split(" | ") if p.split()[0].endswith("/sonopt")), None)
    assert level("-O0") is None
    assert [level(f) for f in ("-O", "-O1", "-Og")] == ["-O1"] * 3
    assert [level(f) for f in ("-O2", "-O3", "-Os", "-Oz", "-Ofast", "-O9")] == ["-O2"] * 6
    assert "invalid optimization level" in cc("-Ox", "-c", "x.c", check=2).stderr.decode()


def test_depfiles_from_md_mmd_and_wp_name_the_object_and_the_headers(tmp_path):
    p = project(tmp_path)
    (p / "obj").mkdir()
    cc("-MD", "-MP", "-Iinc", "-DEXTRA=0", "-c", "main.c", "-o", "obj/main.o", cwd=p, check=0)
    assert (p / "obj" / "main.d").read_text() == "obj/main.o: main.c inc/h.h\ninc/h.h:\n"
    cc("-MMD", "-MF", "deps.d", "-MT", "custom", "-MQ", "$odd name", "-Iinc", "-DEXTRA=0", "-c", "main.c",
       cwd=p, check=0)
    assert (p / "deps.d").read_text() == "custom $$odd\\ name: main.c inc/h.h\n"
    # Kbuild's spelling; other -Wp options reach the preprocessor too.
    cc("-Wp,-MMD,k.d,-DEXTRA=5", "-Iinc", "-c", "main.c", cwd=p, check=0)
    assert (p / "k.d").read_text() == "main.o: main.c inc/h.h\n"
    # With -E the depfile is named after -o and its target is the object a compile would write (gcc).
    cc("-E", "-MMD", "-Iinc", "main.c", "-o", "pre.i", cwd=p, check=0)
    assert (p / "pre.d").read_text() == "main.o: main.c inc/h.h\n"
    # A .S file's depfile comes from the same preprocessor; system headers only with -MD.
    cc("-MD", "-Iinc", "-DEXTRA=0", "-c", "v.S", cwd=p, check=0)
    assert (p / "v.d").read_text() == "v.o: v.S inc/h.h\n"
    write(p / "sys.c", "#include <stddef.h>\nint x;\n")
    cc("-MD", "-c", "sys.c", cwd=p, check=0)
    assert "stddef.h" in (p / "sys.d").read_text()
    cc("-MMD", "-c", "sys.c", cwd=p, check=0)
    assert (p / "sys.d").read_text() == "sys.o: sys.c\n"


def test_m_and_mm_print_dependencies_only(tmp_path):
    p = project(tmp_path)
    out = cc("-M", "-Iinc", "main.c", cwd=p, check=0).stdout.decode()
    assert out.startswith("main.o: main.c inc/h.h") and "stddef" not in out or "/usr/" not in out
    assert cc("-MM", "-Iinc", "main.c", "two.c", cwd=p, check=0).stdout.decode() == \
        "main.o: main.c inc/h.h\ntwo.o: two.c\n"


def test_preprocess_uses_clangs_preprocessor_and_every_input(tmp_path):
    p = project(tmp_path)
    write(p / "m.c", "int a = __clang_major__; int b = __STDC_VERSION__; int c = __OPTIMIZE__;\n")
    cc("-E", "-O2", "m.c", "two.c", "-o", "out.i", cwd=p, check=0)
    text = (p / "out.i").read_text()
    assert "int a = 14; int b = 201112L; int c = 1;" in text and "int two(void)" in text
    # -include, -imacros, -iquote, -idirafter, -undef, -dM: clang's.
    write(p / "pre.h", "#define PRE 7\n")
    out = cc("-E", "-include", "pre.h", "-iquote", "inc", "-x", "c", "-", cwd=p, input=b"int q = PRE;\n",
             check=0).stdout.decode()
    assert "int q = 7;" in out
    macros = cc("-dM", "-E", "-x", "c", "/dev/null", check=0).stdout.decode()
    assert "#define __clang_major__ 14" in macros and "#define __x86_64__ 1" in macros


def test_preprocessed_input_compiles_as_distcc_sends_it(tmp_path):
    p = project(tmp_path)
    cc("-E", "-Iinc", "-DEXTRA=0", "main.c", "-o", "main.i", cwd=p, check=0)
    cc("-c", "main.i", "-o", "main.o", cwd=p, check=0)
    # With -g the .i names its directory (gcc's -fworking-directory marker):
    # compiled elsewhere, the object records the directory of a local
    # compile. (Its line table's columns are those of the expanded text.)
    cc("-g", "-E", "-Iinc", "-DEXTRA=0", "main.c", "-o", "main-g.i", cwd=p, check=0)
    assert (p / "main-g.i").read_text().startswith(f'# 1 "main.c"\n# 1 "{p}//"\n')
    for flags, marked in [(["-g", "-fno-working-directory"], False), (["-fworking-directory"], True),
                          (["-g", "-P"], False)]:
        assert (f'"{p}//"' in cc(*flags, "-E", "two.c", cwd=p, check=0).stdout.decode()) == marked, flags
    (p / "elsewhere").mkdir()
    cc("-g", "-c", "../main-g.i", "-o", "../remote.o", cwd=p / "elsewhere", check=0)
    info = subprocess.run(["readelf", "--debug-dump=info", p / "remote.o"], stdout=subprocess.PIPE, check=True)
    assert f"DW_AT_comp_dir    : {p}\n" in info.stdout.decode()
    cc("main.o", "two.c", "-DEXTRA=0", "-Iinc", "v.S", "-o", "prog", cwd=p, check=0)
    assert run_exe(p / "prog") == 82


def test_directives_only_text_compiles_from_stdin_as_icecream_sends_it(tmp_path):
    """icecream's gcc mode: `cc -E -fdirectives-only` on the client (gcc's
    meaning: includes and conditionals processed, macros left unexpanded,
    every definition written first), `cc -x c -fpreprocessed
    -fdirectives-only - --param ...` on the remote, with the -D options
    again (ignored there, as gcc ignores them: the text has them). The
    object equals a direct compile's, with -g too."""
    p = project(tmp_path)
    write(p / "pre.h", "#define PRE 7\n")
    write(p / "m.c", '#include "h.h"\n#define TWICE(x) ((x) * 2)\n#if EXTRA > 1\nint big = TWICE(EXTRA + PRE);\n'
                     '#else\n#include "absent.h"\n#endif\nconst char *where = __FILE__; int line = __LINE__;\n'
                     'int main(void) { return big - 2 * (EXTRA + PRE) + two(); }\n')
    flags = ["-O2", "-Iinc", "-DEXTRA=3", "-include", "pre.h"]
    cc(*flags, "-E", "m.c", "-fdirectives-only", "-MMD", "-MF", "m.d", cwd=p, check=0)
    text = cc(*flags, "-E", "m.c", "-fdirectives-only", cwd=p, check=0).stdout.decode()
    assert text.startswith('# 1 "m.c"\n# 1 "<built-in>" 3\n#define __llvm__ 1\n'), text[:200]
    assert '# 1 "<command line>"\n#define EXTRA 3\n' in text and "#define BASE 40" in text and "#define PRE 7" in text
    assert "int big = TWICE(EXTRA + PRE);" in text and "__FILE__" in text and "absent.h" in text
    assert (p / "m.d").read_text() == "m.o: m.c pre.h inc/h.h\n"
    # The remote compiles elsewhere: with -g the text names the client's
    # directory (gcc's -fworking-directory marker), DW_AT_comp_dir.
    (p / "remote").mkdir()
    for debug in ([], ["-g"]):
        text = cc(*flags, *debug, "-E", "m.c", "-fdirectives-only", cwd=p, check=0).stdout.decode()
        assert (f'# 1 "{p}//"\n' in text) == bool(debug)
        cc(*flags, *debug, "-c", "m.c", "-o", "direct.o", cwd=p, check=0)
        cc("-x", "c", *flags, *debug, "-c", "-fdirectives-only", "-fpreprocessed", "-", "-o", "../remote.o", "--param",
           "ggc-min-expand=100", "--param", "ggc-min-heapsize=131072", cwd=p / "remote", input=text.encode(), check=0)
        assert (p / "remote.o").read_bytes() == (p / "direct.o").read_bytes(), debug
    cc("remote.o", "two.c", "-o", "prog", cwd=p, check=0)
    assert run_exe(p / "prog") == 2
    # Only the text's own definitions: no predefined macros (gcc's
    # -fpreprocessed -fdirectives-only), no -D.
    err = cc("-x", "c", "-fpreprocessed", "-fdirectives-only", "-DX=1", "-c", "-", "-o", "x.o", cwd=p,
             input=b"int a = __clang_major__ + X;\n", check=1).stderr.decode()
    assert "'__clang_major__'" in err and "'X'" in err
    # Plain -fpreprocessed text (cc -E) keeps the predefined macros, as .i files do.
    cc("-x", "c", "-fpreprocessed", "-c", "-", "-o", "y.o", cwd=p, input=b"int a = __clang_major__;\n", check=0)
    assert b"'-fpreprocessed' with -E" in cc("-E", "-fpreprocessed", "m.c", cwd=p, check=2).stderr
    assert b"ssp-buffer-size=4" in cc("--param", "ssp-buffer-size=4", "-c", "two.c", cwd=p, check=2).stderr
    assert b"'--param ggc-min-expand=1' accepted" in cc("-v", "--param", "ggc-min-expand=1", "-c", "two.c",
                                                         cwd=p, check=0).stderr


def test_pipecc_away_from_its_stages_finds_them_where_they_were_built(tmp_path):
    """icecc-create-env (scripts/icecc-env) packs pipecc as /usr/bin/gcc and
    the stages at their own paths: pipecc alone in a directory uses the
    build's stages."""
    import shutil
    shutil.copy(PIPECC, tmp_path / "gcc")
    write(tmp_path / "m.c", "int main(void) { return 5; }\n")
    proc = subprocess.run([str(tmp_path / "gcc"), "-###", "m.c"], stderr=subprocess.PIPE, cwd=tmp_path, timeout=60)
    assert f"{os.path.dirname(PIPECC)}/c2ast " in proc.stderr.decode()
    subprocess.run([str(tmp_path / "gcc"), "m.c", "-o", "m"], cwd=tmp_path, check=True, timeout=120)
    assert run_exe(tmp_path / "m") == 5


def test_stdin_needs_x_and_then_compiles(tmp_path):
    assert b"-E or -x required" in cc("-c", "-", check=2).stderr
    cc("-x", "c", "-", "-o", tmp_path / "p", input=b"int main(void) { return 3; }\n", check=0)
    assert run_exe(tmp_path / "p") == 3


def test_response_files_and_link_order(tmp_path):
    p = project(tmp_path)
    write(p / "args.rsp", '-Iinc "-DEXTRA=1"\n-o prog\n')
    lines = cc("-###", "@args.rsp", "main.c", "-lm", "two.c", cwd=p, check=0).stderr.decode().splitlines()
    assert "-Iinc" in lines[0] and "-DEXTRA=1" in lines[0]
    link = lines[-1].split()
    assert link[1:3] == ["-o", "prog"] and link[-2] == "-lm" and link[-3].endswith("main-0.o"), link
    cc("@args.rsp", "main.c", "two.c", "v.S", cwd=p, check=0)
    assert run_exe(p / "prog") == 82


def test_identity_questions(tmp_path):
    assert cc("-dumpversion", check=0).stdout == b"14.0.6\n"
    assert cc("-dumpfullversion", check=0).stdout == b"14.0.6\n"
    assert cc("-dumpmachine", check=0).stdout.decode().startswith("x86_64-")
    version = cc("--version", check=0).stdout.decode()
    first = version.splitlines()[0]
    # meson takes the first version number and looks for "clang"; ccache keys on the build id.
    assert first.startswith("pipecc (clang 14.0.6 front end)") and "toolchain build " in first, version
    assert "Target: x86_64" in version
    assert cc("-v", check=0).stderr.decode() == version
    libgcc = cc("-print-libgcc-file-name", check=0).stdout.decode().strip()
    assert libgcc.endswith("libgcc.a") and os.path.exists(libgcc)
    libc = cc("-print-file-name=libc.so", check=0).stdout.decode().strip()
    assert os.path.exists(libc)
    assert cc("-print-prog-name=ld", check=0).stdout.strip().endswith(b"ld")
    # Its own programs by their path, as clang answers (icecc-create-env asks it).
    for own in ("pipecc", "c2ast"):
        assert cc(f"-print-prog-name={own}", check=0).stdout.decode() == f"{BUILD.resolve() / own}\n"
    assert b"libraries: =" in cc("-print-search-dirs", check=0).stdout


def test_diagnostics_are_clangs_with_source_line_and_caret(tmp_path):
    src = write(tmp_path / "w.c", "int f(void) { return g(); }\nint h(void) { return nope; }\n")
    err = cc("-c", src.name, cwd=tmp_path, check=1).stderr.decode()
    assert err == ("w.c:1:22: warning: implicit declaration of function 'g' is invalid in C99 "
                   "[-Wimplicit-function-declaration]\n"
                   "int f(void) { return g(); }\n"
                   "                     ^\n"
                   "w.c:2:22: error: use of undeclared identifier 'nope'\n"
                   "int h(void) { return nope; }\n"
                   "                     ^\n"
                   "1 warning and 1 error generated.\n"), err
    warn = write(tmp_path / "u.c", "int f(void) { int y; return y; }\n")
    assert cc("-c", warn.name, cwd=tmp_path, check=0).stderr == b""  # not one of clang's default warnings
    err = cc("-Wall", "-c", warn.name, cwd=tmp_path, check=0).stderr.decode()
    assert "warning: variable 'y' is uninitialized" in err and "note: initialize the variable" in err
    assert cc("-Wall", "-w", "-c", warn.name, cwd=tmp_path, check=0).stderr == b""
    assert cc("-Wall", "-Wno-uninitialized", "-c", warn.name, cwd=tmp_path, check=0).stderr == b""
    err = cc("-Wall", "-Werror", "-c", warn.name, cwd=tmp_path, check=1).stderr.decode()
    assert "error: variable 'y' is uninitialized when used here [-Werror,-Wuninitialized]" in err
    # pipecc's own refusals of C come out the same way.
    fp = write(tmp_path / "fp.c", "__float128 d;\n")
    err = cc("-c", fp.name, cwd=tmp_path, check=1).stderr.decode()
    assert err.startswith("fp.c:1:12: error: unsupported: ") and "__float128 d;\n           ^\n" in err, err


def test_an_output_that_is_not_a_regular_file_is_written_in_place(tmp_path):
    """`-o /dev/null` (distcc's include server, configure scripts): the object
    goes into the device, which stays a device. A FIFO stands in for it here:
    renaming a temporary over it would leave a regular file."""
    import threading
    src = write(tmp_path / "x.c", "int x(void) { return 1; }\n")
    fifo = tmp_path / "out"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(open(fifo, "rb").read()))
    reader.start()
    cc("-c", src, "-o", fifo, check=0)
    reader.join(timeout=60)
    assert fifo.is_fifo() and got and got[0].startswith(b"\x7fELF")


def test_syntax_only_checks_and_writes_nothing(tmp_path):
    write(tmp_path / "ok.c", "int f(void) { return 1; }\n")
    write(tmp_path / "bad.c", "__float128 d;\n")
    assert cc("-fsyntax-only", "-Wall", "ok.c", cwd=tmp_path, check=0).stderr == b""
    err = cc("-fsyntax-only", "bad.c", cwd=tmp_path, check=1).stderr.decode()
    assert err.startswith("bad.c:1:12: error: unsupported: "), err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.c", "ok.c"]


def test_gnu89_inline_emits_what_gcc_does(tmp_path):
    # gnu89: a plain `inline` definition is external, an `extern inline` one
    # is never emitted; C99 the other way round. Same symbols as gcc's.
    from symbols import compare_objects, gcc_object
    src = write(tmp_path / "inl.c", "inline int plain(int x) { return x + 1; }\n"
                                    "extern inline int ext(int x) { return x + 2; }\n"
                                    "int use(int x) { return plain(x) + ext(x); }\n")
    for flags in (["-fgnu89-inline"], ["-std=gnu89"], []):
        ours = tmp_path / "ours.o"
        cc(*flags, "-c", src, "-o", ours, check=0)
        gccs = gcc_object(src, tmp_path / "gcc.o", cflags=flags)
        assert compare_objects(ours, gccs) is None, (flags, compare_objects(ours, gccs))
    names = subprocess.run(["nm", str(tmp_path / "ours.o")], stdout=subprocess.PIPE).stdout.decode()
    assert " T ext" in names and " T plain" not in names  # C99 (the last build)


def test_fast_math_and_input_charset_are_accepted_with_a_note(tmp_path):
    src = write(tmp_path / "x.c", "int main(void) { return 0; }\n")
    err = cc("-v", "-ffast-math", "-finput-charset=UTF-8", "-c", src, "-o", tmp_path / "x.o", check=0).stderr.decode()
    assert "'-ffast-math' accepted: changes nothing" in err, err
    assert "'-finput-charset=UTF-8' accepted: source files are read as UTF-8" in err, err


def test_fvisibility_gives_definitions_gccs_visibility(tmp_path):
    # Definitions without a visibility of their own take -fvisibility's;
    # attributes and #pragma GCC visibility win; references stay default.
    from symbols import compare_symbols
    src = write(tmp_path / "vis.c", "int data = 1;\nint tentative;\nstatic int local_data = 3;\nextern int ext_data;\n"
                "__attribute__((visibility(\"default\"))) int exported(void) { return data + local_data + ext_data; }\n"
                "int hidden_fn(void) { return tentative; }\n#pragma GCC visibility push(protected)\n"
                "int prot(void) { return 2; }\n#pragma GCC visibility pop\nextern int ext_fn(void);\n"
                "int caller(void) { return ext_fn() + prot(); }\n")
    for mode in ("hidden", "protected", "default"):
        ours, gccs = tmp_path / f"ours-{mode}.o", tmp_path / f"gcc-{mode}.o"
        cc(f"-fvisibility={mode}", "-c", src, "-o", ours, check=0)
        subprocess.run(["gcc", f"-fvisibility={mode}", "-c", str(src), "-o", str(gccs)], check=True)
        assert compare_symbols(gccs, ours) is None, (mode, compare_symbols(gccs, ours))


def test_depfiles_are_gccs_bytes(tmp_path):
    # gcc's layout: words wrapped before column 72 with " \\" and one space,
    # -MP's phony rules without blank lines, stdc-predef.h where gcc
    # pre-includes it. Only the compilers' own headers (stddef.h, ...) differ.
    d = tmp_path / "a rather long directory name with spaces"
    d.mkdir()
    for i in range(6):
        write(d / f"header_number_{i}_with_a_name_long_enough_to_wrap.h", f"#define H{i} {i}\n")
    includes = "".join(f'#include "header_number_{i}_with_a_name_long_enough_to_wrap.h"\n' for i in range(6))
    write(tmp_path / "m.c", includes + "#include <stdio.h>\n#include <stddef.h>\nint main(void) { return H5; }\n")
    for flags in (["-MMD", "-MP"], ["-MMD", "-MT", "x y", "-MQ", "$z"], ["-MD", "-MP"], ["-MD"]):
        argv = [*flags, "-I", str(d), "-c", "m.c", "-o", "m.o"]
        subprocess.run(["gcc", *argv], cwd=tmp_path, check=True)
        gccs = (tmp_path / "m.d").read_text()
        cc(*argv, cwd=tmp_path, check=0)
        ours = (tmp_path / "m.d").read_text()
        if "-MMD" in flags:
            assert ours == gccs, (flags, ours, gccs)
        else:
            assert strip_own_headers(ours) == strip_own_headers(gccs), flags
    # -M and -MM print the rule (to stdout, or to -o) in the same layout.
    for flags in (["-MM"], ["-MM", "-MP", "-MT", "x y"], ["-M"], ["-M", "-MP"]):
        argv = [*flags, "-I", str(d), "m.c"]
        gccs = subprocess.run(["gcc", *argv], cwd=tmp_path, stdout=subprocess.PIPE, check=True).stdout.decode()
        ours = cc(*argv, cwd=tmp_path, check=0).stdout.decode()
        cc(*argv, "-o", "rule.d", cwd=tmp_path, check=0)
        assert (tmp_path / "rule.d").read_text() == ours, flags
        if "-MM" in flags:
            assert ours == gccs, (flags, ours, gccs)
        else:
            assert strip_own_headers(ours) == strip_own_headers(gccs), (flags, ours, gccs)
            # Only the compilers' own headers differ: continuation lines are gcc's (one space).
            assert all(not line.startswith("  ") for line in ours.splitlines()), ours


def strip_own_headers(text):
    """The words of a depfile without the compilers' own headers (clang's
    stddef.h where gcc's stands)."""
    own = ("/usr/lib/gcc/", "/usr/lib/llvm-14/")
    return [w for w in text.replace("\\\n", " ").split() if not w.startswith(own)]


SECTIONS_C = """#include <stdio.h>
int counter = 3;
int zeroed;
static int table[4] = {1, 2, 3, 4};
const int limits[3] = {10, 20, 30};
const char *const names[2] = {"one", "two"};
static int helper(int x) { return x * table[x & 3]; }
int used(int x) { return x + counter + zeroed + limits[1]; }
int never_called(int x) { return helper(x) + 1; }
int main(void) { printf("%d %s\\n", used(1), names[1]); return 0; }
"""


def section_names(obj):
    out = subprocess.run(["readelf", "-SW", str(obj)], stdout=subprocess.PIPE, check=True).stdout.decode()
    import re
    return {m for m in re.findall(r"\] (\.(?:text|data|bss|rodata)\S*)", out)}


def test_function_and_data_sections_are_gccs(tmp_path):
    """-ffunction-sections and -fdata-sections: a section per function and
    per data item, named as gcc names them (gcc also keeps empty .data and
    .bss, and says .data.rel.ro.local for relocations to local symbols,
    which the linker places alike); ld --gc-sections then drops what nothing
    uses, and the program still runs."""
    src = write(tmp_path / "s.c", SECTIONS_C)
    flags = ["-O0", "-ffunction-sections", "-fdata-sections", "-c"]
    cc(*flags, src, "-o", tmp_path / "ours.o", check=0)
    subprocess.run(["gcc", *flags, str(src), "-o", str(tmp_path / "gcc.o")], check=True)
    gccs = {n.replace(".data.rel.ro.local.", ".data.rel.ro.") for n in section_names(tmp_path / "gcc.o")}
    assert section_names(tmp_path / "ours.o") == gccs - {".data", ".bss"}, section_names(tmp_path / "ours.o")
    assert {".text.used", ".text.never_called", ".text.helper", ".data.counter", ".bss.zeroed",
            ".rodata.limits", ".data.rel.ro.names"} <= gccs
    proc = cc("-O0", "-ffunction-sections", "-fdata-sections", src, "-o", tmp_path / "prog",
              "-Wl,--gc-sections,--print-gc-sections", check=0)
    removed = proc.stderr.decode()
    assert "'.text.never_called'" in removed and "'.text.helper'" in removed and "'.text.used'" not in removed
    assert subprocess.run([str(tmp_path / "prog")], stdout=subprocess.PIPE).stdout == b"24 two\n"
    # The last of -f and -fno- wins; without them, one section of each kind.
    cc("-ffunction-sections", "-fno-function-sections", "-c", src, "-o", tmp_path / "one.o", check=0)
    assert not any(n.startswith(".text.") for n in section_names(tmp_path / "one.o"))
    asm = cc("-S", "-ffunction-sections", src, "-o", "-", check=0).stdout.decode()
    assert ".section\t.text.used," in asm, asm


def test_cf_protection_puts_endbr64_at_each_function_and_the_cet_note(tmp_path):
    """-fcf-protection (Debian's default flags have it): endbr64 at every
    function's start and the object's x86 feature note, as gcc's; =return
    only marks SHSTK, =branch only IBT, =none neither."""
    src = write(tmp_path / "s.c", SECTIONS_C)

    def note(obj):
        out = subprocess.run(["readelf", "-n", str(obj)], stdout=subprocess.PIPE, check=True).stdout.decode()
        return [line.strip() for line in out.splitlines() if "x86 feature" in line]

    def entries(obj):
        out = subprocess.run(["objdump", "-d", str(obj)], stdout=subprocess.PIPE, check=True).stdout.decode()
        return [block.splitlines()[1].split("\t")[-1].strip() for block in out.split("\n\n") if block.endswith(">:")
                or ">:\n" in block]

    for kind in ("", "=full", "=branch", "=return", "=none"):
        flag = "-fcf-protection" + kind
        ours, gccs = tmp_path / "ours.o", tmp_path / "gcc.o"
        cc("-O2", flag, "-c", src, "-o", ours, check=0)
        subprocess.run(["gcc", "-O2", flag, "-c", str(src), "-o", str(gccs)], check=True)
        assert note(ours) == note(gccs), (flag, note(ours), note(gccs))
        firsts = entries(ours)
        assert firsts and all((f == "endbr64") == (kind in ("", "=full", "=branch")) for f in firsts), (flag, firsts)
    cc("-O2", "-fcf-protection", src, "-o", tmp_path / "prog", check=0)
    assert subprocess.run([str(tmp_path / "prog")], stdout=subprocess.PIPE).stdout == b"24 two\n"
    err = cc("-fcf-protection=sometimes", "-c", src, check=2).stderr.decode()
    assert "the kinds are none, branch, return and full" in err, err


ALIAS_PUN = """#include <stdio.h>
__attribute__((noinline)) int store_both(int *i, float *f) { *i = 1; *f = 0.0f; return *i; }
int main(void) { union { int i; float f; } u; printf("%d\\n", store_both(&u.i, &u.f)); return 0; }
"""


def test_no_strict_aliasing_changes_nothing_because_alias_analysis_never_uses_types(tmp_path):
    """sonopt's alias analysis (stages/sonopt/alias.h) compares base objects
    and offsets, never C types, so -fno-strict-aliasing is accepted with a
    note and the code is the same with it or without: the code gcc makes
    with -fno-strict-aliasing. The program tells the two apart: with
    type-based aliasing gcc -O2 returns the stored 1 through the int pointer."""
    src = write(tmp_path / "pun.c", ALIAS_PUN)
    options = cc("--help-options", check=0).stdout.decode() + cc("--help-options", check=0).stderr.decode()
    assert "-fno-strict-aliasing: accepted (what pipecc does: alias analysis uses base objects and offsets, " \
           "never types)" in options
    outputs = {}
    for flags in ([], ["-fno-strict-aliasing"], ["-fstrict-aliasing"]):
        for compiler in ("gcc", PIPECC):
            exe = tmp_path / "prog"
            subprocess.run([compiler, "-O2", *flags, str(src), "-o", str(exe)], check=True, timeout=120)
            outputs[compiler, tuple(flags)] = subprocess.run([str(exe)], stdout=subprocess.PIPE, timeout=30).stdout
        cc("-O2", *flags, "-c", src, "-o", tmp_path / f"pun{len(outputs)}.o", check=0)
    assert outputs["gcc", ()] == b"1\n" and outputs["gcc", ("-fno-strict-aliasing",)] == b"0\n"  # the program tells
    assert {outputs[PIPECC, f] for f in [(), ("-fno-strict-aliasing",), ("-fstrict-aliasing",)]} == {b"0\n"}
    objects = [(tmp_path / f"pun{n}.o").read_bytes() for n in (2, 4, 6)]
    assert objects[0] == objects[1] == objects[2]


def test_print_multiarch_answers_as_gcc():
    assert cc("-print-multiarch", check=0).stdout == subprocess.run(
        ["gcc", "-print-multiarch"], stdout=subprocess.PIPE, check=True).stdout == b"x86_64-linux-gnu\n"


COMMON_SRC = """int plain;
int arr[100];
int set = 1;
static int local;
extern int declared_then_tentative;
int declared_then_tentative;
int tentative_then_set;
int tentative_then_set = 3;
int opted_out __attribute__((nocommon));
__attribute__((weak)) int weak_one;
int in_section __attribute__((section(".mine")));
__attribute__((visibility("hidden"))) int hidden_one;
const int constant;
int *use_local(void) { return &local; }
"""

ALWAYS_COMMON_SRC = "int asked __attribute__((common));\nint not_asked;\n"


def defined_symbols(obj):
    """nm's name, letter and size of each global data symbol the object
    defines, and a common symbol's value: its alignment."""
    out = subprocess.run(["nm", "-S", "--defined-only", "-g", str(obj)], stdout=subprocess.PIPE, check=True)
    rows = [line.split() for line in out.stdout.decode().split("\n")[:-1]]
    return sorted((name, letter, size, value if letter == "C" else "") for value, size, letter, name in rows
                  if letter not in "Tt")


def test_fcommon_makes_tentative_definitions_common_symbols_as_gcc(tmp_path):
    """-fcommon (gcc 12 defaults to -fno-common): a tentative definition is
    a COMMON symbol (nm C, .comm in the assembly) with gcc's size and
    alignment; what is not tentative, is static, weak, in a section or
    `nocommon` stays a definition; the `common` attribute asks for it
    without the flag; the last of -fcommon/-fno-common wins."""
    src = write(tmp_path / "tent.c", COMMON_SRC)
    always = write(tmp_path / "always.c", ALWAYS_COMMON_SRC)
    for flags in (["-fcommon"], [], ["-fno-common"], ["-fno-common", "-fcommon"], ["-fcommon", "-fno-common"]):
        for f in (src, always):
            subprocess.run(["gcc", "-O2", *flags, "-c", str(f), "-o", str(tmp_path / "g.o")], check=True)
            cc("-O2", *flags, "-c", f, "-o", tmp_path / "p.o", check=0)
            assert defined_symbols(tmp_path / "p.o") == defined_symbols(tmp_path / "g.o"), (flags, f)
    symbols = defined_symbols(tmp_path / "g.o")
    assert ("asked", "C", "0000000000000004", "0000000000000004") in symbols, symbols  # the test sees them
    cc("-fcommon", "-c", src, "-o", tmp_path / "p.o", check=0)
    commons = [name for name, letter, _, _ in defined_symbols(tmp_path / "p.o") if letter == "C"]
    assert commons == ["arr", "constant", "declared_then_tentative", "hidden_one", "plain"], commons
    asm = cc("-fcommon", "-S", src, "-o", "-", check=0).stdout.decode()
    assert "\t.comm\tplain,4,4\n" in asm, asm


def test_fcommon_objects_share_one_variable_at_link_time(tmp_path):
    """Tentative definitions in two files are one variable with -fcommon
    (and with a definition in a third, gcc's object here); without it the
    link fails with a multiple definition, as gcc 12's default."""
    a = write(tmp_path / "a.c", "int counter;\nint bump(void) { return ++counter; }\n")
    b = write(tmp_path / "b.c", '#include <stdio.h>\nint counter;\nint bump(void);\n'
                                'int main(void) { bump(); bump(); printf("%d\\n", counter); return 0; }\n')
    c = write(tmp_path / "c.c", "int counter = 40;\n")
    for level in ("-O0", "-O2"):
        cc(level, "-fcommon", a, b, "-o", tmp_path / "two", check=0)
        assert subprocess.run([str(tmp_path / "two")], stdout=subprocess.PIPE, timeout=30).stdout == b"2\n"
        subprocess.run(["gcc", "-c", str(c), "-o", str(tmp_path / "c.o")], check=True)
        cc(level, "-fcommon", a, b, tmp_path / "c.o", "-o", tmp_path / "three", check=0)
        assert subprocess.run([str(tmp_path / "three")], stdout=subprocess.PIPE, timeout=30).stdout == b"42\n"
    err = cc(a, b, "-o", tmp_path / "none", check=1).stderr.decode()
    assert "multiple definition of `counter'" in err, err
