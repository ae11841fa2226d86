#include "rules/R203_stack_in_loop.h"

#include "parse/SyntaxTree.h"
#include "rules/RuleSupport.h"
#include "semantic/LoopWork.h"
#include "semantic/SemanticModel.h"
#include "semantic/Walk.h"

#include <algorithm>

namespace cnready {

using namespace rules;

namespace {

// Whether an identifier/attribute with exactly the text `target` occurs in `args`.
bool argumentsMention(const SemanticModel& m, TSNode args, std::string_view target) {
    bool found = false;
    walkWithParents(args, [&](TSNode n, TSNode parent) {
        if (found)
            return false;
        if ((SyntaxTree::is(n, "identifier") || SyntaxTree::is(n, "attribute")) &&
            m.text(n) == target) {
            const TSNode p = ts_node_is_null(parent) ? ts_node_parent(n) : parent;
            // `x.shape` / `x[...]` read the accumulator but do not grow it
            if (!(SyntaxTree::is(p, "attribute") &&
                  ts_node_eq(SyntaxTree::field(p, fields().object), n)) &&
                !(SyntaxTree::is(p, "subscript") &&
                  ts_node_eq(SyntaxTree::field(p, fields().value), n)))
                found = true;
            return false;
        }
        return !SyntaxTree::is(n, "keyword_argument") && !SyntaxTree::is(n, "lambda");
    });
    return found;
}

bool isStacker(const QString& name) {
    static const QStringList stackers = {
        QStringLiteral("numpy.concatenate"),    QStringLiteral("numpy.hstack"),
        QStringLiteral("numpy.vstack"),         QStringLiteral("numpy.stack"),
        QStringLiteral("numpy.append"),         QStringLiteral("numpy.column_stack"),
        QStringLiteral("numpy.dstack"),         QStringLiteral("numpy.row_stack"),
        QStringLiteral("numpy.ma.concatenate"),
    };
    return stackers.contains(name);
}

// Whether a tuple target binds `target` (`lons, lats = edges()` rebinds both names).
bool unpacksInto(const SemanticModel& m, TSNode left, std::string_view target) {
    if (!SyntaxTree::is(left, "pattern_list") && !SyntaxTree::is(left, "tuple_pattern") &&
        !SyntaxTree::is(left, "tuple") && !SyntaxTree::is(left, "list_pattern"))
        return false;
    for (uint32_t k = 0; k < ts_node_named_child_count(left); ++k)
        if (m.text(ts_node_named_child(left, k)) == target)
            return true;
    return false;
}

// Whether assignment `a` sits in the branch of an `if` that holds on the first pass only:
// the loop's counter equals 0 (`i == 0`, `k == 0`) or the target is still None.
bool startsOnFirstPass(const SemanticModel& m, TSNode a, std::string_view target,
                       const LoopInfo& loop) {
    for (TSNode p = ts_node_parent(a); !ts_node_is_null(p) && !ts_node_eq(p, loop.node);
         p = ts_node_parent(p)) {
        if (!SyntaxTree::is(p, "if_statement"))
            continue;
        const TSNode body = ts_node_child_by_field_name(p, "consequence", 11);
        if (ts_node_start_byte(a) < ts_node_start_byte(body) ||
            ts_node_end_byte(a) > ts_node_end_byte(body))
            return false; // in an elif / else branch
        TSNode cond = SyntaxTree::field(p, fields().condition);
        while (SyntaxTree::is(cond, "parenthesized_expression"))
            cond = ts_node_named_child(cond, 0);
        if (!SyntaxTree::is(cond, "comparison_operator") || ts_node_child_count(cond) != 3)
            return false;
        const std::string_view lhs = m.text(ts_node_child(cond, 0));
        const std::string_view op = m.text(ts_node_child(cond, 1));
        const std::string_view rhs = m.text(ts_node_child(cond, 2));
        if (op == "==" && rhs == "0" &&
            loop.variables.contains(QString::fromUtf8(lhs.data(), qsizetype(lhs.size()))))
            return true;
        return op == "is" && rhs == "None" && lhs == target;
    }
    return false;
}

// Not an accumulator: the stacked arguments also slice the target (`h = concatenate((h[-k:], h,
// h[:k]))` pads it), or the loop rebinds the target elsewhere (`h = h[k:-k]`, `h = f(h)`), so
// it does not grow from one iteration to the next.
bool padsOrResets(const SemanticModel& m, TSNode call, TSNode assign, std::string_view target,
                  const LoopInfo& loop) {
    for (TSNode sub : SemanticModel::within(m.subscripts(), call))
        if (m.text(SyntaxTree::field(sub, fields().value)) == target)
            return true;
    for (TSNode a : SemanticModel::within(m.assignments(), loop.hotStart, loop.hotEnd)) {
        if (ts_node_eq(a, assign) || !SyntaxTree::is(a, "assignment"))
            continue;
        const TSNode left = SyntaxTree::field(a, fields().left);
        const TSNode right = SyntaxTree::field(a, fields().right);
        if (m.text(left) != target && !unpacksInto(m, left, target))
            continue;
        // Another branch growing the same accumulator; a stacking that does not read the
        // target starts it afresh (`pad = np.hstack((edge, x))` then `pad = np.hstack((pad,
        // edge))`: padded once per pass, grown across none).
        if (SyntaxTree::is(right, "call") && isStacker(m.callName(right)) &&
            argumentsMention(m, SyntaxTree::field(right, fields().arguments), target))
            continue;
        // `if i == 0: acc = first` / `if acc is None: acc = first`: the accumulator's start,
        // taken on the first pass only; the other passes grow it.
        if (startsOnFirstPass(m, a, target, loop))
            continue;
        return true;
    }
    return false;
}

// A refinement, not an accumulation: a stacked piece is computed in the loop from the target
// itself (`mid = 0.5 * (verts[e[:, 0]] + verts[e[:, 1]])`, then `verts = np.vstack([verts,
// mid])`). Each pass needs the whole array built so far, so there is no list of pieces to
// stack once after the loop; such loops run over a few levels and grow geometrically.
bool refines(const SemanticModel& m, TSNode call, std::string_view target, const LoopInfo& loop) {
    std::vector<std::string_view> pieces;
    walkSubtree(SyntaxTree::field(call, fields().arguments), [&](TSNode n) {
        if (SyntaxTree::is(n, "identifier") && m.text(n) != target)
            pieces.push_back(m.text(n));
        return true;
    });
    for (TSNode a : SemanticModel::within(m.assignments(), loop.hotStart, loop.hotEnd)) {
        if (!SyntaxTree::is(a, "assignment"))
            continue;
        const std::string_view name = m.text(SyntaxTree::field(a, fields().left));
        if (std::find(pieces.begin(), pieces.end(), name) == pieces.end())
            continue;
        // Reading only the tail (`traj[-1] + v`, `acc[-k:]`) is a recurrence, which
        // preallocating with an index handles: still an accumulator.
        bool readsTarget = false;
        walkWithParents(SyntaxTree::field(a, fields().right), [&](TSNode n, TSNode parent) {
            if (readsTarget)
                return false;
            if (!SyntaxTree::is(n, "identifier") || m.text(n) != target)
                return true;
            const TSNode p = ts_node_is_null(parent) ? ts_node_parent(n) : parent;
            const bool tail = SyntaxTree::is(p, "subscript") &&
                              ts_node_eq(SyntaxTree::field(p, fields().value), n) &&
                              m.text(SyntaxTree::field(p, fields().subscript)).starts_with("-");
            readsTarget = !tail;
            return true;
        });
        if (readsTarget)
            return true;
    }
    return false;
}

} // namespace

const RuleInfo& R203StackInLoop::info() const {
    static const RuleInfo i{
        QStringLiteral("R203"),
        Category::Refactor,
        QStringLiteral("stacking-in-loop"),
        QStringLiteral("Array grown by stacking inside a loop"),
        QStringLiteral("RR-stack"),
        QStringLiteral("Finds `np.concatenate`, `hstack`, `vstack`, `stack`, `append`, "
                       "`column_stack`, `dstack` and `row_stack` inside a loop whose result is "
                       "assigned back to one of its own inputs (`acc = np.vstack([acc, row])`), "
                       "so the array grows by one piece per iteration. Silent on stacking once "
                       "after the loop and on stacking that does not feed an accumulator."),
        QStringLiteral("Every call copies all rows gathered so far into a new, larger array: "
                       "the total copying grows with the square of the iteration count, and "
                       "each copy is a full redistribution across the GPUs."),
        QStringLiteral("hits = np.empty(0)\n"
                       "for chunk in chunks:\n"
                       "    hits = np.append(hits, chunk[chunk > cut])"),
        QStringLiteral("parts = []\n"
                       "for chunk in chunks:\n"
                       "    parts.append(chunk[chunk > cut])\n"
                       "hits = np.concatenate(parts)   # once, after the loop"),
        false};
    return i;
}

void R203StackInLoop::check(const RuleContext& ctx, FindingSink& out) const {
    const SemanticModel& m = ctx.model;
    for (TSNode call : m.calls()) {
        const QString name = m.callName(call);
        if (!isStacker(name))
            continue;
        const LoopInfo* loop = m.enclosingLoop(call);
        if (!loop || loop->kind == LoopKind::Comprehension)
            continue;
        // A handful of passes (`for axis in range(3)`, a literal tuple) grows a handful of
        // pieces. An unsized collection still counts: the copying grows with its length.
        if (m.tripClass(*loop) == TripClass::Small && !m.inManyPassLoop(loop->node))
            continue;
        const TSNode assign = assignmentOf(m, call);
        if (ts_node_is_null(assign))
            continue;
        const TSNode left = SyntaxTree::field(assign, fields().left);
        if (!SyntaxTree::is(left, "identifier") && !SyntaxTree::is(left, "attribute"))
            continue;
        const std::string_view target = m.text(left);
        if (!argumentsMention(m, SyntaxTree::field(call, fields().arguments), target))
            continue;
        if (padsOrResets(m, call, assign, target, *loop) || refines(m, call, target, *loop))
            continue;
        out.reportAbout(left, call,
                        QStringLiteral("`%1` grows `%2` by %3 on every iteration, copying "
                                       "everything gathered so far; preallocate it or "
                                       "stack once after the loop")
                            .arg(m.tree().qtext(SyntaxTree::field(call, fields().function)),
                                 m.tree().qtext(left),
                                 leafName(name) == QLatin1String("append")
                                     ? QStringLiteral("appending")
                                     : QStringLiteral("stacking")));
    }
}

} // namespace cnready
