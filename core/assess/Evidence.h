#pragma once
// Per-file collection of what the assessment needs beyond findings: array size hints
// (module constants, default parameters, literal shapes) and compute-pattern evidence.

#include "model/FileResult.h"

namespace cnready {

class SyntaxTree;
class SemanticModel;

/// Appends size hints and pattern evidence for one parsed file to `out`.
void collectEvidence(const SyntaxTree& tree, const SemanticModel& model, FileResult& out);

} // namespace cnready
