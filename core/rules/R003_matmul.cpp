#include "rules/R003_matmul.h"

#include "parse/SyntaxTree.h"
#include "rules/RuleSupport.h"
#include "semantic/SemanticModel.h"

namespace cnready {

using namespace rules;

const RuleInfo& R003MatrixProduct::info() const {
    static const RuleInfo i{
        QStringLiteral("R003"),
        Category::Scales,
        QStringLiteral("matrix-product"),
        QStringLiteral("Matrix product"),
        QString(),
        QStringLiteral("Marks matrix products: the `@` operator, `np.matmul`, `np.dot` and "
                       "`a.dot(b)`, `np.einsum`, `np.tensordot`, `np.inner`, `np.outer`, "
                       "`np.vdot` and `np.linalg.multi_dot`. One finding per function."),
        QStringLiteral("Products are computed block by block with cuBLAS on every GPU and the "
                       "partial sums are combined; the work grows faster than the data, so "
                       "the communication is well hidden once each GPU holds a few hundred "
                       "rows and columns. `einsum` may take a slower route than `matmul` for "
                       "the same contraction."),
        QStringLiteral("scores = queries @ keys.T\n"
                       "gram = np.einsum('ik,jk->ij', feats, feats)"),
        QStringLiteral("# nothing to change; prefer matmul over einsum when both fit"),
        false};
    return i;
}

void R003MatrixProduct::check(const RuleContext& ctx, FindingSink& out) const {
    const SemanticModel& m = ctx.model;
    if (!m.importsNumpy())
        return;
    static const QStringList products = {
        QStringLiteral("numpy.matmul"),      QStringLiteral("numpy.dot"),
        QStringLiteral("numpy.einsum"),      QStringLiteral("numpy.tensordot"),
        QStringLiteral("numpy.inner"),       QStringLiteral("numpy.outer"),
        QStringLiteral("numpy.vdot"),        QStringLiteral("numpy.linalg.multi_dot"),
        QStringLiteral("numpy.ndarray.dot"), QStringLiteral("numpy.linalg.matmul"),
    };
    RegionGroups groups;
    for (TSNode b : m.binaryOperators()) {
        if (m.text(SyntaxTree::field(b, fields().operator_)) != "@")
            continue;
        const ValueKind l = m.valueKind(SyntaxTree::field(b, fields().left));
        const ValueKind r = m.valueKind(SyntaxTree::field(b, fields().right));
        if (l == ValueKind::HostScalar || r == ValueKind::HostScalar || l == ValueKind::String ||
            r == ValueKind::String)
            continue;
        groups.add(m, b, QStringLiteral("@"));
    }
    for (TSNode a : m.augmentedAssignments())
        if (m.text(SyntaxTree::field(a, fields().operator_)) == "@=")
            groups.add(m, a, QStringLiteral("@="));
    for (TSNode call : m.calls()) {
        const QString name = m.callName(call);
        if (products.contains(name))
            groups.add(m, call, leafName(name));
    }
    groups.reportAll(out, [](const QStringList& subjects, const QString& where) {
        return QStringLiteral("matrix products (%1) %2").arg(quoteList(subjects, 4), where);
    });
}

} // namespace cnready
