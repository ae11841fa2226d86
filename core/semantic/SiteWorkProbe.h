#pragma once
// Reads one site's workload facts (model/SiteWork.h) off the semantic model: the loops of the
// same function around the site with their trip classes (LoopWork.h) and the size class of
// the largest array the site's expression touches (Shapes.h). No analysis of its own: it only
// asks SemanticModel::loopWork(), shapeOf() and elementKind().

#include "model/SiteWork.h"

#include <tree_sitter/api.h>

namespace cnready {

class SemanticModel;

/// The SiteWork of the finding reported at `node`: the loop `node` is (a finding on a loop)
/// or the innermost loop around it, and every loop of the same function around that; the
/// largest size class among the shapes of `node` and of its expressions (up to 512 nodes
/// visited), with the largest literal element count of a data array; the trip counts the
/// shapes give, the loops whose trip count is unknown, a convergence loop's `break`, and
/// what a growing stack appends. Never throws; `known` is always true on return.
SiteWork probeSiteWork(const SemanticModel& model, TSNode node);

} // namespace cnready
