#include "rules/R305_solve_threshold.h"

#include "parse/SyntaxTree.h"
#include "rules/RuleSupport.h"
#include "semantic/SemanticModel.h"

namespace cnready {

using namespace rules;

namespace {

/// cuPyNumeric's multi-GPU solve path (cuSolverMp) starts at this matrix dimension.
constexpr qint64 kSolveMultiGpuDim = 512;
/// cuPyNumeric's multi-GPU Cholesky path starts at this matrix dimension.
constexpr qint64 kCholeskyMultiGpuDim = 8192;

// The leading dimension of a square matrix expression when the code states it: a constructor
// with a literal or constant shape (`np.random.rand(n, n)`, `np.zeros((n, n))`, `np.eye(n)`),
// directly or through a name bound once to such a call.
std::optional<qint64> matrixDim(const SemanticModel& m, TSNode expr, int depth = 4) {
    if (SyntaxTree::is(expr, "identifier") && depth > 0) {
        const QList<TSNode> b = bindingsOf(m, m.text(expr), expr);
        if (b.size() == 1)
            return matrixDim(m, b.first(), depth - 1);
        return std::nullopt;
    }
    if (SyntaxTree::is(expr, "binary_operator") && depth > 0) {
        // `K = A + n * np.eye(n)`: any operand that states its size
        for (const char* side : {"left", "right"})
            if (const auto d = matrixDim(m, SyntaxTree::field(expr, side), depth - 1))
                return d;
        return std::nullopt;
    }
    if (SyntaxTree::is(expr, "parenthesized_expression") && ts_node_named_child_count(expr) == 1)
        return matrixDim(m, ts_node_named_child(expr, 0), depth);
    if (!SyntaxTree::is(expr, "call"))
        return std::nullopt;
    const QString name = m.callName(expr);
    const QString leaf = leafName(name);
    if (!name.startsWith(QLatin1String("numpy.")))
        return std::nullopt;
    if (leaf == QLatin1String("eye") || leaf == QLatin1String("identity"))
        return intValue(m, SemanticModel::argument(expr, 0));
    const TSNode a0 = SemanticModel::argument(expr, 0);
    if (leaf == QLatin1String("rand") || leaf == QLatin1String("randn"))
        return intValue(m, a0);
    TSNode shape{};
    if (leaf == QLatin1String("zeros") || leaf == QLatin1String("ones") ||
        leaf == QLatin1String("empty") || leaf == QLatin1String("full"))
        shape = a0;
    else
        shape = m.keywordArgument(expr, "size");
    if (SyntaxTree::is(shape, "tuple") || SyntaxTree::is(shape, "list"))
        return intValue(m, ts_node_named_child(shape, 0));
    return std::nullopt;
}

} // namespace

const RuleInfo& R305SolveThreshold::info() const {
    static const RuleInfo i{
        QStringLiteral("R305"),
        Category::Info,
        QStringLiteral("solver-size-threshold"),
        QStringLiteral("Solve / Cholesky go multi-GPU only above a size"),
        QStringLiteral("RR-batch"),
        QStringLiteral("Notes each `np.linalg.solve` and `np.linalg.cholesky` and, when the "
                       "code states the matrix size, compares it with the threshold of the "
                       "multi-GPU path: dimension 512 for `solve`, 8192 for `cholesky`."),
        QStringLiteral("Below the threshold the factorization runs on one device, which is "
                       "expected and usually fast enough; above it cuPyNumeric can spread the "
                       "matrix over GPUs (cuSolverMp). Many small systems are better stacked "
                       "and solved in one batched call."),
        QStringLiteral("K = np.random.rand(256, 256) + 256 * np.eye(256)\n"
                       "u = np.linalg.solve(K, f)      # 256 < 512: one device"),
        QStringLiteral("# expected behaviour; for many small systems batch them:\n"
                       "u = np.linalg.solve(np.stack(Ks), np.stack(fs)[..., None])[..., 0]"),
        false};
    return i;
}

void R305SolveThreshold::check(const RuleContext& ctx, FindingSink& out) const {
    const SemanticModel& m = ctx.model;
    for (TSNode call : m.calls()) {
        const QString name = m.callName(call);
        const bool solve = name == QLatin1String("numpy.linalg.solve");
        if (!solve && name != QLatin1String("numpy.linalg.cholesky"))
            continue;
        const qint64 threshold = solve ? kSolveMultiGpuDim : kCholeskyMultiGpuDim;
        const QString leaf = leafName(name);
        TSNode matrix = SemanticModel::argument(call, 0);
        if (ts_node_is_null(matrix))
            matrix = m.keywordArgument(call, "a");
        const auto dim = matrixDim(m, matrix);
        QString msg;
        if (!dim)
            msg = QStringLiteral("`%1` uses several GPUs only from dimension %2; the size is "
                                 "not stated here")
                      .arg(leaf)
                      .arg(threshold);
        else if (*dim >= threshold)
            msg = QStringLiteral("`%1` on a %2×%2 matrix: at or above %3, eligible for the "
                                 "multi-GPU path")
                      .arg(leaf)
                      .arg(*dim)
                      .arg(threshold);
        else
            msg = QStringLiteral("`%1` on a %2×%2 matrix: below %3, it runs on one device")
                      .arg(leaf)
                      .arg(*dim)
                      .arg(threshold);
        out.report(call, msg);
    }
}

} // namespace cnready
