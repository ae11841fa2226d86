// The large-file path is linear: analyzing a generated module twice as long takes at most 2.2
// times the work. Work is counted, not timed (parse/WorkCounters.h: field lookups and their
// hash probes, memo probes, shape queries, indexed-list nodes handed to the rules; plus every
// operator new of the analysis and the findings it reports), so the test means the same on a
// loaded machine. A step that rescans the file per finding, per function or per name grows
// with the square of the file and takes its counter past the bound.
#include "CorpusGenerator.h"

#include "analysis/FileAnalyzer.h"
#include "parse/WorkCounters.h"

#include <QtTest>

#include <atomic>
#include <cstdlib>
#include <new>

namespace {
// Every allocation through operator new in this process (the analysis's vectors, hash tables
// and nodes; Qt's string and list storage goes through malloc and is not counted here).
std::atomic<quint64> g_allocations{0};
} // namespace

void* operator new(std::size_t size) {
    g_allocations.fetch_add(1, std::memory_order_relaxed);
    if (void* p = std::malloc(size ? size : 1))
        return p;
    throw std::bad_alloc();
}
// Every other form allocates and frees through the same malloc, so that a pointer from one
// form freed by another (std::get_temporary_buffer uses the nothrow form) stays consistent,
// also under AddressSanitizer's alloc-dealloc-mismatch check.
void* operator new[](std::size_t size) {
    return ::operator new(size);
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
    g_allocations.fetch_add(1, std::memory_order_relaxed);
    return std::malloc(size ? size : 1);
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
    return ::operator new(size, std::nothrow);
}
void operator delete(void* p) noexcept {
    std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
    std::free(p);
}
void operator delete[](void* p) noexcept {
    std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
    std::free(p);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
    std::free(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
    std::free(p);
}

using namespace cnready;

namespace {

struct Work {
    WorkCounters counters;
    quint64 allocations = 0;
    qsizetype findings = 0; ///< findings, off-path notes and API uses of the file
    qsizetype lines = 0;
};

Work analyzeGenerated(int lines) {
    const QByteArray source = bench::generateModule(1, 0, lines);
    Work w;
    w.lines = source.count('\n');
    t_workCounters = WorkCounters{};
    const quint64 a0 = g_allocations.load();
    const FileResult r = analyzeSource(QStringLiteral("pkg/big.py"), source);
    w.allocations = g_allocations.load() - a0;
    w.counters = t_workCounters;
    w.findings = r.findings.size() + r.offComputePath.size() + r.apiUses.size();
    return w;
}

} // namespace

class TestLinearWork : public QObject {
    Q_OBJECT
private slots:
    void twiceTheFileIsAtMostTwiceTheWork() {
        // 6,000 and 12,000 lines: big enough that a step quadratic in the file dominates its
        // counter (the generator's functions are ~25 lines, so ~240 and ~480 functions).
        const Work small = analyzeGenerated(6000);
        const Work large = analyzeGenerated(12000);
        const double size = double(large.lines) / double(small.lines);
        QVERIFY2(size > 1.95 && size < 2.05, qPrintable(QString::number(size)));
        QVERIFY(small.findings > 1000); // the generated module is finding-dense

        const struct {
            const char* name;
            quint64 small, large;
        } rows[] = {
            {"fieldLookups", small.counters.fieldLookups, large.counters.fieldLookups},
            {"fieldProbes", small.counters.fieldProbes, large.counters.fieldProbes},
            {"memoProbes", small.counters.memoProbes, large.counters.memoProbes},
            {"shapeQueries", small.counters.shapeQueries, large.counters.shapeQueries},
            {"withinNodes", small.counters.withinNodes, large.counters.withinNodes},
            {"loopVisits", small.counters.loopVisits, large.counters.loopVisits},
            {"allocations", small.allocations, large.allocations},
            {"findings", quint64(small.findings), quint64(large.findings)},
        };
        for (const auto& row : rows) {
            const double ratio = double(row.large) / double(row.small);
            const QString what = QStringLiteral("%1: %2 -> %3 (x%4)")
                                     .arg(QLatin1String(row.name))
                                     .arg(row.small)
                                     .arg(row.large)
                                     .arg(ratio, 0, 'f', 3);
            qInfo("%s", qPrintable(what));
            QVERIFY2(row.small > 0, qPrintable(what)); // the counter counts something
            QVERIFY2(ratio <= 2.2, qPrintable(what));
        }
    }
};

QTEST_GUILESS_MAIN(TestLinearWork)
#include "tst_linear_work.moc"
