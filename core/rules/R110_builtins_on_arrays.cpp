#include "rules/R110_builtins_on_arrays.h"

#include "parse/SyntaxTree.h"
#include "rules/BlocksSupport.h"
#include "rules/RuleSupport.h"
#include "semantic/SemanticModel.h"
#include "semantic/SiteWorkProbe.h"

namespace cnready {

using namespace rules;

namespace {

// Whether `tuple(idx)` is an index: written straight into a subscript (`alt[tuple(idx)]`) or
// bound to a name that indexes in the same function (`t = tuple(idx)` then `a[t]`). Turning an
// `(ndim, k)` array of positions into ndim index vectors is NumPy's fancy-indexing idiom: it
// walks the few axes, not the elements, and each item stays a whole array.
bool tupleUsedAsIndex(const SemanticModel& m, TSNode call) {
    TSNode n = call;
    for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); n = p, p = ts_node_parent(p)) {
        if (SyntaxTree::is(p, "subscript"))
            return !ts_node_eq(SyntaxTree::field(p, "value"), n);
        if (!SyntaxTree::is(p, "parenthesized_expression"))
            break;
    }
    const TSNode parent = ts_node_parent(call);
    if (!SyntaxTree::is(parent, "assignment"))
        return false;
    const TSNode left = SyntaxTree::field(parent, "left");
    if (!SyntaxTree::is(left, "identifier"))
        return false;
    const std::string_view name = m.text(left);
    const FunctionRegion* f = m.enclosingFunctionRegion(call);
    const uint32_t end = f ? f->endByte : ts_node_end_byte(m.tree().root());
    for (const TSNode sub : SemanticModel::within(m.subscripts(), ts_node_end_byte(parent), end)) {
        const TSNode ix = SyntaxTree::field(sub, "subscript");
        if (SyntaxTree::is(ix, "identifier") && m.text(ix) == name)
            return true;
    }
    return false;
}

} // namespace

const RuleInfo& R110BuiltinsOnArrays::info() const {
    static const RuleInfo i{
        QStringLiteral("R110"),
        Category::Blocks,
        QStringLiteral("builtins-on-arrays"),
        QStringLiteral("Python builtins on arrays"),
        QStringLiteral("RR-loop"),
        QStringLiteral("Finds `sum`, `max`, `min`, `any`, `all`, `sorted`, `list`, `tuple`, "
                       "`reversed` and `iter` called with an array argument. `len(a)`, "
                       "`abs(a)`, builtins on numbers or lists, and `max(a, b, c)` / "
                       "`min(a, b)`, which compare their arguments rather than walk one, "
                       "are fine, and so is `tuple(idx)` used as an index (`a[tuple(idx)]`): "
                       "it splits an `(ndim, k)` position array into its few index vectors."),
        QStringLiteral("These builtins know nothing about arrays: they iterate the array "
                       "through Python's protocol, one element at a time, pulling every "
                       "element to the host. The NumPy function does the same work as one "
                       "distributed operation."),
        QStringLiteral("peak = max(signal)\nhits = sum(mask)"),
        QStringLiteral("peak = np.max(signal)\nhits = np.count_nonzero(mask)"),
        false};
    return i;
}

void R110BuiltinsOnArrays::check(const RuleContext& ctx, FindingSink& out) const {
    const SemanticModel& m = ctx.model;
    if (!m.importsNumpy())
        return;
    static const char* const names[] = {"sum",    "max",  "min",   "any",      "all",
                                        "sorted", "list", "tuple", "reversed", "iter"};
    for (const TSNode c : m.calls()) {
        const TSNode fn = SyntaxTree::field(c, fields().function);
        if (!SyntaxTree::is(fn, "identifier"))
            continue;
        const std::string_view name = m.text(fn);
        bool match = false;
        for (const char* n : names)
            match = match || name == n;
        if (!match || !blocks::isBuiltin(m, fn, name))
            continue;
        // `max(dx, dy, dz)` compares its arguments with each other: it walks none of them
        // (arrays there would fail NumPy's truth test, so they are numbers in working code).
        if ((name == "max" || name == "min") && SemanticModel::positionalCount(c) >= 2)
            continue;
        const QString b = QString::fromUtf8(name.data(), qsizetype(name.size()));
        // The row of a loop over an array (`for row in grid: max(row)`): the item a builtin
        // walks must be iterable, so it is a row of the array, walked element by element like
        // any array argument (the cost model counts the same walk, SiteWork::rowWalks). Not
        // when the row or the array is bookkeeping-sized (three coordinates) or holds text.
        if (const LoopInfo* rows = rowWalkedByBuiltin(m, c)) {
            const TSNode row = SemanticModel::argument(c, 0);
            if (out.aboutNoDataArray(rows->iterable))
                continue;
            const QString what =
                QStringLiteral("the row %1 of %2")
                    .arg(blocks::quoted(m, row), blocks::quoted(m, rows->iterable));
            if (name == "list" || name == "tuple")
                out.reportAbout(row, c,
                                QStringLiteral("builtin %1() copies %2 to the host one element "
                                               "at a time")
                                    .arg(b, what),
                                1);
            else
                out.reportAbout(
                    row, c,
                    QStringLiteral("builtin %1() walks %2 element by element on the host")
                        .arg(b, what));
            continue;
        }
        if (name == "tuple" && tupleUsedAsIndex(m, c))
            continue;
        for (const TSNode a : positionalArguments(c)) {
            if (!m.isArray(a))
                continue;
            // `list(a)` / `tuple(a)` only turn the array into Python values: nothing to
            // vectorise, so the site's recipe is one `.tolist()` (RR-tolist), not RR-loop.
            if (name == "list" || name == "tuple")
                out.reportAbout(a, c,
                                QStringLiteral("builtin %1() copies %2 to the host one element "
                                               "at a time")
                                    .arg(b, blocks::quoted(m, a)),
                                1);
            else
                out.reportAbout(
                    a, c,
                    QStringLiteral("builtin %1() walks %2 element by element on the host")
                        .arg(b, blocks::quoted(m, a)));
            break;
        }
    }
}

} // namespace cnready
