#pragma once
#include "rules/Rule.h"

namespace cnready {

/// R107: object-dtype arrays.
class R107ObjectDtype final : public Rule {
public:
    const RuleInfo& info() const override;
    void check(const RuleContext& ctx, FindingSink& out) const override;
};

} // namespace cnready
