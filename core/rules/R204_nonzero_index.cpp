#include "rules/R204_nonzero_index.h"

#include "parse/SyntaxTree.h"
#include "rules/RuleSupport.h"
#include "semantic/SemanticModel.h"
#include "semantic/Walk.h"

namespace cnready {

using namespace rules;

namespace {

// `np.r_`, `np.c_`, `np.s_`, `np.index_exp`, `np.mgrid`, `np.ogrid`: subscript syntax that
// builds arrays or slices rather than indexing data.
bool isIndexTrick(const SemanticModel& m, TSNode value) {
    static const QStringList tricks = {
        QStringLiteral("numpy.r_"),    QStringLiteral("numpy.c_"),
        QStringLiteral("numpy.s_"),    QStringLiteral("numpy.index_exp"),
        QStringLiteral("numpy.mgrid"), QStringLiteral("numpy.ogrid"),
    };
    return tricks.contains(m.canonicalName(value));
}

// Whether this module may handle SciPy sparse matrices: it imports a `sparse` module
// (`scipy.sparse`, or a sibling through a relative import) or lives in a `sparse` package.
bool mayHoldSparse(const SemanticModel& m) {
    const auto hasSparse = [](const QString& dotted) {
        return dotted.split(QLatin1Char('.')).contains(QLatin1String("sparse"));
    };
    if (hasSparse(m.moduleName()))
        return true;
    for (const ImportBinding& b : m.importBindings())
        if (hasSparse(b.canonical))
            return true;
    return false;
}

// How many integer subscripts turn the result into a scalar: 2 for the tuple of nonzero /
// where (`[0]` is the positions along axis 0, `[0][0]` the first of them), 2 for argwhere's
// (k, ndim) array, 1 for flatnonzero's flat positions. 0 when `call` is none of these.
int positionsDepth(const SemanticModel& m, TSNode call, QString& shown) {
    const QString name = m.callName(call);
    if (name == QLatin1String("numpy.nonzero") || name == QLatin1String("numpy.ndarray.nonzero") ||
        name == QLatin1String("numpy.argwhere")) {
        shown = leafName(name);
        return 2;
    }
    if (name == QLatin1String("numpy.flatnonzero")) {
        shown = leafName(name);
        return 1;
    }
    if (name == QLatin1String("numpy.where") && SemanticModel::positionalCount(call) == 1) {
        shown = QStringLiteral("where");
        return 2;
    }
    // `c.nonzero()` on a receiver the model cannot type (a parameter, a comparison)
    if (name.isEmpty() && calleeLeafText(m, call) == "nonzero" &&
        SemanticModel::positionalCount(call) == 0) {
        const TSNode fn = SyntaxTree::field(call, fields().function);
        TSNode receiver = SyntaxTree::field(fn, fields().object);
        while (SyntaxTree::is(receiver, "parenthesized_expression") &&
               ts_node_named_child_count(receiver) == 1)
            receiver = ts_node_named_child(receiver, 0);
        const ValueKind k = m.valueKind(receiver);
        // A comparison is a boolean array; a name the model cannot type may also be a SciPy
        // sparse matrix, whose nonzero() has no mask equivalent, so only in files without
        // scipy.sparse.
        const bool boolean =
            isBooleanArray(m, receiver) || SyntaxTree::is(receiver, "comparison_operator");
        const bool plausible =
            boolean || k == ValueKind::Array || (k == ValueKind::Unknown && !mayHoldSparse(m));
        if (plausible && m.importsNumpy()) {
            shown = QStringLiteral("nonzero");
            return 2;
        }
    }
    return 0;
}

// Whether a subscript item is an integer (a scalar index), as opposed to a slice or a list.
bool scalarItem(TSNode sub) {
    const uint32_t n = ts_node_named_child_count(sub);
    if (n != 2)
        return false;
    const TSNode item = ts_node_named_child(sub, 1);
    return SyntaxTree::is(item, "integer") ||
           (SyntaxTree::is(item, "unary_operator") &&
            SyntaxTree::is(ts_node_named_child(item, 0), "integer"));
}

// Whether `n` lies in the index part of subscript `sub` (not in its value).
bool inIndexPart(TSNode sub, TSNode n) {
    const TSNode value = SyntaxTree::field(sub, fields().value);
    return !contains(value, n);
}

// Climbs from the call through `(...)`, `[...]` taken of it (`np.where(c)[0]`), `.T` and
// `tuple(...)`; every integer subscript lowers `depth` (0 = a scalar position).
TSNode valueTop(const SemanticModel& m, TSNode call, int& depth) {
    TSNode cur = call;
    for (int guard = 0; guard < 8 && depth > 0; ++guard) {
        const TSNode p = ts_node_parent(cur);
        if (SyntaxTree::is(p, "subscript") &&
            ts_node_eq(SyntaxTree::field(p, fields().value), cur)) {
            if (scalarItem(p))
                --depth;
            cur = p;
            continue;
        }
        if (SyntaxTree::is(p, "parenthesized_expression") ||
            (SyntaxTree::is(p, "attribute") &&
             m.text(SyntaxTree::field(p, fields().attribute)) == "T")) {
            cur = p;
            continue;
        }
        if (SyntaxTree::is(p, "argument_list")) {
            const TSNode outer = ts_node_parent(p);
            if (calleeLeafText(m, outer) == "tuple") {
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
                       "positions are only counted, looped over or returned. Judged on the "
                       "hot path (RULES.md, the workload model item 5): once per call of a "
                       "reader or a set-up step, one gather costs nothing worth a refactor."),
        QStringLiteral("Computing positions first builds an index array whose length is only "
                       "known at run time, and indexing with it is a gather or scatter that "
                       "can move elements between GPUs. Indexing with the boolean condition "
                       "itself stays local to each GPU's block."),
        QStringLiteral("idx = np.nonzero(depth < 0.0)\n"
                       "depth[idx] = 0.0"),
        QStringLiteral("depth[depth < 0.0] = 0.0\n"
                       "# or: np.putmask(depth, depth < 0.0, 0.0)"),
        true};
    return i;
}

namespace {

// Whether index item `item` uses `name` (positions at `depth`) as an index array: the bare
// name, or the name subscripted down to a level that is still an array (`idx[0]` of a tuple,
// `rows[:k]`). Arithmetic on it (`x1 + low`) or a scalar position is not a gather through it.
bool gathersThrough(const SemanticModel& m, TSNode item, std::string_view name, int depth) {
    for (int guard = 0; guard < 4; ++guard) {
        while (SyntaxTree::is(item, "parenthesized_expression") &&
               ts_node_named_child_count(item) == 1)
            item = ts_node_named_child(item, 0);
        if (SyntaxTree::is(item, "identifier"))
            return m.text(item) == name && depth >= 1;
        if (!SyntaxTree::is(item, "subscript"))
            return false;
        if (scalarItem(item))
            --depth;
        item = SyntaxTree::field(item, fields().value);
    }
    return false;
}

// Whether the positions held in `name` are needed as positions after `from` in `fn`: sliced
// or shifted (`keep[:-1]`, `idx + 1`, `np.diff(idx)`), or returned. The mask cannot stand in
// for them there, so the nonzero call stays whatever the gathers do.
bool positionsNeeded(const SemanticModel& m, std::string_view name, uint32_t from, uint32_t to,
                     const FunctionRegion* fn) {
    for (TSNode sub : SemanticModel::within(m.subscripts(), from, to)) {
        if (m.enclosingFunctionRegion(sub) != fn)
            continue;
        const TSNode value = SyntaxTree::field(sub, fields().value);
        if (!SyntaxTree::is(value, "identifier") || m.text(value) != name)
            continue;
        bool slice = false;
        cnready::forEachIndexItem(sub, [&](TSNode item) {
            slice = slice || SyntaxTree::is(item, "slice");
            return true;
        });
        if (slice)
            return true;
    }
    for (TSNode b : SemanticModel::within(m.binaryOperators(), from, to)) {
        const std::string_view op = m.text(SyntaxTree::field(b, fields().operator_));
        if (op != "+" && op != "-")
            continue;
        for (TSNode side :
             {SyntaxTree::field(b, fields().left), SyntaxTree::field(b, fields().right)})
            if (SyntaxTree::is(side, "identifier") && m.text(side) == name &&
                m.enclosingFunctionRegion(b) == fn)
                return true;
    }
    for (TSNode c : SemanticModel::within(m.calls(), from, to))
        if (m.callName(c) == QLatin1String("numpy.diff") &&
            m.text(SemanticModel::argument(c, 0)) == name && m.enclosingFunctionRegion(c) == fn)
            return true;
    for (TSNode r : m.returns()) {
        if (ts_node_start_byte(r) < from || ts_node_end_byte(r) > to ||
            m.enclosingFunctionRegion(r) != fn)
            continue;
        bool named = false;
        walkSubtree(r, [&](TSNode n) {
            named = named || (SyntaxTree::is(n, "identifier") && m.text(n) == name &&
                              !SyntaxTree::is(ts_node_parent(n), "subscript"));
            return !named && !SyntaxTree::is(n, "subscript") && !SyntaxTree::is(n, "call");
        });
        if (named)
            return true;
    }
    return false;
}

} // namespace

void R204NonzeroIndex::check(const RuleContext& ctx, FindingSink& out) const {
    const SemanticModel& m = ctx.model;
    for (TSNode call : m.calls()) {
        QString shown;
        int depth = positionsDepth(m, call, shown);
        if (depth == 0)
            continue;
        const TSNode top = valueTop(m, call, depth);
        if (depth == 0)
            continue; // a single position (`np.flatnonzero(c)[0]`): a scalar, not a gather
        const TSNode parent = ts_node_parent(top);
        // Direct: a[np.nonzero(c)] — but not np.r_[...] / np.c_[...], which concatenate
        if (SyntaxTree::is(parent, "subscript") && inIndexPart(parent, top) &&
            !isIndexTrick(m, SyntaxTree::field(parent, fields().value))) {
            out.reportAbout(
                call, call,
                QStringLiteral("`%1` positions index `%2` directly; index with "
                               "the condition itself")
                    .arg(shown, shortCode(m, SyntaxTree::field(parent, fields().value), 32)));
            continue;
        }
        // Through names: idx = np.nonzero(c) / rows, cols = np.nonzero(c)
        const TSNode assign = assignmentOf(m, top);
        if (ts_node_is_null(assign))
            continue;
        const TSNode left = SyntaxTree::field(assign, fields().left);
        QStringList names;
        int nameDepth = depth;
        if (SyntaxTree::is(left, "identifier")) {
            names << m.tree().qtext(left);
        } else if (SyntaxTree::is(left, "pattern_list") || SyntaxTree::is(left, "tuple_pattern")) {
            nameDepth = depth - 1; // unpacking takes one level
            const uint32_t n = ts_node_named_child_count(left);
            for (uint32_t k = 0; k < n; ++k)
                if (SyntaxTree::is(ts_node_named_child(left, k), "identifier"))
                    names << m.tree().qtext(ts_node_named_child(left, k));
        }
        if (names.isEmpty() || nameDepth < 1)
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
            const TSNode value = SyntaxTree::field(sub, fields().value);
            if (isIndexTrick(m, value))
                continue;
            const uint32_t count = ts_node_named_child_count(sub);
            for (const QString& name : names) {
                const std::string n = name.toStdString();
                bool hit = false;
                for (uint32_t k = 1; k < count && !hit; ++k)
                    hit = gathersThrough(m, ts_node_named_child(sub, k), n, nameDepth);
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
                    if (!ts_node_is_null(idxArg) &&
                        gathersThrough(m, idxArg, name.toStdString(), nameDepth)) {
                        use = c;
                        usedName = name;
                        indexed = QStringLiteral("np.%1").arg(leafName(cn));
                        break;
                    }
                if (!ts_node_is_null(use))
                    break;
            }
        }
        if (ts_node_is_null(use) || positionsNeeded(m, usedName.toStdString(), from, to, fn))
            continue;
        out.reportAbout(call, call,
                        QStringLiteral("`%1` positions (`%2`) index `%3` on line %4; index "
                                       "with the condition itself")
                            .arg(shown, usedName, indexed)
                            .arg(SyntaxTree::line(use)));
    }
}

} // namespace cnready
