#pragma once
#include "rules/Rule.h"

namespace cnready {

/// R004: vectorized conditionals (3-argument where, choose, select, putmask, clip), grouped per
/// function.
class R004VectorizedConditional final : public Rule {
public:
    const RuleInfo& info() const override;
    void check(const RuleContext& ctx, FindingSink& out) const override;
};

} // namespace cnready
