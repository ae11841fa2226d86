#pragma once
#include "rules/Rule.h"

namespace cnready {

/// R006: `out=` on NumPy calls and buffer swaps of arrays in loops, grouped per function.
class R006PreallocatedOutput final : public Rule {
public:
    const RuleInfo& info() const override;
    void check(const RuleContext& ctx, FindingSink& out) const override;
};

} // namespace cnready
