#pragma once
// Whole-project analysis: scan, analyze files concurrently, merge.

#include "analysis/FileAnalyzer.h"
#include "analysis/ProjectScanner.h"
#include "model/ProjectResult.h"

#include <QFuture>

class QThreadPool;

namespace cnready {

/// Analyzes every file of `scan` on the global thread pool and merges the results (blocking).
/// The scan's own diagnostics (unreadable folders) join the per-file ones.
ProjectResult analyzeProject(const ScanResult& scan, const AnalyzerLimits& limits = {});

/// Starts the per-file analysis without blocking: results arrive in any order through the
/// future (QFutureWatcher::resultReadyAt), which can be cancelled. Merge with
/// mergeFileResults(scan.root, results, scan.diagnostics) once finished.
QFuture<FileResult> startFileAnalysis(const ScanResult& scan, const AnalyzerLimits& limits = {});

/// Same, on `pool` instead of the global thread pool. The GUI uses a private pool: on Qt < 6.6
/// the raster paint engine waits for a global-pool thread to fill large areas, so a saturated
/// global pool freezes painting until the analysis ends.
QFuture<FileResult> startFileAnalysis(const ScanResult& scan, QThreadPool* pool,
                                      const AnalyzerLimits& limits = {});

} // namespace cnready
