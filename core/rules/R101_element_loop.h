#pragma once
#include "rules/BlocksSupport.h"
#include "rules/Rule.h"

#include <map>
#include <optional>
#include <vector>

namespace cnready {

/// R101: Python loop that walks array elements.
class R101ElementLoop final : public Rule {
public:
    const RuleInfo& info() const override;
    void check(const RuleContext& ctx, FindingSink& out) const override;
};

struct LoopInfo;

/// The loops R101 counts as element loops in this file: index into SemanticModel::loops() →
/// the first element access that qualifies it. Holds nested loops too (R101 reports only the
/// outermost of a nest). Loops whose variable picks slabs or rows, and accesses
/// to object-dtype arrays (R107's business), do not qualify. Linear in
/// subscripts × loop depth.
/// With `only`, decides that one loop (the map holds it or is empty), reading only its nodes.
/// `objects` caches blocks::objectArrayBindings() across calls (filled on first need).
std::map<int, TSNode>
elementLoops(const SemanticModel& model, const LoopInfo* only = nullptr,
             std::optional<std::vector<blocks::ObjectArrayBinding>>* objects = nullptr);

/// Whether `sub` (a subscript) reads or writes one array element with the variable of the
/// index loop `loop` (`a[i]`, `out[i, j]`), as R101 counts it.
bool isElementAccessOf(const SemanticModel& model, TSNode sub, const LoopInfo& loop);

} // namespace cnready
