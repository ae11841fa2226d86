#include "rules/R101_element_loop.h"

#include "parse/SyntaxTree.h"
#include "rules/BlocksSupport.h"
#include "rules/RuleSupport.h"
#include "semantic/LoopWork.h"
#include "semantic/NumpyNames.h"
#include "semantic/SemanticModel.h"

#include <QSet>

#include <map>
#include <optional>
#include <set>
#include <span>
#include <vector>

namespace cnready {

const RuleInfo& R101ElementLoop::info() const {
    static const RuleInfo i{
        QStringLiteral("R101"),
        Category::Blocks,
        QStringLiteral("element-loop"),
        QStringLiteral("Python loop that walks array elements"),
        QStringLiteral("RR-loop"),
        QStringLiteral(
            "Finds for-loops and comprehensions over `range(n)`, `range(len(a))`, "
            "`range(a.shape[k])`, `itertools.product(range(...), ...)` or "
            "`np.ndindex` whose body reads or writes single array elements with the "
            "loop variable (`a[i]`, `out[i, j]`, `y[i - 1]`). Loops whose variable "
            "only picks whole slabs (`v[..., c]`, `u[i, :]`) or rows handed to a "
            "whole-array operation (`np.poly(z[i])`, `w[i] @ x`), step loops that never "
            "index with their variable, and loops over a literal range of at most 8 "
            "are left alone, as are loops whose `a[i]` is reduced by NumPy "
            "(`np.sum(a[i] ** 2)`): reducing one element would be pointless, so "
            "`a[i]` is a row. Elements of an object-dtype array (R107) are Python "
            "objects on the host and do not count. A Numba-compiled kernel is reported once, "
            "on its first element loop: compiled code takes host NumPy buffers only."),
        QStringLiteral("Every element access launches its own operation on a distributed "
                       "array. The work per operation is one number while the cost of issuing "
                       "it is microseconds, so the loop runs at interpreter speed no matter how "
                       "many GPUs are attached, and the Python loop cannot be fused into one "
                       "kernel."),
        QStringLiteral("for i in range(len(x)):\n"
                       "    y[i] = 3.0 * x[i] + y[i]"),
        QStringLiteral("y += 3.0 * x            # one whole-array update"),
        false};
    return i;
}

namespace {

// Whether the last plain assignment to identifier `base` before `at`, in the same function,
// creates a one-dimensional array of a scalar length (`y = np.zeros(n)`, `np.empty(len(x))`,
// `np.full(n, 0.0)`): then `y[i]` is one element, whatever rows the loop reads. The length
// must be a number: an integer literal, a host scalar, or the stop of `loop`'s own range
// (`for i in range(n)` next to `y = np.zeros(n)`, `n` an unannotated parameter).
bool oneDimensionalByConstruction(const SemanticModel& m, TSNode base, TSNode at,
                                  const LoopInfo& loop) {
    if (!SyntaxTree::is(base, "identifier"))
        return false;
    const std::string_view name = m.text(base);
    const FunctionRegion* fn = m.enclosingFunctionRegion(at);
    const auto list = fn ? SemanticModel::within(m.assignments(), fn->startByte, fn->endByte)
                         : std::span<const TSNode>(m.assignments());
    const uint32_t before = ts_node_start_byte(at);
    for (auto it = list.rbegin(); it != list.rend(); ++it) {
        const TSNode a = *it;
        if (ts_node_start_byte(a) >= before || !SyntaxTree::is(a, "assignment"))
            continue;
        const TSNode left = SyntaxTree::field(a, "left");
        if (!SyntaxTree::is(left, "identifier") || m.text(left) != name)
            continue;
        if (m.enclosingFunctionRegion(a) != fn)
            continue;
        const TSNode v = SyntaxTree::field(a, "right");
        if (!SyntaxTree::is(v, "call"))
            return false;
        const QString cn = m.callName(v);
        if (cn != QLatin1String("numpy.zeros") && cn != QLatin1String("numpy.empty") &&
            cn != QLatin1String("numpy.ones") && cn != QLatin1String("numpy.full"))
            return false;
        const TSNode len = SemanticModel::argument(v, 0);
        if (ts_node_is_null(len))
            return false;
        if (SyntaxTree::is(len, "integer") || m.valueKind(len) == ValueKind::HostScalar)
            return true;
        // The stop of the loop's own range: `range(n)` / `range(0, n)` / `range(1, n)`.
        if (!SyntaxTree::is(len, "identifier") || !SyntaxTree::is(loop.iterable, "call") ||
            m.text(SyntaxTree::field(loop.iterable, "function")) != "range")
            return false;
        const int k = SemanticModel::positionalCount(loop.iterable);
        const TSNode stop = SemanticModel::argument(loop.iterable, k >= 2 ? 1 : 0);
        return (k == 1 || k == 2) && SyntaxTree::is(stop, "identifier") &&
               m.text(stop) == m.text(len);
    }
    return false;
}

// Whether loop `L` reads rows along the leading axis with its variable, written out with
// slices (`A[i, :]`, `A[i, 1:]`, of an array other than `skip`): the loop walks the data's
// long, distributed axis. Loops over trailing slabs (`img[..., c]`, `d[:, j]`) usually walk a
// few channels or features, and a single index (`X[i]`) may be an element of a 1-D array:
// both are left alone.
bool readsLeadingRows(const SemanticModel& m, const LoopInfo& L, TSNode skip) {
    const std::string_view skipName = m.text(skip);
    for (const TSNode sub : SemanticModel::within(m.subscripts(), L.node)) {
        const TSNode base = SyntaxTree::field(sub, "value");
        if (m.text(base) == skipName || !m.isArray(base))
            continue;
        int index = 0;
        bool row = true;
        rules::forEachIndexItem(sub, [&](TSNode e) {
            if (index++ == 0)
                row = m.usesLoopVariable(e, L) && m.valueKind(e) == ValueKind::HostScalar;
            else
                row = SyntaxTree::is(e, "slice");
            return row;
        });
        if (row && index >= 2)
            return true;
    }
    return false;
}

// Whether a comprehension's element expression only packs array elements into Python values:
// an element read (`off[d]`), a loop variable or a literal, a builtin that builds a Python
// object from those (`slice(off[d], off[d + 1])`, `int(a[i])`), or a tuple / list of them.
// Arithmetic on elements (`a[i + 1] - a[i]`) is array work and is not such a packing. There is
// nothing to vectorise here: one `.tolist()` before the comprehension does it (RR-tolist).
bool onlyPacksElements(const SemanticModel& m, TSNode e, bool top = true) {
    if (ts_node_is_null(e))
        return false;
    if (SyntaxTree::is(e, "identifier") || SyntaxTree::is(e, "integer") ||
        SyntaxTree::is(e, "float") || SyntaxTree::is(e, "string") || SyntaxTree::is(e, "none"))
        return !top;
    if (SyntaxTree::is(e, "subscript"))
        return true;
    if (SyntaxTree::is(e, "tuple") || SyntaxTree::is(e, "list") ||
        SyntaxTree::is(e, "parenthesized_expression")) {
        bool element = false;
        for (uint32_t k = 0; k < ts_node_named_child_count(e); ++k) {
            const TSNode c = ts_node_named_child(e, k);
            if (SyntaxTree::is(c, "comment"))
                continue;
            if (!onlyPacksElements(m, c, false))
                return false;
            element = element || SyntaxTree::is(c, "subscript") || SyntaxTree::is(c, "call");
        }
        return element;
    }
    if (SyntaxTree::is(e, "call")) {
        static const char* const builders[] = {"slice", "int",   "float", "str",
                                               "bool",  "tuple", "range", "complex"};
        const TSNode fn = SyntaxTree::field(e, rules::fields().function);
        if (!SyntaxTree::is(fn, "identifier"))
            return false;
        const std::string_view name = m.text(fn);
        bool builder = false;
        for (const char* b : builders)
            builder = builder || name == b;
        if (!builder || !blocks::isBuiltin(m, fn, name))
            return false;
        const auto args = rules::positionalArguments(e);
        bool element = false;
        for (const TSNode a : args) {
            if (!onlyPacksElements(m, a, false))
                return false;
            element = element || SyntaxTree::is(a, "subscript");
        }
        return element;
    }
    return false;
}

} // namespace

bool isElementAccessOf(const SemanticModel& m, TSNode sub, const LoopInfo& L) {
    return m.isElementAccess(sub, L);
}

std::map<int, TSNode> elementLoops(const SemanticModel& m, const LoopInfo* only,
                                   std::optional<std::vector<blocks::ObjectArrayBinding>>* cache) {
    const auto& loops = m.loops();
    // Elements of an object-dtype array are Python objects on the host whatever library holds
    // the array (`axarr[row, col] = fig.add_subplot(...)`): R107 reports the cause.
    std::optional<std::vector<blocks::ObjectArrayBinding>> local;
    std::optional<std::vector<blocks::ObjectArrayBinding>>& objects = cache ? *cache : local;
    // Bookkeeping arrays and arrays of strings (rules::notDataArray) are no element work on
    // data either, however they are indexed.
    auto objectArray = [&](TSNode base) {
        return blocks::isObjectArray(
                   m, objects ? *objects : objects.emplace(blocks::objectArrayBindings(m)), base) ||
               rules::notDataArray(m, base);
    };
    // Loop index → first element access that qualifies it.
    std::map<int, TSNode> qualifying;
    std::vector<const LoopInfo*> slabLoops;
    auto consider = [&](const LoopInfo& L) {
        if (!L.isIndexLoop())
            return;
        const LoopWork& w = m.loopWork(L);
        if (w.work == PassWork::Slab) {
            slabLoops.push_back(&L);
            return;
        }
        if (w.work != PassWork::Scalar)
            return;
        for (const TSNode sub : w.elements)
            if (!objectArray(SyntaxTree::field(sub, "value"))) {
                qualifying.emplace(L.index, sub);
                return;
            }
    };
    if (only)
        consider(*only);
    else
        for (const LoopInfo& L : loops)
            consider(L);
    // A slab or row loop that stores one number per pass into a one-dimensional array
    // (`y[i] = A[i, :] @ x`, `out[j] = np.median(d[:, j])`) builds its result element by
    // element: whatever vector work each pass does on its row, the loop issues n small
    // operations where one axis-wise call would do (RR-loop). It counts.
    for (const LoopInfo* L : slabLoops) {
        auto store = [&](TSNode target) {
            if (!SyntaxTree::is(target, "subscript") || ts_node_named_child_count(target) != 2)
                return false;
            const TSNode ix = SyntaxTree::field(target, "subscript");
            if (SyntaxTree::is(ix, "tuple") || SyntaxTree::is(ix, "expression_list") ||
                SyntaxTree::is(ix, "slice"))
                return false;
            const TSNode base = SyntaxTree::field(target, "value");
            if (!m.isArray(base) || !m.isElementAccess(target, *L) ||
                !oneDimensionalByConstruction(m, base, target, *L) ||
                !readsLeadingRows(m, *L, base) || objectArray(base))
                return false;
            qualifying.emplace(L->index, target);
            return true;
        };
        bool found = false;
        for (const TSNode a : SemanticModel::within(m.assignments(), L->node))
            if (m.inLoop(a) && (found = store(SyntaxTree::field(a, "left"))))
                break;
        if (!found)
            for (const TSNode a : SemanticModel::within(m.augmentedAssignments(), L->node))
                if (m.inLoop(a) && store(SyntaxTree::field(a, "left")))
                    break;
    }
    return qualifying;
}

void R101ElementLoop::check(const RuleContext& ctx, FindingSink& out) const {
    const SemanticModel& m = ctx.model;
    const auto& loops = m.loops();
    std::map<int, TSNode> qualifying = elementLoops(m);
    // A loop that runs a handful of passes (the axes of an array, a literal range, a count a
    // method returns as a literal) is not reported whatever it indexes. It stays an element
    // loop for R105, which leaves a branch on its element (`if stop_None[dim]`) to R101.
    std::erase_if(qualifying, [&](const auto& entry) {
        return m.loopWork(loops[size_t(entry.first)]).trip == TripClass::Small;
    });
    // Nest depth of each qualifying loop: the deepest qualifying loop below it, counted in
    // loop levels (one walk up from every qualifying loop, not a scan per loop: a file with
    // 100,000 element loops made that quadratic).
    std::map<int, int> nestOf;
    for (const auto& entry : qualifying) {
        int depth = 0;
        for (int p = loops[size_t(entry.first)].parent; p >= 0; p = loops[size_t(p)].parent) {
            ++depth;
            if (qualifying.count(p)) {
                int& n = nestOf[p];
                n = std::max(n, depth + 1);
            }
        }
    }
    for (const auto& [index, sub] : qualifying) {
        const LoopInfo& L = loops[size_t(index)];
        // Report the outermost qualifying loop of a nest only.
        bool outer = true;
        for (int p = L.parent; p >= 0; p = loops[size_t(p)].parent)
            if (qualifying.count(p))
                outer = false;
        if (!outer)
            continue;
        const auto found = nestOf.find(index);
        const int nest = found == nestOf.end() ? 1 : found->second;
        const TSNode header = L.kind == LoopKind::Comprehension ? L.node : L.iterable;
        const QString over = blocks::quoted(m, header, 48);
        QString msg = L.kind == LoopKind::Comprehension
                          ? QStringLiteral("comprehension over %1 builds its result one array "
                                           "element at a time (%2)")
                                .arg(over, blocks::quoted(m, sub))
                          : QStringLiteral("loop over %1 touches one array element per "
                                           "iteration (%2)")
                                .arg(over, blocks::quoted(m, sub));
        if (nest > 1)
            msg += QStringLiteral(", %1 nested levels deep").arg(nest);
        if (L.kind == LoopKind::Comprehension && !rules::hasFilter(L.node) &&
            onlyPacksElements(m, L.body))
            out.report(L.node, msg, 1);
        else
            out.report(L.node, msg);
    }
}

} // namespace cnready
