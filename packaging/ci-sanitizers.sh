#!/usr/bin/env bash
# CI step after ./test: the whole test suite under AddressSanitizer + UndefinedBehaviorSanitizer
# (preset "asan", build-asan/), then the libFuzzer target over analyzeSource() for a bounded
# time (build-fuzz/, clang). Fails on any test failure, sanitizer report or fuzzer finding.
#   CNREADY_FUZZ_SECONDS=60   fuzzing time (libFuzzer -max_total_time)
#   CNREADY_FUZZ_SEED=1       libFuzzer -seed (fixed, so a CI run can be repeated)
#   CNREADY_SKIP_ASAN=1       only the fuzzer;  CNREADY_SKIP_FUZZ=1  only the sanitizer suite
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"
say() { printf 'ci-sanitizers: %s\n' "$*" >&2; }
t0=$(date +%s)
jobs=$(nproc)

if [ "${CNREADY_SKIP_ASAN:-0}" != 1 ]; then
  [ -f build-asan/build.ninja ] || cmake --preset asan >&2
  cmake --build build-asan -j "$jobs" >&2
  say "asan build done after $(( $(date +%s) - t0 )) s"
  # halt_on_error: any report fails the test; leaks are not checked (Qt's globals).
  ASAN_OPTIONS=detect_leaks=0:halt_on_error=1:abort_on_error=1 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  QT_QPA_PLATFORM=offscreen \
    ctest --test-dir build-asan --output-on-failure --timeout 1200 -j "$jobs"
  say "asan test suite passed after $(( $(date +%s) - t0 )) s"
fi

if [ "${CNREADY_SKIP_FUZZ:-0}" != 1 ]; then
  # The libFuzzer runtime ships in libclang-rt-<N>-dev on Debian 12 (not pulled in by clang
  # without recommends): install it when a trivial fuzzer does not link.
  probe=$(mktemp -d)
  trap 'rm -rf "$probe"' EXIT
  printf 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }\n' \
    > "$probe/p.cpp"
  if ! clang++ -fsanitize=fuzzer,address "$probe/p.cpp" -o "$probe/p" 2>/dev/null; then
    major=$(clang++ --version | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -1)
    say "installing libclang-rt-$major-dev (libFuzzer runtime)"
    sudo_cmd=()
    [ "$(id -u)" = 0 ] || sudo_cmd=(sudo)
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends \
      "libclang-rt-$major-dev" >/dev/null
    clang++ -fsanitize=fuzzer,address "$probe/p.cpp" -o "$probe/p"
  fi

  flags="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
  if [ ! -f build-fuzz/build.ninja ]; then
    CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCNREADY_FUZZ=ON -DCNREADY_BUILD_GUI=OFF -DCNREADY_WERROR=OFF \
      -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" >&2
  fi
  cmake --build build-fuzz -j "$jobs" --target cnready-fuzz-analyze >&2
  say "fuzzer built after $(( $(date +%s) - t0 )) s"

  # Seed corpus: every Python fixture, the bundled examples and every past finding
  # (fuzz/regressions/, run in libFuzzer's first pass). New inputs go to a scratch corpus
  # (kept between runs in build-fuzz/, never in the source tree).
  seeds=build-fuzz/seeds corpus=build-fuzz/corpus artifacts=build-fuzz/artifacts
  rm -rf "$seeds" && mkdir -p "$seeds" "$corpus" "$artifacts"
  find tests/fixtures assets/examples -name '*.py' -type f -print0 |
    while IFS= read -r -d '' f; do cp "$f" "$seeds/$(printf '%s' "$f" | tr '/' '_')"; done
  cp fuzz/regressions/* "$seeds/"
  # -timeout: one input running longer is reported as a finding (a healthy 16 KB input takes
  # < 0.1 s under ASan; the analyzer's own parse budget is 30 s, so a parser stall shows up
  # here first). -rss_limit_mb / -malloc_limit_mb: memory growth is reported, not swapped.
  # The outer `timeout` only guards against the fuzzer itself hanging (it should never fire).
  secs=${CNREADY_FUZZ_SECONDS:-60}
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
    timeout --kill-after=30 $((secs + 600)) \
    build-fuzz/fuzz/cnready-fuzz-analyze -max_total_time="$secs" \
      -seed="${CNREADY_FUZZ_SEED:-1}" -max_len=16384 -timeout=20 -rss_limit_mb=2048 \
      -malloc_limit_mb=2048 -dict=fuzz/python.dict -print_final_stats=1 \
      -artifact_prefix="$artifacts/" "$corpus" "$seeds" ||
    { say "fuzzer finding: reproducer in $artifacts/ (replay: build-fuzz/fuzz/cnready-fuzz-analyze FILE;" \
          "then add it to fuzz/regressions/)"; exit 1; }
  say "fuzzing passed after $(( $(date +%s) - t0 )) s"
fi
say "done in $(( $(date +%s) - t0 )) s"
