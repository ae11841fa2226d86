#include "rules/R204_nonzero_index.h"

#include "parse/SyntaxTree.h"
#include "rules/RuleSupport.h"
#include "semantic/SemanticModel.h"

namespace cnready {

using namespace rules;

namespace {

bool isPositionsCall(const SemanticModel& m, TSNode call, QString& shown) {
    const QString name = m.callName(call);
    if (name == QLatin1String("numpy.nonzero") || name == QLatin1String("numpy.ndarray.nonzero") ||
        name == QLatin1String("numpy.argwhere") || name == QLatin1String("numpy.flatnonzero")) {
        shown = leafName(name);
        return true;
    }
    if (name == QLatin1String("numpy.where") && SemanticModel::positionalCount(call) == 1) {
        shown = QStringLiteral("where");
        return true;
    }
    // `c.nonzero()` on a receiver the model cannot type (a parameter, a comparison)
    if (name.isEmpty() && m.calleeLeaf(call) == QLatin1String("nonzero") &&
        SemanticModel::positionalCount(call) == 0) {
        const TSNode fn = SyntaxTree::field(call, "function");
        const ValueKind k = m.valueKind(SyntaxTree::field(fn, "object"));
        if (k == ValueKind::Array || k == ValueKind::Unknown) {
            shown = QStringLiteral("nonzero");
            return m.importsNumpy();
        }
    }
    return false;
}

// Whether `n` lies in the index part of subscript `sub` (not in its value).
bool inIndexPart(TSNode sub, TSNode n) {
    const TSNode value = SyntaxTree::field(sub, "value");
    return !contains(value, n);
}

// Climbs from the call through `(...)`, `[...]` taken of it (`np.where(c)[0]`) and `tuple(...)`.
TSNode valueTop(const SemanticModel& m, TSNode call) {
    TSNode cur = call;
    for (int guard = 0; guard < 8; ++guard) {
        const TSNode p = ts_node_parent(cur);
        if (SyntaxTree::is(p, "parenthesized_expression") ||
            (SyntaxTree::is(p, "subscript") && ts_node_eq(SyntaxTree::field(p, "value"), cur)) ||
            (SyntaxTree::is(p, "attribute") && m.text(SyntaxTree::field(p, "attribute")) == "T")) {
            cur = p;
            continue;
        }
        if (SyntaxTree::is(p, "argument_list")) {
            const TSNode outer = ts_node_parent(p);
            if (m.calleeLeaf(outer) == QLatin1String("tuple")) {
                cur = outer;
                continue;
            }
        }
        break;
    }
    return cur;
}

} // namespace

const RuleInfo& R204NonzeroIndex::info() const {
    static const RuleInfo i{
        QStringLiteral("R204"),
        Category::Refactor,
        QStringLiteral("nonzero-then-index"),
        QStringLiteral("Positions from nonzero used as an index"),
        QStringLiteral("RR-mask"),
        QStringLiteral("Finds `np.nonzero(c)`, `c.nonzero()`, one-argument `np.where(c)`, "
                       "`np.argwhere` and `np.flatnonzero` whose result indexes an array, "
                       "directly (`a[np.where(c)]`) or through a name (`idx = np.nonzero(c)` "
                       "then `a[idx]`, `b[rows, cols] = v`, `np.take(a, idx)`). Silent when the "
                       "positions are only counted, looped over or returned."),
        QStringLiteral("Computing positions first builds an index array whose length is only "
                       "known at run time, and indexing with it is a gather or scatter that "
                       "can move elements between GPUs. Indexing with the boolean condition "
                       "itself stays local to each GPU's block."),
        QStringLiteral("idx = np.nonzero(depth < 0.0)\n"
                       "depth[idx] = 0.0"),
        QStringLiteral("depth[depth < 0.0] = 0.0\n"
                       "# or: np.putmask(depth, depth < 0.0, 0.0)"),
        false};
    return i;
}

void R204NonzeroIndex::check(const RuleContext& ctx, FindingSink& out) const {
    const SemanticModel& m = ctx.model;
    for (TSNode call : m.calls()) {
        QString shown;
        if (!isPositionsCall(m, call, shown))
            continue;
        const TSNode top = valueTop(m, call);
        const TSNode parent = ts_node_parent(top);
        // Direct: a[np.nonzero(c)]
        if (SyntaxTree::is(parent, "subscript") && inIndexPart(parent, top)) {
            out.report(call, QStringLiteral("`%1` positions index `%2` directly; index with "
                                            "the condition itself")
                                 .arg(shown, shortCode(m, SyntaxTree::field(parent, "value"), 32)));
            continue;
        }
        // Through names: idx = np.nonzero(c) / rows, cols = np.nonzero(c)
        const TSNode assign = assignmentOf(top);
        if (ts_node_is_null(assign))
            continue;
        const TSNode left = SyntaxTree::field(assign, "left");
        QStringList names;
        if (SyntaxTree::is(left, "identifier")) {
            names << m.tree().qtext(left);
        } else if (SyntaxTree::is(left, "pattern_list") || SyntaxTree::is(left, "tuple_pattern")) {
            const uint32_t n = ts_node_named_child_count(left);
            for (uint32_t k = 0; k < n; ++k)
                if (SyntaxTree::is(ts_node_named_child(left, k), "identifier"))
                    names << m.tree().qtext(ts_node_named_child(left, k));
        }
        if (names.isEmpty())
            continue;
        const FunctionRegion* fn = m.enclosingFunctionRegion(call);
        const uint32_t from = ts_node_end_byte(assign);
        const uint32_t to = fn ? fn->endByte : ts_node_end_byte(m.tree().root());
        TSNode use{};
        QString usedName;
        QString indexed;
        for (TSNode sub : SemanticModel::within(m.subscripts(), from, to)) {
            if (m.enclosingFunctionRegion(sub) != fn)
                continue;
            const TSNode value = SyntaxTree::field(sub, "value");
            for (const QString& name : names) {
                const std::string std = name.toStdString();
                if (m.text(value) == std)
                    continue; // idx[0], rows[k]: reading the positions themselves
                const uint32_t count = ts_node_named_child_count(sub);
                bool hit = false;
                for (uint32_t k = 1; k < count && !hit; ++k)
                    hit = mentionsName(m, ts_node_named_child(sub, k), std);
                if (hit) {
                    use = sub;
                    usedName = name;
                    indexed = shortCode(m, value, 32);
                    break;
                }
            }
            if (!ts_node_is_null(use))
                break;
        }
        if (ts_node_is_null(use)) {
            for (TSNode c : SemanticModel::within(m.calls(), from, to)) {
                const QString cn = m.callName(c);
                if (cn != QLatin1String("numpy.take") && cn != QLatin1String("numpy.put") &&
                    cn != QLatin1String("numpy.ndarray.take") &&
                    cn != QLatin1String("numpy.ndarray.put"))
                    continue;
                const bool method = cn.startsWith(QLatin1String("numpy.ndarray."));
                const TSNode idxArg = SemanticModel::argument(c, method ? 0 : 1);
                for (const QString& name : names)
                    if (!ts_node_is_null(idxArg) && m.text(idxArg) == name.toStdString()) {
                        use = c;
                        usedName = name;
                        indexed = QStringLiteral("np.%1").arg(leafName(cn));
                        break;
                    }
                if (!ts_node_is_null(use))
                    break;
            }
        }
        if (ts_node_is_null(use))
            continue;
        out.report(call, QStringLiteral("`%1` positions (`%2`) index `%3` on line %4; index "
                                        "with the condition itself")
                             .arg(shown, usedName, indexed)
                             .arg(SyntaxTree::line(use)));
    }
}

} // namespace cnready
