#pragma once
#include "rules/Rule.h"

namespace cnready {

/// R304: NumPy random draws and generators, grouped per function.
class R304Random final : public Rule {
public:
    const RuleInfo& info() const override;
    void check(const RuleContext& ctx, FindingSink& out) const override;
};

} // namespace cnready
