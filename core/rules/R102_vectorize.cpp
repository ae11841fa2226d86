#include "rules/R102_vectorize.h"

#include "parse/SyntaxTree.h"
#include "semantic/SemanticModel.h"

namespace cnready {

const RuleInfo& R102Vectorize::info() const {
    static const RuleInfo i{
        QStringLiteral("R102"),
        Category::Blocks,
        QStringLiteral("numpy-vectorize"),
        QStringLiteral("np.vectorize / np.frompyfunc"),
        QStringLiteral("RR-loop"),
        QStringLiteral("Finds calls to np.vectorize and np.frompyfunc, and functions decorated "
                       "with @np.vectorize."),
        QStringLiteral("Despite the name, vectorize is a Python loop: the wrapped function runs "
                       "in the interpreter once per element, so nothing is handed to the GPU "
                       "and the distributed array has to be brought to the host."),
        QStringLiteral("clip01 = np.vectorize(lambda v: min(max(v, 0.0), 1.0))\n"
                       "y = clip01(x)"),
        QStringLiteral("y = np.clip(x, 0.0, 1.0)"),
        false};
    return i;
}

void R102Vectorize::check(const RuleContext& ctx, FindingSink& out) const {
    // Iterative pre-order walk over the whole tree.
    TSTreeCursor c = ts_tree_cursor_new(ctx.tree.root());
    for (;;) {
        TSNode n = ts_tree_cursor_current_node(&c);
        const bool call = SyntaxTree::is(n, "call");
        if (call || SyntaxTree::is(n, "decorator")) {
            const TSNode callee =
                call ? SyntaxTree::field(n, "function") : ts_node_named_child(n, 0);
            const QString name = ctx.model.canonicalName(callee);
            if (name == QLatin1String("numpy.vectorize") ||
                name == QLatin1String("numpy.frompyfunc"))
                out.report(n, QStringLiteral("%1 runs a Python function once per element")
                                  .arg(name.section(QLatin1Char('.'), -1)));
        }
        if (ts_tree_cursor_goto_first_child(&c))
            continue;
        while (!ts_tree_cursor_goto_next_sibling(&c)) {
            if (!ts_tree_cursor_goto_parent(&c)) {
                ts_tree_cursor_delete(&c);
                return;
            }
        }
    }
}

} // namespace cnready
