#pragma once
#include "rules/Rule.h"

namespace cnready {

/// R206: reshape with loop-invariant arguments inside a loop.
class R206ReshapeInLoop final : public Rule {
public:
    const RuleInfo& info() const override;
    void check(const RuleContext& ctx, FindingSink& out) const override;
};

} // namespace cnready
