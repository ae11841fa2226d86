#include "analysis/ProjectAnalyzer.h"

#include <QtConcurrent/QtConcurrentMap>

#include <numeric>
#include <vector>

namespace cnready {

QFuture<FileResult> startFileAnalysis(const ScanResult& scan, const AnalyzerLimits& limits) {
    const QString root = scan.root;
    return QtConcurrent::mapped(
        scan.files, [root, limits](const QString& rel) { return analyzeFile(root, rel, limits); });
}

ProjectResult analyzeProject(const ScanResult& scan, const AnalyzerLimits& limits) {
    // Each worker writes its file's result straight into its slot: no future result store
    // holding a second copy of every FileResult while the merge builds a third.
    QList<FileResult> results(scan.files.size());
    std::vector<qsizetype> indices(size_t(scan.files.size()));
    std::iota(indices.begin(), indices.end(), qsizetype(0));
    const QString root = scan.root;
    FileResult* out = results.data();
    QtConcurrent::blockingMap(
        indices, [&](qsizetype i) { out[i] = analyzeFile(root, scan.files.at(i), limits); });
    return mergeFileResults(scan.root, std::move(results), scan.diagnostics);
}

QFuture<FileResult> startFileAnalysis(const ScanResult& scan, QThreadPool* pool,
                                      const AnalyzerLimits& limits) {
    const QString root = scan.root;
    return QtConcurrent::mapped(pool, scan.files, [root, limits](const QString& rel) {
        return analyzeFile(root, rel, limits);
    });
}

} // namespace cnready
