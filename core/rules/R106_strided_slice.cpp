#include "rules/R106_strided_slice.h"

#include "parse/SyntaxTree.h"
#include "rules/BlocksSupport.h"
#include "rules/RuleSupport.h"
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
                       "`range(0, n, 2)` and unit-step stencil slices are fine. A reversal "
                       "(every step -1) points to RR-flip (`np.flip`) instead of the mask "
                       "recipe."),
        QStringLiteral("cuPyNumeric's distributed arrays only support unit strides in slices. "
                       "A strided view either falls back to host NumPy (copies out and back) "
                       "or is rejected, depending on the version."),
        QStringLiteral("evens = x[::2]\nreversed_x = x[::-1]"),
        QStringLiteral("keep = np.arange(x.shape[0]) % 2 == 0   # mask built once (RR-mask)\n"
                       "evens = x[keep]\nreversed_x = np.flip(x)                 # RR-flip"),
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
// Whether every stepped slice of subscript `sub` steps by -1: the subscript only reverses
// axes (`a[::-1]`, `img[:, ::-1]`, `a[5:0:-1]`), which np.flip does.
bool reversesOnly(const SemanticModel& m, TSNode sub) {
    bool any = false;
    auto visit = [&](TSNode e) {
        if (!SyntaxTree::is(e, "slice"))
            return true;
        const TSNode step = stepOf(e);
        if (ts_node_is_null(step) || SyntaxTree::is(step, "none"))
            return true;
        const std::string_view st = m.text(step);
        if (st == "1" || st == "+1" || st == "None")
            return true;
        any = true;
        return st == "-1";
    };
    if (!rules::forEachIndexItem(sub, visit))
        return false;
    return any;
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
        // A reversal has its own supported equivalent (np.flip): RR-flip, not a mask.
        if (reversesOnly(m, sub)) {
            out.reportAbout(
                SyntaxTree::field(sub, "value"), sub,
                QStringLiteral("%1 reverses with step -1; only unit strides stay on the "
                               "distributed path, np.flip does the same")
                    .arg(blocks::quoted(m, sub)),
                1);
            continue;
        }
        out.reportAbout(
            SyntaxTree::field(sub, "value"), sub,
            QStringLiteral("%1 slices with step %2; only unit strides stay on the "
                           "distributed path")
                .arg(blocks::quoted(m, sub), QString::fromUtf8(st.data(), qsizetype(st.size()))));
    }
}

} // namespace cnready
