#pragma once
#include "rules/Rule.h"

namespace cnready {

/// R003: matrix products (@, matmul, dot, einsum, tensordot, inner, outer), grouped per function.
class R003MatrixProduct final : public Rule {
public:
    const RuleInfo& info() const override;
    void check(const RuleContext& ctx, FindingSink& out) const override;
};

} // namespace cnready
