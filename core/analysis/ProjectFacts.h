#pragma once
// Cross-file facts solved over the files' per-function summaries (model/FunctionSummary.h),
// iterated to a fixed point on the summaries alone; only the files that gain a fact are then
// analysed once more, with their facts (ARCHITECTURE.md, "Project facts without re-reading
// files").

#include "analysis/FileAnalyzer.h"
#include "model/FileResult.h"

#include <utility>
#include <vector>

namespace cnready {

class MemoryBudget;

/// Solves the project's facts from `files`' summaries (pure, deterministic; reads
/// FileResult::summaries, reexports, passedFunctions and isTest):
/// - a parameter its own file leaves open (SummaryParameter::Use::Open) is an ndarray when
///   every call of its function in the project passes one (an array, a parameter of the
///   caller that is one, the result of a project function that returns one), and there is
///   at least one such call; the array module when every call passes the module;
///   a call that leaves the parameter to its default, hides positions behind `*args` or
///   passes anything else decides against, and so does handing the function over as a value
///   anywhere (its callers are not all seen); recursive calls do not count;
/// - a function returns an ndarray when its file says so, or it returns such a parameter,
///   or the result of a project function that returns one;
/// - calls resolve through `from x import f` re-exports (`from pkg import energy` with
///   `from .core import energy` in pkg/__init__.py), a class call to its `__init__` and
///   `obj.method` of a project class.
/// Functions of test modules get no parameter facts and test modules no facts at all (their
/// calls still count). Returns, per file index (ascending), the facts it gains: parameters
/// of its own functions, and the array returns of project functions it calls that its own
/// file cannot see (other files' functions, methods).
std::vector<std::pair<qsizetype, FileFacts>> solveProjectFacts(const QList<FileResult>& files);

/// solveProjectFacts(), then analyses each file that gained facts once more with them
/// (concurrently, with `budget`), replacing its entry in `files`. The summaries, re-exports
/// and passed-function lists are dropped afterwards (a big project would carry them to the
/// report). Deterministic. Returns the number of facts found (0: findings unchanged).
int applyProjectFacts(const QString& root, QList<FileResult>& files, const AnalyzerLimits& limits,
                      MemoryBudget& budget);

} // namespace cnready
