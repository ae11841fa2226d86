#pragma once
// Whole-project analysis: scan, analyze files concurrently, merge.

#include "analysis/FileAnalyzer.h"
#include "analysis/ProjectScanner.h"
#include "model/ProjectResult.h"

namespace cnready {

/// Analyzes every file of `scan` on the global thread pool and merges the results (blocking).
/// The scan's own diagnostics (unreadable folders) join the per-file ones.
ProjectResult analyzeProject(const ScanResult& scan, const AnalyzerLimits& limits = {});

class MemoryBudget;

/// The project's parameter facts, and a second look at the files they concern. A parameter of
/// a module-level function that its own file leaves unknown (FunctionInfo::openParameters)
/// becomes an ndarray when every call of that function found in the project (other files and
/// its own, recursive calls aside) passes an ndarray for it, and at least one call exists:
/// `grid = np.zeros(...)` in `main.py`, then `relax(grid)` through `from pkg.solver import
/// relax` or `import pkg.solver as s; s.relax(grid)`. A call that passes anything else (a
/// list, a value of unknown kind), leaves the parameter to its default or hides positions
/// behind `*args` decides against, and so does handing the function over as a value (a call
/// argument anywhere, or any mention in code of its own file other than a call): it then has
/// callers the project does not see. Functions of test modules get no facts (their calls
/// still count). The files that gain facts are analyzed again with them
/// (concurrently, with `budget`), and replace their entries in `files`; what they then pass
/// on can make more facts, for at most three rounds. Deterministic: each round reads complete
/// results only. Returns the number of facts found (0: `files` unchanged).
int applyParameterFacts(const QString& root, QList<FileResult>& files, const AnalyzerLimits& limits,
                        MemoryBudget& budget);

/// The same, with the caller's memory budget instead of one of
/// `limits.concurrentAnalysisBytes`: several analyses can share one budget, and a caller can
/// read afterwards how much was reserved at once (`MemoryBudget::peakReserved()`, bytes).
ProjectResult analyzeProject(const ScanResult& scan, const AnalyzerLimits& limits,
                             MemoryBudget& budget);

} // namespace cnready
