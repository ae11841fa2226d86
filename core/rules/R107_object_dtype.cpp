#include "rules/R107_object_dtype.h"

#include "parse/SyntaxTree.h"
#include "rules/BlocksSupport.h"
#include "semantic/SemanticModel.h"

namespace cnready {

namespace {

// Whether the object array holds text: names, labels, identifiers read from a file
// (`np.array(atomnames, dtype=object)`, `np.array([str(r) for r in rows], dtype=object)`).
// Such an array is metadata that stays in host NumPy; there is no numeric data to distribute,
// so the structure-of-arrays recipe has nothing to do (RULES.md: scaling rules are about data
// arrays).
bool holdsText(const SemanticModel& m, TSNode c) {
    // Only the calls that take their content: a constructor's first argument is a shape, a
    // dtype's is the type code.
    TSNode a{}; // null unless the call takes content
    const TSNode fn = SyntaxTree::field(c, "function");
    const QString cn = m.callName(c);
    if (SyntaxTree::is(fn, "attribute") && m.text(SyntaxTree::field(fn, "attribute")) == "astype")
        a = SyntaxTree::field(fn, "object");
    else if (cn == QLatin1String("numpy.array") || cn == QLatin1String("numpy.asarray") ||
             cn == QLatin1String("numpy.asanyarray"))
        a = SemanticModel::argument(c, 0);
    if (ts_node_is_null(a))
        return false;
    if (m.elementKind(a) == ElementKind::String)
        return true;
    if (SyntaxTree::is(a, "list_comprehension") || SyntaxTree::is(a, "list")) {
        const TSNode body = SyntaxTree::is(a, "list_comprehension") ? SyntaxTree::field(a, "body")
                                                                    : ts_node_named_child(a, 0);
        if (SyntaxTree::is(body, "string"))
            return true;
        if (SyntaxTree::is(body, "call")) {
            const std::string_view f = m.text(SyntaxTree::field(body, "function"));
            return f == "str" || f.ends_with(".strip") || f.ends_with(".decode") ||
                   f.ends_with(".upper") || f.ends_with(".lower");
        }
        return false;
    }
    if (SyntaxTree::is(a, "attribute"))
        a = SyntaxTree::field(a, "attribute");
    // A name the model reads as text (`atomnames`, `chainids`, `col_labels`).
    return SyntaxTree::is(a, "identifier") && SemanticModel::isTextArrayName(m.text(a));
}

} // namespace

const RuleInfo& R107ObjectDtype::info() const {
    static const RuleInfo i{
        QStringLiteral("R107"),
        Category::Blocks,
        QStringLiteral("object-dtype"),
        QStringLiteral("Object dtype"),
        QStringLiteral("RR-dtype"),
        QStringLiteral("Finds `dtype=object`, `dtype=\"O\"` / `\"object\"`, `np.object_` and "
                       "`.astype(object)` on NumPy calls and array methods. Silent on object "
                       "arrays of text (names, labels, identifiers): metadata that stays in "
                       "host NumPy."),
        QStringLiteral("An object array holds pointers to Python objects. cuPyNumeric only "
                       "distributes numeric dtypes, so such arrays stay on the host (or are "
                       "refused) and every operation on them runs in the interpreter."),
        QStringLiteral("ragged = np.array([np.arange(k) for k in sizes], dtype=object)"),
        QStringLiteral("flat = np.concatenate([np.arange(k) for k in sizes])\n"
                       "offsets = np.cumsum([0] + list(sizes))   # numeric structure-of-arrays"),
        false,
        true};
    return i;
}

void R107ObjectDtype::check(const RuleContext& ctx, FindingSink& out) const {
    const SemanticModel& m = ctx.model;
    if (!m.importsNumpy())
        return;
    for (const TSNode c : m.calls()) {
        if (blocks::createsObjectArray(m, c) && !holdsText(m, c))
            out.reportAbout(c, c,
                            QStringLiteral("%1 creates an object-dtype array, which cuPyNumeric "
                                           "cannot distribute")
                                .arg(blocks::quoted(m, c, 48)));
    }
}

} // namespace cnready
