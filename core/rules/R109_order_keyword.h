#pragma once
#include "rules/Rule.h"

namespace cnready {

/// R109: the order= keyword on array constructors and reshapes.
class R109OrderKeyword final : public Rule {
public:
    const RuleInfo& info() const override;
    void check(const RuleContext& ctx, FindingSink& out) const override;
};

} // namespace cnready
