#include "rules/R005_stencil.h"

#include "parse/SyntaxTree.h"
#include "rules/RuleSupport.h"
#include "semantic/SemanticModel.h"

#include <map>
#include <set>
#include <utility>
#include <vector>

namespace cnready {

using namespace rules;

namespace {

/// Largest slice offset still read as a stencil halo (the partitioner derives the halo width
/// from the offsets; typical stencils use ±1 or ±2).
constexpr qint64 kMaxStencilOffset = 8;

enum class Bound { Invalid, Zero, Shifted };

// A slice bound: absent, a small integer (±k), a name, or `name ± k` with a small k.
Bound classifyBound(const SemanticModel& m, TSNode b) {
    if (ts_node_is_null(b))
        return Bound::Zero;
    if (SyntaxTree::is(b, "integer") || SyntaxTree::is(b, "unary_operator")) {
        const auto v = intValue(m, b, 0);
        if (!v || *v > kMaxStencilOffset || *v < -kMaxStencilOffset)
            return Bound::Invalid;
        return *v == 0 ? Bound::Zero : Bound::Shifted;
    }
    if (SyntaxTree::is(b, "identifier") || SyntaxTree::is(b, "attribute"))
        return Bound::Zero;
    if (SyntaxTree::is(b, "binary_operator")) {
        const auto op = m.text(SyntaxTree::field(b, fields().operator_));
        const TSNode l = SyntaxTree::field(b, fields().left);
        const TSNode r = SyntaxTree::field(b, fields().right);
        if ((op == "+" || op == "-") &&
            (SyntaxTree::is(l, "identifier") || SyntaxTree::is(l, "attribute")) &&
            SyntaxTree::is(r, "integer")) {
            const auto v = intValue(m, r, 0);
            if (v && *v <= kMaxStencilOffset)
                return *v == 0 ? Bound::Zero : Bound::Shifted;
        }
    }
    return Bound::Invalid;
}

// Whether a slice node has unit step and small constant bounds; `shifted` is set when one of
// its bounds is a nonzero offset.
bool stencilSlice(const SemanticModel& m, TSNode slice, bool& shifted) {
    TSNode parts[3] = {TSNode{}, TSNode{}, TSNode{}};
    int colons = 0;
    // One cursor pass over the children (ts_node_child(slice, i) rescans from the first).
    TSTreeCursor cur = ts_tree_cursor_new(slice);
    if (ts_tree_cursor_goto_first_child(&cur)) {
        do {
            const TSNode c = ts_tree_cursor_current_node(&cur);
            if (!ts_node_is_named(c)) {
                if (m.text(c) == ":")
                    ++colons;
                continue;
            }
            if (colons < 3)
                parts[colons] = c;
        } while (ts_tree_cursor_goto_next_sibling(&cur));
    }
    ts_tree_cursor_delete(&cur);
    if (!ts_node_is_null(parts[2])) {
        const auto step = intValue(m, parts[2], 0);
        if (!step || *step != 1)
            return false;
    }
    for (int k = 0; k < 2; ++k) {
        const Bound b = classifyBound(m, parts[k]);
        if (b == Bound::Invalid)
            return false;
        if (b == Bound::Shifted)
            shifted = true;
    }
    return true;
}

// A subscript whose items are unit-step slices with small offsets (and plain scalar indices),
// at least one of them shifted. Returns the normalised index text, or "" if not a candidate.
QString shiftedIndex(const SemanticModel& m, TSNode sub) {
    const uint32_t n = ts_node_named_child_count(sub);
    bool anySlice = false;
    bool shifted = false;
    QString key;
    for (uint32_t i = 1; i < n; ++i) {
        const TSNode item = ts_node_named_child(sub, i);
        if (SyntaxTree::is(item, "comment"))
            continue;
        if (SyntaxTree::is(item, "slice")) {
            if (!stencilSlice(m, item, shifted))
                return {};
            anySlice = true;
        } else if (!(SyntaxTree::is(item, "integer") || SyntaxTree::is(item, "identifier") ||
                     SyntaxTree::is(item, "ellipsis") || SyntaxTree::is(item, "none"))) {
            return {};
        }
        key += m.tree().qtext(item).remove(QLatin1Char(' ')) + QLatin1Char(',');
    }
    return anySlice && shifted ? key : QString();
}

// For a value of unknown kind: the statement does arithmetic beyond `+`, which also
// concatenates strings and lists (`s[1:] + s[:1]` is a rotation, not a stencil).
bool hasArithmetic(const SemanticModel& m, TSNode stmt) {
    for (TSNode b : SemanticModel::within(m.binaryOperators(), stmt)) {
        const auto op = m.text(SyntaxTree::field(b, fields().operator_));
        if (op == "-" || op == "*" || op == "/")
            return true;
    }
    return false;
}

// Whether one arithmetic operator of the statement has two differently shifted slices among
// its operands: `u[2:] - u[:-2]` is a stencil, `np.concatenate((h[-3:], h, h[:3]))` is padding.
bool combinedArithmetically(const SemanticModel& m, TSNode stmt,
                            const std::vector<std::pair<TSNode, QString>>& sites) {
    for (TSNode b : SemanticModel::within(m.binaryOperators(), stmt)) {
        const auto op = m.text(SyntaxTree::field(b, fields().operator_));
        if (op != "+" && op != "-" && op != "*" && op != "/")
            continue;
        QString first;
        for (const auto& [sub, key] : sites) {
            if (!contains(b, sub))
                continue;
            if (first.isEmpty())
                first = key;
            else if (key != first)
                return true;
        }
    }
    return false;
}

} // namespace

const RuleInfo& R005Stencil::info() const {
    static const RuleInfo i{
        QStringLiteral("R005"),
        Category::Scales,
        QStringLiteral("stencil-slicing"),
        QStringLiteral("Stencil through shifted slices"),
        QString(),
        QStringLiteral("Marks expressions that combine two or more slices of the same array "
                       "shifted by small constant offsets, such as `u[2:, 1:-1] + "
                       "u[:-2, 1:-1]` or `x[1:] - x[:-1]`. Unit steps only; one finding per "
                       "function."),
        QStringLiteral("The runtime reads the offsets, gives every GPU a block plus a thin halo "
                       "of neighbouring cells, and exchanges only that halo. It pays off when "
                       "each GPU holds a large block (around a million cells or more); with "
                       "small blocks the halo traffic and task overhead can dominate."),
        QStringLiteral("lap[1:-1, 1:-1] = (h[2:, 1:-1] + h[:-2, 1:-1] + h[1:-1, 2:]\n"
                       "                   + h[1:-1, :-2] - 4.0 * h[1:-1, 1:-1])"),
        QStringLiteral("# nothing to change; size the grid so each GPU gets a large block"),
        false};
    return i;
}

void R005Stencil::check(const RuleContext& ctx, FindingSink& out) const {
    const SemanticModel& m = ctx.model;
    if (!m.importsNumpy())
        return;
    struct Use {
        std::set<QString> keys;
        std::vector<std::pair<TSNode, QString>> sites; ///< subscript and its index key
        TSNode stmt{};
        bool typed = false; ///< the model knows the sliced value is an array
    };
    // statement start byte → array text → distinct shifted subscripts
    std::map<uint32_t, std::map<QString, Use>> perStatement;
    StatementFinder statementOf(m);
    for (TSNode sub : m.subscripts()) {
        const TSNode value = SyntaxTree::field(sub, fields().value);
        if (!(SyntaxTree::is(value, "identifier") || SyntaxTree::is(value, "attribute")))
            continue;
        // Every candidate has a slice, and every slice a colon: most subscripts (`a[i]`,
        // `d["k"]`) are dropped here without asking the model for the value's kind.
        if (m.text(sub).find(':') == std::string_view::npos)
            continue;
        const ValueKind kind = m.valueKind(value);
        if (kind != ValueKind::Array && kind != ValueKind::Unknown)
            continue;
        const QString key = shiftedIndex(m, sub);
        if (key.isEmpty() || inElementLoop(m, sub))
            continue;
        const TSNode stmt = statementOf(sub);
        Use& u = perStatement[ts_node_start_byte(stmt)][m.tree().qtext(value)];
        u.stmt = stmt;
        u.typed = u.typed || kind == ValueKind::Array;
        u.keys.insert(key);
        u.sites.emplace_back(sub, key);
    }
    RegionGroups groups;
    for (const auto& [stmt, arrays] : perStatement)
        for (const auto& [array, use] : arrays)
            if (use.keys.size() >= 2 && (use.typed || hasArithmetic(m, use.stmt)) &&
                combinedArithmetically(m, use.stmt, use.sites))
                groups.add(m, use.stmt, array);
    groups.reportAll(out, [](const QStringList& subjects, const QString& where) {
        return QStringLiteral("stencil update on %1 %2").arg(quoteList(subjects), where);
    });
}

} // namespace cnready
