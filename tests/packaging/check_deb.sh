#!/usr/bin/env bash
# Builds the .deb into a scratch folder and checks what it holds. Prints one line per check;
# exits non-zero on the first failure.
#   check_deb.sh BUILD_DIR VERSION SOURCE_DIR
set -euo pipefail
build=$1 version=$2 src=$3
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

appstreamcli validate --no-net "$src/resources/io.github.cnready.Studio.metainfo.xml" >/dev/null \
  || fail "appstreamcli validate --no-net rejects the metainfo"
echo "ok: metainfo validates"

(cd "$build" && cpack -G DEB -B "$out" >"$out/cpack.log" 2>&1) || { cat "$out/cpack.log" >&2; fail "cpack"; }
deb=$(ls "$out"/cnready_"$version"_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] || fail "no cnready_${version}_*.deb in $(ls "$out")"
echo "ok: built $(basename "$deb")"

files=$(dpkg-deb -c "$deb" | awk '{print $6}')
for want in ./usr/bin/cnready ./usr/bin/cnready-studio \
            ./usr/share/applications/cnready-studio.desktop \
            ./usr/share/metainfo/io.github.cnready.Studio.metainfo.xml \
            ./usr/share/icons/hicolor/scalable/apps/cnready-studio.svg \
            ./usr/share/man/man1/cnready.1.gz ./usr/share/man/man1/cnready-studio.1.gz \
            ./usr/share/doc/cnready/copyright; do
  grep -qx "$want" <<<"$files" || fail "missing $want"
done
echo "ok: programs, desktop file, metainfo, icon, man pages and copyright are in the package"
grep -q '^./usr/share/cnready/examples/' <<<"$files" || fail "missing the example project"
! grep -qE '^\./(home|root|tmp|work)/' <<<"$files" || fail "build-machine paths in the package"

depends=$(dpkg-deb -f "$deb" Depends)
for lib in libqt6core6 libqt6widgets6 libqt6charts6 libtree-sitter0 libtomlplusplus3 libc6; do
  grep -q "$lib" <<<"$depends" || fail "Depends lacks $lib (shlibdeps): $depends"
done
echo "ok: Depends from shlibdeps: $depends"

# The man page is the program's own --help, readable by man.
dpkg-deb -x "$deb" "$out/root"
zcat "$out/root/usr/share/man/man1/cnready.1.gz" | grep -qF 'write\-baseline' \
  || fail "cnready.1 does not carry the assess options"
# The installed CLI runs (the studio's private library, if any, is found through its RPATH).
ver=$("$out/root/usr/bin/cnready" --version) || fail "the packaged cnready does not run"
[ "$ver" = "cnready $version" ] || fail "packaged cnready --version says '$ver'"
QT_QPA_PLATFORM=offscreen "$out/root/usr/bin/cnready-studio" --version >/dev/null \
  || fail "the packaged cnready-studio does not run"
echo "ok: both packaged programs run"
