#pragma once
#include "rules/Rule.h"

namespace cnready {

/// R002: array reductions (np.sum, a.max(), linalg.norm, ...), grouped per function.
class R002Reduction final : public Rule {
public:
    const RuleInfo& info() const override;
    void check(const RuleContext& ctx, FindingSink& out) const override;
};

} // namespace cnready
