#pragma once
#include "rules/Rule.h"

namespace cnready {

/// R201: an allocation with a loop-invariant shape inside a loop.
class R201AllocationInLoop final : public Rule {
public:
    const RuleInfo& info() const override;
    void check(const RuleContext& ctx, FindingSink& out) const override;
};

} // namespace cnready
