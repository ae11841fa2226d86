#pragma once
#include "rules/Rule.h"

namespace cnready {

/// R102: np.vectorize / np.frompyfunc wrap a Python function that then runs once per element.
class R102Vectorize final : public Rule {
public:
    const RuleInfo& info() const override;
    void check(const RuleContext& ctx, FindingSink& out) const override;
};

} // namespace cnready
