#include "analysis/ProjectAnalyzer.h"

#include "model/StringPool.h"

#include <QtConcurrent/QtConcurrentMap>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <memory>
#include <numeric>
#include <vector>

namespace cnready {

namespace {

// Analyzes one file and shares its strings with the files done before: a big project keeps
// every result until the merge, and most of their strings (function names, canonical API
// names, messages, source lines) repeat.
FileResult analyzeCompact(const QString& root, const QString& rel, const AnalyzerLimits& limits,
                          StringPool& pool) {
    FileResult r = analyzeFile(root, rel, limits);
    pool.compact(r);
    return r;
}

} // namespace

QFuture<FileResult> startFileAnalysis(const ScanResult& scan, const AnalyzerLimits& limits) {
    const QString root = scan.root;
    auto pool = std::make_shared<StringPool>();
    return QtConcurrent::mapped(scan.files, [root, limits, pool](const QString& rel) {
        return analyzeCompact(root, rel, limits, *pool);
    });
}

ProjectResult analyzeProject(const ScanResult& scan, const AnalyzerLimits& limits) {
    // Each worker writes its file's result straight into its slot: no future result store
    // holding a second copy of every FileResult while the merge builds a third.
    QList<FileResult> results(scan.files.size());
    std::vector<qsizetype> indices(size_t(scan.files.size()));
    std::iota(indices.begin(), indices.end(), qsizetype(0));
    const QString root = scan.root;
    FileResult* out = results.data();
    {
        StringPool pool;
        QtConcurrent::blockingMap(indices, [&](qsizetype i) {
            out[i] = analyzeCompact(root, scan.files.at(i), limits, pool);
        });
    } // the pool's own references go before the merge copies anything
#if defined(__GLIBC__)
    // The workers' malloc arenas keep the pages of every freed syntax tree and model; the
    // results that stay are small blocks scattered over them. Hand the free pages back before
    // the merge and the report allocate their large (mmap'ed) lists.
    malloc_trim(0);
#endif
    ProjectResult project = mergeFileResults(scan.root, std::move(results), scan.diagnostics);
#if defined(__GLIBC__)
    // The merge freed the per-file finding and API-use lists, also in the workers' arenas,
    // which the caller's thread does not allocate from.
    malloc_trim(0);
#endif
    return project;
}

QFuture<FileResult> startFileAnalysis(const ScanResult& scan, QThreadPool* pool,
                                      const AnalyzerLimits& limits) {
    const QString root = scan.root;
    auto strings = std::make_shared<StringPool>();
    return QtConcurrent::mapped(pool, scan.files, [root, limits, strings](const QString& rel) {
        return analyzeCompact(root, rel, limits, *strings);
    });
}

} // namespace cnready
