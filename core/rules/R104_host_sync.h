#pragma once
#include "rules/Rule.h"

namespace cnready {

/// R104: host materialization of a device value in a hot path.
class R104HostSync final : public Rule {
public:
    const RuleInfo& info() const override;
    void check(const RuleContext& ctx, FindingSink& out) const override;
};

} // namespace cnready
