#include "rules/R107_object_dtype.h"

#include "parse/SyntaxTree.h"
#include "rules/BlocksSupport.h"
#include "semantic/SemanticModel.h"

namespace cnready {

const RuleInfo& R107ObjectDtype::info() const {
    static const RuleInfo i{
        QStringLiteral("R107"),
        Category::Blocks,
        QStringLiteral("object-dtype"),
        QStringLiteral("Object dtype"),
        QStringLiteral("RR-dtype"),
        QStringLiteral("Finds `dtype=object`, `dtype=\"O\"` / `\"object\"`, `np.object_` and "
                       "`.astype(object)` on NumPy calls and array methods."),
        QStringLiteral("An object array holds pointers to Python objects. cuPyNumeric only "
                       "distributes numeric dtypes, so such arrays stay on the host (or are "
                       "refused) and every operation on them runs in the interpreter."),
        QStringLiteral("ragged = np.array([np.arange(k) for k in sizes], dtype=object)"),
        QStringLiteral("flat = np.concatenate([np.arange(k) for k in sizes])\n"
                       "offsets = np.cumsum([0] + list(sizes))   # numeric structure-of-arrays"),
        false};
    return i;
}

namespace {
bool isObjectDtype(const SemanticModel& m, TSNode v) {
    const std::string_view t = m.text(v);
    if (t == "object" && SyntaxTree::is(v, "identifier") &&
        !m.isNameBound(QStringLiteral("object"), v))
        return true;
    if (SyntaxTree::is(v, "string")) {
        return t == "\"O\"" || t == "'O'" || t == "\"object\"" || t == "'object'" ||
               t == "\"|O\"" || t == "'|O'";
    }
    const QString cn = m.canonicalName(v);
    return cn == QLatin1String("numpy.object_") || cn == QLatin1String("numpy.object");
}
} // namespace

void R107ObjectDtype::check(const RuleContext& ctx, FindingSink& out) const {
    const SemanticModel& m = ctx.model;
    if (!m.importsNumpy())
        return;
    for (const TSNode c : m.calls()) {
        const TSNode fn = SyntaxTree::field(c, "function");
        const bool astype = SyntaxTree::is(fn, "attribute") &&
                            m.text(SyntaxTree::field(fn, "attribute")) == "astype";
        // Cheap textual pre-check before resolving the callee.
        const std::string_view args = m.text(SyntaxTree::field(c, "arguments"));
        if (args.find("object") == std::string_view::npos &&
            args.find("'O'") == std::string_view::npos &&
            args.find("\"O\"") == std::string_view::npos &&
            args.find("|O") == std::string_view::npos)
            continue;
        const QString cn = m.callName(c);
        bool numpyCall = cn.startsWith(QLatin1String("numpy."));
        if (!numpyCall && astype) {
            const ValueKind k = m.valueKind(SyntaxTree::field(fn, "object"));
            numpyCall = k == ValueKind::Array || k == ValueKind::Unknown;
        }
        if (!numpyCall)
            continue;
        TSNode v = m.keywordArgument(c, "dtype");
        if (ts_node_is_null(v) && astype)
            v = SemanticModel::argument(c, 0);
        if (ts_node_is_null(v) && cn == QLatin1String("numpy.dtype"))
            v = SemanticModel::argument(c, 0);
        // Positional dtype: np.zeros(n, object), np.array(xs, "O"), np.full(n, v, object).
        if (ts_node_is_null(v) &&
            (cn == QLatin1String("numpy.zeros") || cn == QLatin1String("numpy.ones") ||
             cn == QLatin1String("numpy.empty") || cn == QLatin1String("numpy.array") ||
             cn == QLatin1String("numpy.asarray")))
            v = SemanticModel::argument(c, 1);
        if (ts_node_is_null(v) && cn == QLatin1String("numpy.full"))
            v = SemanticModel::argument(c, 2);
        if (!ts_node_is_null(v) && isObjectDtype(m, v))
            out.report(c, QStringLiteral("%1 creates an object-dtype array, which cuPyNumeric "
                                         "cannot distribute")
                              .arg(blocks::quoted(m, c, 48)));
    }
}

} // namespace cnready
