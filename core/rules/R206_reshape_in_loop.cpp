#include "rules/R206_reshape_in_loop.h"

#include "parse/SyntaxTree.h"
#include "rules/RuleSupport.h"
#include "semantic/SemanticModel.h"

namespace cnready {

using namespace rules;

const RuleInfo& R206ReshapeInLoop::info() const {
    static const RuleInfo i{
        QStringLiteral("R206"),
        Category::Refactor,
        QStringLiteral("reshape-in-loop"),
        QStringLiteral("Reshape with fixed arguments inside a loop"),
        QStringLiteral("RR-reshape"),
        QStringLiteral("Finds `a.reshape(...)` and `np.reshape(a, ...)` inside a loop when the "
                       "new shape does not change between iterations and the array does not "
                       "come from the loop variable. Silent when the reshape is done once "
                       "outside the loop, or when the shape or the array depends on the "
                       "iteration."),
        QStringLiteral("On cuPyNumeric a reshape more often produces a copy than in NumPy, "
                       "and the new shape may not line up with how the data is split across "
                       "GPUs, which forces a redistribution. Repeating an identical reshape "
                       "on every step pays that price again and again."),
        QStringLiteral("for it in range(iters):\n"
                       "    img = flat.reshape(h, w)\n"
                       "    flat -= lr * grad(img).reshape(-1)"),
        QStringLiteral("img = flat.reshape(h, w)          # once; a view of flat in NumPy\n"
                       "for it in range(iters):\n"
                       "    img -= lr * grad(img)"),
        false};
    return i;
}

void R206ReshapeInLoop::check(const RuleContext& ctx, FindingSink& out) const {
    const SemanticModel& m = ctx.model;
    if (!m.importsNumpy())
        return;
    for (TSNode call : m.calls()) {
        const QString name = m.callName(call);
        TSNode array{};
        int firstShapeArg = 0;
        if (name == QLatin1String("numpy.reshape")) {
            array = SemanticModel::argument(call, 0);
            firstShapeArg = 1;
        } else if (name == QLatin1String("numpy.ndarray.reshape") ||
                   (name.isEmpty() && m.calleeLeaf(call) == QLatin1String("reshape"))) {
            const TSNode fn = SyntaxTree::field(call, "function");
            if (!SyntaxTree::is(fn, "attribute"))
                continue;
            array = SyntaxTree::field(fn, "object");
            const ValueKind k = m.valueKind(array);
            if (k != ValueKind::Array && k != ValueKind::Unknown)
                continue;
        } else {
            continue;
        }
        if (ts_node_is_null(array))
            continue;
        const LoopInfo* loop = m.enclosingLoop(call);
        if (!loop)
            continue;
        // The shape: every positional after the array, or newshape= / shape=.
        QList<TSNode> shape;
        for (int k = firstShapeArg; k < SemanticModel::positionalCount(call); ++k)
            shape << SemanticModel::argument(call, k);
        for (const char* kw : {"newshape", "shape"}) {
            const TSNode v = m.keywordArgument(call, kw);
            if (!ts_node_is_null(v))
                shape << v;
        }
        if (shape.isEmpty())
            continue;
        bool invariant = true;
        for (TSNode s : shape)
            invariant = invariant && m.isLoopInvariant(s, *loop);
        if (!invariant || m.usesLoopVariable(array, *loop))
            continue;
        QStringList shown;
        for (TSNode s : shape)
            shown << m.tree().qtext(s).simplified();
        const QString what = shortCode(m, array, 32);
        const QString to = shown.join(QStringLiteral(", "));
        if (m.isLoopInvariant(array, *loop))
            out.report(call, QStringLiteral("reshapes `%1` to (%2) on every iteration, though "
                                            "neither changes in the loop; reshape once before it")
                                 .arg(what, to));
        else
            out.report(call, QStringLiteral("reshapes `%1` to the same (%2) on every iteration; "
                                            "keep the data in that shape across iterations")
                                 .arg(what, to));
    }
}

} // namespace cnready
