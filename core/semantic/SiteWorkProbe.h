#pragma once
// Reads one site's workload facts (model/SiteWork.h) off the semantic model: the loops of the
// same function around the site with their trip classes (LoopWork.h) and the size class of
// the largest array the site's expression touches (Shapes.h). No analysis of its own: it only
// asks SemanticModel::loopWork(), shapeOf() and elementKind().

#include "model/SiteWork.h"

#include <tree_sitter/api.h>

namespace cnready {

class SemanticModel;
struct LoopInfo;

/// With `call` a call of a builtin that walks an iterable element by element (`max`, `min`,
/// `sum`, `any`, `all`, `sorted`, `list`, `tuple`, `reversed`, `iter`; the name neither
/// imported nor rebound) whose walked argument is the item variable of a loop over the rows
/// of an array (`for row in grid: max(row)`, `for i, row in enumerate(grid): sum(row)`): that
/// loop, else nullptr. A builtin cannot walk a number, so the item is a row of the array (one
/// axis fewer), and the builtin reads it one element at a time on the host, one task and one
/// host read per element after the port (`row.max()` is one task). Calls that compare their
/// arguments (`max(row, 0.0)`) do not walk. R110 reports such a call and the cost probe counts
/// it (SiteWork::rowWalks), so the rule and the cost model see the same walks.
const LoopInfo* rowWalkedByBuiltin(const SemanticModel& model, TSNode call);

/// The SiteWork of the finding reported at `node`: the loop `node` is (a finding on a loop)
/// or the innermost loop around it, and every loop of the same function around that; the
/// largest size class among the shapes of `node` and of its expressions (up to 512 nodes
/// visited), with the largest literal element count of a data array; the trip counts the
/// shapes give, the loops whose trip count is unknown, a convergence loop's `break`, and
/// what a growing stack appends. Never throws; `known` is always true on return.
SiteWork probeSiteWork(const SemanticModel& model, TSNode node);

} // namespace cnready
