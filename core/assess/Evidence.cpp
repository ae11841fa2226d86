#include "assess/Evidence.h"

#include "parse/SyntaxTree.h"
#include "semantic/SemanticModel.h"

namespace cnready {

void collectEvidence(const SyntaxTree& tree, const SemanticModel& model, FileResult& out) {
    Q_UNUSED(tree);
    Q_UNUSED(model);
    Q_UNUSED(out);
}

} // namespace cnready
