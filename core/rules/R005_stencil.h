#pragma once
#include "rules/Rule.h"

namespace cnready {

/// R005: stencil slicing: two or more shifted slices of one array in one expression, grouped per
/// function.
class R005Stencil final : public Rule {
public:
    const RuleInfo& info() const override;
    void check(const RuleContext& ctx, FindingSink& out) const override;
};

} // namespace cnready
