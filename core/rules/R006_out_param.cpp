#include "rules/R006_out_param.h"

#include "parse/SyntaxTree.h"
#include "rules/RuleSupport.h"
#include "semantic/SemanticModel.h"

namespace cnready {

using namespace rules;

namespace {

// `a, b = b, a` (also with parentheses or attributes): returns true and the two names.
bool isSwap(const SemanticModel& m, TSNode assign, TSNode& first, TSNode& second) {
    const TSNode left = SyntaxTree::field(assign, fields().left);
    const TSNode right = SyntaxTree::field(assign, fields().right);
    const bool leftTuple =
        SyntaxTree::is(left, "pattern_list") || SyntaxTree::is(left, "tuple_pattern");
    const bool rightTuple =
        SyntaxTree::is(right, "expression_list") || SyntaxTree::is(right, "tuple");
    if (!leftTuple || !rightTuple || ts_node_named_child_count(left) != 2 ||
        ts_node_named_child_count(right) != 2)
        return false;
    const TSNode l0 = ts_node_named_child(left, 0), l1 = ts_node_named_child(left, 1);
    const TSNode r0 = ts_node_named_child(right, 0), r1 = ts_node_named_child(right, 1);
    auto simple = [](TSNode n) {
        return SyntaxTree::is(n, "identifier") || SyntaxTree::is(n, "attribute");
    };
    if (!simple(l0) || !simple(l1) || !simple(r0) || !simple(r1))
        return false;
    if (m.text(l0) != m.text(r1) || m.text(l1) != m.text(r0) || m.text(l0) == m.text(l1))
        return false;
    first = l0;
    second = l1;
    return true;
}

} // namespace

const RuleInfo& R006PreallocatedOutput::info() const {
    static const RuleInfo i{
        QStringLiteral("R006"),
        Category::Scales,
        QStringLiteral("preallocated-output"),
        QStringLiteral("Preallocated output (`out=`, buffer swap)"),
        QString(),
        QStringLiteral("Marks NumPy calls that write into an existing array through `out=` "
                       "(ufuncs, reductions, `matmul`) and double-buffer swaps `a, b = b, a` of "
                       "arrays inside a loop. One finding per function."),
        QStringLiteral("Writing into a buffer that already exists avoids allocating a new "
                       "result (and its temporaries) on every call. In a time-stepping loop "
                       "this keeps GPU memory steady and the task stream free of small "
                       "allocation work; swapping two buffers replaces a copy."),
        QStringLiteral("for step in range(steps):\n"
                       "    np.multiply(grad, -lr, out=delta)\n"
                       "    np.add(weights, delta, out=weights)\n"
                       "    cur, nxt = nxt, cur"),
        QStringLiteral("# nothing to change"),
        false};
    return i;
}

void R006PreallocatedOutput::check(const RuleContext& ctx, FindingSink& out) const {
    const SemanticModel& m = ctx.model;
    if (!m.importsNumpy())
        return;
    RegionGroups groups;
    for (TSNode kw : m.keywordArguments()) {
        // `name=value` starts with its name: most keywords are dropped on the text alone.
        if (m.text(kw).substr(0, 3) != "out" ||
            m.text(SyntaxTree::field(kw, fields().name)) != "out")
            continue;
        // Parent and grandparent from one descent (two ts_node_parent() calls would each
        // descend from the root).
        const std::vector<TSNode> up = chainTo(m, kw);
        const TSNode args = up.size() >= 2 ? up[up.size() - 2] : ts_node_parent(kw);
        const TSNode call = up.size() >= 3 ? up[up.size() - 3] : ts_node_parent(args);
        if (!SyntaxTree::is(call, "call"))
            continue;
        const QString name = m.callName(call);
        if (!name.startsWith(QLatin1String("numpy.")))
            continue;
        groups.add(m, call, QStringLiteral("`out=` on `%1`").arg(leafName(name)));
    }
    for (TSNode a : m.assignments()) {
        TSNode x, y;
        // A swap's two-name target has a comma: a cheap test before the node lookups.
        if (!SyntaxTree::is(a, "assignment") || m.text(a).find(',') == std::string_view::npos ||
            !isSwap(m, a, x, y) || !m.inLoop(a))
            continue;
        if (!m.isArray(x) && !m.isArray(y))
            continue;
        groups.add(m, a,
                   QStringLiteral("swap of `%1`/`%2`").arg(m.tree().qtext(x), m.tree().qtext(y)));
    }
    groups.reportAll(out, [](const QStringList& subjects, const QString& where) {
        QStringList shown;
        for (int i = 0; i < subjects.size() && i < 4; ++i)
            shown << subjects[i];
        QString list = shown.join(QStringLiteral(", "));
        if (subjects.size() > 4)
            list += QStringLiteral(" and %1 more").arg(subjects.size() - 4);
        return QStringLiteral("results written into existing buffers (%1) %2").arg(list, where);
    });
}

} // namespace cnready
