#include "rules/R103_iterate_array.h"

#include "parse/SyntaxTree.h"
#include "rules/BlocksSupport.h"
#include "semantic/LoopWork.h"
#include "semantic/SemanticModel.h"

#include <optional>
#include <vector>

namespace cnready {

const RuleInfo& R103IterateArray::info() const {
    static const RuleInfo i{
        QStringLiteral("R103"),
        Category::Blocks,
        QStringLiteral("iterate-array"),
        QStringLiteral("Python iteration over an ndarray"),
        QStringLiteral("RR-loop"),
        QStringLiteral(
            "Finds `for x in a`, `enumerate(a)` / `zip(a, ...)`, comprehensions and "
            "generator expressions over an array, and `np.nditer` / `np.ndenumerate` "
            "loops. Iterating lists, dicts, ranges, strings or file names is fine, and so "
            "is iterating an object-dtype array (`np.empty(n, dtype=object)`): it "
            "holds Python objects on the host, and R107 reports its creation."),
        QStringLiteral("Python iteration asks the array for one row or element at a time. On "
                       "cuPyNumeric each step waits for the data and copies it to the host, so "
                       "the loop is serial, host-bound and pays a synchronisation per item."),
        QStringLiteral("norms = [np.sqrt(np.dot(r, r)) for r in points]"),
        QStringLiteral("norms = np.sqrt(np.einsum('ij,ij->i', points, points))"),
        false};
    return i;
}

void R103IterateArray::check(const RuleContext& ctx, FindingSink& out) const {
    const SemanticModel& m = ctx.model;
    // An object-dtype array (R107) holds Python objects on the host whatever library made
    // it: walking it (`for ax in axes.flat`) costs no device traffic, and the fix is R107's.
    std::optional<std::vector<blocks::ObjectArrayBinding>> objects;
    for (const LoopInfo& L : m.loops()) {
        QString how;
        switch (L.source) {
        case LoopSource::Array:
            how = QStringLiteral("iterates the array");
            break;
        case LoopSource::EnumerateArray:
            how = QStringLiteral("iterates the array");
            break;
        case LoopSource::NdIter:
            how = QStringLiteral("walks the array with np.nditer");
            break;
        case LoopSource::NdEnumerate:
            how = QStringLiteral("walks the array with np.ndenumerate");
            break;
        default:
            continue;
        }
        // Judged by one pass: walking a bookkeeping array (a handful of items), or a loop
        // whose every pass does whole-array work on a data-sized slab (a basis table whose
        // rows each fill a whole column), is not the host walk this rule is about.
        const LoopWork& work = m.loopWork(L);
        if (work.trip == TripClass::Small || work.work == PassWork::Slab)
            continue;
        if (!objects)
            objects = blocks::objectArrayBindings(m);
        if (blocks::isObjectArray(m, *objects, L.iterable))
            continue;
        const QString what = blocks::quoted(m, L.iterable, 48);
        const QString msg =
            L.kind == LoopKind::Comprehension
                ? QStringLiteral("comprehension over %1 %2 on the host, one item per step")
                      .arg(what, how)
                : QStringLiteral("loop over %1 %2 on the host, one item per step").arg(what, how);
        out.reportAbout(L.iterable, L.node, msg);
    }
}

} // namespace cnready
