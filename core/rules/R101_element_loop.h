#pragma once
#include "rules/Rule.h"

namespace cnready {

/// R101: Python loop that walks array elements.
class R101ElementLoop final : public Rule {
public:
    const RuleInfo& info() const override;
    void check(const RuleContext& ctx, FindingSink& out) const override;
};

} // namespace cnready
