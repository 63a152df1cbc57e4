"""pipecc under the build systems people use (issue 20): CMake with the
Ninja and Makefiles generators (it identifies pipecc as Clang 14 and passes
clang's flags and -MD depfiles), meson, and a Makefile with -MMD -MP and
Debian's dpkg-buildflags; touching a header rebuilds its users."""
import os
import shutil
import subprocess
import time

import pytest

from conftest import BUILD

PIPECC = str((BUILD / "pipecc").resolve())


def sh(cmd, cwd, env=None, check=True):
    proc = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=300,
                          env={**os.environ, "CC": PIPECC, **(env or {})})
    if check:
        assert proc.returncode == 0, (cmd, proc.stdout.decode()[-3000:])
    return proc.stdout.decode()


def sources(root):
    (root / "include").mkdir(parents=True)
    # calc is exported by its attribute; scale is hidden in a -fvisibility=hidden build
    (root / "include" / "calc.h").write_text('#define FACTOR 3\n__attribute__((visibility("default"))) int calc(int);\n')
    (root / "calc.c").write_text('#include "calc.h"\nint scale(int x) { return x * FACTOR; }\n'
                                 'int calc(int x) { return scale(x); }\n')
    (root / "main.c").write_text('#include <stdio.h>\n#include "calc.h"\n'
                                 'int main(void) { printf("%d\\n", calc(14)); return calc(14) == 42 ? 0 : 1; }\n')
    return root


CMAKE_PROJECT = """cmake_minimum_required(VERSION 3.16)
project(demo C)
enable_testing()
add_library(calc STATIC calc.c)
target_include_directories(calc PUBLIC include)
add_library(shcalc SHARED calc.c)
target_include_directories(shcalc PUBLIC include)
set_target_properties(shcalc PROPERTIES C_VISIBILITY_PRESET hidden)
add_executable(app main.c)
target_link_libraries(app calc)
set_property(TARGET app PROPERTY C_STANDARD 99)
add_test(NAME app COMMAND app)
add_executable(app_shared main.c)
target_link_libraries(app_shared shcalc)
add_test(NAME app_shared COMMAND app_shared)
"""


def touch_later(path):
    time.sleep(1.1)  # a newer modification time than the objects' on any file system
    path.touch()


@pytest.mark.parametrize("generator,build_type,build", [("Ninja", "Debug", ["ninja"]),
                                                         ("Ninja", "Release", ["ninja"]),
                                                         ("Unix Makefiles", "RelWithDebInfo", ["make", "-j2"])])
def test_cmake_identifies_clang_builds_tests_and_tracks_headers(tmp_path, generator, build_type, build):
    src = sources(tmp_path / "src")
    (src / "CMakeLists.txt").write_text(CMAKE_PROJECT)
    out = tmp_path / "out"
    sh(["cmake", "-S", src, "-B", out, "-G", generator, f"-DCMAKE_BUILD_TYPE={build_type}"], tmp_path)
    compiler = next((out / "CMakeFiles").glob("*/CMakeCCompiler.cmake")).read_text()
    assert 'set(CMAKE_C_COMPILER_ID "Clang")' in compiler and 'CMAKE_C_COMPILER_VERSION "14.0.6"' in compiler
    sh(build, out)
    assert "100% tests passed" in sh(["ctest"], out)
    exported = sh(["nm", "-D", "--defined-only", next(out.glob("libshcalc.so*"))], out)
    assert " T calc" in exported and "scale" not in exported, exported  # C_VISIBILITY_PRESET hidden
    touch_later(src / "include" / "calc.h")
    rebuilt = sh(build + (["-d", "explain"] if build[0] == "ninja" else []), out)
    assert "main.c.o" in rebuilt and "calc.c.o" in rebuilt, rebuilt


def test_meson_identifies_clang_and_builds(tmp_path):
    if not shutil.which("meson"):
        pytest.fail("meson is not installed (Debian: meson); scripts/test installs it")
    src = sources(tmp_path / "src")
    (src / "calc.h").write_text((src / "include" / "calc.h").read_text())
    (src / "meson.build").write_text("project('demo', 'c', default_options: ['warning_level=2', 'c_std=gnu11'])\n"
                                     "lib = static_library('calc', 'calc.c')\n"
                                     "exe = executable('app', 'main.c', link_with: lib)\n"
                                     "test('app', exe)\n")
    setup = sh(["meson", "setup", tmp_path / "out"], src)
    assert "(clang 14.0.6" in setup and "C linker for the host machine: " + PIPECC in setup, setup
    sh(["meson", "compile", "-C", tmp_path / "out"], src)
    assert "Ok:                 1" in sh(["meson", "test", "-C", tmp_path / "out"], src)


MAKEFILE = """OBJS = main.o calc.o
prog: $(OBJS)
\t$(CC) $(LDFLAGS) -o $@ $(OBJS)
%.o: %.c
\t$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -Iinclude -c $< -o $@
-include $(OBJS:.o=.d)
"""


def test_makefile_with_mmd_mp_and_dpkg_buildflags(tmp_path):
    src = sources(tmp_path)
    (src / "Makefile").write_text(MAKEFILE)
    flags = {name: subprocess.run(["dpkg-buildflags", "--get", name], stdout=subprocess.PIPE, check=True)
             .stdout.decode().strip() for name in ("CFLAGS", "CPPFLAGS", "LDFLAGS")}
    make = ["make", f"CC={PIPECC}"] + [f"{k}={v}" for k, v in flags.items()]
    sh(make, src)
    assert subprocess.run([str(src / "prog")], timeout=30).returncode == 0
    assert (src / "main.d").read_text() == "main.o: main.c include/calc.h\ninclude/calc.h:\n"
    touch_later(src / "include" / "calc.h")
    assert "main.o" in sh(make, src)
    # -MP: a header that goes away does not break the build.
    (src / "calc.c").write_text("int calc(int x) { return x * 3; }\n")
    (src / "main.c").write_text("int calc(int);\nint main(void) { return calc(14) == 42 ? 0 : 1; }\n")
    (src / "include" / "calc.h").unlink()
    sh(make, src)
    assert subprocess.run([str(src / "prog")], timeout=30).returncode == 0


CONFIGURE_AC = """AC_INIT([demo], [1.0])
AM_INIT_AUTOMAKE([foreign])
LT_INIT
AC_PROG_CC
AC_CHECK_HEADERS([stdint.h unistd.h sys/mman.h])
AC_CHECK_FUNCS([strdup mmap])
AC_C_BIGENDIAN
AC_CHECK_SIZEOF([long])
AC_CONFIG_HEADERS([config.h])
AC_CONFIG_FILES([Makefile])
AC_OUTPUT
"""

MAKEFILE_AM = """lib_LTLIBRARIES = libcalc.la
libcalc_la_SOURCES = calc.c
check_PROGRAMS = app app_static
app_SOURCES = main.c
app_LDADD = libcalc.la
app_static_SOURCES = main.c
app_static_LDFLAGS = -static
app_static_LDADD = libcalc.la
TESTS = app app_static
"""


def test_autoconf_libtool_shared_and_static_and_config_h_like_gccs(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "configure.ac").write_text(CONFIGURE_AC)
    (src / "Makefile.am").write_text(MAKEFILE_AM)
    (src / "calc.c").write_text('#include "config.h"\nint calc(int x) { return x * 3; }\n')
    (src / "main.c").write_text('#include "config.h"\nint calc(int);\n'
                                "int main(void) { return calc(14) == 42 && HAVE_STRDUP && SIZEOF_LONG == 8 ? 0 : 1; }\n")
    sh(["autoreconf", "-fi"], src)
    gcc_dir = tmp_path / "gcc"
    gcc_dir.mkdir()
    sh([src / "configure", "CC=gcc"], gcc_dir)
    build = tmp_path / "pipecc"
    build.mkdir()
    sh([src / "configure", f"CC={PIPECC}"], build)
    assert (build / "config.h").read_text() == (gcc_dir / "config.h").read_text()
    out = sh(["make", "-j2", "check"], build)
    assert "# PASS:  2" in out, out
    assert (build / ".libs" / "libcalc.so").exists() and (build / ".libs" / "libcalc.a").exists()
