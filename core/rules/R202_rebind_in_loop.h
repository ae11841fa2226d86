#pragma once
#include "rules/Rule.h"

namespace cnready {

/// R202: `x = x + y` / `x = np.add(x, y)` rebinding an array inside a loop.
class R202RebindInLoop final : public Rule {
public:
    const RuleInfo& info() const override;
    void check(const RuleContext& ctx, FindingSink& out) const override;
};

} // namespace cnready
