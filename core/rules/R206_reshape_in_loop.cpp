#include "rules/R206_reshape_in_loop.h"

#include "parse/SyntaxTree.h"
#include "rules/RuleSupport.h"
#include "semantic/SemanticModel.h"

namespace cnready {

namespace {

// Whether `array` reads an attribute of an object (`r.y[:n]`, `state.buffer`) whose method
// the loop calls (`r.integrate(t)`): the method may rebind the attribute on every pass, so
// the reshaped array is new each time, though no name of it is bound in the loop.
bool stateChangedInLoop(const SemanticModel& m, TSNode array, const LoopInfo& loop) {
    TSNode root = array;
    bool attribute = false;
    for (;;) {
        if (SyntaxTree::is(root, "subscript")) {
            root = SyntaxTree::field(root, "value");
        } else if (SyntaxTree::is(root, "attribute")) {
            attribute = true;
            root = SyntaxTree::field(root, "object");
        } else {
            break;
        }
    }
    if (!attribute || !SyntaxTree::is(root, "identifier"))
        return false;
    const std::string_view object = m.text(root);
    for (const TSNode c : SemanticModel::within(m.calls(), loop.startByte, loop.endByte)) {
        const TSNode fn = SyntaxTree::field(c, "function");
        if (SyntaxTree::is(fn, "attribute") &&
            SyntaxTree::is(SyntaxTree::field(fn, "object"), "identifier") &&
            m.text(SyntaxTree::field(fn, "object")) == object)
            return true;
    }
    return false;
}

} // namespace

using namespace rules;

const RuleInfo& R206ReshapeInLoop::info() const {
    static const RuleInfo i{
        QStringLiteral("R206"),
        Category::Refactor,
        QStringLiteral("reshape-in-loop"),
        QStringLiteral("Reshape with fixed arguments inside a loop"),
        QStringLiteral("RR-reshape"),
        QStringLiteral("Finds `a.reshape(...)` and `np.reshape(a, ...)` inside a loop when "
                       "neither the array nor the new shape changes between iterations, so the "
                       "same reshape is repeated. Judged on the hot path (not in a loop of a "
                       "handful of passes). Silent when the reshape is done once outside "
                       "the loop, when the shape depends on the iteration, and when the array "
                       "is rebound in the loop (a fresh result has to be reshaped each time)."),
        QStringLiteral("On cuPyNumeric a reshape more often produces a copy than in NumPy, "
                       "and the new shape may not line up with how the data is split across "
                       "GPUs, which forces a redistribution. Repeating an identical reshape "
                       "on every step pays that price again and again."),
        QStringLiteral("for it in range(iters):\n"
                       "    img = pixels.reshape(h, w)\n"
                       "    img -= lr * grad(img)"),
        QStringLiteral("img = pixels.reshape(h, w)        # once, before the loop\n"
                       "for it in range(iters):\n"
                       "    img -= lr * grad(img)"),
        true};
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
                   (name.isEmpty() && calleeLeafText(m, call) == "reshape")) {
            const TSNode fn = SyntaxTree::field(call, fields().function);
            if (!SyntaxTree::is(fn, "attribute"))
                continue;
            array = SyntaxTree::field(fn, fields().object);
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
        const auto args = positionalArguments(call);
        for (qsizetype k = firstShapeArg; k < args.size(); ++k)
            shape << args[k];
        for (const char* kw : {"newshape", "shape"}) {
            const TSNode v = m.keywordArgument(call, kw);
            if (!ts_node_is_null(v))
                shape << v;
        }
        if (shape.isEmpty())
            continue;
        bool invariant = true;
        for (TSNode s : shape)
            invariant = invariant && invariantIn(m, s, *loop);
        // Only a reshape of an array the loop does not rebind can be hoisted; a fresh result
        // reshaped each iteration (`solve(...).reshape(-1, 3)`) has nowhere else to go.
        // A call's result is new on every iteration even when its arguments are not.
        const bool plainArray = SyntaxTree::is(array, "identifier") ||
                                SyntaxTree::is(array, "attribute") ||
                                (SyntaxTree::is(array, "subscript") &&
                                 m.text(array).find('(') == std::string_view::npos);
        if (!invariant || !plainArray || !invariantIn(m, array, *loop) ||
            stateChangedInLoop(m, array, *loop))
            continue;
        QStringList shown;
        for (TSNode s : shape)
            shown << m.tree().qtext(s).simplified();
        out.reportAbout(array, call,
                        QStringLiteral("reshapes `%1` to (%2) on every iteration, though "
                                       "neither changes in the loop; reshape once before it")
                            .arg(shortCode(m, array, 32), shown.join(QStringLiteral(", "))));
    }
}

} // namespace cnready
