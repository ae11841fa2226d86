#pragma once
#include "rules/Rule.h"

namespace cnready {

/// R108: mpi4py moving array data beside the array runtime.
class R108Mpi4py final : public Rule {
public:
    const RuleInfo& info() const override;
    void check(const RuleContext& ctx, FindingSink& out) const override;
};

} // namespace cnready
