#pragma once
#include "rules/Rule.h"

namespace cnready {

/// R111: CuPy calls mixed into a loop over NumPy / cuPyNumeric arrays.
class R111CupyInLoop final : public Rule {
public:
    const RuleInfo& info() const override;
    void check(const RuleContext& ctx, FindingSink& out) const override;
};

} // namespace cnready
