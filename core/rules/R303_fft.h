#pragma once
#include "rules/Rule.h"

namespace cnready {

/// R303: np.fft transforms: one transform runs on one GPU.
class R303Fft final : public Rule {
public:
    const RuleInfo& info() const override;
    void check(const RuleContext& ctx, FindingSink& out) const override;
};

} // namespace cnready
