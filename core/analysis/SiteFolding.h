#pragma once
// One site, one fix (RULES.md, the workload model item 7): a host sync, an array branch or an
// allocation inside a loop that R101 or R103 already reports is a symptom of that element loop.
// RR-loop turns the loop into whole-array code, and the `.item()`, the strided read or the
// per-pass `np.zeros` go with it; reporting them again would count one problem several times
// and send the reader to a second recipe that the first one makes moot. Branches (R105) decide
// for themselves (R105 leaves a branch on the loop's element to R101, but keeps one that picks
// which elements a per-element call runs on: a mask to apply first is a fix of its own).

#include "model/Finding.h"

#include <QList>

namespace cnready {

class SemanticModel;

/// Removes from `findings` every R104, R106, R201, R202 or R206 finding whose line lies
/// strictly inside the span of a loop that an R101 or R103 finding of `findings` reports (the
/// finding's own line is the loop's header line). Findings outside such loops, on the loop's
/// own header line, and of other codes are kept. `model` is the file's semantic model, used to
/// find each reported loop's span (lines, 1-based). Returns the number of findings removed.
int foldIntoElementLoops(const SemanticModel& model, QList<Finding>& findings);

/// One statement, one finding: removes an R106 on the line of an R205 (the write through a
/// would-be view is the defect; `np.fill_diagonal` or a real slice fixes both) and an R110 on
/// the line of an R103 (the iteration is the problem, the builtin only consumes it), and a
/// second BLOCKS / REFACTOR finding of the same code on the same line (two allocations in one
/// statement are one site; R109, R110 and R202 stay per call for the port's rewrites). Returns
/// the number of findings removed.
int foldSameStatement(QList<Finding>& findings);

/// One pass, one wait: removes an R104 (a value converted or formatted on the host) that sits
/// in the same innermost loop as an R105 (a branch on an array value) whose condition reads
/// one of the same names (`n = np.sum(c != old)`, `log.info("%d changed", n)`,
/// `if n == 0: break`). The branch is the site: the pass already waits for `n` there, and
/// the fix (test every k passes, or keep the count on the device) removes the message's wait
/// with it. `model` locates the loops and the names in each finding's range. Returns the
/// number of findings removed.
int foldSyncIntoBranch(const SemanticModel& model, QList<Finding>& findings);

} // namespace cnready
