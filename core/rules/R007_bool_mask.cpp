#include "rules/R007_bool_mask.h"

#include "parse/SyntaxTree.h"
#include "rules/RuleSupport.h"
#include "semantic/SemanticModel.h"

namespace cnready {

using namespace rules;

namespace {

// A parameter or other unresolved name that reads as a mask by its name: `mask`, `roi_mask`,
// `mask_valid`. Used only when provenance cannot tell (e.g. an unannotated parameter).
bool maskLikeName(std::string_view n) {
    return n == "mask" ||
           (n.size() > 5 && (n.substr(0, 5) == "mask_" || n.substr(n.size() - 5) == "_mask"));
}

// `mask = (a == k).nonzero()`: despite the name, the index holds positions (R204's case).
bool boundToPositions(const SemanticModel& m, TSNode name) {
    for (TSNode rhs : bindingsOf(m, m.text(name), name)) {
        while (SyntaxTree::is(rhs, "subscript"))
            rhs = SyntaxTree::field(rhs, fields().value);
        if (!SyntaxTree::is(rhs, "call"))
            continue;
        const QString leaf = m.calleeLeaf(rhs);
        if (leaf == QLatin1String("nonzero") || leaf == QLatin1String("argwhere") ||
            leaf == QLatin1String("flatnonzero") ||
            (leaf == QLatin1String("where") && SemanticModel::positionalCount(rhs) == 1))
            return true;
    }
    return false;
}

// ts_node_named_child(sub, 1) — the first index item, or a comment before it — or a null
// node when the subscript has fewer than two named children. Mostly read as the recorded
// `subscript` field (a hash lookup; ts_node_named_child scans the children): the two agree
// when only the bracket and blanks separate the value from that field in an error-free node.
TSNode secondChild(const SemanticModel& m, TSNode sub) {
    const TSNode value = SyntaxTree::field(sub, fields().value);
    const TSNode first = SyntaxTree::field(sub, fields().subscript);
    if (!ts_node_is_null(value) && !ts_node_is_null(first) && !ts_node_has_error(sub) &&
        ts_node_end_byte(value) <= ts_node_start_byte(first)) {
        const std::string_view src(m.tree().source().constData(), size_t(m.tree().source().size()));
        const std::string_view gap = src.substr(
            ts_node_end_byte(value), ts_node_start_byte(first) - ts_node_end_byte(value));
        int brackets = 0;
        bool blank = true;
        for (const char ch : gap) {
            if (ch == '[')
                ++brackets;
            else if (ch != ' ' && ch != '\t' && ch != '\n' && ch != '\r' && ch != '\f')
                blank = false;
        }
        if (blank && brackets == 1 && ts_node_end_byte(first) > ts_node_start_byte(first))
            return first;
    }
    if (ts_node_named_child_count(sub) < 2)
        return TSNode{};
    return ts_node_named_child(sub, 1);
}

} // namespace

const RuleInfo& R007BooleanMask::info() const {
    static const RuleInfo i{
        QStringLiteral("R007"),
        Category::Scales,
        QStringLiteral("boolean-mask-indexing"),
        QStringLiteral("Boolean mask indexing"),
        QString(),
        QStringLiteral("Marks reads and writes that index an array with a boolean array of "
                       "the same shape: `a[mask]`, `a[a < 0] = 0`, `a[(a > lo) & (a < hi)]`. "
                       "One finding per function."),
        QStringLiteral("A mask is laid out exactly like the array it selects from, so each GPU "
                       "applies its part of the mask to its own block. No list of positions is "
                       "built and no elements move between GPUs, unlike indexing through "
                       "`nonzero` positions (R204)."),
        QStringLiteral("depth[depth < 0.0] = 0.0\n"
                       "inside = pts[(r > r_min) & (r < r_max)]"),
        QStringLiteral("# nothing to change"),
        false};
    return i;
}

void R007BooleanMask::check(const RuleContext& ctx, FindingSink& out) const {
    const SemanticModel& m = ctx.model;
    if (!m.importsNumpy())
        return;
    RegionGroups groups;
    for (TSNode sub : m.subscripts()) {
        const TSNode index = secondChild(m, sub);
        if (ts_node_is_null(index))
            continue;
        // Only these index shapes can be a mask (see isBooleanArray): integers, slices,
        // strings and tuples are dropped before the model is asked about the value.
        TSNode inner = index;
        while (SyntaxTree::is(inner, "parenthesized_expression") &&
               ts_node_named_child_count(inner) == 1)
            inner = ts_node_named_child(inner, 0);
        const auto t = SyntaxTree::type(inner);
        if (t != "comparison_operator" && t != "binary_operator" && t != "unary_operator" &&
            t != "call" && t != "identifier")
            continue;
        const TSNode value = SyntaxTree::field(sub, fields().value);
        const ValueKind kind = m.valueKind(value);
        if (kind != ValueKind::Array && kind != ValueKind::Unknown)
            continue;
        bool mask = isBooleanArray(m, index);
        if (!mask && SyntaxTree::is(index, "identifier") && maskLikeName(m.text(index))) {
            const ValueKind k = m.valueKind(index);
            mask =
                (k == ValueKind::Unknown || k == ValueKind::Array) && !boundToPositions(m, index);
        }
        if (!mask)
            continue;
        groups.add(m, sub, m.tree().qtext(value));
    }
    groups.reportAll(out, [](const QStringList& subjects, const QString& where) {
        return QStringLiteral("boolean mask indexing of %1 %2").arg(quoteList(subjects), where);
    });
}

} // namespace cnready
