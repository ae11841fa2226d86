// libFuzzer target: "analyze these bytes as a Python file". Any crash, sanitizer report, hang
// (-timeout) or broken invariant (FuzzChecks.h) is a finding. Built with -DCNREADY_FUZZ=ON and
// clang; run by packaging/ci-sanitizers.sh with the rule fixtures as seed corpus.
#include "FuzzChecks.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const QByteArray bytes(reinterpret_cast<const char*>(data), qsizetype(size));
    const QByteArray broken = cnready::fuzz::checkInput(bytes);
    if (!broken.isEmpty()) {
        // stderr and an explicit flush: abort() does not flush stdio buffers.
        std::fprintf(stderr, "invariant broken: %s\n", broken.constData());
        std::fflush(stderr);
        std::abort();
    }
    return 0;
}
