#pragma once
#include "rules/Rule.h"

namespace cnready {

/// R301: SciPy calls (host arrays), grouped per function, with hot path or boundary.
class R301Scipy final : public Rule {
public:
    const RuleInfo& info() const override;
    void check(const RuleContext& ctx, FindingSink& out) const override;
};

} // namespace cnready
