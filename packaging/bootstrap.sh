#!/usr/bin/env bash
# Installs what cnready needs to build on a Debian 12 (or newer) machine, once.
# Idempotent and cached: a second call does no apt or npm work and rebuilds nothing.
#   - Debian packages (apt-get, only when one is missing)
#   - KSyntaxHighlighting for Qt 6: the system's KF6 package when it exists, otherwise
#     Debian's 5.116 source tarball built once into ~/.cache/cnready/deps (outside the checkout,
#     so fresh clones reuse it)
#   - the tree-sitter-python grammar pinned by third_party/tree-sitter-python/package-lock.json
# Prints one line per step it actually performs; exits non-zero with a clear message on failure.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cache=${CNREADY_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cnready}
mkdir -p "$cache"

say() { printf 'bootstrap: %s\n' "$*" >&2; }
die() { printf 'bootstrap: error: %s\n' "$*" >&2; exit 1; }

sudo_cmd=()
if [ "$(id -u)" != 0 ]; then
  command -v sudo >/dev/null 2>&1 && sudo_cmd=(sudo) || true
fi

# --- 1. Debian packages ------------------------------------------------------------------
# Libraries are checked by package; tools by command, since a machine may carry its own
# node/npm or compiler outside Debian's packages.
# qt6-charts-dev (the studio cost chart) needs libqt6opengl6-dev for its CMake package, which
# Debian 12 does not pull in.
packages=(qt6-base-dev qt6-charts-dev libqt6opengl6-dev libtree-sitter-dev libjemalloc-dev pkg-config xz-utils ca-certificates xvfb xauth libgl-dev
          libcmark-gfm-dev libcmark-gfm-extensions-dev libtomlplusplus-dev
          appstream dpkg-dev file)  # the last three: the .deb test (appstreamcli, shlibdeps)
for tool in g++:g++ cmake:cmake ninja:ninja-build node:nodejs npm:npm python3:python3 clang++:clang; do
  command -v "${tool%%:*}" >/dev/null 2>&1 || packages+=("${tool#*:}")
done
have_kf6=0
if dpkg-query -W -f='${Status}' libkf6syntaxhighlighting-dev 2>/dev/null | grep -q 'ok installed'; then
  have_kf6=1
elif apt-cache show libkf6syntaxhighlighting-dev >/dev/null 2>&1; then
  packages+=(libkf6syntaxhighlighting-dev)
  have_kf6=1
else
  packages+=(extra-cmake-modules qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools perl)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  say "installing Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq || die "apt-get update failed"
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
    || die "apt-get install failed for: ${missing[*]}"
  if [ $have_kf6 = 0 ] && apt-cache show libkf6syntaxhighlighting-dev >/dev/null 2>&1; then
    "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends libkf6syntaxhighlighting-dev >/dev/null && have_kf6=1
  fi
fi

# --- 2. KSyntaxHighlighting for Qt 6 ----------------------------------------------------------
ksh_version=5.116.0
ksh_sha256=6f8ccacebd0dc9ce050b2b23b715750c97938b3336fbbb80967920cb8c1dfaa7
ksh_prefix="$cache/deps/ksyntaxhighlighting-$ksh_version-qt6"
if [ $have_kf6 = 1 ]; then
  echo "" > "$cache/ksh-prefix"
elif [ -f "$ksh_prefix/.complete" ]; then
  echo "$ksh_prefix" > "$cache/ksh-prefix"
else
  say "building KSyntaxHighlighting $ksh_version against Qt 6 into $ksh_prefix (once)"
  work="$cache/src/ksh"
  rm -rf "$work" && mkdir -p "$work/lists/partial" "$work/sources.d"
  tarball="$cache/src/ksyntax-highlighting_$ksh_version.orig.tar.xz"
  if ! echo "$ksh_sha256  $tarball" | sha256sum -c --status 2>/dev/null; then
    # A private apt configuration that only knows trixie's source index: the machine's own
    # sources stay untouched.
    echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian trixie main" \
      > "$work/sources.d/trixie-src.list"
    opts=(-oDir::State::Lists="$work/lists" -oDir::Etc::SourceList=/dev/null
          -oDir::Etc::SourceParts="$work/sources.d" -oAPT::Sandbox::User=root)
    apt-get "${opts[@]}" update -qq >/dev/null 2>&1 || die "cannot read Debian's trixie source index"
    # The mirror may lack the .dsc; the tarball itself is what we need, checked below.
    (cd "$work" && apt-get "${opts[@]}" source --download-only "ksyntax-highlighting=$ksh_version-1" >/dev/null 2>&1) || true
    [ -f "$work/ksyntax-highlighting_$ksh_version.orig.tar.xz" ] || die "could not download ksyntax-highlighting_$ksh_version.orig.tar.xz"
    mv "$work/ksyntax-highlighting_$ksh_version.orig.tar.xz" "$tarball"
  fi
  echo "$ksh_sha256  $tarball" | sha256sum -c --status || die "sha256 mismatch for $tarball"
  tar -C "$work" -xf "$tarball"
  srcdir=$(find "$work" -maxdepth 1 -type d -name 'syntax-highlighting-*' | head -1)
  [ -n "$srcdir" ] || die "unexpected tarball layout"
  # Debian 12 ships ECM 5.103; the 5.116 sources build fine with it.
  sed -i -E 's/find_package\(ECM 5\.116\.0/find_package(ECM 5.103.0/' "$srcdir/CMakeLists.txt"
  cmake -S "$srcdir" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DBUILD_WITH_QT6=ON -DBUILD_TESTING=OFF -DBUILD_QCH=OFF -DKSYNTAXHIGHLIGHTING_USE_GUI=ON \
    -DLIB_INSTALL_DIR=lib/x86_64-linux-gnu -DCMAKE_INSTALL_PREFIX="$ksh_prefix" >"$work/configure.log" 2>&1 \
    || die "KSyntaxHighlighting configure failed (see $work/configure.log)"
  cmake --build "$work/build" >"$work/build.log" 2>&1 || die "KSyntaxHighlighting build failed (see $work/build.log)"
  cmake --install "$work/build" >"$work/install.log" 2>&1 || die "KSyntaxHighlighting install failed"
  touch "$ksh_prefix/.complete"
  rm -rf "$work"
  echo "$ksh_prefix" > "$cache/ksh-prefix"
fi

# --- 3. tree-sitter-python grammar (npm, pinned by lockfile) ----------------------------------
pin="$here/third_party/tree-sitter-python"
lock_hash=$(sha256sum "$pin/package-lock.json" | cut -c1-16)
grammar_dir="$cache/npm/$lock_hash"
if [ ! -f "$grammar_dir/.complete" ]; then
  say "installing the pinned tree-sitter-python grammar with npm ci (once)"
  rm -rf "$grammar_dir" && mkdir -p "$grammar_dir"
  cp "$pin/package.json" "$pin/package-lock.json" "$grammar_dir/"
  (cd "$grammar_dir" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null) \
    || die "npm ci failed for tree-sitter-python"
  [ -f "$grammar_dir/node_modules/tree-sitter-python/src/parser.c" ] || die "grammar sources missing after npm ci"
  touch "$grammar_dir/.complete"
fi
echo "$grammar_dir/node_modules/tree-sitter-python" > "$cache/grammar-dir"
exit 0
