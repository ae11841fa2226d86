#pragma once
#include "rules/Rule.h"

namespace cnready {

/// R110: Python builtins that iterate or reduce an array on the host.
class R110BuiltinsOnArrays final : public Rule {
public:
    const RuleInfo& info() const override;
    void check(const RuleContext& ctx, FindingSink& out) const override;
};

} // namespace cnready
