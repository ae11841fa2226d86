#pragma once
#include "rules/Rule.h"

namespace cnready {

/// R103: Python iteration over an ndarray.
class R103IterateArray final : public Rule {
public:
    const RuleInfo& info() const override;
    void check(const RuleContext& ctx, FindingSink& out) const override;
};

} // namespace cnready
