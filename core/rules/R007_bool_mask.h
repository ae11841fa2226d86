#pragma once
#include "rules/Rule.h"

namespace cnready {

/// R007: indexing an array with a boolean array (`a[mask]`, `a[a > 0] = v`), grouped per function.
class R007BooleanMask final : public Rule {
public:
    const RuleInfo& info() const override;
    void check(const RuleContext& ctx, FindingSink& out) const override;
};

} // namespace cnready
