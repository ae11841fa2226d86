#pragma once
#include "rules/Rule.h"

namespace cnready {

/// R205: writing to the result of diag / diagonal / flip / ravel / .flat, a view in NumPy but a
/// copy on cuPyNumeric.
class R205ViewWrite final : public Rule {
public:
    const RuleInfo& info() const override;
    void check(const RuleContext& ctx, FindingSink& out) const override;
};

} // namespace cnready
