#include "rules/R106_strided_slice.h"

#include "parse/SyntaxTree.h"
#include "rules/BlocksSupport.h"
#include "semantic/SemanticModel.h"

namespace cnready {

const RuleInfo& R106StridedSlice::info() const {
    static const RuleInfo i{
        QStringLiteral("R106"),
        Category::Blocks,
        QStringLiteral("non-unit-step-slice"),
        QStringLiteral("Non-unit step slice"),
        QStringLiteral("RR-mask"),
        QStringLiteral("Finds slices of an array with a step other than 1: `a[::2]`, "
                       "`a[1::2]`, `a[::-1]`, `a[::k]`. Strings and lists sliced with a step, "
                       "`range(0, n, 2)` and unit-step stencil slices are fine."),
        QStringLiteral("cuPyNumeric's distributed arrays only support unit strides in slices. "
                       "A strided view either falls back to host NumPy (copies out and back) "
                       "or is rejected, depending on the version."),
        QStringLiteral("evens = x[::2]\nreversed_x = x[::-1]"),
        QStringLiteral("keep = np.arange(x.shape[0]) % 2 == 0   # mask built once\n"
                       "evens = x[keep]\nreversed_x = np.flip(x)"),
        false};
    return i;
}

namespace {
// The step expression of a slice (`a:b:step`), or a null node.
TSNode stepOf(TSNode slice) {
    const uint32_t n = ts_node_child_count(slice);
    int colons = 0;
    for (uint32_t i = 0; i < n; ++i) {
        const TSNode c = ts_node_child(slice, i);
        if (!ts_node_is_named(c)) {
            if (SyntaxTree::type(c) == ":")
                ++colons;
            continue;
        }
        if (colons == 2)
            return c;
    }
    return TSNode{};
}
} // namespace

void R106StridedSlice::check(const RuleContext& ctx, FindingSink& out) const {
    const SemanticModel& m = ctx.model;
    if (!m.importsNumpy())
        return;
    TSNode lastSub{};
    for (const TSNode s : m.slices()) {
        const TSNode step = stepOf(s);
        if (ts_node_is_null(step) || SyntaxTree::is(step, "none"))
            continue;
        const std::string_view st = m.text(step);
        if (st == "1" || st == "+1" || st == "None")
            continue;
        TSNode sub = ts_node_parent(s);
        if (SyntaxTree::is(sub, "tuple") || SyntaxTree::is(sub, "expression_list"))
            sub = ts_node_parent(sub);
        if (!SyntaxTree::is(sub, "subscript"))
            continue;
        if (!ts_node_is_null(lastSub) && ts_node_eq(sub, lastSub))
            continue; // a[::2, ::2]: one finding
        if (!m.isArray(SyntaxTree::field(sub, "value")))
            continue;
        lastSub = sub;
        out.report(sub, QStringLiteral("%1 slices with step %2; only unit strides stay on the "
                                       "distributed path")
                            .arg(blocks::quoted(m, sub),
                                 QString::fromUtf8(st.data(), qsizetype(st.size()))));
    }
}

} // namespace cnready
