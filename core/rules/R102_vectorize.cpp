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
        QStringLiteral("RR-where"),
        QStringLiteral("Finds calls to np.vectorize and np.frompyfunc, and functions decorated "
                       "with @np.vectorize."),
        QStringLiteral("Despite the name, vectorize is a Python loop: the wrapped function runs "
                       "in the interpreter once per element, so nothing is handed to the GPU "
                       "and the distributed array has to be brought to the host."),
        QStringLiteral("clip01 = np.vectorize(lambda v: min(max(v, 0.0), 1.0))\n"
                       "y = clip01(x)"),
        QStringLiteral("y = np.clip(x, 0.0, 1.0)"),
        false,
        true};
    return i;
}

void R102Vectorize::check(const RuleContext& ctx, FindingSink& out) const {
    const SemanticModel& m = ctx.model;
    if (!m.importsNumpy())
        return;
    auto test = [&](TSNode site, TSNode callee) {
        // Cheap pre-check: `np.vectorize` by its attribute name; bare names may be aliases.
        const std::string_view t = m.text(callee);
        if (SyntaxTree::is(callee, "attribute") && !t.ends_with("vectorize") &&
            !t.ends_with("frompyfunc"))
            return;
        const QString name = m.canonicalName(callee);
        if (name != QLatin1String("numpy.vectorize") && name != QLatin1String("numpy.frompyfunc"))
            return;
        // `np.vectorize(f)(x)`: the finding is about the array it is applied to.
        const QString msg = QStringLiteral("np.%1 runs a Python function once per element")
                                .arg(name.section(QLatin1Char('.'), -1));
        const TSNode applied = SyntaxTree::is(site, "call") ? ts_node_parent(site) : TSNode{};
        if (SyntaxTree::is(applied, "call") &&
            ts_node_eq(SyntaxTree::field(applied, "function"), site) &&
            SemanticModel::positionalCount(applied) > 0)
            // Applied where it is made: the per-element calls happen here, so the site's own
            // role (a reader filtering the rows it read) is the finding's.
            out.reportAboutAtSite(SemanticModel::argument(applied, 0), site, msg);
        else
            out.report(site, msg);
    };
    for (const TSNode c : m.calls())
        test(c, SyntaxTree::field(c, "function"));
    for (const TSNode d : m.decorators()) {
        const TSNode e = ts_node_named_child(d, 0);
        if (!SyntaxTree::is(e, "call")) // `@np.vectorize(...)` is already a call
            test(d, e);
    }
}

} // namespace cnready
