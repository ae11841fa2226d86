#include "analysis/ProjectAnalyzer.h"

#include <QtConcurrent/QtConcurrentMap>

namespace cnready {

QFuture<FileResult> startFileAnalysis(const ScanResult& scan, const AnalyzerLimits& limits) {
    const QString root = scan.root;
    return QtConcurrent::mapped(
        scan.files, [root, limits](const QString& rel) { return analyzeFile(root, rel, limits); });
}

ProjectResult analyzeProject(const ScanResult& scan, const AnalyzerLimits& limits) {
    QFuture<FileResult> future = startFileAnalysis(scan, limits);
    return mergeFileResults(scan.root, future.results(), scan.diagnostics);
}

QFuture<FileResult> startFileAnalysis(const ScanResult& scan, QThreadPool* pool,
                                      const AnalyzerLimits& limits) {
    const QString root = scan.root;
    return QtConcurrent::mapped(pool, scan.files, [root, limits](const QString& rel) {
        return analyzeFile(root, rel, limits);
    });
}

} // namespace cnready
