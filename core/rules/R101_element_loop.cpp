#include "rules/R101_element_loop.h"

#include "parse/SyntaxTree.h"
#include "rules/BlocksSupport.h"
#include "rules/RuleSupport.h"
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
        QStringLiteral("Finds for-loops and comprehensions over `range(n)`, `range(len(a))`, "
                       "`range(a.shape[k])`, `itertools.product(range(...), ...)` or "
                       "`np.ndindex` whose body reads or writes single array elements with the "
                       "loop variable (`a[i]`, `out[i, j]`, `y[i - 1]`). Loops whose variable "
                       "only picks whole slabs (`v[..., c]`, `u[i, :]`) or rows handed to a "
                       "whole-array operation (`np.poly(z[i])`, `w[i] @ x`), step loops that never "
                       "index with their variable, and loops over a literal range of at most 8 "
                       "are left alone, as are loops whose `a[i]` is reduced by NumPy "
                       "(`np.sum(a[i] ** 2)`): reducing one element would be pointless, so "
                       "`a[i]` is a row. Elements of an object-dtype array (R107) are Python "
                       "objects on the host and do not count."),
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

// An element access: a subscript with only scalar index components (no slice, no `...`,
// no None) at least one of which uses the loop variable.
bool scalarIndexUsing(const SemanticModel& m, TSNode sub, const LoopInfo& L) {
    const TSNode base = SyntaxTree::field(sub, "value");
    const uint32_t n = ts_node_named_child_count(sub);
    bool uses = false;
    for (uint32_t i = 0; i < n; ++i) {
        const TSNode ix = ts_node_named_child(sub, i);
        if (ts_node_eq(ix, base) || SyntaxTree::is(ix, "comment"))
            continue;
        auto scalar = [&](TSNode e) {
            const auto t = SyntaxTree::type(e);
            if (t == "slice" || t == "ellipsis" || t == "none" || t == "list" || t == "string")
                return false;
            if (m.canonicalName(e) == QLatin1String("numpy.newaxis"))
                return false;
            // `for idx in np.ndindex(...)`: the tuple index addresses one element.
            if (SyntaxTree::is(e, "identifier") && L.source == LoopSource::NdIndex)
                return true;
            const ValueKind k = m.valueKind(e);
            return k != ValueKind::Array && k != ValueKind::Sequence;
        };
        // A component that depends on the loop variable must be a Python integer
        // (`i`, `i - 1`, `k = i + 1`): index arrays computed from it (`rr, cc = disk(...)`)
        // are gathers, not element accesses.
        auto elementIndex = [&](TSNode e) {
            if (!m.usesLoopVariable(e, L))
                return false;
            if (SyntaxTree::is(e, "identifier") && L.source == LoopSource::NdIndex)
                return true;
            return m.valueKind(e) == ValueKind::HostScalar;
        };
        if (SyntaxTree::is(ix, "tuple") || SyntaxTree::is(ix, "expression_list")) {
            const uint32_t k = ts_node_named_child_count(ix);
            for (uint32_t j = 0; j < k; ++j) {
                const TSNode e = ts_node_named_child(ix, j);
                if (!scalar(e))
                    return false;
                uses = uses || elementIndex(e);
            }
        } else {
            if (!scalar(ix))
                return false;
            uses = uses || elementIndex(ix);
        }
    }
    return uses;
}

bool typeTestedShapeSource(const SemanticModel& m, const LoopInfo& L);

// The base of a subscript is an array: by provenance, or because the loop ranges over its
// shape (`for i in range(img.shape[0])` makes `img` array-like).
bool arrayBase(const SemanticModel& m, TSNode base, const LoopInfo& L) {
    if (m.isArray(base))
        return true;
    if (L.source == LoopSource::RangeShape && !L.iteratedArray.isEmpty()) {
        const std::string_view t = m.text(base);
        return QString::fromUtf8(t.data(), qsizetype(t.size())) == L.iteratedArray &&
               !typeTestedShapeSource(m, L);
    }
    return false;
}

// A slab access: a subscript whose index mixes a slice / `...` with a component that uses
// the loop variable (`out[..., c]`, `y[:, j]`, `u[i, :]`): the loop walks an axis and its
// body works on whole slabs, so it is not an element loop even if it also reads a per-slab
// scalar (`sigma[c]`).
bool slabIndexUsing(const SemanticModel& m, TSNode sub, const LoopInfo& L) {
    bool slab = false, uses = false;
    rules::forEachIndexItem(sub, [&](TSNode e) {
        const auto t = SyntaxTree::type(e);
        if (t == "slice" || t == "ellipsis")
            slab = true;
        else if (m.usesLoopVariable(e, L))
            uses = true;
        return true;
    });
    return slab && uses;
}

// Whether a NumPy/SciPy call needs a whole array in its positional arguments: a scalar there
// is meaningless (`np.poly(z[i])`, `np.sort(a[i])`, `np.convolve(x[i], h)`, `np.sum(w[i])`),
// so a subscript passed to it is a row, not one element. Ufuncs (`np.sqrt(a[i])`) take
// scalars and do not count.
bool needsWholeArray(const QString& canonical) {
    if (!canonical.startsWith(QLatin1String("numpy.")) &&
        !canonical.startsWith(QLatin1String("scipy.")))
        return false;
    if (canonical.startsWith(QLatin1String("numpy.fft.")) ||
        canonical.startsWith(QLatin1String("numpy.linalg.")) ||
        canonical.startsWith(QLatin1String("scipy.linalg.")) ||
        canonical.startsWith(QLatin1String("scipy.fft.")))
        return true;
    static const QSet<QString> kWhole = {
        QStringLiteral("poly"),     QStringLiteral("roots"),       QStringLiteral("polyfit"),
        QStringLiteral("convolve"), QStringLiteral("correlate"),   QStringLiteral("sort"),
        QStringLiteral("argsort"),  QStringLiteral("unique"),      QStringLiteral("diff"),
        QStringLiteral("cumsum"),   QStringLiteral("cumprod"),     QStringLiteral("sum"),
        QStringLiteral("mean"),     QStringLiteral("std"),         QStringLiteral("var"),
        QStringLiteral("median"),   QStringLiteral("prod"),        QStringLiteral("argmax"),
        QStringLiteral("argmin"),   QStringLiteral("ptp"),         QStringLiteral("dot"),
        QStringLiteral("vdot"),     QStringLiteral("inner"),       QStringLiteral("outer"),
        QStringLiteral("matmul"),   QStringLiteral("cross"),       QStringLiteral("concatenate"),
        QStringLiteral("stack"),    QStringLiteral("hstack"),      QStringLiteral("vstack"),
        QStringLiteral("trapz"),    QStringLiteral("trapezoid"),   QStringLiteral("histogram"),
        QStringLiteral("nonzero"),  QStringLiteral("flatnonzero"), QStringLiteral("count_nonzero"),
        QStringLiteral("lfilter"),  QStringLiteral("filtfilt"),    QStringLiteral("sosfilt"),
        QStringLiteral("reshape"),  QStringLiteral("ravel"),       QStringLiteral("transpose"),
        QStringLiteral("flip"),     QStringLiteral("roll"),        QStringLiteral("tensordot"),
        QStringLiteral("einsum")};
    return kWhole.contains(canonical.section(QLatin1Char('.'), -1));
}

// Method names that only make sense on an array with at least one axis (`z[i].sum()`).
bool wholeArrayMethod(std::string_view name) {
    return name == "sum" || name == "mean" || name == "std" || name == "var" || name == "prod" ||
           name == "cumsum" || name == "sort" || name == "argsort" || name == "argmax" ||
           name == "argmin" || name == "reshape" || name == "ravel" || name == "flatten" ||
           name == "dot" || name == "nonzero" || name == "transpose";
}

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

// Whether loop `L` walks the axes of an array rather than its elements: `range(x.ndim)`,
// `range(len(x.shape))`, `range(len(shape))`, `range(np.ndim(x))`, also with a start
// (`range(dim, len(self.shape))`). It runs once per dimension, a handful of passes, whatever
// its body indexes (`startl[dim]`, a per-axis bookkeeping array).
bool dimensionLoop(const SemanticModel& m, const LoopInfo& L) {
    const TSNode it = L.iterable;
    if (!SyntaxTree::is(it, "call") || m.text(SyntaxTree::field(it, "function")) != "range")
        return false;
    const int k = SemanticModel::positionalCount(it);
    if (k < 1 || k > 2)
        return false;
    TSNode stop = SemanticModel::argument(it, k - 1);
    while (SyntaxTree::is(stop, "parenthesized_expression"))
        stop = ts_node_named_child(stop, 0);
    if (SyntaxTree::is(stop, "attribute"))
        return m.text(SyntaxTree::field(stop, "attribute")) == "ndim";
    if (!SyntaxTree::is(stop, "call") || SemanticModel::positionalCount(stop) != 1)
        return false;
    const TSNode fn = SyntaxTree::field(stop, "function");
    if (m.canonicalName(fn) == QLatin1String("numpy.ndim"))
        return true;
    if (!SyntaxTree::is(fn, "identifier") || m.text(fn) != "len")
        return false;
    TSNode of = SemanticModel::argument(stop, 0);
    while (SyntaxTree::is(of, "parenthesized_expression"))
        of = ts_node_named_child(of, 0);
    if (SyntaxTree::is(of, "attribute"))
        return m.text(SyntaxTree::field(of, "attribute")) == "shape";
    if (!SyntaxTree::is(of, "identifier"))
        return false;
    const std::string_view t = m.text(of);
    return t.size() >= 5 && (t.ends_with("shape") || t.ends_with("Shape"));
}

// Whether `call` converts an object to a whole array by a method whose name says so
// (`page.asarray()`, `m.toarray()`, `df.to_numpy()`, `self[z].get_numpy_array()`) on a
// receiver that is not a known ndarray: the value is an array of at least one axis, so the
// `a[i]` it is stored into is a slab (a decoded image stored per file or page).
bool convertsToArray(const SemanticModel& m, TSNode call) {
    if (!SyntaxTree::is(call, "call"))
        return false;
    const TSNode fn = SyntaxTree::field(call, rules::fields().function);
    if (!SyntaxTree::is(fn, "attribute"))
        return false;
    const std::string_view a = m.text(SyntaxTree::field(fn, rules::fields().attribute));
    return (a == "asarray" || a == "toarray" || a == "to_numpy" || a == "get_numpy_array" ||
            a == "read_array" || a == "get_array") &&
           SemanticModel::positionalCount(call) == 0 &&
           !m.isArray(SyntaxTree::field(fn, rules::fields().object));
}

// Whether the object whose shape `L` ranges over (`for i in range(leaf.shape[0])`) is tested
// for its type in the same function (`isinstance(leaf, tb.Table)`): code that asks is prepared
// for other objects with a shape (an HDF5 leaf, a table), so the range alone does not make it
// an array.
bool typeTestedShapeSource(const SemanticModel& m, const LoopInfo& L) {
    const FunctionRegion* fn = m.enclosingFunctionRegion(L.node);
    if (!fn || L.iteratedArray.isEmpty())
        return false;
    const QByteArray name = L.iteratedArray.toUtf8();
    const std::string_view want(name.constData(), size_t(name.size()));
    for (const TSNode c : SemanticModel::within(m.calls(), fn->startByte, fn->endByte)) {
        const TSNode f = SyntaxTree::field(c, "function");
        if (SyntaxTree::is(f, "identifier") && m.text(f) == "isinstance" &&
            m.text(SemanticModel::argument(c, 0)) == want &&
            m.text(SemanticModel::argument(c, 1)).find("ndarray") == std::string_view::npos)
            return true;
    }
    return false;
}

} // namespace

bool isElementAccessOf(const SemanticModel& m, TSNode sub, const LoopInfo& L) {
    return SyntaxTree::is(sub, "subscript") && L.isIndexLoop() &&
           arrayBase(m, SyntaxTree::field(sub, "value"), L) && scalarIndexUsing(m, sub, L);
}

std::map<int, TSNode> elementLoops(const SemanticModel& m, const LoopInfo* only,
                                   std::optional<std::vector<blocks::ObjectArrayBinding>>* cache) {
    const auto& loops = m.loops();
    // With `only`, look at that loop alone: its own nodes, and marks for it only.
    auto range = [&](const std::vector<TSNode>& list) {
        return only ? SemanticModel::within(list, only->node) : std::span<const TSNode>(list);
    };
    auto indexLoop = [&](const LoopInfo* cur) {
        return cur->isIndexLoop() && (!only || cur == only);
    };
    // Loop index → first element access that qualifies it.
    std::map<int, TSNode> qualifying;
    std::set<int> slabLoops;
    for (const TSNode sub : range(m.subscripts())) {
        const LoopInfo* L = m.enclosingLoop(sub);
        for (const LoopInfo* cur = L; cur;
             cur = cur->parent >= 0 ? &loops[size_t(cur->parent)] : nullptr)
            if (indexLoop(cur) && slabIndexUsing(m, sub, *cur))
                slabLoops.insert(cur->index);
    }
    // `np.sum(a[i])`: reducing a single element would be pointless, so with scalar indices
    // `a[i]` is a row of a 2-D array (the model does not know ranks): the loop walks rows.
    auto rowUse = [&](TSNode sub, TSNode at) {
        sub = SyntaxTree::is(sub, "parenthesized_expression") ? ts_node_named_child(sub, 0) : sub;
        if (!SyntaxTree::is(sub, "subscript") || !m.isArray(SyntaxTree::field(sub, "value")))
            return;
        for (const LoopInfo* cur = m.enclosingLoop(at); cur;
             cur = cur->parent >= 0 ? &loops[size_t(cur->parent)] : nullptr)
            if (indexLoop(cur) && scalarIndexUsing(m, sub, *cur))
                slabLoops.insert(cur->index);
    };
    for (const TSNode c : range(m.calls())) {
        const QString cn = m.callName(c);
        if (!cn.startsWith(QLatin1String("numpy.")) || !numpy::isReduction(cn.mid(6)))
            continue;
        // The reduced operand may sit in arithmetic with numbers: `np.sum(a[i] ** 2)`. Next to
        // an array operand (`np.sum(1 / (x[k] - x[k + 1:]))`) `x[k]` is a broadcast element,
        // so any leaf other than a number or a scalar-indexed subscript says nothing.
        std::vector<TSNode> stack{SemanticModel::argument(c, 0)}, rows;
        bool plain = true;
        for (int budget = 64; !stack.empty() && plain; --budget) {
            const TSNode x = stack.back();
            stack.pop_back();
            if (budget <= 0) {
                plain = false;
            } else if (SyntaxTree::is(x, "binary_operator") ||
                       SyntaxTree::is(x, "unary_operator") ||
                       SyntaxTree::is(x, "parenthesized_expression")) {
                for (uint32_t k = 0; k < ts_node_named_child_count(x); ++k)
                    stack.push_back(ts_node_named_child(x, k));
            } else if (SyntaxTree::is(x, "subscript") && m.valueKind(x) != ValueKind::Array) {
                rows.push_back(x);
            } else if (m.valueKind(x) != ValueKind::HostScalar) {
                plain = false;
            }
        }
        if (plain)
            for (const TSNode r : rows)
                rowUse(r, c);
    }
    // Row loops: a subscript indexed by the loop variable that is handed to a whole-array
    // operation (`b[i] = k[i] * poly(z[i])`, `np.sort(a[i])`, `w[i] @ x`, `z[i].sum()`)
    // is a row of a 2-D array; each iteration does vector work, like a slab loop.
    auto markRow = [&](TSNode e) {
        while (SyntaxTree::is(e, "parenthesized_expression"))
            e = ts_node_named_child(e, 0);
        if (!SyntaxTree::is(e, "subscript"))
            return;
        // Only a single index (`z[i]`) picks a row; `T[i-1, ksl]` with a slice held in a
        // name still reads element-wise neighbours around it (triangular recurrences).
        const TSNode ix = SyntaxTree::field(e, "subscript");
        if (ts_node_is_null(ix) || SyntaxTree::is(ix, "tuple") ||
            SyntaxTree::is(ix, "expression_list") || ts_node_named_child_count(e) != 2)
            return;
        for (const LoopInfo* cur = m.enclosingLoop(e); cur;
             cur = cur->parent >= 0 ? &loops[size_t(cur->parent)] : nullptr)
            if (indexLoop(cur) && arrayBase(m, SyntaxTree::field(e, "value"), *cur) &&
                scalarIndexUsing(m, e, *cur))
                slabLoops.insert(cur->index);
    };
    if (!loops.empty()) {
        for (const TSNode c : range(m.calls())) {
            const TSNode fn = SyntaxTree::field(c, "function");
            if (SyntaxTree::is(fn, "attribute") &&
                wholeArrayMethod(m.text(SyntaxTree::field(fn, "attribute"))) &&
                SyntaxTree::is(SyntaxTree::field(fn, "object"), "subscript")) {
                markRow(SyntaxTree::field(fn, "object"));
                continue;
            }
            if (!m.inLoop(c) || !needsWholeArray(m.canonicalName(fn)))
                continue;
            const int n = SemanticModel::positionalCount(c);
            for (int i = 0; i < n; ++i)
                markRow(SemanticModel::argument(c, i));
        }
        for (const TSNode b : range(m.binaryOperators()))
            if (m.text(SyntaxTree::field(b, "operator")) == "@") {
                markRow(SyntaxTree::field(b, "left"));
                markRow(SyntaxTree::field(b, "right"));
            }
        // `for plane in data[i]`: what a loop walks has an axis, so `data[i]` is a slab
        // (a page written tile by tile).
        for (const LoopInfo& inner : loops)
            if (inner.kind == LoopKind::For && SyntaxTree::is(inner.iterable, "subscript") &&
                (!only || rules::contains(only->node, inner.node)))
                markRow(inner.iterable);
        // `vol[z] = self[z].get_numpy_array()`, `data[z] = next(pages).asarray()`: a whole
        // array decoded per file or page is stored into `vol[z]`, a slab.
        for (const TSNode a : range(m.assignments()))
            if (convertsToArray(m, SyntaxTree::field(a, rules::fields().right)) && m.inLoop(a))
                markRow(SyntaxTree::field(a, "left"));
    }
    // Elements of an object-dtype array are Python objects on the host whatever library
    // holds the array (`axarr[row, col] = fig.add_subplot(...)`): R107 reports the cause.
    std::optional<std::vector<blocks::ObjectArrayBinding>> local;
    std::optional<std::vector<blocks::ObjectArrayBinding>>& objects = cache ? *cache : local;
    // A slab or row loop that stores one number per pass into a one-dimensional array
    // (`y[i] = A[i, :] @ x`, `out[j] = np.median(d[:, j])`) builds its result element by
    // element: whatever vector work each pass does on its row, the loop issues n small
    // operations where one axis-wise call would do (RR-loop). It counts.
    if (!slabLoops.empty()) {
        auto store = [&](TSNode target) {
            if (!SyntaxTree::is(target, "subscript") || ts_node_named_child_count(target) != 2)
                return;
            const TSNode ix = SyntaxTree::field(target, "subscript");
            if (SyntaxTree::is(ix, "tuple") || SyntaxTree::is(ix, "expression_list") ||
                SyntaxTree::is(ix, "slice"))
                return;
            const TSNode base = SyntaxTree::field(target, "value");
            for (const LoopInfo* cur = m.enclosingLoop(target); cur;
                 cur = cur->parent >= 0 ? &loops[size_t(cur->parent)] : nullptr) {
                if (!indexLoop(cur) || !slabLoops.count(cur->index) ||
                    qualifying.count(cur->index) || !m.isArray(base) ||
                    !scalarIndexUsing(m, target, *cur) ||
                    !oneDimensionalByConstruction(m, base, target, *cur) ||
                    !readsLeadingRows(m, *cur, base) ||
                    blocks::isObjectArray(
                        m, objects ? *objects : objects.emplace(blocks::objectArrayBindings(m)),
                        base) ||
                    rules::notDataArray(m, base))
                    continue;
                qualifying.emplace(cur->index, target);
            }
        };
        for (const TSNode a : range(m.assignments()))
            if (m.inLoop(a))
                store(SyntaxTree::field(a, "left"));
        for (const TSNode a : range(m.augmentedAssignments()))
            if (m.inLoop(a))
                store(SyntaxTree::field(a, "left"));
    }
    for (const TSNode sub : range(m.subscripts())) {
        const LoopInfo* L = m.enclosingLoop(sub);
        if (!L)
            continue;
        const TSNode base = SyntaxTree::field(sub, "value");
        for (const LoopInfo* cur = L; cur;
             cur = cur->parent >= 0 ? &loops[size_t(cur->parent)] : nullptr) {
            if (!indexLoop(cur) || qualifying.count(cur->index) || slabLoops.count(cur->index))
                continue;
            // Bookkeeping arrays and arrays of strings (rules::notDataArray) are no element
            // work on data, however they are indexed.
            if (arrayBase(m, base, *cur) && scalarIndexUsing(m, sub, *cur) &&
                !blocks::isObjectArray(
                    m, objects ? *objects : objects.emplace(blocks::objectArrayBindings(m)),
                    base) &&
                !rules::notDataArray(m, base))
                qualifying.emplace(cur->index, sub);
        }
    }
    return qualifying;
}

void R101ElementLoop::check(const RuleContext& ctx, FindingSink& out) const {
    const SemanticModel& m = ctx.model;
    const auto& loops = m.loops();
    std::map<int, TSNode> qualifying = elementLoops(m);
    // A loop over the axes runs a handful of passes: not reported. It stays an element loop
    // for R105, which leaves a branch on its element (`if stop_None[dim]`) to R101.
    std::erase_if(qualifying,
                  [&](const auto& entry) { return dimensionLoop(m, loops[size_t(entry.first)]); });
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
        out.report(L.node, msg);
    }
}

} // namespace cnready
