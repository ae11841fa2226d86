#pragma once
#include "rules/Rule.h"

namespace cnready {

/// R105: control flow that branches on an array value inside a loop.
class R105ArrayBranch final : public Rule {
public:
    const RuleInfo& info() const override;
    void check(const RuleContext& ctx, FindingSink& out) const override;
};

} // namespace cnready
