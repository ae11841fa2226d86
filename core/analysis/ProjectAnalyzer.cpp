#include "analysis/ProjectAnalyzer.h"

#include "analysis/MemoryBudget.h"
#include "analysis/ProjectFacts.h"
#include "model/FreedMemory.h"
#include "model/StringPool.h"

#include <QFileInfo>
#include <QHash>
#include <QSet>

#include <QtConcurrent/QtConcurrentMap>

#include <algorithm>
#include <memory>
#include <numeric>
#include <vector>

namespace cnready {

namespace {

// Analyzes one file and shares its strings with the files done before: a big project keeps
// every result until the merge, and most of their strings (function names, canonical API
// names, messages, source lines) repeat.
FileResult analyzeCompact(const QString& root, const QString& rel, const AnalyzerLimits& limits,
                          MemoryBudget& budget, StringPool& pool) {
    FileResult r = analyzeFile(root, rel, limits, &budget);
    pool.compact(r);
    return r;
}

} // namespace

ProjectResult analyzeProject(const ScanResult& scan, const AnalyzerLimits& limits) {
    MemoryBudget budget(limits.concurrentAnalysisBytes);
    return analyzeProject(scan, limits, budget);
}

ProjectResult analyzeProject(const ScanResult& scan, const AnalyzerLimits& limits,
                             MemoryBudget& budget) {
    // Each worker writes its file's result straight into its slot: no future result store
    // holding a second copy of every FileResult while the merge builds a third.
    QList<FileResult> results(scan.files.size());
    std::vector<qsizetype> indices(size_t(scan.files.size()));
    std::iota(indices.begin(), indices.end(), qsizetype(0));
    const QString root = scan.root;
    // Largest first: the pass ends when its last file does, and a big file started last would
    // run alone while the other workers idle (results go to their slots: same output).
    {
        std::vector<qint64> bytes(indices.size());
        for (size_t i = 0; i < indices.size(); ++i)
            bytes[i] = QFileInfo(root + QLatin1Char('/') + scan.files.at(qsizetype(i))).size();
        std::stable_sort(indices.begin(), indices.end(), [&](qsizetype a, qsizetype b) {
            return bytes[size_t(a)] > bytes[size_t(b)];
        });
    }
    FileResult* out = results.data();
    {
        StringPool pool;
        QtConcurrent::blockingMap(indices, [&](qsizetype i) {
            out[i] = analyzeCompact(root, scan.files.at(i), limits, budget, pool);
        });
    } // the pool's own set goes before the facts' solver (the results keep the strings)
    // The last files' trees and models stay resident in the workers' arenas until purged
    // (~50 MB on a 1M-line project): purged first, they do not add up with the project
    // facts' solver, which sets the analysis peak there.
    releaseFreedMemory();
    applyProjectFacts(root, results, limits, budget);
    // Freed trees and models, then the per-file lists the merge moved out.
    releaseFreedMemory();
    ProjectResult project = mergeFileResults(scan.root, std::move(results), scan.diagnostics);
    project.notRead = scan.notRead;
    releaseFreedMemory();
    return project;
}

} // namespace cnready
