#include "rules/R004_where.h"

#include "parse/SyntaxTree.h"
#include "rules/RuleSupport.h"
#include "semantic/SemanticModel.h"

namespace cnready {

using namespace rules;

const RuleInfo& R004VectorizedConditional::info() const {
    static const RuleInfo i{
        QStringLiteral("R004"),
        Category::Scales,
        QStringLiteral("vectorized-conditional"),
        QStringLiteral("Vectorized conditional"),
        QString(),
        QStringLiteral("Marks element choices made by the array library rather than by Python "
                       "`if`: `np.where(cond, a, b)` with three arguments, `np.select`, "
                       "`np.choose`, `np.putmask` and `np.clip` / `a.clip()`. One finding per "
                       "function."),
        QStringLiteral("The choice runs on every GPU over its own block with no trip to the "
                       "host. Both branches of `where` are computed in full, so an expensive "
                       "branch is better applied through a mask (R007)."),
        QStringLiteral("speed = np.where(moving, np.hypot(vx, vy), 0.0)\n"
                       "levels = np.clip(levels, 0.0, capacity)"),
        QStringLiteral("# nothing to change"),
        false};
    return i;
}

void R004VectorizedConditional::check(const RuleContext& ctx, FindingSink& out) const {
    const SemanticModel& m = ctx.model;
    if (!m.importsNumpy())
        return;
    static const QStringList choosers = {
        QStringLiteral("numpy.choose"),       QStringLiteral("numpy.select"),
        QStringLiteral("numpy.putmask"),      QStringLiteral("numpy.clip"),
        QStringLiteral("numpy.ndarray.clip"), QStringLiteral("numpy.ndarray.choose"),
    };
    RegionGroups groups;
    for (TSNode call : m.calls()) {
        const QString name = m.callName(call);
        if (name == QLatin1String("numpy.where")) {
            if (SemanticModel::positionalCount(call) == 3)
                groups.add(m, call, QStringLiteral("where"));
        } else if (choosers.contains(name)) {
            groups.add(m, call, leafName(name));
        }
    }
    groups.reportAll(out, [](const QStringList& subjects, const QString& where) {
        return QStringLiteral("vectorized conditionals (%1) %2").arg(quoteList(subjects, 4), where);
    });
}

} // namespace cnready
