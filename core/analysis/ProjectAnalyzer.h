#pragma once
// Whole-project analysis: scan, analyze files concurrently, merge.

#include "analysis/FileAnalyzer.h"
#include "analysis/ProjectFacts.h"
#include "analysis/ProjectScanner.h"
#include "model/ProjectResult.h"

namespace cnready {

/// Analyzes every file of `scan` on the global thread pool, solves the project's facts over
/// the files' summaries and analyses the files that gain some once more (ProjectFacts.h),
/// then merges the results (blocking).
/// The scan's own diagnostics (unreadable folders) join the per-file ones.
ProjectResult analyzeProject(const ScanResult& scan, const AnalyzerLimits& limits = {});

class MemoryBudget;

/// The same, with the caller's memory budget instead of one of
/// `limits.concurrentAnalysisBytes`: several analyses can share one budget, and a caller can
/// read afterwards how much was reserved at once (`MemoryBudget::peakReserved()`, bytes).
ProjectResult analyzeProject(const ScanResult& scan, const AnalyzerLimits& limits,
                             MemoryBudget& budget);

} // namespace cnready
