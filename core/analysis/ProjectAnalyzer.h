#pragma once
// Whole-project analysis: scan, analyze files concurrently, merge.

#include "analysis/FileAnalyzer.h"
#include "analysis/ProjectScanner.h"
#include "model/ProjectResult.h"

namespace cnready {

/// Analyzes every file of `scan` on the global thread pool and merges the results (blocking).
/// The scan's own diagnostics (unreadable folders) join the per-file ones.
ProjectResult analyzeProject(const ScanResult& scan, const AnalyzerLimits& limits = {});

} // namespace cnready
