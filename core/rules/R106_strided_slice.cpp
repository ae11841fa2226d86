#include "rules/R106_strided_slice.h"

#include "parse/SyntaxTree.h"
#include "rules/BlocksSupport.h"
#include "rules/RuleSupport.h"
#include "semantic/SemanticModel.h"

#include <algorithm>
#include <vector>

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

// The step of a call `slice(start, stop, step)` of the builtin when it is not a unit step
// (`slice(first, n, step)`, `slice(None, None, 2)`); a null node otherwise.
TSNode sliceObjectStep(const SemanticModel& m, TSNode call) {
    if (!SyntaxTree::is(call, "call") || SemanticModel::positionalCount(call) != 3 ||
        !blocks::isBuiltin(m, SyntaxTree::field(call, "function"), "slice"))
        return TSNode{};
    const TSNode step = SemanticModel::argument(call, 2);
    const std::string_view st = m.text(step);
    if (SyntaxTree::is(step, "none") || st == "1" || st == "+1")
        return TSNode{};
    return step;
}

// The statement that holds `n` (the nearest expression_statement), or `n` itself.
TSNode statementOf(TSNode n) {
    for (TSNode p = n; !ts_node_is_null(p); p = ts_node_parent(p))
        if (SyntaxTree::is(p, "expression_statement"))
            return p;
    return n;
}

// A slice object with a step used as an index (`sel = slice(first, n, step)`, then
// `out[sel]`, or `a[slice(0, n, 2)]`): the same strided view as `a[first:n:step]`. One
// finding per statement that indexes an array with it.
void reportSliceObjects(const SemanticModel& m, FindingSink& out) {
    std::vector<uint32_t> statements; // start bytes of statements already reported
    auto report = [&](TSNode sub, TSNode step, std::string_view via) {
        // A bookkeeping array is no data (reportAbout): asked before the statement counts as
        // reported, so a data array later in the same statement is still found.
        const TSNode base = SyntaxTree::field(sub, "value");
        if (!m.isArray(base) || out.aboutNoDataArray(base))
            return;
        const uint32_t at = ts_node_start_byte(statementOf(sub));
        if (std::find(statements.begin(), statements.end(), at) != statements.end())
            return;
        statements.push_back(at);
        if (m.text(step) == "-1") {
            out.reportAbout(base, sub,
                            QStringLiteral("%1 reverses with a slice object of step -1; only unit "
                                           "strides stay on the distributed path, np.flip does the "
                                           "same")
                                .arg(blocks::quoted(m, sub)),
                            1);
            return;
        }
        out.reportAbout(
            base, sub,
            QStringLiteral("%1 indexes with a slice object of step %2%3; only unit "
                           "strides stay on the distributed path")
                .arg(blocks::quoted(m, sub),
                     QString::fromUtf8(m.text(step).data(), qsizetype(m.text(step).size())),
                     via.empty() ? QString()
                                 : QStringLiteral(" (`%1`)").arg(
                                       QString::fromUtf8(via.data(), qsizetype(via.size())))));
    };
    for (const TSNode c : m.calls()) {
        const TSNode step = sliceObjectStep(m, c);
        if (ts_node_is_null(step))
            continue;
        TSNode up = ts_node_parent(c);
        if (SyntaxTree::is(up, "tuple") || SyntaxTree::is(up, "expression_list"))
            up = ts_node_parent(up);
        if (SyntaxTree::is(up, "subscript") && !ts_node_eq(SyntaxTree::field(up, "value"), c)) {
            report(up, step, {});
            continue;
        }
        // `name = slice(...)`: the subscripts of the same function indexed by `name` after it,
        // up to the next plain assignment to `name`.
        const TSNode a = ts_node_parent(c);
        if (!SyntaxTree::is(a, "assignment") || !ts_node_eq(SyntaxTree::field(a, "right"), c))
            continue;
        const TSNode name = SyntaxTree::field(a, "left");
        if (!SyntaxTree::is(name, "identifier"))
            continue;
        const std::string_view nm = m.text(name);
        const FunctionRegion* fn = m.enclosingFunctionRegion(a);
        const uint32_t from = ts_node_end_byte(a);
        const uint32_t to = fn ? fn->endByte : ts_node_end_byte(ts_node_parent(a));
        uint32_t stop = to;
        for (const TSNode b : SemanticModel::within(m.assignments(), from, to))
            if (SyntaxTree::is(b, "assignment") && m.text(SyntaxTree::field(b, "left")) == nm &&
                m.enclosingFunctionRegion(b) == fn) {
                stop = ts_node_start_byte(b);
                break;
            }
        for (const TSNode sub : SemanticModel::within(m.subscripts(), from, stop)) {
            if (m.enclosingFunctionRegion(sub) != fn)
                continue;
            bool uses = false;
            rules::forEachIndexItem(sub, [&](TSNode e) {
                uses = SyntaxTree::is(e, "identifier") && m.text(e) == nm;
                return !uses;
            });
            if (uses)
                report(sub, step, m.text(c));
        }
    }
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
    reportSliceObjects(m, out);
}

} // namespace cnready
