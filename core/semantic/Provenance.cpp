// SemanticModel: the kind of value of an expression (array provenance).

#include "semantic/ModelInternals.h"

#include "semantic/NumpyNames.h"

namespace cnready {

namespace {
ValueKind combine(ValueKind a, ValueKind b) {
    if (a == ValueKind::Array || b == ValueKind::Array)
        return ValueKind::Array;
    if (a == ValueKind::DeviceScalar || b == ValueKind::DeviceScalar)
        return ValueKind::DeviceScalar;
    if (a == ValueKind::HostScalar && b == ValueKind::HostScalar)
        return ValueKind::HostScalar;
    return ValueKind::Unknown;
}
} // namespace

ValueKind SemanticModel::valueKind(TSNode expr) const {
    if (ts_node_is_null(expr))
        return ValueKind::Unknown;
    const void* key = expr.id;
    if (const quint8* hit = d->kindCache.find(key))
        return ValueKind(*hit);
    const ValueKind k = kindOf(expr, 0, nullptr);
    d->kindCache.insert(key, quint8(k));
    return k;
}

QString SemanticModel::typeName(TSNode expr) const {
    QString t;
    const ValueKind k = kindOf(expr, 0, &t);
    if (k == ValueKind::Array)
        return QStringLiteral("numpy.ndarray");
    return k == ValueKind::Object ? t : QString();
}

bool SemanticModel::isArray(TSNode expr) const {
    return valueKind(expr) == ValueKind::Array;
}

bool SemanticModel::isDeviceValue(TSNode expr) const {
    const ValueKind k = valueKind(expr);
    return k == ValueKind::Array || k == ValueKind::DeviceScalar;
}

bool SemanticModel::isArrayReduction(TSNode expr) const {
    expr = unparen(expr);
    if (!is(expr, Sym::call))
        return false;
    const QString cn = callName(expr);
    if (cn.startsWith(QLatin1String("numpy.ndarray."))) {
        if (!numpy::isReduction(cn.mid(14)))
            return false;
        return ts_node_is_null(keywordArgument(expr, "axis")) && argCount(expr) == 0;
    }
    return isNumpyFullReduction(expr) && isArray(arg(expr, 0));
}

bool SemanticModel::isNumpyFullReduction(TSNode expr) const {
    expr = unparen(expr);
    if (!is(expr, Sym::call))
        return false;
    const QString cn = callName(expr);
    if (!cn.startsWith(QLatin1String("numpy.")) || cn.startsWith(QLatin1String("numpy.ndarray.")) ||
        !numpy::isReduction(cn.mid(6)))
        return false;
    if (!ts_node_is_null(keywordArgument(expr, "axis")))
        return false;
    return argCount(expr) < 2 || cn == QLatin1String("numpy.linalg.norm") ||
           cn.endsWith(QLatin1String("percentile")) || cn.endsWith(QLatin1String("quantile"));
}

bool SemanticModel::isScalarElementRead(TSNode expr) const {
    expr = unparen(expr);
    if (!is(expr, Sym::subscript))
        return false;
    return isArray(field(expr, F().value)) && valueKind(expr) == ValueKind::DeviceScalar;
}

const QString* SemanticModel::projectReturn(const QString& callee) const {
    if (!d->facts_ || d->facts_->arrayReturns.isEmpty())
        return nullptr;
    const auto it = d->facts_->arrayReturns.constFind(callee);
    return it == d->facts_->arrayReturns.cend() ? nullptr : &*it;
}

ValueKind SemanticModel::kindOf(TSNode expr, int depth, QString* type) const {
    if (ts_node_is_null(expr) || depth > 48)
        return ValueKind::Unknown;
    const Sym t = sym(expr);
    if (t == Sym::parenthesized_expression)
        return ts_node_named_child_count(expr)
                   ? kindOf(ts_node_named_child(expr, 0), depth + 1, type)
                   : ValueKind::Sequence;
    if (t == Sym::identifier)
        return lookupName(text(expr), scopeIndexAt(startOf(expr)), type);
    if (t == Sym::integer || t == Sym::float_ || t == Sym::true_ || t == Sym::false_)
        return ValueKind::HostScalar;
    if (t == Sym::none)
        return ValueKind::None;
    if (t == Sym::string || t == Sym::concatenated_string)
        return ValueKind::String;
    if (t == Sym::list || t == Sym::tuple || t == Sym::dictionary || t == Sym::set ||
        t == Sym::list_comprehension || t == Sym::dictionary_comprehension ||
        t == Sym::set_comprehension || t == Sym::generator_expression || t == Sym::expression_list)
        return ValueKind::Sequence;
    if (t == Sym::unary_operator)
        return kindOf(field(expr, F().argument), depth + 1, type);
    if (t == Sym::not_operator) {
        const ValueKind a = kindOf(field(expr, F().argument), depth + 1, nullptr);
        return (a == ValueKind::DeviceScalar || a == ValueKind::Array) ? ValueKind::DeviceScalar
                                                                       : ValueKind::HostScalar;
    }
    if (t == Sym::binary_operator) {
        const ValueKind l = kindOf(field(expr, F().left), depth + 1, nullptr);
        if (l == ValueKind::String)
            return ValueKind::String;
        if (l == ValueKind::Sequence) {
            const std::string_view op = text(field(expr, F().op));
            if (op == "+" || op == "*")
                return ValueKind::Sequence;
        }
        const ValueKind r = kindOf(field(expr, F().right), depth + 1, nullptr);
        if (l == ValueKind::HostScalar && r == ValueKind::Sequence)
            return ValueKind::Sequence; // 3 * [0]
        // `r @ r`: a vector with itself is a squared norm, as `np.dot(r, r)` (see
        // numpyCallKind): a 0-d device value, not an array.
        if (l == ValueKind::Array && r == ValueKind::Array && text(field(expr, F().op)) == "@") {
            const TSNode a = unparen(field(expr, F().left)), b = unparen(field(expr, F().right));
            if (is(a, Sym::identifier) && is(b, Sym::identifier) && text(a) == text(b))
                return ValueKind::DeviceScalar;
        }
        return combine(l, r);
    }
    if (t == Sym::comparison_operator) {
        // `x is None`, `k in d`: host booleans.
        const uint32_t n = ts_node_child_count(expr);
        for (uint32_t i = 0; i < n; ++i) {
            const Sym op = sym(ts_node_child(expr, i));
            if (op == Sym::op_is || op == Sym::op_in || op == Sym::op_not_in ||
                op == Sym::op_is_not)
                return ValueKind::HostScalar;
        }
        ValueKind k = ValueKind::HostScalar;
        const uint32_t m = ts_node_named_child_count(expr);
        for (uint32_t i = 0; i < m; ++i) {
            const ValueKind c = kindOf(ts_node_named_child(expr, i), depth + 1, nullptr);
            if (c == ValueKind::Array)
                return ValueKind::Array;
            if (c == ValueKind::DeviceScalar)
                k = ValueKind::DeviceScalar;
        }
        return k;
    }
    if (t == Sym::boolean_operator) {
        const ValueKind l = kindOf(field(expr, F().left), depth + 1, nullptr);
        const ValueKind r = kindOf(field(expr, F().right), depth + 1, nullptr);
        if (l == ValueKind::DeviceScalar || r == ValueKind::DeviceScalar || l == ValueKind::Array ||
            r == ValueKind::Array)
            return ValueKind::DeviceScalar;
        return (l == ValueKind::HostScalar && r == ValueKind::HostScalar) ? ValueKind::HostScalar
                                                                          : ValueKind::Unknown;
    }
    if (t == Sym::conditional_expression) {
        const ValueKind a = kindOf(ts_node_named_child(expr, 0), depth + 1, type);
        const ValueKind b = kindOf(ts_node_named_child(expr, 2), depth + 1, nullptr);
        if (a == ValueKind::Array || b == ValueKind::Array)
            return ValueKind::Array;
        return a == b ? a : ValueKind::Unknown;
    }
    if (t == Sym::named_expression)
        return kindOf(field(expr, F().value), depth + 1, type);
    if (t == Sym::await)
        return ValueKind::Unknown;
    if (t == Sym::attribute) {
        const std::string_view attr = text(field(expr, F().attribute));
        const TSNode obj = field(expr, F().object);
        // self.x: class attribute facts.
        if (is(obj, Sym::identifier) && text(obj) == "self") {
            const int fn = functionIndexAt(startOf(expr), endOf(expr));
            if (fn >= 0 && !m_functions[size_t(fn)].className.isEmpty()) {
                const int c = d->classesByName.value(m_functions[size_t(fn)].className, -1);
                if (c >= 0) {
                    const int slot = d->slotTable.find(-1 - c, attr, SlotTable::hash(attr));
                    if (slot >= 0) {
                        const Data::Facts* it = &d->read(slot);
                        const ValueKind k = kindOfBits(it->bits);
                        if (type && k == ValueKind::Object)
                            *type = it->type;
                        return k;
                    }
                }
            }
            return ValueKind::Unknown;
        }
        if (attr == "shape" || attr == "strides")
            return ValueKind::Sequence;
        if (attr == "size" || attr == "ndim" || attr == "nbytes" || attr == "itemsize")
            return ValueKind::HostScalar;
        const QString cn = canonicalName(expr);
        if (!cn.isEmpty()) {
            if (cn.startsWith(QLatin1String("numpy."))) {
                const QString leaf = cn.mid(6);
                if (leaf == QLatin1String("pi") || leaf == QLatin1String("e") ||
                    leaf == QLatin1String("inf") || leaf == QLatin1String("nan") ||
                    leaf == QLatin1String("euler_gamma") || leaf == QLatin1String("newaxis") ||
                    leaf == QLatin1String("Inf") || leaf == QLatin1String("NaN"))
                    return leaf == QLatin1String("newaxis") ? ValueKind::None
                                                            : ValueKind::HostScalar;
            }
            if (type)
                *type = cn;
            return ValueKind::Object;
        }
        const ValueKind ok = kindOf(obj, depth + 1, nullptr);
        if (ok == ValueKind::Array) {
            if (attr == "T" || attr == "real" || attr == "imag" || attr == "flat" || attr == "mT" ||
                attr == "H")
                return ValueKind::Array;
            if (attr == "dtype") {
                if (type)
                    *type = QStringLiteral("numpy.dtype");
                return ValueKind::Object;
            }
        }
        return ValueKind::Unknown;
    }
    if (t == Sym::subscript) {
        const TSNode base = field(expr, F().value);
        const TSNode ub = unparen(base);
        if (is(ub, Sym::attribute) && (text(field(ub, F().attribute)) == "shape" ||
                                       text(field(ub, F().attribute)) == "strides"))
            return ValueKind::HostScalar;
        const ValueKind bk = kindOf(base, depth + 1, nullptr);
        if (bk == ValueKind::String)
            return ValueKind::String;
        // A slice of a name bound to a list or tuple is a list or tuple (`bitspersample[i +
        // 1:]`); an item of one may be anything. Calls are left out: some NumPy calls that
        // read as tuples return arrays (`np.unique(a)[::-1]`).
        if (bk == ValueKind::Sequence && is(ub, Sym::identifier) &&
            ts_node_named_child_count(expr) == 2 && is(ts_node_named_child(expr, 1), Sym::slice))
            return ValueKind::Sequence;
        // One array of a NumPy call that returns a tuple of arrays, picked by a literal
        // position: `np.meshgrid(x, y)[0]`, `np.histogram(x)[0]`. The positions of
        // `np.where(c)[0]` / `np.nonzero(c)[k]` are not data of their own: a loop walks them as
        // an array only when its passes do element work with them (Loops.cpp).
        if (bk == ValueKind::Sequence && is(ub, Sym::call) &&
            ts_node_named_child_count(expr) == 2 &&
            is(ts_node_named_child(expr, 1), Sym::integer)) {
            const QString cn = callName(ub);
            if (cn == QLatin1String("numpy.meshgrid") ||
                cn.startsWith(QLatin1String("numpy.histogram")))
                return ValueKind::Array;
        }
        if (bk != ValueKind::Array)
            return ValueKind::Unknown;
        // Array: a slice, ellipsis, newaxis, mask or index array anywhere → an array.
        const uint32_t n = ts_node_named_child_count(expr);
        bool any = false;
        for (uint32_t i = 0; i < n; ++i) {
            const TSNode ix = ts_node_named_child(expr, i);
            if (ts_node_eq(ix, base) || is(ix, Sym::comment))
                continue;
            any = true;
            const Sym it = sym(ix);
            if (it == Sym::slice || it == Sym::ellipsis || it == Sym::none || it == Sym::string ||
                it == Sym::list || it == Sym::list_comprehension)
                return ValueKind::Array;
            if (it == Sym::tuple || it == Sym::expression_list) {
                const uint32_t m = ts_node_named_child_count(ix);
                for (uint32_t j = 0; j < m; ++j) {
                    const TSNode e = ts_node_named_child(ix, j);
                    const Sym et = sym(e);
                    if (et == Sym::slice || et == Sym::ellipsis || et == Sym::none ||
                        kindOf(e, depth + 1, nullptr) == ValueKind::Array ||
                        kindOf(e, depth + 1, nullptr) == ValueKind::Sequence ||
                        canonicalName(e) == QLatin1String("numpy.newaxis"))
                        return ValueKind::Array;
                }
                continue;
            }
            const ValueKind ik = kindOf(ix, depth + 1, nullptr);
            // `m[pos]` in `for pos in np.ndindex(shape)`: the tuple addresses one element.
            if (ik == ValueKind::Sequence && is(ix, Sym::identifier)) {
                bool tuple = false;
                for (const LoopInfo* L = enclosingLoop(ix); L && !tuple;
                     L = L->parent >= 0 ? &m_loops[size_t(L->parent)] : nullptr)
                    tuple =
                        (L->source == LoopSource::NdIndex || L->source == LoopSource::Product) &&
                        L->kind == LoopKind::For && is(field(L->node, F().left), Sym::identifier) &&
                        text(field(L->node, F().left)) == text(ix);
                if (tuple)
                    continue;
            }
            if (ik == ValueKind::Array || ik == ValueKind::Sequence ||
                canonicalName(ix) == QLatin1String("numpy.newaxis"))
                return ValueKind::Array;
        }
        return any ? ValueKind::DeviceScalar : ValueKind::Unknown;
    }
    if (t == Sym::call) {
        const TSNode fn = unparen(field(expr, F().function));
        const QString cn = canonicalName(fn);
        if (cn.isEmpty() && is(fn, Sym::identifier)) {
            const std::string_view b = text(fn);
            const int scope = scopeIndexAt(startOf(fn));
            if (!boundLocally(b, scope)) {
                if (b == "len" || b == "int" || b == "float" || b == "bool" || b == "complex" ||
                    b == "round" || b == "isinstance" || b == "hasattr" || b == "callable" ||
                    b == "id" || b == "hash" || b == "ord")
                    return ValueKind::HostScalar;
                if (b == "str" || b == "repr" || b == "format" || b == "chr")
                    return ValueKind::String;
                if (b == "list" || b == "tuple" || b == "dict" || b == "set" || b == "sorted" ||
                    b == "zip" || b == "enumerate" || b == "range" || b == "map" || b == "filter" ||
                    b == "frozenset")
                    return ValueKind::Sequence;
                if (b == "abs") {
                    const ValueKind a = kindOf(arg(expr, 0), depth + 1, nullptr);
                    return a;
                }
                if (b == "sum" || b == "max" || b == "min") {
                    ValueKind k = ValueKind::HostScalar;
                    const int n = argCount(expr);
                    for (int i = 0; i < n; ++i) {
                        const ValueKind a = kindOf(arg(expr, i), depth + 1, nullptr);
                        if (a == ValueKind::Array || a == ValueKind::DeviceScalar)
                            k = ValueKind::DeviceScalar;
                        else if (a == ValueKind::Unknown && k == ValueKind::HostScalar)
                            k = ValueKind::Unknown;
                    }
                    return k;
                }
                if (b == "open") {
                    if (type)
                        *type = QStringLiteral("file");
                    return ValueKind::Object;
                }
                return ValueKind::Unknown;
            }
            // A function of this file that returns arrays; a class of this file.
            if (!d->isDefName(b))
                return ValueKind::Unknown;
            const QString qb = m_tree.qtext(fn);
            const auto fIt = d->localFunctionsByName.constFind(qb);
            if (fIt != d->localFunctionsByName.cend()) {
                if (m_functions[size_t(*fIt)].returnsArray)
                    return ValueKind::Array;
                if (d->evalIndex != INT_MAX)
                    d->returnsRead[size_t(*fIt)] = 1;
                return ValueKind::Unknown;
            }
            if (d->classesByName.contains(qb)) {
                if (type)
                    *type = m_module + QLatin1Char('.') + qb;
                return ValueKind::Object;
            }
            return ValueKind::Unknown;
        }
        if (cn.startsWith(QLatin1String("numpy."))) {
            return numpyCallKind(expr, cn.mid(6), depth, type);
        }
        if (!cn.isEmpty()) {
            // A project function of another module that returns arrays (ProjectFacts.h).
            if (projectReturn(cn))
                return ValueKind::Array;
            if (cn.startsWith(QLatin1String("mpi4py."))) {
                if (type)
                    *type = QStringLiteral("mpi4py.MPI.Comm");
                return ValueKind::Object;
            }
            // An imported class (CapWords by convention): an instance of it.
            const qsizetype dot = cn.lastIndexOf(QLatin1Char('.'));
            if (dot >= 0 && dot + 1 < cn.size() && cn.at(dot + 1).isUpper() &&
                cn.mid(dot + 1) != cn.mid(dot + 1).toUpper()) {
                if (type)
                    *type = cn;
                return ValueKind::Object;
            }
            return ValueKind::Unknown;
        }
        if (is(fn, Sym::attribute)) {
            const TSNode obj = field(fn, F().object);
            // self.method() of this class.
            if (is(obj, Sym::identifier) && text(obj) == "self") {
                const int f = functionIndexAt(startOf(expr), endOf(expr));
                if (f >= 0 && !m_functions[size_t(f)].className.isEmpty()) {
                    const auto fIt = d->localFunctionsByName.constFind(
                        m_functions[size_t(f)].className + QLatin1Char('.') +
                        m_tree.qtext(field(fn, F().attribute)));
                    if (fIt != d->localFunctionsByName.cend()) {
                        if (m_functions[size_t(*fIt)].returnsArray)
                            return ValueKind::Array;
                        if (d->evalIndex != INT_MAX)
                            d->returnsRead[size_t(*fIt)] = 1;
                        return ValueKind::Unknown;
                    }
                }
            }
            QString otype;
            const ValueKind ok = kindOf(obj, depth + 1, &otype);
            const std::string_view m = text(field(fn, F().attribute));
            if (ok == ValueKind::Array) {
                if (m == "searchsorted")
                    return searchsortedKind(arg(expr, 0), depth);
                return arrayMethodKind(expr, QString::fromUtf8(m.data(), qsizetype(m.size())));
            }
            if (ok == ValueKind::Object) {
                // A method of a project class that returns arrays: `s = Solver(); s.step(u)`.
                if (d->facts_ && !otype.isEmpty() &&
                    projectReturn(otype + QLatin1Char('.') +
                                  QString::fromUtf8(m.data(), qsizetype(m.size()))))
                    return ValueKind::Array;
                if (otype == QLatin1String("numpy.random.Generator") ||
                    otype == QLatin1String("numpy.random.RandomState"))
                    return randomDrawKind(expr, QString::fromUtf8(m.data(), qsizetype(m.size())));
                if (otype.startsWith(QLatin1String("mpi4py."))) {
                    if (m.starts_with("Get_") || m == "Wtime")
                        return ValueKind::HostScalar;
                    if (type)
                        *type = QStringLiteral("mpi4py.MPI.Comm");
                    return m == "Split" || m == "Dup" || m == "Create_cart" ? ValueKind::Object
                                                                            : ValueKind::Unknown;
                }
                if (otype == QLatin1String("file") && (m == "readlines"))
                    return ValueKind::Sequence;
            }
            if (ok == ValueKind::String) {
                if (m == "split" || m == "splitlines")
                    return ValueKind::Sequence;
                if (m == "startswith" || m == "endswith" || m == "isdigit" || m == "find" ||
                    m == "count" || m == "index")
                    return ValueKind::HostScalar;
                return ValueKind::String;
            }
            if (m == "item")
                return ValueKind::HostScalar;
            if (m == "tolist")
                return ValueKind::Sequence;
        }
        return ValueKind::Unknown;
    }
    return ValueKind::Unknown;
}

namespace {
// What numpyCallKind() can tell from the name of a NumPy function alone, in the order of its
// checks; the argument-dependent rest is decided per call. Computed once per name and file.
enum NumpyLeaf : quint8 {
    NL_ScalarType,  // a scalar type used as a conversion: a host scalar
    NL_Generator,   // numpy.random.Generator factory
    NL_RandomState, // numpy.random.RandomState
    NL_NoneResult,  // in-place / output functions returning None
    NL_RandomDraw,  // other numpy.random.* functions
    NL_Object,      // an object of type numpy.<leaf>
    NL_HostScalar,  // host-scalar queries (isscalar, ndim, ...)
    NL_Shape,       // numpy.shape: a tuple
    NL_Reduction,   // numpy::isReduction
    NL_ArrayTuple,  // returns a tuple of arrays
    NL_Rest,        // + the NLR_* flags below
};
enum NumpyRest : quint8 {
    NLR_Where = 1,
    NLR_Searchsorted = 2,
    NLR_DotInner = 4,
    NLR_Elementwise = 8,
};
// NumPy names whose category is fixed by the name alone (checked after the scalar types and
// before the `random.` prefix).
const QHash<QString, quint8>& namedLeafCategories() {
    static const QHash<QString, quint8> table = [] {
        QHash<QString, quint8> t;
        const auto add = [&t](quint8 category, std::initializer_list<const char*> names) {
            for (const char* n : names)
                t.insert(QLatin1String(n), category);
        };
        add(NL_Generator, {"random.default_rng", "random.Generator"});
        add(NL_RandomState, {"random.RandomState"});
        add(NL_NoneResult,
            {"random.seed", "random.shuffle", "copyto", "put", "place", "putmask", "fill_diagonal",
             "save", "savez", "savez_compressed", "savetxt", "set_printoptions", "seterr"});
        add(NL_Object,
            {"dtype", "finfo", "iinfo", "errstate", "printoptions", "result_type", "promote_types",
             "vectorize", "frompyfunc", "nditer", "ndindex", "ndenumerate", "poly1d"});
        add(NL_HostScalar, {"isscalar", "ndim", "size", "isrealobj", "iscomplexobj", "issubdtype",
                            "can_cast", "shares_memory", "may_share_memory", "prod_shape"});
        add(NL_Shape, {"shape"});
        return t;
    }();
    return table;
}
quint8 numpyLeafCategory(const QString& leaf) {
    if (numpy::isScalarType(leaf))
        return NL_ScalarType;
    if (const auto named = namedLeafCategories().constFind(leaf);
        named != namedLeafCategories().cend())
        return *named;
    if (leaf.startsWith(QLatin1String("random.")))
        return NL_RandomDraw;
    if (numpy::isReduction(leaf))
        return NL_Reduction;
    if (numpy::returnsArrayTuple(QStringLiteral("numpy.") + leaf) &&
        !(leaf == QLatin1String("atleast_1d") || leaf == QLatin1String("atleast_2d") ||
          leaf == QLatin1String("atleast_3d")))
        return NL_ArrayTuple;
    quint8 rest = 0;
    if (leaf == QLatin1String("where"))
        rest |= NLR_Where;
    if (leaf == QLatin1String("searchsorted"))
        rest |= NLR_Searchsorted;
    if (leaf == QLatin1String("dot") || leaf == QLatin1String("inner"))
        rest |= NLR_DotInner;
    if (numpy::isElementwise(leaf))
        rest |= NLR_Elementwise;
    return quint8(NL_Rest + rest);
}
} // namespace

ValueKind SemanticModel::numpyCallKind(TSNode call, const QString& leaf, int depth,
                                       QString* type) const {
    auto object = [&](const QString& t) {
        if (type)
            *type = t;
        return ValueKind::Object;
    };
    quint8 category = 0;
    if (const auto c = d->numpyLeaves.constFind(leaf); c != d->numpyLeaves.cend())
        category = *c;
    else
        category = *d->numpyLeaves.insert(leaf, numpyLeafCategory(leaf));
    switch (category) {
    case NL_ScalarType:
        return ValueKind::HostScalar;
    case NL_Generator:
        return object(QStringLiteral("numpy.random.Generator"));
    case NL_RandomState:
        return object(QStringLiteral("numpy.random.RandomState"));
    case NL_NoneResult:
        return ValueKind::None;
    case NL_RandomDraw:
        return randomDrawKind(call, leaf.mid(7));
    case NL_Object:
        return object(QStringLiteral("numpy.") + leaf);
    case NL_HostScalar:
        return ValueKind::HostScalar;
    case NL_Shape:
        return ValueKind::Sequence;
    case NL_ArrayTuple:
        return ValueKind::Sequence;
    default:
        break;
    }
    const quint8 rest = category >= NL_Rest ? quint8(category - NL_Rest) : 0;
    if (category == NL_Reduction) {
        const ValueKind a = kindOf(arg(call, 0), depth + 1, nullptr);
        const bool hasAxis =
            !ts_node_is_null(keywordArgument(call, "axis")) ||
            (argCount(call) >= 2 && leaf != QLatin1String("linalg.norm") &&
             !leaf.endsWith(QLatin1String("percentile")) &&
             !leaf.endsWith(QLatin1String("quantile")) && leaf != QLatin1String("allclose") &&
             leaf != QLatin1String("array_equal") && leaf != QLatin1String("array_equiv") &&
             leaf != QLatin1String("vdot") && leaf != QLatin1String("average"));
        if (a == ValueKind::Array)
            return hasAxis ? ValueKind::Array : ValueKind::DeviceScalar;
        if (a == ValueKind::DeviceScalar)
            return ValueKind::DeviceScalar;
        if (a == ValueKind::HostScalar || a == ValueKind::Sequence)
            return ValueKind::HostScalar;
        // Of a value of unknown kind, in a loop of its own function: the array runtime
        // returns a device scalar whatever it is given (R104/R105 count it there, and a name
        // bound to it reads as one).
        // Not an item of a container of unknown kind (`for c in f.chunks[ax]: np.min(c)`,
        // most often a number) nor a name that says it is a shape (`np.prod(shape)`): those
        // are host values, as R105's device-value walk reads them.
        if (a == ValueKind::Unknown && !hasAxis && isNumpyFullReduction(call)) {
            const LoopInfo* L = enclosingLoop(call);
            const TSNode a0 = unparen(arg(call, 0));
            bool host = false;
            if (L && is(a0, Sym::identifier)) {
                const std::string_view nm = text(a0);
                host = nm.ends_with("shape") || nm.ends_with("Shape") || nm.ends_with("SHAPE");
                const QString q = QString::fromUtf8(nm.data(), qsizetype(nm.size()));
                for (const LoopInfo* l = L; l && !host;
                     l = l->parent >= 0 ? &m_loops[size_t(l->parent)] : nullptr) {
                    if (!l->variables.contains(q))
                        continue;
                    host = !ts_node_is_null(l->iterable) &&
                           kindOf(l->iterable, depth + 1, nullptr) == ValueKind::Unknown;
                    break;
                }
            }
            if (L && !host)
                return ValueKind::DeviceScalar;
        }
        return ValueKind::Unknown;
    }
    if ((rest & NLR_Where) && argCount(call) == 1)
        return ValueKind::Sequence;
    if (rest & NLR_Searchsorted)
        return searchsortedKind(arg(call, 1), depth);
    if (rest & NLR_DotInner) {
        // A product of two rows (`np.dot(x[i], w)`, `np.dot(L[k, :k], L[k, :k])`) is a number;
        // with an operand of unknown kind the result is unknown too.
        const TSNode a0 = arg(call, 0), a1 = arg(call, 1);
        const ValueKind k0 = kindOf(a0, depth + 1, nullptr), k1 = kindOf(a1, depth + 1, nullptr);
        auto isArr = [](ValueKind k) { return k == ValueKind::Array || k == ValueKind::Sequence; };
        if (!isArr(k0) || !isArr(k1))
            return (k0 == ValueKind::DeviceScalar || k1 == ValueKind::DeviceScalar) &&
                           (isArr(k0) || isArr(k1) || k0 == k1)
                       ? ValueKind::DeviceScalar
                       : ValueKind::Unknown;
        // Vectors by the usual naming (lower case; matrices are `A`, `X`, `R`): `np.dot(r, r)`
        // is a squared norm, `np.inner(u, v[:k])` a number. `np.dot(x, w)` stays an array (a
        // matrix-vector product is as common as a dot product).
        auto vectorName = [&](TSNode x) {
            x = unparen(x);
            // `v[:k]`, `v.conj()`, `v.T`: the name underneath counts.
            for (int guard = 0; guard < 8; ++guard) {
                if (is(x, Sym::subscript))
                    x = unparen(field(x, F().value));
                else if (is(x, Sym::call) && is(field(x, F().function), Sym::attribute))
                    x = unparen(field(field(x, F().function), F().object));
                else if (is(x, Sym::attribute))
                    x = unparen(field(x, F().object));
                else
                    break;
            }
            const std::string_view t = text(x);
            return is(x, Sym::identifier) && !t.empty() && t[0] >= 'a' && t[0] <= 'z';
        };
        if (k0 == ValueKind::Array && k1 == ValueKind::Array && vectorName(a0) && vectorName(a1) &&
            (leaf == QLatin1String("inner") ||
             (is(unparen(a0), Sym::identifier) && text(unparen(a0)) == text(unparen(a1)))))
            return ValueKind::DeviceScalar;
        auto rowLike = [&](TSNode x) {
            x = unparen(x);
            if (!is(x, Sym::subscript))
                return false;
            const uint32_t n = ts_node_named_child_count(x);
            for (uint32_t i = 1; i < n; ++i) {
                const TSNode ix = ts_node_named_child(x, i);
                const uint32_t m = is(ix, Sym::tuple) ? ts_node_named_child_count(ix) : 1;
                for (uint32_t j = 0; j < m; ++j) {
                    const TSNode e = is(ix, Sym::tuple) ? ts_node_named_child(ix, j) : ix;
                    if (kindOf(e, depth + 1, nullptr) == ValueKind::HostScalar)
                        return true;
                }
            }
            return false;
        };
        return rowLike(a0) && rowLike(a1) ? ValueKind::DeviceScalar : ValueKind::Array;
    }
    if (rest & NLR_Elementwise) {
        ValueKind k = ValueKind::HostScalar;
        const int n = argCount(call);
        for (int i = 0; i < n; ++i) {
            const ValueKind a = kindOf(arg(call, i), depth + 1, nullptr);
            if (a == ValueKind::Array)
                return ValueKind::Array;
            if (a == ValueKind::DeviceScalar)
                k = ValueKind::DeviceScalar;
            else if (a == ValueKind::Sequence && k != ValueKind::DeviceScalar)
                return ValueKind::Array; // np.sqrt([1, 2]) is an array
            else if (a != ValueKind::HostScalar && k == ValueKind::HostScalar)
                k = ValueKind::Unknown;
        }
        return n == 0 ? ValueKind::Unknown : k;
    }
    // Constructors, shape manipulation, linear algebra, fft, stacking, ...: arrays.
    return ValueKind::Array;
}

ValueKind SemanticModel::randomDrawKind(TSNode call, const QString& method) const {
    // Position of the `size` argument of each draw: an array comes back only when a size is
    // given (by keyword or position); `rand`/`randn` take the dimensions themselves.
    static const QHash<QString, int> sizeAt = [] {
        QHash<QString, int> h;
        for (const char* n : {"random", "random_sample", "ranf", "sample", "standard_normal",
                              "standard_exponential", "standard_cauchy", "rand", "randn"})
            h.insert(QString::fromLatin1(n), 0);
        for (const char* n :
             {"poisson", "exponential", "choice", "standard_gamma", "chisquare", "geometric",
              "rayleigh", "zipf", "logseries", "power", "standard_t", "weibull", "pareto", "bytes"})
            h.insert(QString::fromLatin1(n), 1);
        for (const char* n :
             {"integers", "randint", "normal", "uniform", "lognormal", "binomial", "gamma", "beta",
              "laplace", "logistic", "gumbel", "multivariate_normal", "negative_binomial", "f",
              "vonmises", "wald", "random_integers", "multinomial", "dirichlet"})
            h.insert(QString::fromLatin1(n), 2);
        for (const char* n : {"triangular", "hypergeometric", "noncentral_f"})
            h.insert(QString::fromLatin1(n), 3);
        return h;
    }();
    if (method == QLatin1String("permutation"))
        return ValueKind::Array;
    if (method == QLatin1String("shuffle") || method == QLatin1String("seed"))
        return ValueKind::None;
    if (!ts_node_is_null(keywordArgument(call, "size")))
        return ValueKind::Array;
    const auto it = sizeAt.constFind(method);
    if (it == sizeAt.cend())
        return ValueKind::Unknown;
    return argCount(call) > *it ? ValueKind::Array : ValueKind::HostScalar;
}

ValueKind SemanticModel::searchsortedKind(TSNode v, int depth) const {
    // One insertion index per value looked up: a number for one number. Arithmetic that mixes
    // a device scalar with a value of unknown kind (`u * total`) may well be an array.
    v = unparen(v);
    const ValueKind k = kindOf(v, depth + 1, nullptr);
    if (k == ValueKind::HostScalar)
        return ValueKind::DeviceScalar;
    if (k != ValueKind::DeviceScalar)
        return ValueKind::Array;
    if (is(v, Sym::binary_operator))
        for (const TSNode side : {field(v, F().left), field(v, F().right)}) {
            const ValueKind sk = kindOf(side, depth + 1, nullptr);
            if (sk != ValueKind::HostScalar && sk != ValueKind::DeviceScalar)
                return ValueKind::Array;
        }
    return ValueKind::DeviceScalar;
}

ValueKind SemanticModel::arrayMethodKind(TSNode call, const QString& m) const {
    if (m == QLatin1String("item"))
        return ValueKind::HostScalar;
    if (m == QLatin1String("tolist"))
        return ValueKind::Sequence;
    if (m == QLatin1String("tobytes") || m == QLatin1String("tostring"))
        return ValueKind::String;
    if (numpy::isReductionMethod(m))
        return (argCount(call) > 0 || !ts_node_is_null(keywordArgument(call, "axis")))
                   ? ValueKind::Array
                   : ValueKind::DeviceScalar;
    if (m == QLatin1String("nonzero"))
        return ValueKind::Sequence;
    if (m == QLatin1String("sort") || m == QLatin1String("fill") || m == QLatin1String("resize") ||
        m == QLatin1String("put") || m == QLatin1String("itemset") ||
        m == QLatin1String("setflags") || m == QLatin1String("partition") ||
        m == QLatin1String("tofile") || m == QLatin1String("dump"))
        return ValueKind::None;
    if (numpy::isArrayMethodReturningArray(m))
        return ValueKind::Array;
    return ValueKind::Unknown;
}

} // namespace cnready
