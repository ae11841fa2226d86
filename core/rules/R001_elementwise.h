#pragma once
#include "rules/Rule.h"

namespace cnready {

/// R001: vectorized elementwise arithmetic and ufuncs on arrays, grouped per function.
class R001Elementwise final : public Rule {
public:
    const RuleInfo& info() const override;
    void check(const RuleContext& ctx, FindingSink& out) const override;
};

} // namespace cnready
