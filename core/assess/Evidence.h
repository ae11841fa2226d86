#pragma once
// Per-file collection of what the assessment needs beyond findings:
//  - array size hints: module constants, default parameters, local assignments and literal
//    shapes that reach an array constructor's shape/size argument (Gate 2 and the context);
//  - compute-pattern evidence with weights (Gate 4);
//  - host touchpoints (Gate 5) and operational-readiness hints (Gate 6).
// All walks are iterative or depth-bounded: inputs can nest 10,000 levels deep.

#include "model/FileResult.h"

namespace cnready {

class SyntaxTree;
class SemanticModel;

/// Appends size hints, pattern evidence, host touchpoints and readiness hints for one parsed
/// file to `out` (whose `path` and `isTest` must already be set). Never throws.
///
/// Size hints: every call to an array constructor (`zeros/ones/empty/full`, `linspace` num,
/// `arange`, `eye/identity`, `random.*` draws and `default_rng()` generator draws) whose size
/// evaluates to a constant yields one hint with `feedsArray = true`; the expression names the
/// constants it came from. The evaluator follows module constants, parameter defaults, simple
/// local assignments and same-file call sites (`make_signal(N_SAMPLES)`), and reads integer
/// literals with underscores, `1e6`, `int(...)`, `+ - * // / ** <<` and shape tuples. Module
/// constants with a size-like name (N, SIZE, SAMPLES, GRID, ...) and a value >= 1024 that feed
/// nothing in this file yield hints with `feedsArray = false` (they may be imported elsewhere).
///
/// Pattern evidence weights: 1 for an import, 2 for a call or operator, 3 for a stencil
/// expression (several shifted slices of one array), 6 for a whole-algorithm
/// shape (a `y[n]` from `y[n-1]` recurrence, a BFS loop popping a `deque` frontier), 4 for a
/// `heapq` frontier loop. The assessment doubles the weight of evidence in a hot path.
void collectEvidence(const SyntaxTree& tree, const SemanticModel& model, FileResult& out);

} // namespace cnready
