"""pipecc under the build systems people use (issue 20): CMake with the
Ninja and Makefiles generators (it identifies pipecc as Clang 14 and passes
clang's flags and -MD depfiles), meson, and a Makefile with -MMD -MP and
Debian's dpkg-buildflags; touching a header rebuilds its users and nothing
else."""
import os
import re
import shutil
import subprocess
import time

import pytest

from conftest import BUILD

PIPECC = str((BUILD / "pipecc").resolve())


def sh(cmd, cwd, env=None, check=True):
    # Without the developers' ccache launchers: the build tools run pipecc itself.
    base = {k: v for k, v in os.environ.items() if not k.endswith("_COMPILER_LAUNCHER")}
    proc = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=300,
                          env={**base, "CC": PIPECC, **(env or {})})
    if check:
        assert proc.returncode == 0, (cmd, proc.stdout.decode()[-3000:])
    return proc.stdout.decode()


def sources(root):
    (root / "include").mkdir(parents=True)
    # calc is exported by its attribute; scale is hidden in a -fvisibility=hidden build
    (root / "include" / "calc.h").write_text('#define FACTOR 3\n__attribute__((visibility("default"))) int calc(int);\n')
    (root / "calc.c").write_text('#include "calc.h"\nint scale(int x) { return x * FACTOR; }\n'
                                 'int calc(int x) { return scale(x); }\n')
    (root / "main.c").write_text('#include <stdio.h>\n#include "calc.h"\nint other(void);\n'
                                 'int main(void) { printf("%d\\n", calc(14)); return calc(14) + other() == 42 ? 0 : 1; }\n')
    # other.c does not include calc.h: touching calc.h must leave its object alone
    (root / "include" / "other.h").write_text("#define ZERO 0\n")
    (root / "other.c").write_text('#include "other.h"\nint other(void) { return ZERO; }\n')
    return root


def compiled(output):
    """The objects a CMake build's output (Ninja or Makefiles) says it compiled."""
    return sorted(re.findall(r"Building C object (\S+)", output))


CMAKE_PROJECT = """cmake_minimum_required(VERSION 3.16)
project(demo C)
enable_testing()
add_library(calc STATIC calc.c)
target_include_directories(calc PUBLIC include)
add_library(shcalc SHARED calc.c)
target_include_directories(shcalc PUBLIC include)
set_target_properties(shcalc PROPERTIES C_VISIBILITY_PRESET hidden)
add_executable(app main.c other.c)
target_link_libraries(app calc)
set_property(TARGET app PROPERTY C_STANDARD 99)
add_test(NAME app COMMAND app)
add_executable(app_shared main.c other.c)
target_link_libraries(app_shared shcalc)
add_test(NAME app_shared COMMAND app_shared)
"""


def touch_later(path):
    time.sleep(1.1)  # a newer modification time than the objects' on any file system
    path.touch()


def debug_sections(obj):
    return ".debug_info" in subprocess.run(["readelf", "-S", "-W", obj], stdout=subprocess.PIPE,
                                            check=True).stdout.decode()


@pytest.mark.parametrize("build_type", ["Debug", "Release", "RelWithDebInfo"])
@pytest.mark.parametrize("generator", ["Ninja", "Unix Makefiles"])
def test_cmake_identifies_clang_builds_tests_and_tracks_headers(tmp_path, generator, build_type):
    src = sources(tmp_path / "src")
    (src / "CMakeLists.txt").write_text(CMAKE_PROJECT)
    out = tmp_path / "out"
    build = ["ninja"] if generator == "Ninja" else ["make", "-j2"]
    sh(["cmake", "-S", src, "-B", out, "-G", generator, f"-DCMAKE_BUILD_TYPE={build_type}"], tmp_path)
    compiler = next((out / "CMakeFiles").glob("*/CMakeCCompiler.cmake")).read_text()
    assert 'set(CMAKE_C_COMPILER_ID "Clang")' in compiler and 'CMAKE_C_COMPILER_VERSION "14.0.6"' in compiler
    objects = ["CMakeFiles/app.dir/main.c.o", "CMakeFiles/app.dir/other.c.o", "CMakeFiles/app_shared.dir/main.c.o",
               "CMakeFiles/app_shared.dir/other.c.o", "CMakeFiles/calc.dir/calc.c.o", "CMakeFiles/shcalc.dir/calc.c.o"]
    assert compiled(sh(build, out)) == objects
    # The build type's flags reached pipecc: -g in Debug and RelWithDebInfo only.
    assert debug_sections(out / objects[0]) == (build_type != "Release")
    assert "100% tests passed" in sh(["ctest"], out)
    exported = sh(["nm", "-D", "--defined-only", next(out.glob("libshcalc.so*"))], out)
    assert " T calc" in exported and "scale" not in exported, exported  # C_VISIBILITY_PRESET hidden
    assert compiled(sh(build, out)) == []  # the depfiles name no missing or newer file
    # Dependency tracking from pipecc's -MD depfiles: a header's users and nothing else.
    touch_later(src / "include" / "calc.h")
    assert compiled(sh(build, out)) == [o for o in objects if "other" not in o]
    touch_later(src / "include" / "other.h")
    assert compiled(sh(build, out)) == [o for o in objects if "other" in o]
    assert "100% tests passed" in sh(["ctest"], out)


@pytest.mark.parametrize("buildtype", ["debug", "release"])
def test_meson_identifies_clang_builds_and_tracks_headers(tmp_path, buildtype):
    if not shutil.which("meson"):
        pytest.fail("meson is not installed (Debian: meson); scripts/test installs it")
    src = sources(tmp_path / "src")
    (src / "meson.build").write_text("project('demo', 'c', default_options: ['warning_level=2', 'c_std=gnu11'])\n"
                                     "inc = include_directories('include')\n"
                                     "lib = static_library('calc', 'calc.c', include_directories: inc)\n"
                                     "exe = executable('app', 'main.c', 'other.c', link_with: lib,"
                                     " include_directories: inc)\n"
                                     "test('app', exe)\n")
    out = tmp_path / "out"
    setup = sh(["meson", "setup", f"--buildtype={buildtype}", out], src)
    assert "(clang 14.0.6" in setup and "C linker for the host machine: " + PIPECC in setup, setup

    def compile_objects():
        return sorted(re.findall(r"Compiling C object (\S+)", sh(["meson", "compile", "-C", out], src)))
    objects = ["app.p/main.c.o", "app.p/other.c.o", "libcalc.a.p/calc.c.o"]
    assert compile_objects() == objects
    assert ("-O3" in (out / "compile_commands.json").read_text()) == (buildtype == "release")
    assert "Ok:                 1" in sh(["meson", "test", "-C", out], src)
    assert compile_objects() == []
    touch_later(src / "include" / "calc.h")
    assert compile_objects() == ["app.p/main.c.o", "libcalc.a.p/calc.c.o"]
    touch_later(src / "include" / "other.h")
    assert compile_objects() == ["app.p/other.c.o"]
    assert "Ok:                 1" in sh(["meson", "test", "-C", out], src)


MAKEFILE = """OBJS = main.o calc.o other.o
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
