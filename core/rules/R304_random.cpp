#include "rules/R304_random.h"

#include "parse/SyntaxTree.h"
#include "rules/RuleSupport.h"
#include "semantic/SemanticModel.h"

namespace cnready {

using namespace rules;

const RuleInfo& R304Random::info() const {
    static const RuleInfo i{
        QStringLiteral("R304"),
        Category::Info,
        QStringLiteral("rng-differs-across-gpu-counts"),
        QStringLiteral("Random streams differ between GPU counts"),
        QString(),
        QStringLiteral("Notes every function that draws random numbers through NumPy: "
                       "`np.random.*` functions, `default_rng`, `seed`, `RandomState` and the "
                       "methods of a generator (`rng.normal`). One note per function. The rule "
                       "reports these regardless of the target; the assessment keeps R304 only "
                       "when the context names a multi-GPU or multi-node target, since on a "
                       "single GPU the stream is reproducible."),
        QStringLiteral("On cuPyNumeric the generator is cuRAND-based and its output depends on "
                       "how the array is split: a fixed seed reproduces a run only with the "
                       "same number of GPUs. A result checked on 1 GPU will not match "
                       "bit-for-bit on 8, so comparisons need tolerances or saved inputs."),
        QStringLiteral("rng = np.random.default_rng(7)\n"
                       "noise = rng.standard_normal(n)\n"
                       "assert np.array_equal(noise, reference)   # fails across GPU counts"),
        QStringLiteral("noise = np.load(\"noise_seed7.npy\")   # drawn once, reused by every run"),
        false};
    return i;
}

void R304Random::check(const RuleContext& ctx, FindingSink& out) const {
    const SemanticModel& m = ctx.model;
    RegionGroups groups;
    for (TSNode call : m.calls()) {
        const QString name = m.callName(call);
        if (!name.startsWith(QLatin1String("numpy.random.")))
            continue;
        const QString leaf = leafName(name);
        groups.add(m, call, leaf);
    }
    groups.reportAll(out, [](const QStringList& subjects, const QString& where) {
        return QStringLiteral("random draws (%1) %2: with the same seed the numbers still "
                              "change with the GPU count")
            .arg(quoteList(subjects, 4), where);
    });
}

} // namespace cnready
