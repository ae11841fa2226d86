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
        false,
        true};
    return i;
}

void R107ObjectDtype::check(const RuleContext& ctx, FindingSink& out) const {
    const SemanticModel& m = ctx.model;
    if (!m.importsNumpy())
        return;
    for (const TSNode c : m.calls()) {
        if (blocks::createsObjectArray(m, c))
            out.reportAbout(c, c,
                            QStringLiteral("%1 creates an object-dtype array, which cuPyNumeric "
                                           "cannot distribute")
                                .arg(blocks::quoted(m, c, 48)));
    }
}

} // namespace cnready
