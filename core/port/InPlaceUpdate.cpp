// R202: `x = x + y` -> `x += y` where nothing else can see `x` change (port/Rewrites.h).
#include "parse/SyntaxTree.h"
#include "port/Rewrites.h"
#include "port/SiteLookup.h"
#include "semantic/SemanticModel.h"
#include "semantic/Shapes.h"
#include "semantic/Walk.h"

#include <QSet>

namespace cnready {

namespace {

bool isOneOf(std::string_view t, std::initializer_list<std::string_view> types) {
    for (std::string_view x : types)
        if (t == x)
            return true;
    return false;
}

// NumPy functions that may return a view of (or the very same) array they are given: passing
// `x` to them lets another name see later in-place writes.
bool mayReturnView(const QString& leaf) {
    static const QSet<QString> views = {QStringLiteral("asarray"),
                                        QStringLiteral("asanyarray"),
                                        QStringLiteral("reshape"),
                                        QStringLiteral("ravel"),
                                        QStringLiteral("transpose"),
                                        QStringLiteral("squeeze"),
                                        QStringLiteral("expand_dims"),
                                        QStringLiteral("moveaxis"),
                                        QStringLiteral("swapaxes"),
                                        QStringLiteral("rollaxis"),
                                        QStringLiteral("atleast_1d"),
                                        QStringLiteral("atleast_2d"),
                                        QStringLiteral("atleast_3d"),
                                        QStringLiteral("broadcast_to"),
                                        QStringLiteral("broadcast_arrays"),
                                        QStringLiteral("diagonal"),
                                        QStringLiteral("real"),
                                        QStringLiteral("imag"),
                                        QStringLiteral("flip"),
                                        QStringLiteral("fliplr"),
                                        QStringLiteral("flipud"),
                                        QStringLiteral("rot90"),
                                        QStringLiteral("split"),
                                        QStringLiteral("array_split"),
                                        QStringLiteral("hsplit"),
                                        QStringLiteral("vsplit"),
                                        QStringLiteral("dsplit"),
                                        QStringLiteral("ascontiguousarray"),
                                        QStringLiteral("asfortranarray"),
                                        QStringLiteral("require"),
                                        QStringLiteral("asmatrix"),
                                        QStringLiteral("frombuffer"),
                                        QStringLiteral("nditer"),
                                        QStringLiteral("ndenumerate"),
                                        QStringLiteral("lib"),
                                        QStringLiteral("view")};
    return views.contains(leaf);
}

// Array attributes and methods whose result holds no reference to the array's storage.
bool freshAttribute(std::string_view a) {
    return isOneOf(a, {"shape", "size", "ndim", "dtype", "nbytes", "itemsize"});
}
bool freshMethod(std::string_view a) {
    return isOneOf(a,
                   {"sum",    "max",     "min",    "mean",  "std",    "var",     "prod",   "any",
                    "all",    "item",    "tolist", "copy",  "astype", "dot",     "argmax", "argmin",
                    "cumsum", "cumprod", "fill",   "round", "clip",   "nonzero", "argsort"});
}

// Whether the value of `n` (an expression reading the array) is used in a way that keeps no
// reference to the array: arithmetic, comparisons, fresh NumPy results, writes into it.
bool consumedSafely(const SemanticModel& m, TSNode n, int depth = 0) {
    if (depth > 4)
        return false;
    const TSNode p = m.tree().parent(n);
    const std::string_view t = SyntaxTree::type(p);
    if (isOneOf(t, {"binary_operator", "comparison_operator", "unary_operator", "not_operator",
                    "expression_statement", "return_statement"}))
        return true;
    if (t == "parenthesized_expression")
        return consumedSafely(m, p, depth + 1);
    if (t == "expression_list" && SyntaxTree::is(m.tree().parent(p), "return_statement"))
        return true; // `return x, total`: the final array, handed back once
    if ((t == "assignment" || t == "augmented_assignment") &&
        ts_node_eq(SyntaxTree::field(p, "left"), n))
        return true; // a write into it (`x[i] = v`, `x[...] += v`)
    if (t == "subscript") {
        if (!ts_node_eq(SyntaxTree::field(p, "value"), n))
            return true;                        // used as an index: fancy indexing copies
        return consumedSafely(m, p, depth + 1); // `x[i]` may be a view: follow it
    }
    if (t == "attribute" && ts_node_eq(SyntaxTree::field(p, "object"), n)) {
        const std::string_view attr = m.text(SyntaxTree::field(p, "attribute"));
        if (freshAttribute(attr))
            return true;
        const TSNode call = m.tree().parent(p);
        return SyntaxTree::is(call, "call") && ts_node_eq(SyntaxTree::field(call, "function"), p) &&
               freshMethod(attr);
    }
    TSNode args = p;
    if (t == "keyword_argument")
        args = m.tree().parent(p);
    if (SyntaxTree::is(args, "argument_list")) {
        const TSNode call = m.tree().parent(args);
        const QString name = m.callName(call);
        const TSNode fn = SyntaxTree::field(call, "function");
        // `np.negative(x, out=x)` hands back the array itself: another name for it.
        if (!ts_node_is_null(m.keywordArgument(call, "out")))
            return false;
        if (name.startsWith(QLatin1String("numpy.")) &&
            !name.startsWith(QLatin1String("numpy.ndarray.")))
            return !mayReturnView(name.section(QLatin1Char('.'), 1, 1)) &&
                   !mayReturnView(m.calleeLeaf(call));
        return SyntaxTree::is(fn, "identifier") &&
               isOneOf(m.text(fn), {"len", "print", "float", "int", "bool", "isinstance"}) &&
               !m.isNameBound(m.tree().qtext(fn), fn);
    }
    return false;
}

// A right-hand side that makes a new floating-point array nobody else holds.
enum class Fresh { No, Yes, Float };

Fresh freshness(const SemanticModel& m, TSNode rhs) {
    while (SyntaxTree::is(rhs, "parenthesized_expression") && ts_node_named_child_count(rhs) == 1)
        rhs = ts_node_named_child(rhs, 0);
    if (SyntaxTree::is(rhs, "binary_operator") || SyntaxTree::is(rhs, "unary_operator"))
        return Fresh::Yes;
    if (SyntaxTree::is(rhs, "float"))
        return Fresh::Float;
    if (!SyntaxTree::is(rhs, "call"))
        return Fresh::No;
    const QString name = m.callName(rhs);
    const TSNode dtype = m.keywordArgument(rhs, "dtype");
    // Only float64 counts as float here: `x = x + y` of a float32 `x` and a float64 `y` is
    // float64, `x += y` keeps float32 (precision lost without a word); complex does not fit.
    QString dt = m.tree().qtext(dtype);
    dt.remove(QLatin1Char('\'')).remove(QLatin1Char('"'));
    const bool floatDtype = dt == QLatin1String("float") || dt.endsWith(QLatin1String("float64")) ||
                            dt.endsWith(QLatin1String("double")) || dt == QLatin1String("d") ||
                            dt == QLatin1String("f8") || dt.endsWith(QLatin1String("float_"));
    const bool intDtype = !ts_node_is_null(dtype) && !floatDtype;
    // `np.array(a, copy=False)` may be `a` itself: no fresh array.
    if (name == QLatin1String("numpy.array") && !ts_node_is_null(m.keywordArgument(rhs, "copy")) &&
        m.text(m.keywordArgument(rhs, "copy")) != "True")
        return Fresh::No;
    static const QStringList floatByDefault = {
        QStringLiteral("numpy.zeros"),          QStringLiteral("numpy.ones"),
        QStringLiteral("numpy.empty"),          QStringLiteral("numpy.linspace"),
        QStringLiteral("numpy.random.rand"),    QStringLiteral("numpy.random.randn"),
        QStringLiteral("numpy.random.random"),  QStringLiteral("numpy.random.normal"),
        QStringLiteral("numpy.random.uniform"), QStringLiteral("numpy.random.standard_normal")};
    static const QStringList keepDtype = {
        QStringLiteral("numpy.zeros_like"), QStringLiteral("numpy.ones_like"),
        QStringLiteral("numpy.empty_like"), QStringLiteral("numpy.full_like"),
        QStringLiteral("numpy.full"),       QStringLiteral("numpy.copy"),
        QStringLiteral("numpy.array"),      QStringLiteral("numpy.ndarray.copy")};
    if (floatByDefault.contains(name))
        return intDtype ? Fresh::Yes : Fresh::Float;
    if (keepDtype.contains(name))
        return floatDtype ? Fresh::Float : Fresh::Yes;
    return Fresh::No;
}

// Whether every binding of `name` in `scope` makes a fresh float64 array (or updates the name
// with itself), with at least one such binding and `name` no parameter of `fn`.
bool float64ByEveryBinding(const SemanticModel& m, TSNode scope, const FunctionRegion* fn,
                           std::string_view name) {
    if (fn && fn->parameters.contains(QString::fromUtf8(name.data(), qsizetype(name.size()))))
        return false;
    bool all = true, any = false;
    walkSubtree(scope, [&](TSNode n) {
        if (!all)
            return false;
        if (!SyntaxTree::is(n, "assignment") && !SyntaxTree::is(n, "augmented_assignment") &&
            !SyntaxTree::is(n, "for_statement"))
            return true;
        const TSNode left = SyntaxTree::field(n, "left");
        bool binds = SyntaxTree::is(left, "identifier") && m.text(left) == name;
        if (!binds && !SyntaxTree::is(left, "identifier") && !SyntaxTree::is(left, "subscript") &&
            !SyntaxTree::is(left, "attribute"))
            walkSubtree(left, [&](TSNode k) { // tuple targets, loop variables
                binds = binds || (SyntaxTree::is(k, "identifier") && m.text(k) == name);
                return !binds;
            });
        if (!binds)
            return true;
        if (SyntaxTree::is(n, "for_statement")) {
            all = false;
            return false;
        }
        if (SyntaxTree::is(n, "augmented_assignment") || !SyntaxTree::is(left, "identifier")) {
            all = SyntaxTree::is(n, "augmented_assignment") && SyntaxTree::is(left, "identifier");
            return true; // `v += ...` keeps v's dtype (it would raise otherwise)
        }
        const TSNode value = SyntaxTree::field(n, "right");
        const bool update = SyntaxTree::is(value, "binary_operator") &&
                            SyntaxTree::is(SyntaxTree::field(value, "left"), "identifier") &&
                            m.text(SyntaxTree::field(value, "left")) == name;
        const bool isFloat = freshness(m, value) == Fresh::Float;
        all = update || isFloat;
        any = any || isFloat;
        return true;
    });
    return all && any;
}

// Known and equal, axis by axis.
bool sameShape(const Shape& a, const Shape& b) {
    if (!a.known() || !b.known() || a.rank != b.rank || a.rank > Shape::kMaxAxes)
        return false;
    for (int k = 0; k < a.rank; ++k)
        if (a.axis(k).kind == Extent::Kind::Unknown || !a.axis(k).sameAs(b.axis(k)))
            return false;
    return true;
}

} // namespace

std::optional<Rewrite> inPlaceUpdateRewrite(const SemanticModel& m, const Finding& f) {
    if (f.code != QLatin1String("R202"))
        return std::nullopt;
    const TSNode a = port::nodeOfFinding(m.assignments(), f);
    if (!SyntaxTree::is(a, "assignment"))
        return std::nullopt;
    const TSNode left = SyntaxTree::field(a, "left");
    const TSNode right = SyntaxTree::field(a, "right");
    if (!SyntaxTree::is(left, "identifier") || !SyntaxTree::is(right, "binary_operator") ||
        !ts_node_is_null(SyntaxTree::field(a, "type")))
        return std::nullopt;
    const std::string_view x = m.text(left);
    const std::string_view op = m.text(SyntaxTree::field(right, "operator"));
    const TSNode lhs = SyntaxTree::field(right, "left");
    const TSNode rhs = SyntaxTree::field(right, "right");
    if (!isOneOf(op, {"+", "-", "*", "/"}) || !SyntaxTree::is(lhs, "identifier") ||
        m.text(lhs) != x)
        return std::nullopt;
    // The scope of `x`: the function around the site, else the module.
    const FunctionRegion* fn = m.enclosingFunctionRegion(a);
    const TSNode scope = fn ? fn->body : m.tree().root();
    // What is added must not change the result's shape or type: `x + y` broadcasts to a
    // larger shape where `x += y` raises, a float32 `x` plus a float64 `y` is float64 where
    // `x += y` stays float32, and a complex `y` makes a complex result where `x += y` raises.
    // Provable today: real number literals, and names that are float64 arrays by every
    // binding in this scope (not parameters), when the whole operand has x's shape.
    {
        bool realLeaves = true, names = false;
        walkSubtree(rhs, [&](TSNode v) {
            if (!realLeaves)
                return false;
            if (!ts_node_is_named(v))
                return true; // operator tokens
            const std::string_view t = SyntaxTree::type(v);
            if (t == "integer" || t == "float") {
                realLeaves = m.text(v).find_first_of("jJ") == std::string_view::npos;
                return false;
            }
            if (t == "identifier") {
                names = true;
                realLeaves = float64ByEveryBinding(m, scope, fn, m.text(v));
                return false;
            }
            realLeaves =
                isOneOf(t, {"binary_operator", "unary_operator", "parenthesized_expression"});
            return realLeaves;
        });
        if (!realLeaves)
            return std::nullopt;
        if (names && !sameShape(m.shapeOf(rhs), m.shapeOf(lhs)))
            return std::nullopt;
    }

    const QString xq = m.tree().qtext(left);
    if (fn && fn->parameters.contains(xq))
        return std::nullopt; // a caller's array: in place would change it for the caller

    bool safe = true, floatKnown = false;
    walkSubtree(scope, [&](TSNode n) {
        if (!safe)
            return false;
        const std::string_view t = SyntaxTree::type(n);
        if (isOneOf(t, {"function_definition", "class_definition", "lambda"}) &&
            !ts_node_eq(n, scope)) {
            // A nested scope that mentions `x` sees it change (a closure, a global read).
            bool mentions = false;
            walkSubtree(n, [&](TSNode k) {
                if (SyntaxTree::is(k, "identifier") && m.text(k) == x)
                    mentions = true;
                return !mentions;
            });
            safe = !mentions;
            return false;
        }
        if (isOneOf(t, {"global_statement", "nonlocal_statement"})) {
            walkSubtree(n, [&](TSNode k) {
                if (SyntaxTree::is(k, "identifier") && m.text(k) == x)
                    safe = false;
                return safe;
            });
            return false;
        }
        if (t != "identifier" || m.text(n) != x)
            return true;
        const TSNode p = m.tree().parent(n);
        if (SyntaxTree::is(p, "attribute") && ts_node_eq(SyntaxTree::field(p, "attribute"), n))
            return false; // `obj.x`: another name
        if (SyntaxTree::is(p, "keyword_argument") && ts_node_eq(SyntaxTree::field(p, "name"), n))
            return false; // `f(x=...)`
        if (SyntaxTree::is(p, "assignment") && ts_node_eq(SyntaxTree::field(p, "left"), n)) {
            // Every binding is a float constructor, or an update of `x` itself
            // (`x = x * 0.5`), which keeps a float array float.
            const TSNode value = SyntaxTree::field(p, "right");
            const bool update = SyntaxTree::is(value, "binary_operator") &&
                                SyntaxTree::is(SyntaxTree::field(value, "left"), "identifier") &&
                                m.text(SyntaxTree::field(value, "left")) == x;
            const bool isFloat = freshness(m, value) == Fresh::Float;
            safe = (update || isFloat) && ts_node_is_null(SyntaxTree::field(p, "type"));
            floatKnown = floatKnown || isFloat;
            return false;
        }
        if (SyntaxTree::is(p, "augmented_assignment") &&
            ts_node_eq(SyntaxTree::field(p, "left"), n))
            return false; // already in place
        safe = consumedSafely(m, n);
        return false;
    });
    if (!safe || !floatKnown)
        return std::nullopt;

    Rewrite r;
    r.code = f.code;
    r.startByte = ts_node_start_byte(a);
    r.endByte = ts_node_end_byte(a);
    r.replacement = QByteArray(x.data(), qsizetype(x.size())) + ' ' +
                    QByteArray(op.data(), qsizetype(op.size())) + "= " +
                    QByteArray(m.text(rhs).data(), qsizetype(m.text(rhs).size()));
    r.line = SyntaxTree::line(a);
    r.note = QStringLiteral("%1 -> %2").arg(m.tree().qtext(a), QString::fromUtf8(r.replacement));
    return r;
}

} // namespace cnready
