// libFuzzer target: "analyze these bytes as a Python file". Any crash, sanitizer report, hang
// (-timeout) or broken invariant below is a finding. Built with -DCNREADY_FUZZ=ON and clang;
// run by packaging/ci-sanitizers.sh with the rule fixtures as seed corpus.
#include "analysis/FileAnalyzer.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

namespace {

// Aborts with a message libFuzzer prints next to the reproducer.
void check(bool ok, const char* what) {
    if (!ok) {
        __builtin_printf("invariant broken: %s\n", what);
        std::abort();
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const QByteArray bytes(reinterpret_cast<const char*>(data), qsizetype(size));
    const cnready::FileResult r = cnready::analyzeSource(QStringLiteral("pkg/input.py"), bytes);
    check(r.path == QLatin1String("pkg/input.py"), "path kept");
    check(r.bytes == qint64(size), "byte count");
    check(r.lines >= 0, "line count");
    // Every location is inside the file (lines are 1-based; a file-wide diagnostic uses 0).
    const int lastLine = r.lines + 1;
    for (const cnready::Finding& f : r.findings) {
        check(f.range.path == r.path, "finding path");
        check(f.range.line >= 1 && f.range.line <= lastLine, "finding line in file");
        check(f.range.endLine >= f.range.line && f.range.endLine <= lastLine, "finding end line");
    }
    for (const cnready::FileDiagnostic& d : r.diagnostics) {
        check(d.range.line >= 0 && d.range.line <= lastLine, "diagnostic line in file");
        check(!d.message.isEmpty(), "diagnostic message");
    }
    // Same bytes, same result (determinism).
    const cnready::FileResult again = cnready::analyzeSource(QStringLiteral("pkg/input.py"), bytes);
    check(again.findings == r.findings && again.diagnostics == r.diagnostics, "deterministic");
    return 0;
}
