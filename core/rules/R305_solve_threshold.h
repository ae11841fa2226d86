#pragma once
#include "rules/Rule.h"

namespace cnready {

/// R305: np.linalg.solve / cholesky and their multi-GPU size thresholds.
class R305SolveThreshold final : public Rule {
public:
    const RuleInfo& info() const override;
    void check(const RuleContext& ctx, FindingSink& out) const override;
};

} // namespace cnready
