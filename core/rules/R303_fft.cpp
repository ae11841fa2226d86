#include "rules/R303_fft.h"

#include "parse/SyntaxTree.h"
#include "rules/RuleSupport.h"
#include "semantic/SemanticModel.h"

namespace cnready {

using namespace rules;

const RuleInfo& R303Fft::info() const {
    static const RuleInfo i{
        QStringLiteral("R303"),
        Category::Info,
        QStringLiteral("single-fft-transform"),
        QStringLiteral("One FFT runs on one GPU"),
        QStringLiteral("RR-batch"),
        QStringLiteral("Notes each transform from `np.fft` (`fft`, `ifft`, `rfft`, `fft2`, "
                       "`fftn`, ... and their inverses). Helpers such as `fftfreq` and "
                       "`fftshift` are not transforms and stay silent."),
        QStringLiteral("A single transform is computed by cuFFT on one GPU; a 2-D or N-D "
                       "transform is done axis by axis, each on one GPU. Many signals stacked "
                       "along an axis and transformed in one call spread across GPUs."),
        QStringLiteral("spectra = [np.fft.rfft(trace) for trace in traces]"),
        QStringLiteral("spectra = np.fft.rfft(np.stack(traces), axis=-1)   # batched"),
        false};
    return i;
}

void R303Fft::check(const RuleContext& ctx, FindingSink& out) const {
    const SemanticModel& m = ctx.model;
    static const QStringList transforms = {
        QStringLiteral("fft"),    QStringLiteral("ifft"),  QStringLiteral("fft2"),
        QStringLiteral("ifft2"),  QStringLiteral("fftn"),  QStringLiteral("ifftn"),
        QStringLiteral("rfft"),   QStringLiteral("irfft"), QStringLiteral("rfft2"),
        QStringLiteral("irfft2"), QStringLiteral("rfftn"), QStringLiteral("irfftn"),
        QStringLiteral("hfft"),   QStringLiteral("ihfft"),
    };
    for (TSNode call : m.calls()) {
        const QString name = m.callName(call);
        if (!name.startsWith(QLatin1String("numpy.fft.")) || !transforms.contains(leafName(name)))
            continue;
        const QString leaf = leafName(name);
        out.report(call, m.inLoop(call)
                             ? QStringLiteral("`%1` once per iteration, each on one GPU; stack "
                                              "the inputs and transform them in one call")
                                   .arg(leaf)
                             : QStringLiteral("`%1` of a single input runs on one GPU; only "
                                              "batched transforms spread across GPUs")
                                   .arg(leaf));
    }
}

} // namespace cnready
