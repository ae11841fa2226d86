#pragma once
#include "rules/Rule.h"

namespace cnready {

/// R106: slices with a step other than 1 on an array.
class R106StridedSlice final : public Rule {
public:
    const RuleInfo& info() const override;
    void check(const RuleContext& ctx, FindingSink& out) const override;
};

} // namespace cnready
