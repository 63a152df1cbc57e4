# scripts/lib.sh - shared by the scripts: package set-up and incremental builds.
# Sourced, not run. Every function exits the calling script on failure.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${PIPE_BUILD_DIR:-$ROOT/build}"
# The sanitizer build: clang 14 with ASan, UBSan (every report fatal) and
# libFuzzer's coverage in every object. It holds the libFuzzer targets
# (scripts/fuzz-stage, scripts/fuzz-readers) and the tools the sanitizer
# tests run (tests/test_bad_input.py, test_verify.py, test_literals.py).
SAN_BUILD_DIR="${PIPE_ASAN_BUILD_DIR:-$ROOT/build-fuzz}"

# Debian packages the build and the tests need.
PIPE_PACKAGES=(cmake ninja-build g++ flatbuffers-compiler libflatbuffers-dev
               nlohmann-json3-dev libcli11-dev python3-pytest python3-pytest-xdist
               clang-14 llvm-14-dev libclang-14-dev libclang-cpp14-dev libmimalloc-dev
               gcc gcc-12-source csmith libcsmith-dev
               graphviz creduce chromium chromium-driver python3-selenium
               meson distcc distcc-pump icecc ccache dpkg-dev gdb lldb-14 autoconf automake libtool)

# Installs whichever of PIPE_PACKAGES is missing (needs root and apt-get).
pipe_setup() {
  local missing=()
  for pkg in "${PIPE_PACKAGES[@]}"; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "setup: installing ${missing[*]}" >&2
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: need root to install: ${missing[*]}" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null ||
    { apt-get update >/dev/null && apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null; } ||
    { echo "setup: apt-get install failed" >&2; exit 1; }
}

# pipe_build_sanitized [targets...]: configure SAN_BUILD_DIR once, then build
# the targets (default: pipe-sanitized, what the test suite runs from it).
pipe_build_sanitized() {
  local dir="$SAN_BUILD_DIR"
  if [ ! -f "$dir/build.ninja" ]; then
    cmake -S "$ROOT" -B "$dir" -G Ninja -DPIPE_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_C_COMPILER=clang-14 \
      -DCMAKE_CXX_FLAGS=-Wno-unused-command-line-argument >/dev/null ||
      { echo "build: cmake failed in $dir" >&2; exit 1; }
  fi
  local targets=("$@")
  [ ${#targets[@]} -gt 0 ] || targets=(pipe-sanitized)
  ninja -C "$dir" "${targets[@]}" >/dev/null ||
    { ninja -C "$dir" "${targets[@]}"; echo "build: failed in $dir" >&2; exit 1; }
}

# pipe_build DIR [cmake args...]: configure once, then build incrementally.
pipe_build() {
  local dir="$1"; shift
  if [ ! -f "$dir/build.ninja" ]; then
    cmake -S "$ROOT" -B "$dir" -G Ninja "$@" >/dev/null || { echo "build: cmake failed in $dir" >&2; exit 1; }
  fi
  ninja -C "$dir" >/dev/null || { ninja -C "$dir"; echo "build: failed in $dir" >&2; exit 1; }
}
