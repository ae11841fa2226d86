#pragma once
#include "rules/Rule.h"

namespace cnready {

/// R302: np.linalg.qr / np.linalg.svd: single-device factorizations.
class R302QrSvd final : public Rule {
public:
    const RuleInfo& info() const override;
    void check(const RuleContext& ctx, FindingSink& out) const override;
};

} // namespace cnready
