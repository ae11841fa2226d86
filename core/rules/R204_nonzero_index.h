#pragma once
#include "rules/Rule.h"

namespace cnready {

/// R204: positions from nonzero / 1-argument where / argwhere used to index.
class R204NonzeroIndex final : public Rule {
public:
    const RuleInfo& info() const override;
    void check(const RuleContext& ctx, FindingSink& out) const override;
};

} // namespace cnready
