#include "semantic/LoopWork.h"

#include "parse/SyntaxTree.h"
#include "semantic/Literals.h"
#include "semantic/NumpyNames.h"
#include "semantic/SemanticModel.h"
#include "semantic/Walk.h"

#include <QSet>

#include <algorithm>
#include <span>
#include <string_view>
#include <utility>

namespace cnready {

QString tripClassName(TripClass c) {
    switch (c) {
    case TripClass::Unknown:
        return QStringLiteral("unknown");
    case TripClass::Small:
        return QStringLiteral("small");
    case TripClass::Steps:
        return QStringLiteral("steps");
    case TripClass::Data:
        return QStringLiteral("data");
    }
    return QStringLiteral("unknown");
}

QString passWorkName(PassWork w) {
    switch (w) {
    case PassWork::Unknown:
        return QStringLiteral("unknown");
    case PassWork::Scalar:
        return QStringLiteral("scalar");
    case PassWork::Slab:
        return QStringLiteral("slab");
    }
    return QStringLiteral("unknown");
}

namespace {

using ST = SyntaxTree;

TSNode unparen(TSNode e) {
    while (ST::is(e, "parenthesized_expression") && ts_node_named_child_count(e) > 0)
        e = ts_node_named_child(e, 0);
    return e;
}

// Every index component of a subscript (`a[i, j]` → i, j; `a[k]` → k).
template <typename Visit> bool forEachIndex(TSNode sub, Visit&& visit) {
    return forEachIndexItem(sub, std::forward<Visit>(visit));
}

// `for k in np.arange(n)`: NumPy's range, whose items are positions as `range`'s are.
bool arangeLoop(const SemanticModel& m, const LoopInfo& L) {
    return L.source == LoopSource::Array && ST::is(L.iterable, "call") &&
           m.callName(L.iterable) == QLatin1String("numpy.arange");
}

// The loops whose variables are integer positions (the candidates for element work).
bool indexVariables(const SemanticModel& m, const LoopInfo& L) {
    return L.isIndexLoop() || L.source == LoopSource::SmallLiteralRange || arangeLoop(m, L);
}

// An element access of loop `L`: a subscript with only scalar index components (no slice, no
// `...`, no None, no index array) at least one of which is a Python integer that depends on
// the loop variable (`i`, `i - 1`, `k = i + 1`; the tuple of an `np.ndindex` loop). Index
// arrays computed from the variable (`rr, cc = disk(...)`) are gathers, not elements.
bool scalarIndexUsing(const SemanticModel& m, TSNode sub, const LoopInfo& L) {
    bool uses = false;
    const bool ok = forEachIndex(sub, [&](TSNode e) {
        const auto t = ST::type(e);
        if (t == "slice" || t == "ellipsis" || t == "none" || t == "list" || t == "string")
            return false;
        if (m.canonicalName(e) == QLatin1String("numpy.newaxis"))
            return false;
        const bool ndTuple = ST::is(e, "identifier") && L.source == LoopSource::NdIndex;
        if (!ndTuple) {
            const ValueKind k = m.valueKind(e);
            if (k == ValueKind::Array || k == ValueKind::Sequence)
                return false;
        }
        if (!uses && m.usesLoopVariable(e, L))
            uses = ndTuple || m.valueKind(e) == ValueKind::HostScalar;
        return true;
    });
    return ok && uses;
}

// A slab access of loop `L`: the index mixes a slice / `...` with a component that uses the
// loop variable (`out[..., c]`, `y[:, j]`, `u[i, :]`).
bool slabIndexUsing(const SemanticModel& m, TSNode sub, const LoopInfo& L) {
    bool slab = false, uses = false;
    forEachIndex(sub, [&](TSNode e) {
        const auto t = ST::type(e);
        if (t == "slice" || t == "ellipsis")
            slab = true;
        else if (m.usesLoopVariable(e, L))
            uses = true;
        return true;
    });
    return slab && uses;
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
        const TSNode f = ST::field(c, "function");
        if (ST::is(f, "identifier") && m.text(f) == "isinstance" &&
            m.text(SemanticModel::argument(c, 0)) == want &&
            m.text(SemanticModel::argument(c, 1)).find("ndarray") == std::string_view::npos)
            return true;
    }
    return false;
}

// The base of a subscript is an array: by provenance, or because the loop ranges over its
// shape (`for i in range(img.shape[0])` makes `img` array-like) and nothing tests its type.
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

// Whether a NumPy/SciPy call needs a whole array in its positional arguments: a scalar there
// is meaningless (`np.poly(z[i])`, `np.sort(a[i])`, `np.convolve(x[i], h)`, `np.sum(w[i])`),
// so a subscript passed to it is a row, not one element. Ufuncs (`np.sqrt(a[i])`) take
// scalars and do not count.
// Functions that join a sequence of arrays (`np.hstack((a, b))`).
bool concatenation(const QString& canonical) {
    const QString leaf = canonical.section(QLatin1Char('.'), -1);
    return canonical.startsWith(QLatin1String("numpy.")) &&
           (leaf == QLatin1String("concatenate") || leaf == QLatin1String("stack") ||
            leaf == QLatin1String("hstack") || leaf == QLatin1String("vstack"));
}

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
        QStringLiteral("einsum"),   QStringLiteral("cov"),         QStringLiteral("corrcoef"),
        QStringLiteral("average"),  QStringLiteral("percentile"),  QStringLiteral("quantile"),
        QStringLiteral("nanmean"),  QStringLiteral("nansum"),      QStringLiteral("nanstd"),
        QStringLiteral("nanvar"),   QStringLiteral("nanmedian"),   QStringLiteral("argwhere"),
        QStringLiteral("bincount"), QStringLiteral("searchsorted")};
    return kWhole.contains(canonical.section(QLatin1Char('.'), -1));
}

// Method names that only make sense on an array with at least one axis (`z[i].sum()`).
bool wholeArrayMethod(std::string_view name) {
    return name == "sum" || name == "mean" || name == "std" || name == "var" || name == "prod" ||
           name == "cumsum" || name == "sort" || name == "argsort" || name == "argmax" ||
           name == "argmin" || name == "reshape" || name == "ravel" || name == "flatten" ||
           name == "dot" || name == "nonzero" || name == "transpose";
}

// Whether `call` converts an object to a whole array by a method whose name says so
// (`page.asarray()`, `m.toarray()`, `df.to_numpy()`, `self[z].get_numpy_array()`) on a
// receiver that is not a known ndarray: the value has at least one axis, so the `a[i]` it is
// stored into is a slab (a decoded image stored per file or page).
bool convertsToArray(const SemanticModel& m, TSNode call) {
    if (!ST::is(call, "call"))
        return false;
    const TSNode fn = ST::field(call, "function");
    if (!ST::is(fn, "attribute"))
        return false;
    const std::string_view a = m.text(ST::field(fn, "attribute"));
    return (a == "asarray" || a == "toarray" || a == "to_numpy" || a == "get_numpy_array" ||
            a == "read_array" || a == "get_array") &&
           SemanticModel::positionalCount(call) == 0 && !m.isArray(ST::field(fn, "object"));
}

// Whether `e` is certainly one number: a numeric literal, a name or element read the model
// knows to be a scalar, or arithmetic on those only (`x0[i] + drift[i]`, `-1.0`). An operand of
// unknown kind (`(f_new - f0) / h`, `f_new` a callback's result) may be an array.
bool knownNumber(const SemanticModel& m, TSNode e, int depth) {
    e = unparen(e);
    if (ts_node_is_null(e) || depth > 16)
        return false;
    const auto t = ST::type(e);
    if (t == "integer" || t == "float")
        return true;
    if (t == "unary_operator")
        return knownNumber(m, ST::field(e, "argument"), depth + 1);
    if (t == "binary_operator")
        return knownNumber(m, ST::field(e, "left"), depth + 1) &&
               knownNumber(m, ST::field(e, "right"), depth + 1);
    if (t == "subscript") {
        // An element read with integer positions only (`x0[i]`, `a[i, j]`); a component of
        // unknown kind (`samples[order, j]`, `order` a permutation) may gather a whole column.
        if (!m.isScalarElementRead(e))
            return false;
        return forEachIndex(e, [&](TSNode ix) {
            return ST::is(ix, "integer") || m.valueKind(ix) == ValueKind::HostScalar;
        });
    }
    if (t == "identifier" || t == "call" || t == "attribute") {
        const ValueKind k = m.valueKind(e);
        return k == ValueKind::HostScalar || k == ValueKind::DeviceScalar;
    }
    return false;
}

// Whether subscript `sub` is the target of a plain assignment of one number (`paths[i, :, 0]
// = state[0]`, `row[j, :] = 0.0`): a slab filled with a scalar is no slab work of its own.
bool filledWithNumber(const SemanticModel& m, TSNode sub) {
    const TSNode a = ts_node_parent(sub);
    if (!ST::is(a, "assignment") || !ts_node_eq(ST::field(a, "left"), sub))
        return false;
    return knownNumber(m, ST::field(a, "right"), 0);
}

// Whether the loop walks the axes of an array rather than its elements: `range(x.ndim)`,
// `range(len(x.shape))`, `range(len(shape))`, `range(np.ndim(x))`, also with a start
// (`range(dim, len(self.shape))`): a handful of passes.
bool dimensionRange(const SemanticModel& m, TSNode it) {
    if (!ST::is(it, "call") || m.text(ST::field(it, "function")) != "range")
        return false;
    const int k = SemanticModel::positionalCount(it);
    if (k < 1 || k > 2)
        return false;
    const TSNode stop = unparen(SemanticModel::argument(it, k - 1));
    if (ST::is(stop, "attribute"))
        return m.text(ST::field(stop, "attribute")) == "ndim";
    if (!ST::is(stop, "call") || SemanticModel::positionalCount(stop) != 1)
        return false;
    const TSNode fn = ST::field(stop, "function");
    if (m.canonicalName(fn) == QLatin1String("numpy.ndim"))
        return true;
    if (!ST::is(fn, "identifier") || m.text(fn) != "len")
        return false;
    const TSNode of = unparen(SemanticModel::argument(stop, 0));
    if (ST::is(of, "attribute"))
        return m.text(ST::field(of, "attribute")) == "shape";
    if (!ST::is(of, "identifier"))
        return false;
    const std::string_view t = m.text(of);
    return t.size() >= 5 && (t.ends_with("shape") || t.ends_with("Shape"));
}

// Whether `call` calls a function or method of this file whose every `return` returns an
// integer literal up to kSmallLiteral (`def ncoords(self): return 6`): a count fixed by the code.
bool returnsSmallLiteral(const SemanticModel& m, TSNode call) {
    if (!ST::is(call, "call") || SemanticModel::positionalCount(call) != 0)
        return false;
    const int f = m.calledFunction(call);
    if (f < 0)
        return false;
    const FunctionRegion& fn = m.functions()[size_t(f)];
    int literals = 0;
    for (const TSNode r : SemanticModel::within(m.returns(), fn.startByte, fn.endByte)) {
        if (m.enclosingFunctionRegion(r) != &fn)
            continue;
        const TSNode v = unparen(ts_node_named_child(r, 0));
        if (!ST::is(v, "integer"))
            return false;
        const std::optional<qint64> value = integerLiteralValue(m.text(v));
        if (!value || *value > kSmallLiteral)
            return false;
        ++literals;
    }
    return literals > 0;
}

// Whether a name (the leaf of `n`: `n_steps`, `self.maxiter`) counts steps, epochs or
// iterations rather than data.
bool stepsNamed(const SemanticModel& m, TSNode n) {
    n = unparen(n);
    if (ST::is(n, "attribute"))
        n = ST::field(n, "attribute");
    if (!ST::is(n, "identifier"))
        return false;
    const QString s = QString::fromUtf8(m.text(n).data(), qsizetype(m.text(n).size())).toLower();
    return s.contains(QLatin1String("step")) || s.contains(QLatin1String("epoch")) ||
           s.contains(QLatin1String("iter")) || s.contains(QLatin1String("sweep")) ||
           s == QLatin1String("nt") || s == QLatin1String("n_t") || s == QLatin1String("ntime") ||
           s == QLatin1String("n_time") || s == QLatin1String("n_times") ||
           s == QLatin1String("ntimes") || s == QLatin1String("timesteps") ||
           s == QLatin1String("passes") || s == QLatin1String("n_passes") ||
           s == QLatin1String("npasses") || s == QLatin1String("maxit") ||
           s == QLatin1String("max_it") || s == QLatin1String("itmax") ||
           s == QLatin1String("nit") || s == QLatin1String("n_it");
}

// Whether `expr` names one of `loop`'s header variables itself (`range(i)`, `range(k + 1,
// 5)`); a value merely computed in the loop from it (`u, s, vh = svd(a)`) does not count.
bool namesVariable(const SemanticModel& m, TSNode expr, const LoopInfo& loop) {
    bool found = false;
    std::vector<TSNode> todo{expr};
    for (int budget = 256; !todo.empty() && !found && budget > 0; --budget) {
        const TSNode n = todo.back();
        todo.pop_back();
        if (ST::is(n, "identifier")) {
            const std::string_view t = m.text(n);
            found = loop.variables.contains(QString::fromUtf8(t.data(), qsizetype(t.size())));
            continue;
        }
        if (ST::is(n, "attribute")) {
            todo.push_back(ST::field(n, "object"));
            continue;
        }
        for (uint32_t k = 0; k < ts_node_named_child_count(n); ++k)
            todo.push_back(ts_node_named_child(n, k));
    }
    return found;
}

} // namespace

struct LoopWorkEngine::Impl {
    const SemanticModel& m;
    std::vector<LoopWork> work;
    std::vector<bool> tripDone;
    bool walked = false;

    explicit Impl(const SemanticModel& model) : m(model) {}

    const LoopInfo* parentOf(const LoopInfo* L) const {
        return L->parent >= 0 ? &m.loops()[size_t(L->parent)] : nullptr;
    }

    void markSlab(const LoopInfo& L, TSNode at, const char* why, bool wholeOperation = false) {
        LoopWork& w = work[size_t(L.index)];
        if (w.work == PassWork::Slab) {
            w.wholeOperationsOnly = w.wholeOperationsOnly && wholeOperation;
            return;
        }
        w.wholeOperationsOnly = wholeOperation;
        w.work = PassWork::Slab;
        w.workEvidence = at;
        w.workReason = why;
    }

    // A row of bookkeeping size: a known shape of at least one axis, every extent small
    // (`p[i]` of an `(n, 3)` array). A single number (rank 0) is no row.
    bool smallRow(TSNode e) const {
        const Shape s = m.shapeOf(e);
        return s.rank >= 1 && s.sizeClass() == SizeClass::Small;
    }

    // A row of data size: a known shape of at least one axis with a data extent (`x[i]` of an
    // `(n, samples)` array), or of two or more axes not all small. Unknown shapes are no
    // evidence either way.
    // Only a single index picks such a row: `image[i, j]` in a nest over pixels reads one
    // pixel's vector per pass, element work of the nest (R101's per-pixel loop).
    bool dataRow(TSNode e) const {
        const TSNode ix = ST::field(e, "subscript");
        if (ts_node_is_null(ix) || ST::is(ix, "tuple") || ST::is(ix, "expression_list") ||
            ts_node_named_child_count(e) != 2 || indexedDownToNumber(e))
            return false;
        const Shape s = m.shapeOf(e);
        // A matrix or more per pass (`hbonds[i]` of a `(frames, residues, 2)` array) is a slab
        // unless every extent is known small (`rot[i]` of `(n, 3, 3)`): a loop that picks whole
        // planes walks frames, not elements, even when the extents are unknown.
        return (s.rank >= 1 && s.sizeClass() == SizeClass::Data) ||
               (s.rank >= 2 && s.sizeClass() != SizeClass::Small);
    }

    // `grid[i][j][k]`: what `grid[i]` picks is indexed again in the same expression, each
    // time by a number, down to one element: the chain reads a number, not a row.
    // An index array (`alpha[n][cols[n]]`) gathers several items: no number either.
    bool indexedDownToNumber(TSNode e) const {
        bool chained = false;
        for (TSNode p = ts_node_parent(e);
             ST::is(p, "subscript") && ts_node_eq(ST::field(p, "value"), e);
             e = p, p = ts_node_parent(p)) {
            const bool numbers = forEachIndex(p, [&](TSNode x) {
                const ValueKind k = m.valueKind(x);
                return !ST::is(x, "slice") && !ST::is(x, "ellipsis") && !ST::is(x, "list") &&
                       k != ValueKind::Array && k != ValueKind::Sequence;
            });
            if (!numbers)
                return false;
            chained = true;
        }
        return chained;
    }

    // `volume[i][:, 1:]`: what `volume[i]` picks is sliced in the same expression, so it has
    // an axis (a number cannot be sliced): a row or a plane, unless the slice keeps a few
    // leading items (`p[i][:2]`).
    static bool slicedInPlace(TSNode e) {
        const TSNode p = ts_node_parent(e);
        if (!ST::is(p, "subscript") || !ts_node_eq(ST::field(p, "value"), e))
            return false;
        return slicesAnAxis(p);
    }

    // Whether subscript `sub` keeps an axis of what it indexes: a slice that does not stop at
    // a small literal (`p[:3]` of a point keeps a few numbers), or `...`.
    static bool slicesAnAxis(TSNode sub) {
        bool sliced = false;
        forEachIndex(sub, [&](TSNode x) {
            sliced = sliced || (ST::is(x, "slice") && !smallSliceStop(x)) || ST::is(x, "ellipsis");
            return !sliced;
        });
        return sliced;
    }

    // `[:3]`, `[1:4]`: a slice that stops at a small non-negative literal keeps a few items.
    static bool smallSliceStop(TSNode slice) {
        TSNode stop{};
        int colons = 0;
        for (uint32_t k = 0; k < ts_node_child_count(slice); ++k) {
            const TSNode c = ts_node_child(slice, k);
            if (ST::is(c, ":"))
                ++colons;
            else if (colons == 1 && ts_node_is_named(c))
                stop = c;
        }
        return ST::is(stop, "integer");
    }

    void markElement(const LoopInfo& L, TSNode at) {
        LoopWork& w = work[size_t(L.index)];
        w.elements.push_back(at);
    }

    // A scalar-indexed subscript handed to a whole-array operation (`np.sort(a[i])`, `w[i] @ x`,
    // `z[i].sum()`, `for plane in data[i]`, `vol[z] = page.asarray()`) is a row: every loop
    // whose variable picks it does slab work per pass. Only a single index (`z[i]`) picks a
    // row; `T[i-1, ksl]` with a slice held in a name still reads neighbours element-wise.
    // `wholeArrayCallee`: `e` is an argument of a NumPy function that needs a whole array
    // (needsWholeArray): there, `x[i]` of a parameter of unknown kind is a row as well
    // (`np.cov(stack[i])`: no one takes the covariance of a number).
    // `this_slice = sarr[s]` then `np.max(this_slice)`: a name bound, in the loop's body
    // before its use, to a subscript stands for that subscript (the row it picked).
    TSNode boundSubscript(TSNode e) const {
        if (!ST::is(e, "identifier"))
            return e;
        const LoopInfo* L = m.enclosingLoop(e);
        if (!L)
            return e;
        TSNode bound{};
        for (const TSNode a : SemanticModel::within(m.assignments(), ts_node_start_byte(L->node),
                                                    ts_node_start_byte(e))) {
            const TSNode left = ST::field(a, "left");
            if (!ST::is(left, "identifier") || m.text(left) != m.text(e))
                continue;
            const TSNode right = unparen(ST::field(a, "right"));
            bound = ST::is(right, "subscript") ? right : TSNode{};
        }
        return ts_node_is_null(bound) ? e : bound;
    }

    void markRow(TSNode e, bool wholeArrayCallee = false) {
        e = boundSubscript(unparen(e));
        if (!ST::is(e, "subscript"))
            return;
        const TSNode ix = ST::field(e, "subscript");
        if (ts_node_is_null(ix) || ST::is(ix, "tuple") || ST::is(ix, "expression_list") ||
            ts_node_named_child_count(e) != 2)
            return;
        // A row of bookkeeping size (`np.linalg.norm(p[i])` of an `(n, 3)` array) is small-row
        // work per pass: the element walk has counted it.
        if (smallRow(e))
            return;
        const TSNode base = ST::field(e, "value");
        const bool unknownBase = wholeArrayCallee && ST::is(base, "identifier") &&
                                 m.valueKind(base) == ValueKind::Unknown;
        for (const LoopInfo* cur = m.enclosingLoop(e); cur; cur = parentOf(cur))
            if (cur->isIndexLoop() && (unknownBase || arrayBase(m, base, *cur)) &&
                scalarIndexUsing(m, e, *cur))
                markSlab(*cur, e, "a row handed to a whole-array operation");
    }

    // `np.sum(a[i] ** 2)`: reducing a single element would be pointless, so `a[i]` is a row
    // of a 2-D array. The reduced operand may sit in arithmetic with numbers; next to an array
    // operand (`np.sum(1 / (x[k] - x[k + 1:]))`) `x[k]` is a broadcast element, so any leaf
    // other than a number or a scalar-indexed subscript says nothing.
    void markReducedRows(TSNode call) {
        std::vector<TSNode> stack{SemanticModel::argument(call, 0)}, rows;
        bool plain = true;
        for (int budget = 64; !stack.empty() && plain; --budget) {
            const TSNode x = stack.back();
            stack.pop_back();
            if (budget <= 0) {
                plain = false;
            } else if (ST::is(x, "binary_operator") || ST::is(x, "unary_operator") ||
                       ST::is(x, "parenthesized_expression")) {
                for (uint32_t k = 0; k < ts_node_named_child_count(x); ++k)
                    stack.push_back(ts_node_named_child(x, k));
            } else if (ST::is(x, "subscript") && m.valueKind(x) != ValueKind::Array) {
                rows.push_back(x);
            } else if (const TSNode b = boundSubscript(x);
                       !ts_node_eq(b, x) && m.valueKind(b) != ValueKind::Array) {
                rows.push_back(b);
            } else if (m.valueKind(x) != ValueKind::HostScalar) {
                plain = false;
            }
        }
        if (!plain)
            return;
        for (TSNode sub : rows) {
            sub = unparen(sub);
            if (!ST::is(sub, "subscript") || !m.isArray(ST::field(sub, "value")) || smallRow(sub))
                continue;
            for (const LoopInfo* cur = m.enclosingLoop(call); cur; cur = parentOf(cur))
                if (cur->isIndexLoop() && scalarIndexUsing(m, sub, *cur))
                    markSlab(*cur, sub, "a row reduced by NumPy");
        }
    }

    // `fit_one(data[ijk])`, `f(x[i])`: a call of a function bound in the file (a def, a
    // parameter, an import that is not NumPy) with an item the loop's variable picks as an
    // argument (whatever holds it: a parameter of unknown kind counts too).
    void markCallPerElement(TSNode call, const LoopInfo& L) {
        const int n = SemanticModel::positionalCount(call);
        for (int i = 0; i < n; ++i) {
            const TSNode a = unparen(SemanticModel::argument(call, i));
            if (!ST::is(a, "subscript"))
                continue;
            for (const LoopInfo* cur = &L; cur; cur = parentOf(cur))
                if (indexVariables(m, *cur) && scalarIndexUsing(m, a, *cur)) {
                    std::vector<TSNode>& calls = work[size_t(cur->index)].elementCalls;
                    if (calls.empty() || !ts_node_eq(calls.back(), call))
                        calls.push_back(call);
                }
        }
    }

    // `for i in range(n): df[i] = (f(p + ee[i]) - f0) / h`: a pass that hands a whole array
    // (or an array expression built from one) to an opaque function, a callable parameter or
    // a method of another object (`problem.nllf(x)`), evaluates that function once per pass:
    // the call is the pass's work (a model, an objective, a solver), and the loop is a few
    // passes of it (the parameters of a finite difference, the iterations of a fit), not one
    // pass per datum (RULES.md, the workload model item 4). Not when an argument is the loop's
    // item or an element it picks (`_kernel(data, i)`, `model(params, data[i])`): that is a
    // call per element.
    void markObjectiveCall(TSNode call, const LoopInfo& L) {
        const TSNode fn = ST::field(call, "function");
        // Whose function: a callable the caller handed in (`f`, `problem.nllf`, `self.model`)
        // is the objective; a function of this file (`_set_reach_dist(...)`) is the project's
        // own pass, judged like a NumPy operation on the whole data below.
        bool handedIn = false;
        if (ST::is(fn, "attribute")) {
            const TSNode recv = unparen(ST::field(fn, "object"));
            // A method of an array (`x.copy()`) or of the array module is no opaque call.
            if (m.isArray(recv) || !m.callName(call).isEmpty() ||
                wholeArrayMethod(m.text(ST::field(fn, "attribute"))))
                return;
            handedIn = callersArray(recv) ||
                       (ST::is(recv, "attribute") &&
                        m.text(ST::field(recv, "object")) == std::string_view("self"));
            // A method of a local object (`out.append(...)`, `acc.add(...)`) is bookkeeping
            // of the pass, not a model the caller handed in.
            if (!handedIn)
                return;
        } else if (!ST::is(fn, "identifier") || !m.callName(call).isEmpty() ||
                   !m.isNameBound(m.tree().qtext(fn), fn)) {
            return; // builtins, NumPy and other libraries' functions are judged elsewhere
        } else {
            handedIn = callersArray(fn);
        }
        // A call inside a lambda or a function defined in the pass runs when that is called.
        for (TSNode p = ts_node_parent(call); !ts_node_is_null(p) && !ts_node_eq(p, L.node);
             p = ts_node_parent(p))
            if (ST::is(p, "lambda") || ST::is(p, "function_definition"))
                return;
        const TSNode args = ST::field(call, "arguments");
        if (ts_node_is_null(args) || !ST::is(args, "argument_list"))
            return;
        for (const LoopInfo* cur = &L; cur; cur = parentOf(cur)) {
            if (!handedIn &&
                (of(*cur).trip == TripClass::Data && !work[size_t(cur->index)].elements.empty()))
                continue;
            bool whole = false, perItem = false;
            for (uint32_t k = 0; k < ts_node_named_child_count(args) && !perItem; ++k) {
                TSNode a = ts_node_named_child(args, k);
                if (ST::is(a, "keyword_argument"))
                    a = ST::field(a, "value");
                a = unparen(a);
                if (ts_node_is_null(a))
                    continue;
                // The loop's item, an element it picks, or a number computed from it
                // (`_integ(img, r - s3, c)`): a call per item.
                const bool array = wholeArrayValue(a, *cur);
                if (!array && m.usesLoopVariable(a, *cur)) {
                    perItem = true;
                    break;
                }
                whole = whole || array;
            }
            if (whole && !perItem)
                markSlab(*cur, call, "the pass calls a function on a whole array");
        }
    }

    // The item of a loop over an array of two or more axes (`hi` of `for hi in increments`,
    // an `(n, n)` table): a row, not a number.
    bool walkedRow(TSNode o, const LoopInfo& L) const {
        if (!ST::is(o, "identifier") || !m.usesLoopVariable(o, L) ||
            (L.source != LoopSource::Array && L.source != LoopSource::EnumerateArray))
            return false;
        const int rank = m.shapeOf(L.iterable).rank;
        return rank >= 2 || rank < 0; // unknown: `eye(n) * h` with `h` of unknown kind
    }

    // An argument that is a whole array of data or unknown size the loop's variable does not
    // pick from (`x`, `self.state`), or arithmetic with one (`p + ee[i]`, `x + h * e`).
    bool wholeArrayValue(TSNode a, const LoopInfo& L) const {
        if (ST::is(a, "identifier") || ST::is(a, "attribute"))
            return m.isArray(a) && m.arraySizeClass(a) != SizeClass::Small &&
                   !m.usesLoopVariable(a, L);
        if (!ST::is(a, "binary_operator") && !ST::is(a, "unary_operator"))
            return false;
        // `x + hi` of `for hi in increments`: a row the loop walks added to a name from
        // outside the loop is that name perturbed, a whole array (a finite-difference step).
        bool row = false, outside = false;
        for (uint32_t k = 0; k < ts_node_named_child_count(a); ++k) {
            const TSNode o = unparen(ts_node_named_child(a, k));
            if (wholeArrayValue(o, L))
                return true;
            row = row || (m.valueKind(o) == ValueKind::Array && m.shapeOf(o).rank != 0) ||
                  walkedRow(o, L);
            outside =
                outside || ((ST::is(o, "identifier") || ST::is(o, "attribute")) &&
                            !m.usesLoopVariable(o, L) && m.valueKind(o) != ValueKind::HostScalar);
        }
        return row && outside;
    }

    // `for idx, scale in enumerate(scales): hit = np.isnan(cube[..., 0]) & mask`: a NumPy
    // operation on a whole data array that the loop's variable does not pick from runs over
    // all of it on every pass. A loop over items, scales or steps (not a data extent) whose
    // passes do that does slab work per pass. A loop over a data extent whose variable reads
    // or writes elements keeps its element judgement: there the same operation is a
    // loop-invariant pass to hoist, and the loop is still one pass per datum.
    bool callersArray(TSNode a) const {
        while (ST::is(a, "subscript"))
            a = unparen(ST::field(a, "value"));
        if (!ST::is(a, "identifier"))
            return false;
        const FunctionRegion* f = m.enclosingFunctionRegion(a);
        const std::string_view name = m.text(a);
        return f && f->parameters.contains(QString::fromUtf8(name.data(), qsizetype(name.size())));
    }

    void markWholeDataOperation(TSNode call, const QString& cn, const LoopInfo& L) {
        const TSNode fn = ST::field(call, "function");
        std::vector<TSNode> operands;
        if (cn.startsWith(QLatin1String("numpy.")) &&
            (numpy::isElementwise(cn.mid(6)) || numpy::isReduction(cn.mid(6)) ||
             needsWholeArray(cn))) {
            const int n = SemanticModel::positionalCount(call);
            for (int i = 0; i < n && i < 3; ++i)
                operands.push_back(unparen(SemanticModel::argument(call, i)));
        } else if (ST::is(fn, "attribute") &&
                   wholeArrayMethod(m.text(ST::field(fn, "attribute")))) {
            operands.push_back(unparen(ST::field(fn, "object")));
        }
        // `np.searchsorted(edges, i)` with the loop's item, a number: a lookup per item, not a
        // pass over the array. An item that is a row (`for col in X.T`) is data itself.
        const auto isItem = [&](TSNode x, const LoopInfo& at) {
            return ST::is(x, "identifier") && m.usesLoopVariable(x, at) && m.shapeOf(x).rank < 1;
        };
        const int argc = SemanticModel::positionalCount(call);
        for (const TSNode a : operands) {
            if (!(ST::is(a, "identifier") || ST::is(a, "attribute") || ST::is(a, "subscript")) ||
                !m.isArray(a))
                continue;
            // Data-sized, or the caller's array (a parameter, read whole or sliced): a local
            // array of unknown size (`np.zeros(n_folds)`) may be a few counters.
            const SizeClass size = m.arraySizeClass(a);
            if (size != SizeClass::Data && !(size == SizeClass::Unknown && callersArray(a)))
                continue;
            for (const LoopInfo* cur = &L; cur; cur = parentOf(cur)) {
                bool lookup = false;
                for (int i = 0; i < argc && !lookup; ++i)
                    lookup = isItem(unparen(SemanticModel::argument(call, i)), *cur);
                if (!lookup && !m.usesLoopVariable(a, *cur) &&
                    (of(*cur).trip != TripClass::Data || work[size_t(cur->index)].elements.empty()))
                    markSlab(*cur, a, "a NumPy operation on a whole data array", true);
            }
        }
    }

    // Sizes the per-loop records once; trip classes never read pass work, so a trip class
    // decided before the walk stays valid.
    void size() {
        if (work.size() != m.loops().size()) {
            work.resize(m.loops().size());
            tripDone.assign(work.size(), false);
        }
    }

    void walk() {
        walked = true;
        size();
        const auto& loops = m.loops();
        if (loops.empty())
            return;
        for (const TSNode sub : m.subscripts()) {
            const LoopInfo* L = m.enclosingLoop(sub);
            if (!L)
                continue;
            const TSNode base = ST::field(sub, "value");
            for (const LoopInfo* cur = L; cur; cur = parentOf(cur)) {
                if (!indexVariables(m, *cur))
                    continue;
                if (slabIndexUsing(m, sub, *cur)) {
                    // One number written into a slab is no slab work: the rest of the pass
                    // decides (`paths[i, :, 0] = state[0]` after scalar reads). Neither is a
                    // slab of a bookkeeping array; a slab of bookkeeping size of a data array
                    // (`out[:, k]` of a `(3, n)` array, `p[i, :]` of `(n, 3)`) is a small row:
                    // element work.
                    if (filledWithNumber(m, sub) || m.isBookkeepingArray(base))
                        continue;
                    if (smallRow(sub) && arrayBase(m, base, *cur))
                        markElement(*cur, sub);
                    else
                        markSlab(*cur, sub, "the loop variable picks a slab");
                } else if (arrayBase(m, base, *cur) && scalarIndexUsing(m, sub, *cur) &&
                           !m.isBookkeepingArray(base)) {
                    // An element of a bookkeeping array (one of four moves, a tap) is no
                    // element work on data. What the index picks out of an array known to
                    // have more axes is a row, not an element: a data-sized row
                    // (`flat_data[i]` of an `(n, samples)` array, handed to a spectrum
                    // estimator) is slab work per pass, however the pass uses it.
                    if (dataRow(sub))
                        markSlab(*cur, sub, "the loop variable picks a data-sized row");
                    else if (slicedInPlace(sub))
                        markSlab(*cur, sub, "the loop variable picks a row the pass slices");
                    else
                        markElement(*cur, sub);
                }
            }
        }
        for (const TSNode c : m.calls()) {
            const LoopInfo* L = m.enclosingLoop(c);
            if (!L)
                continue;
            const QString cn = m.callName(c);
            if (cn.startsWith(QLatin1String("numpy.")) && numpy::isReduction(cn.mid(6)))
                markReducedRows(c);
            markWholeDataOperation(c, cn, *L);
            const TSNode fn = ST::field(c, "function");
            if (ST::is(fn, "identifier") && cn.isEmpty() && m.isNameBound(m.tree().qtext(fn), fn))
                markCallPerElement(c, *L);
            markObjectiveCall(c, *L);
            if (ST::is(fn, "attribute") && wholeArrayMethod(m.text(ST::field(fn, "attribute"))) &&
                ST::is(ST::field(fn, "object"), "subscript")) {
                markRow(ST::field(fn, "object"));
                continue;
            }
            if (!needsWholeArray(m.canonicalName(fn)))
                continue;
            const int n = SemanticModel::positionalCount(c);
            for (int i = 0; i < n; ++i) {
                const TSNode a = unparen(SemanticModel::argument(c, i));
                // `np.hstack((pad * x[i, 0], x[i]))`: the pieces of a concatenation are
                // arrays, so an indexed piece is a row.
                if ((ST::is(a, "tuple") || ST::is(a, "list")) && concatenation(cn)) {
                    for (uint32_t k = 0; k < ts_node_named_child_count(a); ++k)
                        markRow(ts_node_named_child(a, k), true);
                    continue;
                }
                markRow(a, true);
            }
        }
        for (const TSNode b : m.binaryOperators())
            if (m.text(ST::field(b, "operator")) == "@" && m.inLoop(b)) {
                markRow(ST::field(b, "left"));
                markRow(ST::field(b, "right"));
            }
        // `for cat in categories: mask = data == cat`, `X[y == label]`: a pass that compares a
        // whole data array with the loop's item builds a data-sized mask, whatever the loop
        // walks. That is slab work per pass (one pass per label or category), not element work.
        for (const TSNode b : m.comparisons()) {
            const LoopInfo* L = m.inLoop(b) ? m.enclosingLoop(b) : nullptr;
            if (!L || ts_node_named_child_count(b) != 2)
                continue;
            const TSNode x = unparen(ts_node_named_child(b, 0));
            const TSNode y = unparen(ts_node_named_child(b, 1));
            for (const LoopInfo* cur = L; cur; cur = parentOf(cur)) {
                const auto wholeData = [&](TSNode a) {
                    return (ST::is(a, "identifier") || ST::is(a, "attribute")) && m.isArray(a) &&
                           m.arraySizeClass(a) != SizeClass::Small && !m.usesLoopVariable(a, *cur);
                };
                const auto item = [&](TSNode v) {
                    return ST::is(v, "identifier") && m.usesLoopVariable(v, *cur);
                };
                if ((wholeData(x) && item(y)) || (wholeData(y) && item(x)))
                    markSlab(*cur, b, "a whole data array compared with the loop's item");
            }
        }
        // `for plane in data[i]`: what a loop walks has an axis, so `data[i]` is a slab.
        for (const LoopInfo& inner : loops)
            if (inner.kind == LoopKind::For && ST::is(inner.iterable, "subscript"))
                markRow(inner.iterable);
        // `mat[:, col] = radial[j] * angular[l, m]` in `for j, l, m in table`: a pass of a loop
        // over items (not positions) that writes a data-sized slab with an array value does
        // slab work, whatever names the slab.
        for (const TSNode a : m.assignments()) {
            const TSNode left = unparen(ST::field(a, "left"));
            const LoopInfo* L = ST::is(left, "subscript") ? m.enclosingLoop(a) : nullptr;
            if (!L)
                continue;
            bool slice = false;
            forEachIndex(left, [&](TSNode e) {
                slice = slice || ST::is(e, "slice") || ST::is(e, "ellipsis");
                return true;
            });
            if (!slice || filledWithNumber(m, left) || knownNumber(m, ST::field(a, "right"), 0) ||
                m.arraySizeClass(left) != SizeClass::Data)
                continue;
            for (const LoopInfo* cur = L; cur; cur = parentOf(cur))
                if (!indexVariables(m, *cur))
                    markSlab(*cur, left, "the pass writes a data-sized slab");
        }
        // `centers[k] = np.mean(image[members], 0)`: a pass of an index loop that writes a
        // data-sized row (what the loop's variable picks still has a data axis) with an array
        // value computes that row with whole-array work.
        for (const TSNode a : m.assignments()) {
            const TSNode left = unparen(ST::field(a, "left"));
            const LoopInfo* L = ST::is(left, "subscript") ? m.enclosingLoop(a) : nullptr;
            if (!L || m.valueKind(ST::field(a, "right")) != ValueKind::Array)
                continue;
            const Shape row = m.shapeOf(left);
            if (row.rank < 1 || row.sizeClass() == SizeClass::Small)
                continue;
            // A plane or more of extents not known small (`M1[m, n] = exp(-X ** 2) * ...` of an
            // `(N, N, nx, ny)` array) is slab work per pass, whatever the loop walks (RULES.md,
            // R101: silent on loops whose pass does slab work), as dataRow() reads planes.
            // A data-sized row over a data extent is an independent work item that one batched
            // operation computes with the others: that loop stays an element loop (R101).
            // Axes beyond Shape::kMaxAxes are not tracked: a plane cut from a 5-d array may be
            // the 3x3 block the untracked axes would show (`d_nac_q[xyz, i, j]`).
            const TSNode base = unparen(ST::field(left, "value"));
            const bool plane = row.rank >= 2 && m.shapeOf(base).rank <= Shape::kMaxAxes;
            if (!plane && row.sizeClass() != SizeClass::Data)
                continue;
            for (const LoopInfo* cur = L; cur; cur = parentOf(cur))
                if (cur->isIndexLoop() && scalarIndexUsing(m, left, *cur) &&
                    (plane || of(*cur).trip != TripClass::Data))
                    markSlab(*cur, left,
                             plane ? "the pass writes a plane"
                                   : "the pass writes a data-sized row");
        }
        // `cur = dogs[i]` then `cur[1:-1, 1:-1]`: what the loop's variable picked is sliced
        // later in the pass, so it has an axis: a row or a plane, not one number (a number
        // cannot be sliced), whatever the unknown rank of `dogs` left open.
        for (const TSNode a : m.assignments()) {
            const TSNode left = unparen(ST::field(a, "left"));
            const TSNode right = unparen(ST::field(a, "right"));
            const LoopInfo* L = ST::is(left, "identifier") && ST::is(right, "subscript")
                                    ? m.enclosingLoop(a)
                                    : nullptr;
            if (!L)
                continue;
            const std::string_view name = m.text(left);
            bool sliced = false;
            for (const TSNode sub :
                 SemanticModel::within(m.subscripts(), ts_node_end_byte(a), L->hotEnd)) {
                const TSNode base = unparen(ST::field(sub, "value"));
                if (!ST::is(base, "identifier") || m.text(base) != name)
                    continue;
                sliced = slicesAnAxis(sub);
                if (sliced)
                    break;
            }
            if (sliced)
                markRow(right, true);
        }
        // `vol[z] = page.asarray()`: a whole array decoded per file or page is stored.
        for (const TSNode a : m.assignments())
            if (convertsToArray(m, ST::field(a, "right")) && m.inLoop(a))
                markRow(ST::field(a, "left"));
        // `tensor += m[i] * np.outer(r[i, :], r[i, :])` into a `(3, 3)` accumulator: a pass
        // whose result is a few numbers folded into a bookkeeping array reads a few numbers
        // per item, whatever width the row's unknown shape leaves open. That is a reduction
        // over the data written as a Python loop: element work, not slab work.
        for (const TSNode a : m.augmentedAssignments()) {
            const LoopInfo* L = m.enclosingLoop(a);
            const TSNode left = unparen(ST::field(a, "left"));
            if (!L || !(ST::is(left, "identifier") || ST::is(left, "attribute")) || !smallRow(left))
                continue;
            const TSNode right = ST::field(a, "right");
            for (const LoopInfo* cur = L; cur; cur = parentOf(cur)) {
                LoopWork& w = work[size_t(cur->index)];
                if (!cur->isIndexLoop() || !m.usesLoopVariable(right, *cur) ||
                    w.work != PassWork::Slab || m.arraySizeClass(w.workEvidence) == SizeClass::Data)
                    continue;
                std::vector<TSNode> picks;
                for (const TSNode sub : SemanticModel::within(m.subscripts(), right))
                    if (m.usesLoopVariable(ST::field(sub, "subscript"), *cur))
                        picks.push_back(sub);
                if (picks.empty())
                    continue;
                w.work = PassWork::Unknown;
                w.workEvidence = TSNode{};
                w.elements.insert(w.elements.end(), picks.begin(), picks.end());
                std::sort(w.elements.begin(), w.elements.end(), [](TSNode x, TSNode y) {
                    return ts_node_start_byte(x) < ts_node_start_byte(y);
                });
                w.elements.erase(std::unique(w.elements.begin(), w.elements.end(),
                                             [](TSNode x, TSNode y) { return ts_node_eq(x, y); }),
                                 w.elements.end());
            }
        }
        for (LoopWork& w : work) {
            if (w.work != PassWork::Slab && !w.elements.empty()) {
                w.work = PassWork::Scalar;
                w.workEvidence = w.elements.front();
                w.workReason = "reads or writes one element per pass";
            }
            // The lists are complete: their growth slack (up to half) would stay with the
            // model (~2 MB on a generated 100,000-line module).
            w.elements.shrink_to_fit();
            w.elementCalls.shrink_to_fit();
        }
    }

    // The work record of `L` with its trip class decided (the outer loops' first).
    const LoopWork& of(const LoopInfo& L) {
        const size_t i = size_t(L.index);
        if (!tripDone[i]) {
            tripDone[i] = true;
            classifyTrip(work[i], L);
        }
        return work[i];
    }

    // How many items a loop over an array walks, as a size class: the leading axis of the
    // array (`for row in a`, `enumerate(a)`; the shortest array of a `zip`), or every element
    // (`np.nditer(a)`, `np.ndenumerate(a)`).
    SizeClass itemsClass(const LoopInfo& L, TSNode it) const {
        const auto leading = [&](TSNode a) {
            const Shape s = m.shapeOf(a);
            if (s.known())
                return s.rank == 0 ? SizeClass::Unknown : s.axis(0).size;
            return s.sizeClass() == SizeClass::Small ? SizeClass::Small : SizeClass::Unknown;
        };
        switch (L.source) {
        case LoopSource::Array:
            return leading(it);
        case LoopSource::EnumerateArray: {
            if (!ST::is(it, "call"))
                return SizeClass::Unknown;
            const int n = SemanticModel::positionalCount(it);
            for (int i = 0; i < n; ++i) {
                const TSNode a = SemanticModel::argument(it, i);
                if (m.isArray(a) && leading(a) == SizeClass::Small)
                    return SizeClass::Small;
            }
            return SizeClass::Unknown;
        }
        case LoopSource::NdIter:
        case LoopSource::NdEnumerate:
            return ST::is(it, "call") ? m.arraySizeClass(SemanticModel::argument(it, 0))
                                      : SizeClass::Unknown;
        default:
            return SizeClass::Unknown;
        }
    }

    // The size class of the index space of `np.ndindex(...)` / `itertools.product(...)`: Small
    // only when every factor is (`np.ndindex(3, 3)`, `np.ndindex(k.shape)` of a bookkeeping
    // `k`, `product(range(3), range(2))`).
    SizeClass indexSpaceClass(TSNode it) const {
        if (!ST::is(it, "call"))
            return SizeClass::Unknown;
        const int n = SemanticModel::positionalCount(it);
        if (n == 0)
            return SizeClass::Unknown;
        SizeClass c = SizeClass::Small;
        for (int i = 0; i < n && c == SizeClass::Small; ++i) {
            const TSNode a = unparen(SemanticModel::argument(it, i));
            if (ST::is(a, "attribute") && m.text(ST::field(a, "attribute")) == "shape") {
                c = joinClass(c, m.arraySizeClass(ST::field(a, "object")));
            } else if (ST::is(a, "tuple")) {
                for (uint32_t k = 0; k < ts_node_named_child_count(a); ++k)
                    c = joinClass(c, m.extentClass(ts_node_named_child(a, k)));
            } else if (ST::is(a, "call") && m.text(ST::field(a, "function")) == "range") {
                const int k = SemanticModel::positionalCount(a);
                c = joinClass(c, m.extentClass(SemanticModel::argument(a, k >= 2 ? 1 : 0)));
            } else if (m.isArray(a)) {
                const Shape s = m.shapeOf(a);
                c = joinClass(c, s.known() && s.rank > 0 ? s.axis(0).size : SizeClass::Unknown);
            } else {
                c = joinClass(c, m.extentClass(a));
            }
        }
        return c;
    }

    void classifyTrip(LoopWork& w, const LoopInfo& L) {
        auto set = [&](TripClass c, TSNode at, const char* why) {
            w.trip = c;
            w.tripEvidence = at;
            w.tripReason = why;
        };
        if (L.kind == LoopKind::While && L.source != LoopSource::NdIter) {
            set(TripClass::Steps, L.condition, "a while loop iterates until its condition fails");
            return;
        }
        const TSNode it = unparen(L.iterable);
        switch (L.source) {
        case LoopSource::SmallLiteralRange:
            set(TripClass::Small, it, "literal range");
            return;
        case LoopSource::Range:
        case LoopSource::RangeLen:
        case LoopSource::RangeShape: {
            if (L.literalCount >= 0) {
                set(L.literalCount <= kSmallLiteral ? TripClass::Small : TripClass::Data, it,
                    "literal range");
                return;
            }
            if (dimensionRange(m, it)) {
                set(TripClass::Small, it, "the axes of an array");
                return;
            }
            if (!ST::is(it, "call"))
                break;
            const int k = SemanticModel::positionalCount(it);
            const TSNode stop = unparen(SemanticModel::argument(it, k >= 2 ? 1 : 0));
            if (returnsSmallLiteral(m, stop)) {
                set(TripClass::Small, stop, "a function returning a small literal");
                return;
            }
            // `for j in range(i)` inside `for i in range(4)`: bounded by the variable of an
            // enclosing loop that runs a handful of passes.
            for (const LoopInfo* up = parentOf(&L); up; up = parentOf(up))
                if (namesVariable(m, it, *up) && of(*up).trip == TripClass::Small) {
                    set(TripClass::Small, stop, "bounded by a small loop's variable");
                    return;
                }
            // The bound's size class (Shapes): the length of a bookkeeping array, a literal-sized
            // axis (`x.shape[1]` of an `(n, 3)` array), a count of few things (`order`).
            // A step count stays one even when a caller passes a small literal
            // (`smooth(x, passes=20)`): the loop repeats whole-array work, it walks no axis.
            if (stepsNamed(m, stop)) {
                set(TripClass::Steps, stop, "a step or iteration count");
                return;
            }
            const SizeClass bound = m.extentClass(stop);
            if (bound == SizeClass::Small) {
                set(TripClass::Small, stop, "a small extent");
                return;
            }
            if (L.source != LoopSource::Range) {
                set(TripClass::Data, stop, "the length of an array");
                return;
            }
            if (bound == SizeClass::Data) {
                set(TripClass::Data, stop, "a data extent");
                return;
            }
            set(TripClass::Unknown, stop, "a runtime count");
            return;
        }
        case LoopSource::Product:
        case LoopSource::NdIndex:
            if (indexSpaceClass(it) == SizeClass::Small)
                set(TripClass::Small, it, "every index of a small shape");
            else
                set(TripClass::Data, it, "every index of a shape");
            return;
        case LoopSource::Array:
        case LoopSource::EnumerateArray:
        case LoopSource::NdIter:
        case LoopSource::NdEnumerate:
            if (itemsClass(L, it) == SizeClass::Small)
                set(TripClass::Small, it, "the items of a bookkeeping array");
            else
                set(TripClass::Data, it, "the items of an array");
            return;
        case LoopSource::Collection: {
            const auto t = ST::type(it);
            if (t == "list" || t == "tuple" || t == "set" || t == "dictionary")
                set(TripClass::Small, it, "a literal collection");
            return;
        }
        default:
            break;
        }
    }
};

LoopWorkEngine::LoopWorkEngine(const SemanticModel& model) : p(std::make_unique<Impl>(model)) {}
LoopWorkEngine::~LoopWorkEngine() = default;

const LoopWork& LoopWorkEngine::of(const LoopInfo& loop) {
    if (!p->walked)
        p->walk();
    return p->of(loop);
}

TripClass LoopWorkEngine::tripOf(const LoopInfo& loop) {
    p->size();
    return p->of(loop).trip;
}

bool LoopWorkEngine::isElementAccess(TSNode sub, const LoopInfo& loop) const {
    return ST::is(sub, "subscript") && loop.isIndexLoop() &&
           arrayBase(p->m, ST::field(sub, "value"), loop) && scalarIndexUsing(p->m, sub, loop);
}

// ---- SemanticModel's side ----------------------------------------------------------------

const LoopWork& SemanticModel::loopWork(const LoopInfo& loop) const {
    if (!m_loopWork)
        m_loopWork = std::make_unique<LoopWorkEngine>(*this);
    return m_loopWork->of(loop);
}

TripClass SemanticModel::tripClass(const LoopInfo& loop) const {
    if (!m_loopWork)
        m_loopWork = std::make_unique<LoopWorkEngine>(*this);
    return m_loopWork->tripOf(loop);
}

bool SemanticModel::isElementAccess(TSNode subscript, const LoopInfo& loop) const {
    if (!m_loopWork)
        m_loopWork = std::make_unique<LoopWorkEngine>(*this);
    return m_loopWork->isElementAccess(subscript, loop);
}

} // namespace cnready
