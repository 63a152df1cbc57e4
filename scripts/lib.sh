# scripts/lib.sh - shared by the scripts: package set-up and incremental builds.
# Sourced, not run. Every function exits the calling script on failure.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${PIPE_BUILD_DIR:-$ROOT/build}"
ASAN_BUILD_DIR="${PIPE_ASAN_BUILD_DIR:-$ROOT/build-asan}"

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

# pipe_build DIR [cmake args...]: configure once, then build incrementally.
pipe_build() {
  local dir="$1"; shift
  if [ ! -f "$dir/build.ninja" ]; then
    cmake -S "$ROOT" -B "$dir" -G Ninja "$@" >/dev/null || { echo "build: cmake failed in $dir" >&2; exit 1; }
  fi
  ninja -C "$dir" >/dev/null || { ninja -C "$dir"; echo "build: failed in $dir" >&2; exit 1; }
}
