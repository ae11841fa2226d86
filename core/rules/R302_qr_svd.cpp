#include "rules/R302_qr_svd.h"

#include "parse/SyntaxTree.h"
#include "rules/RuleSupport.h"
#include "semantic/SemanticModel.h"

namespace cnready {

using namespace rules;

const RuleInfo& R302QrSvd::info() const {
    static const RuleInfo i{
        QStringLiteral("R302"),
        Category::Info,
        QStringLiteral("single-device-factorization"),
        QStringLiteral("QR / SVD run on one device"),
        QStringLiteral("RR-batch"),
        QStringLiteral("Notes each call of `np.linalg.qr` and `np.linalg.svd`."),
        QStringLiteral("cuPyNumeric factorizes one matrix on a single device: adding GPUs does "
                       "not make one QR or SVD faster. That is fine for moderate sizes. Many "
                       "independent factorizations stacked along a leading axis are split "
                       "across GPUs by that axis."),
        QStringLiteral("for block in blocks:\n"
                       "    q, r = np.linalg.qr(block)"),
        QStringLiteral("q, r = np.linalg.qr(np.stack(blocks))   # (k, m, n): batched"),
        false};
    return i;
}

void R302QrSvd::check(const RuleContext& ctx, FindingSink& out) const {
    const SemanticModel& m = ctx.model;
    for (TSNode call : m.calls()) {
        const QString name = m.callName(call);
        if (name != QLatin1String("numpy.linalg.qr") && name != QLatin1String("numpy.linalg.svd"))
            continue;
        const QString leaf = leafName(name).toUpper();
        out.report(call, m.inLoop(call)
                             ? QStringLiteral("one %1 per iteration, each on a single device; "
                                              "stack the matrices and factorize them in one "
                                              "batched call")
                                   .arg(leaf)
                             : QStringLiteral("%1 of one matrix runs on a single device; more "
                                              "GPUs will not speed it up")
                                   .arg(leaf));
    }
}

} // namespace cnready
