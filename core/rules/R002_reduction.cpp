#include "rules/R002_reduction.h"

#include "parse/SyntaxTree.h"
#include "rules/RuleSupport.h"
#include "semantic/SemanticModel.h"

namespace cnready {

using namespace rules;

namespace {

bool isReductionLeaf(QStringView leaf) {
    static const QStringList names = {
        QStringLiteral("sum"),     QStringLiteral("mean"),   QStringLiteral("max"),
        QStringLiteral("min"),     QStringLiteral("amax"),   QStringLiteral("amin"),
        QStringLiteral("prod"),    QStringLiteral("var"),    QStringLiteral("std"),
        QStringLiteral("average"), QStringLiteral("median"), QStringLiteral("nansum"),
        QStringLiteral("nanmean"), QStringLiteral("nanmax"), QStringLiteral("nanmin"),
        QStringLiteral("nanprod"), QStringLiteral("nanvar"), QStringLiteral("nanstd"),
        QStringLiteral("any"),     QStringLiteral("all"),    QStringLiteral("argmax"),
        QStringLiteral("argmin"),  QStringLiteral("ptp"),    QStringLiteral("count_nonzero"),
        QStringLiteral("norm"),
    };
    return names.contains(leaf);
}

} // namespace

const RuleInfo& R002Reduction::info() const {
    static const RuleInfo i{
        QStringLiteral("R002"),
        Category::Scales,
        QStringLiteral("array-reduction"),
        QStringLiteral("Array reduction"),
        QString(),
        QStringLiteral("Marks reductions of arrays: `np.sum`, `mean`, `max`, `min`, `prod`, "
                       "`var`, `std`, `any`, `all`, `argmax`, `np.linalg.norm`, and the same "
                       "as array methods (`a.sum(axis=0)`). One finding per function."),
        QStringLiteral("Every GPU reduces its own block and the partial results are combined "
                       "with a tree-shaped collective, so the communication grows with the log "
                       "of the GPU count. The result stays on the device until something "
                       "reads it on the host (see R104/R105), and floating-point sums may "
                       "differ in the last bits between GPU counts."),
        QStringLiteral("rms = np.sqrt(np.mean(signal**2))\n"
                       "col_peak = frames.max(axis=0)"),
        QStringLiteral("# nothing to change; compare results with np.allclose, not =="),
        false};
    return i;
}

void R002Reduction::check(const RuleContext& ctx, FindingSink& out) const {
    const SemanticModel& m = ctx.model;
    if (!m.importsNumpy())
        return;
    RegionGroups groups;
    for (TSNode call : m.calls()) {
        const QString name = m.callName(call);
        if (name.isEmpty())
            continue;
        const QStringView leaf = leafView(name);
        bool reduction = false;
        if (isArrayMethod(name))
            reduction = leaf != QLatin1String("norm") && isReductionLeaf(leaf);
        else if (name == QLatin1String("numpy.linalg.norm"))
            reduction = true;
        else if (isNumpyFunction(name) && name.count(QLatin1Char('.')) == 1)
            reduction = leaf != QLatin1String("norm") && isReductionLeaf(leaf);
        if (!reduction || inElementLoop(m, call))
            continue;
        groups.add(m, call, leaf.toString());
    }
    groups.reportAll(out, [](const QStringList& subjects, const QString& where) {
        return QStringLiteral("array reductions (%1) %2").arg(quoteList(subjects, 4), where);
    });
}

} // namespace cnready
