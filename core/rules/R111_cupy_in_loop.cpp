#include "rules/R111_cupy_in_loop.h"

#include "parse/SyntaxTree.h"
#include "rules/BlocksSupport.h"
#include "semantic/SemanticModel.h"

namespace cnready {

const RuleInfo& R111CupyInLoop::info() const {
    static const RuleInfo i{
        QStringLiteral("R111"),
        Category::Blocks,
        QStringLiteral("cupy-in-hot-loop"),
        QStringLiteral("CuPy mixed into a hot loop"),
        QStringLiteral("RR-host-fallback"),
        QStringLiteral("Finds CuPy calls (`cp.asarray`, `cp.asnumpy`, `cp.fft.*`, ...) in a hot "
                       "path (a loop, or a function a loop calls) of a file that also works on "
                       "NumPy / cuPyNumeric arrays. CuPy used once before or after the loops is "
                       "fine."),
        QStringLiteral("CuPy and cuPyNumeric keep separate device memory and cannot hand "
                       "arrays to each other; every crossing goes through host memory with a "
                       "synchronisation on each side. Inside a loop that round-trip repeats "
                       "every iteration with the whole payload."),
        QStringLiteral("for step in range(steps):\n"
                       "    spec = cp.fft.rfft(cp.asarray(u))\n"
                       "    u = np.asarray(cp.asnumpy(filter_(spec)))"),
        QStringLiteral("for step in range(steps):\n"
                       "    spec = np.fft.rfft(u)       # stay in one runtime\n"
                       "    u = np.fft.irfft(filter_(spec))"),
        true};
    return i;
}

namespace {
// Whether a CuPy call can move an array between the two runtimes. The device, stream, memory
// pool and profiler APIs (`cupy.cuda.*`, `cupy.get_default_memory_pool()`) and the dtype and
// configuration helpers take and return no arrays.
bool movesArrays(const QString& cn) {
    static const QStringList noArrays = {QStringLiteral("cupy.cuda."),
                                         QStringLiteral("cupy.get_default_memory_pool"),
                                         QStringLiteral("cupy.get_default_pinned_memory_pool"),
                                         QStringLiteral("cupy.show_config"),
                                         QStringLiteral("cupy.is_available"),
                                         QStringLiteral("cupy.dtype"),
                                         QStringLiteral("cupy.get_array_module"),
                                         QStringLiteral("cupy.fuse"),
                                         QStringLiteral("cupy.RawKernel"),
                                         QStringLiteral("cupy.ElementwiseKernel"),
                                         QStringLiteral("cupy.ReductionKernel"),
                                         QStringLiteral("cupy.random.seed")};
    for (const QString& p : noArrays)
        if (cn.startsWith(p))
            return false;
    return true;
}
} // namespace

void R111CupyInLoop::check(const RuleContext& ctx, FindingSink& out) const {
    const SemanticModel& m = ctx.model;
    if (!m.importsModule(QStringLiteral("cupy")) || !m.importsNumpy())
        return;
    for (const TSNode c : m.calls()) {
        const QString cn = m.callName(c);
        if (!cn.startsWith(QLatin1String("cupy.")) || !movesArrays(cn))
            continue;
        out.report(c, QStringLiteral("%1 crosses between CuPy and the NumPy/cuPyNumeric arrays "
                                     "of this file on every pass of a hot path")
                          .arg(blocks::quoted(m, SyntaxTree::field(c, "function"))));
    }
}

} // namespace cnready
