#pragma once
#include "rules/Rule.h"

namespace cnready {

/// R203: an accumulator grown by concatenate/stack/append inside a loop.
class R203StackInLoop final : public Rule {
public:
    const RuleInfo& info() const override;
    void check(const RuleContext& ctx, FindingSink& out) const override;
};

} // namespace cnready
