#include "rules/R109_order_keyword.h"

#include "parse/SyntaxTree.h"
#include "rules/BlocksSupport.h"
#include "semantic/NumpyNames.h"
#include "semantic/SemanticModel.h"

#include <QSet>

namespace cnready {

const RuleInfo& R109OrderKeyword::info() const {
    static const RuleInfo i{
        QStringLiteral("R109"),
        Category::Blocks,
        QStringLiteral("order-keyword"),
        QStringLiteral("order= keyword"),
        QStringLiteral("RR-layout"),
        QStringLiteral("Finds `order=` passed to `reshape`, `ravel`, `flatten`, `asarray`, "
                       "`array`, `copy`, `astype` and the array constructors (`zeros`, "
                       "`empty`, `*_like`, ...), as NumPy functions or array methods. An "
                       "`order` equal to NumPy's default for that call (`order=\"C\"` on "
                       "`zeros` or `reshape`, `order=\"K\"` on `asarray` or `astype`) changes "
                       "nothing in either library: it is kept as a note that does not count, "
                       "and `cnready port` drops it. Any other `order=` is reported, "
                       "`order=\"C\"` on `asarray` included (it asks NumPy for a copy)."),
        QStringLiteral("A distributed array has no single memory layout, so cuPyNumeric does "
                       "not honour `order=`: depending on the call it warns and falls back or "
                       "ignores it. Code that relies on C or Fortran contiguity gets a "
                       "different layout than it asked for."),
        QStringLiteral("flat = grid.ravel(order=\"F\")"),
        QStringLiteral("flat = grid.T.ravel()   # same element order, no layout request"),
        false};
    return i;
}

namespace {
const QSet<QString>& orderCalls() {
    static const QSet<QString> s = {
        QStringLiteral("reshape"),       QStringLiteral("ravel"),
        QStringLiteral("flatten"),       QStringLiteral("asarray"),
        QStringLiteral("array"),         QStringLiteral("copy"),
        QStringLiteral("astype"),        QStringLiteral("zeros"),
        QStringLiteral("ones"),          QStringLiteral("empty"),
        QStringLiteral("full"),          QStringLiteral("zeros_like"),
        QStringLiteral("ones_like"),     QStringLiteral("empty_like"),
        QStringLiteral("full_like"),     QStringLiteral("asanyarray"),
        QStringLiteral("require"),       QStringLiteral("ndarray"),
        QStringLiteral("frombuffer"),    QStringLiteral("ravel_multi_index"),
        QStringLiteral("unravel_index"), QStringLiteral("resize")};
    return s;
}
} // namespace

void R109OrderKeyword::check(const RuleContext& ctx, FindingSink& out) const {
    const SemanticModel& m = ctx.model;
    if (!m.importsNumpy())
        return;
    for (const TSNode c : m.calls()) {
        const TSNode order = m.keywordArgument(c, "order");
        if (ts_node_is_null(order))
            continue;
        const QString leaf = m.calleeLeaf(c);
        if (!orderCalls().contains(leaf))
            continue;
        const QString cn = m.callName(c);
        bool numpyCall = cn.startsWith(QLatin1String("numpy."));
        const TSNode fn = SyntaxTree::field(c, "function");
        if (!numpyCall && cn.isEmpty() && SyntaxTree::is(fn, "attribute")) {
            // A method on a value of unknown kind: `x.reshape(..., order="F")` is an array
            // method in practice; known non-arrays (strings, lists, objects) are skipped.
            const ValueKind k = m.valueKind(SyntaxTree::field(fn, "object"));
            numpyCall = k == ValueKind::Unknown &&
                        m.canonicalName(SyntaxTree::field(fn, "object")).isEmpty();
        }
        if (!numpyCall)
            continue;
        const QString value =
            QString::fromUtf8(m.text(order).data(), qsizetype(m.text(order).size()));
        // NumPy's own default (`np.zeros(n, order="C")`, `a.astype(t, order="K")`) asks for
        // nothing: the array is laid out the same without the keyword, in NumPy and in
        // cuPyNumeric. A note the port removes, not a blocker.
        const QString def = numpy::defaultOrderOfCall(cn, leaf);
        const bool quoted =
            value.size() == 3 && (value[0] == QLatin1Char('"') || value[0] == QLatin1Char('\''));
        if (!def.isEmpty() && quoted && value.mid(1, 1) == def) {
            out.reportNoOp(c, QStringLiteral("order=%1 on %2 is NumPy's default layout: it "
                                             "changes nothing, drop it")
                                  .arg(value, leaf));
            continue;
        }
        out.report(c, QStringLiteral("order=%1 on %2 is not honoured for distributed arrays")
                          .arg(value, leaf));
    }
}

} // namespace cnready
