#include "rules/BlocksSupport.h"

#include "parse/SyntaxTree.h"
#include "parse/WorkCounters.h"
#include "semantic/SemanticModel.h"
#include "semantic/Walk.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

namespace cnready::blocks {

QString quoted(const SemanticModel& model, TSNode n, int max) {
    const std::string_view t = model.text(n);
    QString s = QString::fromUtf8(t.data(), qsizetype(std::min<size_t>(t.size(), 400)));
    s = s.simplified();
    if (s.size() > max)
        s = s.left(max - 1) + QChar(0x2026);
    return QLatin1Char('`') + s + QLatin1Char('`');
}

bool isBuiltin(const SemanticModel& model, TSNode callee, std::string_view name) {
    if (!SyntaxTree::is(callee, "identifier") || model.text(callee) != name)
        return false;
    // Imported or rebound names are not the builtin.
    return model.canonicalName(callee).isEmpty() &&
           !model.isNameBound(QString::fromUtf8(name.data(), qsizetype(name.size())), callee);
}

namespace {

// Whether `e` is a bare name that a `for` loop (or comprehension) around it binds while walking
// a value that is not known to be an array (`for c in f.chunks[ax]`): an item of a Python
// container, most often a number, so a NumPy reduction of it is not evidence of device work.
// Walking an array (`for row in a`) gives rows, which do count.
bool itemOfUnknownContainer(const SemanticModel& model, TSNode e) {
    if (!SyntaxTree::is(e, "identifier"))
        return false;
    const std::string_view t = model.text(e);
    const QString name = QString::fromUtf8(t.data(), qsizetype(t.size()));
    const auto& loops = model.loops();
    for (const LoopInfo* l = model.enclosingLoop(e); l;
         l = l->parent >= 0 ? &loops[size_t(l->parent)] : nullptr) {
        if (!l->variables.contains(name))
            continue;
        return !ts_node_is_null(l->iterable) && model.valueKind(l->iterable) == ValueKind::Unknown;
    }
    return false;
}

// Whether `e` is a bare name that says it holds a shape (`shape`, `outshape`, `new_shape`,
// `dataShape`): by the universal convention a tuple or list of ints on the host.
bool namedLikeShape(const SemanticModel& model, TSNode e) {
    if (!SyntaxTree::is(e, "identifier"))
        return false;
    const std::string_view t = model.text(e);
    if (t.size() < 5)
        return false;
    const std::string_view tail = t.substr(t.size() - 5);
    return tail == "shape" || tail == "Shape" || tail == "SHAPE";
}

} // namespace

namespace {
TSNode straightLineValue(const SemanticModel& m, TSNode use); // below
} // namespace

bool readsDeviceValue(const SemanticModel& model, TSNode expr, TSNode* what,
                      bool unknownReductions) {
    // Explicit stack: some children are skipped (arguments of unknown calls, `is` tests).
    std::vector<TSNode> stack{expr};
    int budget = 2000;
    auto hit = [&](TSNode n) {
        if (what)
            *what = n;
        return true;
    };
    while (!stack.empty() && --budget > 0) {
        const TSNode n = stack.back();
        stack.pop_back();
        if (ts_node_is_null(n))
            continue;
        const std::string_view t = SyntaxTree::type(n);
        if (t == "lambda" || t == "list_comprehension" || t == "generator_expression" ||
            t == "set_comprehension" || t == "dictionary_comprehension")
            continue;
        if (t == "comparison_operator") {
            // `x is None` / `x is not None` compare identities on the host.
            bool identity = false;
            const uint32_t k = ts_node_child_count(n);
            for (uint32_t i = 0; i < k && !identity; ++i) {
                const auto op = SyntaxTree::type(ts_node_child(n, i));
                identity = op == "is" || op == "is not";
            }
            if (identity)
                continue;
        }
        if (t == "call") {
            // A reduction of an array made from shapes and literals waits for nothing queued.
            if (model.isArrayReduction(n) && !hostMetadataOnly(model, n))
                return hit(n);
            const QString cn = model.callName(n);
            if (unknownReductions && model.isNumpyFullReduction(n) &&
                model.valueKind(SemanticModel::argument(n, 0)) == ValueKind::Unknown &&
                !itemOfUnknownContainer(model, SemanticModel::argument(n, 0)))
                return hit(n);
            if ((cn == QLatin1String("numpy.allclose") ||
                 cn == QLatin1String("numpy.array_equal") ||
                 cn == QLatin1String("numpy.array_equiv")) &&
                (model.isDeviceValue(SemanticModel::argument(n, 0)) ||
                 model.isDeviceValue(SemanticModel::argument(n, 1))) &&
                !hostMetadataOnly(model, n))
                return hit(n);
            const TSNode fn = SyntaxTree::field(n, "function");
            const std::string_view ft = model.text(fn);
            const bool bare = SyntaxTree::is(fn, "identifier");
            // Host-side metadata of an array: no device read.
            if (bare && (ft == "len" || ft == "isinstance" || ft == "hasattr" || ft == "getattr" ||
                         ft == "type" || ft == "callable" || ft == "id"))
                continue;
            // The callee itself (`x.item()`, `mask.any()`) is read.
            stack.push_back(fn);
            // Arguments are read by conversions, numeric builtins and NumPy; what an unknown
            // function does with them is not known here.
            const bool reads =
                cn.startsWith(QLatin1String("numpy.")) ||
                (bare && (ft == "float" || ft == "int" || ft == "bool" || ft == "complex" ||
                          ft == "abs" || ft == "round" || ft == "min" || ft == "max" ||
                          ft == "sum" || ft == "any" || ft == "all")) ||
                cn.startsWith(QLatin1String("math."));
            if (reads)
                stack.push_back(SyntaxTree::field(n, "arguments"));
            continue;
        }
        if (t == "subscript") {
            if (namedLikeShape(model, SyntaxTree::field(n, "value"))) {
                // `shape[-1]`, `outshape[n]`: an entry of a shape tuple, a host number even
                // where the model's provenance calls the name an array (a parameter annotated
                // `tuple[int, ...] | np.ndarray` passed through a helper, a list rebound from
                // a helper's result). Its index may still read a device value.
                stack.push_back(SyntaxTree::field(n, "subscript"));
                continue;
            }
            if (model.isScalarElementRead(n))
                return hit(n);
        } else if (t == "attribute") {
            const std::string_view a = model.text(SyntaxTree::field(n, "attribute"));
            if (a == "shape" || a == "size" || a == "ndim" || a == "dtype" || a == "nbytes")
                continue;
            if (model.valueKind(n) == ValueKind::DeviceScalar)
                return hit(n);
            stack.push_back(SyntaxTree::field(n, "object"));
            continue;
        } else if (t == "identifier") {
            // `zerodims = np.sum(np.array(a.shape) == 0)` just before: a count of shapes.
            if (model.valueKind(n) == ValueKind::DeviceScalar && !metadataBindingReaches(model, n))
                return hit(n);
            // Flow-sensitive: the name's kinds disagree across the function (`lam` a
            // reduction on one branch, a reshaped column on the other), but the assignment
            // just before this use in straight-line code is a reduction.
            {
                const TSNode v = straightLineValue(model, n);
                if (!ts_node_is_null(v) && model.isArrayReduction(v) && !hostMetadataOnly(model, v))
                    return hit(v); // judged by the reduction and the array it reduces
            }
            continue;
        } else if (t == "keyword_argument") {
            stack.push_back(SyntaxTree::field(n, "value"));
            continue;
        }
        const uint32_t k = ts_node_named_child_count(n);
        for (uint32_t i = k; i > 0; --i)
            stack.push_back(ts_node_named_child(n, i - 1));
    }
    return false;
}

bool hostMetadataOnly(const SemanticModel& model, TSNode expr) {
    std::vector<TSNode> stack{expr};
    bool anchored = false, unknown = false;
    int budget = 400;
    while (!stack.empty()) {
        if (--budget <= 0)
            return false;
        const TSNode n = stack.back();
        stack.pop_back();
        if (ts_node_is_null(n))
            return false;
        const std::string_view t = SyntaxTree::type(n);
        if (t == "integer" || t == "float" || t == "true" || t == "false" || t == "none" ||
            t == "comment")
            continue;
        if (t == "attribute" || t == "identifier") {
            if (t == "attribute") {
                const std::string_view a = model.text(SyntaxTree::field(n, "attribute"));
                if (a == "shape" || a == "ndim" || a == "size") {
                    anchored = true;
                    continue;
                }
            }
            // A name of unknown kind next to a shape (`np.asarray(a.shape) - win`) is a size
            // parameter in practice; alone it could be anything.
            const ValueKind k = model.valueKind(n);
            if (k == ValueKind::Array || k == ValueKind::DeviceScalar)
                return false;
            unknown = unknown || k != ValueKind::HostScalar;
            continue;
        }
        if (t == "subscript") {
            // `a.shape[0]`, `shape[1:]` of a shape: still a shape.
            const TSNode base = SyntaxTree::field(n, "value");
            if (!SyntaxTree::is(base, "attribute") ||
                model.text(SyntaxTree::field(base, "attribute")) != "shape")
                return false;
            anchored = true;
            continue;
        }
        if (t == "call") {
            const TSNode fn = SyntaxTree::field(n, "function");
            if (SyntaxTree::is(fn, "identifier") && model.text(fn) == "len" &&
                isBuiltin(model, fn, "len")) {
                anchored = true;
                continue;
            }
            if (SyntaxTree::is(fn, "attribute")) {
                // `(np.asarray(a.shape) < 3).any()`: a reduction method of such an array.
                const std::string_view meth = model.text(SyntaxTree::field(fn, "attribute"));
                if ((meth == "any" || meth == "all" || meth == "sum" || meth == "min" ||
                     meth == "max" || meth == "prod") &&
                    ts_node_named_child_count(SyntaxTree::field(n, "arguments")) == 0) {
                    stack.push_back(SyntaxTree::field(fn, "object"));
                    continue;
                }
            }
            const QString cn = model.canonicalName(fn);
            static const char* const kFuncs[] = {
                "numpy.asarray", "numpy.array",       "numpy.asanyarray", "numpy.any",
                "numpy.all",     "numpy.array_equal", "numpy.prod",       "numpy.min",
                "numpy.max",     "numpy.amin",        "numpy.amax",       "numpy.sum",
                "numpy.less",    "numpy.greater"};
            bool known = false;
            for (const char* f : kFuncs)
                known = known || cn == QLatin1String(f);
            if (!known)
                return false;
            const TSNode args = SyntaxTree::field(n, "arguments");
            const uint32_t k = ts_node_named_child_count(args);
            for (uint32_t i = 0; i < k; ++i) {
                const TSNode a = ts_node_named_child(args, i);
                // Keyword arguments (`dtype=int`, `axis=0`) shape the result, not its source.
                if (!SyntaxTree::is(a, "keyword_argument"))
                    stack.push_back(a);
            }
            continue;
        }
        if (t == "binary_operator" || t == "comparison_operator" || t == "unary_operator" ||
            t == "parenthesized_expression" || t == "tuple" || t == "list" ||
            t == "boolean_operator" || t == "not_operator" || t == "expression_list") {
            const uint32_t k = ts_node_named_child_count(n);
            for (uint32_t i = 0; i < k; ++i)
                stack.push_back(ts_node_named_child(n, i));
            continue;
        }
        return false;
    }
    return stack.empty() && (anchored || !unknown);
}

namespace {

// A verbosity / debug switch: a name or attribute such as `verbose`, `self.verbose`, `_debug`,
// `disp`, compared with a level or combined with `and`; `not quiet`.
bool isVerbosityFlag(const SemanticModel& model, TSNode e) {
    std::vector<TSNode> stack{e};
    int budget = 64;
    while (!stack.empty() && --budget > 0) {
        const TSNode n = stack.back();
        stack.pop_back();
        const std::string_view t = SyntaxTree::type(n);
        if (t == "parenthesized_expression") {
            stack.push_back(ts_node_named_child(n, 0));
            continue;
        }
        if (t == "boolean_operator") {
            // `verbose and cond`: off when the switch is off. `verbose or x` is not a guard.
            if (model.text(SyntaxTree::field(n, "operator")) == "and") {
                stack.push_back(SyntaxTree::field(n, "left"));
                stack.push_back(SyntaxTree::field(n, "right"));
            }
            continue;
        }
        if (t == "comparison_operator") {
            stack.push_back(ts_node_named_child(n, 0));
            continue;
        }
        bool negated = false;
        TSNode name = n;
        if (t == "not_operator") {
            negated = true;
            name = SyntaxTree::field(n, "argument");
        }
        if (SyntaxTree::is(name, "attribute"))
            name = SyntaxTree::field(name, "attribute");
        if (!SyntaxTree::is(name, "identifier"))
            continue;
        std::string_view s = model.text(name);
        while (!s.empty() && s.front() == '_')
            s.remove_prefix(1);
        std::string lower(s);
        for (char& c : lower)
            c = char(std::tolower(static_cast<unsigned char>(c)));
        if (negated) {
            if (lower == "quiet" || lower == "silent")
                return true;
            continue;
        }
        if (lower == "verbose" || lower == "verbosity" || lower == "debug" || lower == "disp" ||
            lower == "iprint" || lower == "trace")
            return true;
        // Debug switches named for what they trace (`config.DEBUG_ARRAY_OPT >= 1`,
        // `DEBUG_PRINT`, `self.debug_level`).
        if (lower.starts_with("debug_") || lower.ends_with("_debug") ||
            lower.starts_with("verbose_"))
            return true;
    }
    return false;
}

} // namespace

std::vector<std::pair<uint32_t, uint32_t>> verbositySpans(const SemanticModel& model) {
    std::vector<std::pair<uint32_t, uint32_t>> spans;
    for (const TSNode s : model.ifs()) {
        if (!SyntaxTree::is(s, "if_statement"))
            continue;
        const TSNode body = SyntaxTree::field(s, "consequence");
        if (!ts_node_is_null(body) && isVerbosityFlag(model, SyntaxTree::field(s, "condition")))
            spans.emplace_back(ts_node_start_byte(body), ts_node_end_byte(body));
    }
    return spans; // ifs are in document order, so the spans are sorted by start
}

namespace {

TSNode unparenthesized(TSNode e) {
    for (int budget = 8; budget > 0 && SyntaxTree::is(e, "parenthesized_expression"); --budget)
        e = ts_node_named_child(e, 0);
    return e;
}

// `x % N`, not string formatting (`"%d" % n`).
bool isModulo(const SemanticModel& model, TSNode e) {
    e = unparenthesized(e);
    if (!SyntaxTree::is(e, "binary_operator") ||
        model.text(SyntaxTree::field(e, "operator")) != "%")
        return false;
    const TSNode left = unparenthesized(SyntaxTree::field(e, "left"));
    return !SyntaxTree::is(left, "string") && !SyntaxTree::is(left, "concatenated_string");
}

// `it % N == 0` (either side), `not it % N`: true on one pass in N.
bool isEveryNthPassTest(const SemanticModel& model, TSNode e) {
    e = unparenthesized(e);
    if (SyntaxTree::is(e, "not_operator"))
        return isModulo(model, SyntaxTree::field(e, "argument"));
    if (!SyntaxTree::is(e, "comparison_operator") || ts_node_named_child_count(e) != 2)
        return false;
    // One comparison, and it is `==`: `it % N != 0` is true on most passes.
    for (uint32_t i = 0; i < ts_node_child_count(e); ++i) {
        const TSNode c = ts_node_child(e, i);
        if (!ts_node_is_named(c) && SyntaxTree::type(c) != "==")
            return false;
    }
    return isModulo(model, ts_node_named_child(e, 0)) || isModulo(model, ts_node_named_child(e, 1));
}

// The operands of a left-nested `and` chain in source order (`a and b and c`: a, b, c).
std::vector<TSNode> andOperands(const SemanticModel& model, TSNode e) {
    std::vector<TSNode> rights;
    e = unparenthesized(e);
    while (SyntaxTree::is(e, "boolean_operator") &&
           model.text(SyntaxTree::field(e, "operator")) == "and" && rights.size() < 64) {
        rights.push_back(SyntaxTree::field(e, "right"));
        e = unparenthesized(SyntaxTree::field(e, "left"));
    }
    rights.push_back(e);
    return {rights.rbegin(), rights.rend()};
}

} // namespace

std::vector<std::pair<uint32_t, uint32_t>> everyNthPassSpans(const SemanticModel& model) {
    std::vector<std::pair<uint32_t, uint32_t>> spans;
    for (const TSNode s : model.ifs()) {
        const std::vector<TSNode> operands = andOperands(model, SyntaxTree::field(s, "condition"));
        bool gated = false;
        for (const TSNode op : operands) {
            if (gated && !ts_node_is_null(op))
                spans.emplace_back(ts_node_start_byte(op), ts_node_end_byte(op));
            gated = gated || isEveryNthPassTest(model, op);
        }
        const TSNode body = SyntaxTree::field(s, "consequence");
        if (gated && !ts_node_is_null(body))
            spans.emplace_back(ts_node_start_byte(body), ts_node_end_byte(body));
    }
    // Condition operands come before their block, and ifs are in document order.
    std::sort(spans.begin(), spans.end());
    return spans;
}

bool insideAny(const std::vector<std::pair<uint32_t, uint32_t>>& spans, TSNode n) {
    const uint32_t b = ts_node_start_byte(n), e = ts_node_end_byte(n);
    for (const auto& [start, end] : spans) {
        if (start > b)
            break;
        if (end >= e)
            return true;
    }
    return false;
}

namespace {

bool isObjectDtype(const SemanticModel& m, TSNode v) {
    const std::string_view t = m.text(v);
    if (t == "object" && SyntaxTree::is(v, "identifier") &&
        !m.isNameBound(QStringLiteral("object"), v))
        return true;
    if (SyntaxTree::is(v, "string")) {
        return t == "\"O\"" || t == "'O'" || t == "\"object\"" || t == "'object'" ||
               t == "\"|O\"" || t == "'|O'";
    }
    const QString cn = m.canonicalName(v);
    return cn == QLatin1String("numpy.object_") || cn == QLatin1String("numpy.object");
}

// The root name an iteration or subscript works on: `a` in `a.flat`, `a.ravel()`, `a[0]`,
// `enumerate(a)`, `np.nditer(a)`, `zip(a, b)` (first argument). Null when there is none.
TSNode rootName(const SemanticModel& m, TSNode e) {
    for (int budget = 16; budget > 0 && !ts_node_is_null(e); --budget) {
        const std::string_view t = SyntaxTree::type(e);
        if (t == "identifier")
            return e;
        if (t == "parenthesized_expression") {
            e = ts_node_named_child(e, 0);
        } else if (t == "attribute") {
            e = SyntaxTree::field(e, "object");
        } else if (t == "subscript") {
            e = SyntaxTree::field(e, "value");
        } else if (t == "call") {
            const TSNode fn = SyntaxTree::field(e, "function");
            if (SyntaxTree::is(fn, "attribute")) {
                const std::string_view meth = m.text(SyntaxTree::field(fn, "attribute"));
                e = (meth == "ravel" || meth == "flatten" || meth == "reshape" ||
                     meth == "tolist" || meth == "copy" || meth == "transpose" || meth == "squeeze")
                        ? SyntaxTree::field(fn, "object")
                        : SemanticModel::argument(e, 0); // np.nditer(a), np.ndenumerate(a)
            } else {
                e = SemanticModel::argument(e, 0); // enumerate(a), zip(a, b), reversed(a)
            }
        } else {
            return TSNode{};
        }
    }
    return TSNode{};
}

} // namespace

bool createsObjectArray(const SemanticModel& m, TSNode c) {
    const TSNode fn = SyntaxTree::field(c, "function");
    const bool astype =
        SyntaxTree::is(fn, "attribute") && m.text(SyntaxTree::field(fn, "attribute")) == "astype";
    // Cheap textual pre-check before resolving the callee.
    const std::string_view args = m.text(SyntaxTree::field(c, "arguments"));
    if (args.find("object") == std::string_view::npos &&
        args.find("'O'") == std::string_view::npos &&
        args.find("\"O\"") == std::string_view::npos && args.find("|O") == std::string_view::npos)
        return false;
    const QString cn = m.callName(c);
    bool numpyCall = cn.startsWith(QLatin1String("numpy."));
    if (!numpyCall && astype) {
        const ValueKind k = m.valueKind(SyntaxTree::field(fn, "object"));
        numpyCall = k == ValueKind::Array || k == ValueKind::Unknown;
    }
    if (!numpyCall)
        return false;
    TSNode v = m.keywordArgument(c, "dtype");
    if (ts_node_is_null(v) && astype)
        v = SemanticModel::argument(c, 0);
    if (ts_node_is_null(v) && cn == QLatin1String("numpy.dtype")) {
        // A dtype object is no array: it counts bound to a name (`DT = np.dtype(object)`) or
        // passed to a call (`np.empty(n, dtype=np.dtype("O"))`). Compared
        // (`x.dtype == np.dtype(object)`), tested with np.issubdtype, used as a dict key or
        // value or returned (numba's dtype tables), it creates nothing.
        const TSNode p = ts_node_parent(c);
        const bool passed = SyntaxTree::is(p, "keyword_argument") ||
                            (SyntaxTree::is(p, "argument_list") &&
                             m.callName(ts_node_parent(p)) != QLatin1String("numpy.issubdtype"));
        if (!passed && !SyntaxTree::is(p, "assignment"))
            return false;
        v = SemanticModel::argument(c, 0);
    }
    // Positional dtype: np.zeros(n, object), np.array(xs, "O"), np.full(n, v, object).
    if (ts_node_is_null(v) &&
        (cn == QLatin1String("numpy.zeros") || cn == QLatin1String("numpy.ones") ||
         cn == QLatin1String("numpy.empty") || cn == QLatin1String("numpy.array") ||
         cn == QLatin1String("numpy.asarray")))
        v = SemanticModel::argument(c, 1);
    if (ts_node_is_null(v) && cn == QLatin1String("numpy.full"))
        v = SemanticModel::argument(c, 2);
    return !ts_node_is_null(v) && isObjectDtype(m, v);
}

std::vector<ObjectArrayBinding> objectArrayBindings(const SemanticModel& m) {
    std::vector<ObjectArrayBinding> out;
    if (!m.importsNumpy())
        return out;
    // From the assignments (no parent walks: ts_node_parent costs a descent from the root).
    for (const TSNode a : m.assignments()) {
        // Cheap textual pre-check before any field look-up.
        const std::string_view text = m.text(a);
        if (text.find('O') == std::string_view::npos && // 'O', "O", '|O'
            text.find("object") == std::string_view::npos)
            continue;
        const TSNode c = SyntaxTree::field(a, "right");
        const TSNode left = SyntaxTree::field(a, "left");
        if (!SyntaxTree::is(c, "call") || !SyntaxTree::is(left, "identifier") ||
            !createsObjectArray(m, c))
            continue;
        const std::string_view name = m.text(left);
        ObjectArrayBinding b{QString::fromUtf8(name.data(), qsizetype(name.size())), 0,
                             ts_node_end_byte(m.tree().root()), ts_node_start_byte(a)};
        if (const FunctionRegion* f = m.enclosingFunctionRegion(a)) {
            b.scopeStart = ts_node_start_byte(f->node);
            b.scopeEnd = ts_node_end_byte(f->node);
        }
        out.push_back(std::move(b));
    }
    return out;
}

bool isObjectArray(const SemanticModel& m, const std::vector<ObjectArrayBinding>& bindings,
                   TSNode expr) {
    if (bindings.empty())
        return false;
    const TSNode root = rootName(m, expr);
    if (ts_node_is_null(root))
        return false;
    const std::string_view t = m.text(root);
    const QString name = QString::fromUtf8(t.data(), qsizetype(t.size()));
    const uint32_t at = ts_node_start_byte(root);
    auto candidate = [&](const ObjectArrayBinding& b) {
        return b.name == name && b.scopeStart <= at && at < b.scopeEnd && b.at < at;
    };
    if (std::none_of(bindings.begin(), bindings.end(), candidate))
        return false;
    // The last plain assignment to the name before the use, in the use's scope, must be one
    // of the object-array bindings.
    const FunctionRegion* scope = m.enclosingFunctionRegion(root);
    const uint32_t from = scope ? ts_node_start_byte(scope->node) : 0;
    uint32_t last = 0;
    bool found = false;
    for (const TSNode a : SemanticModel::within(m.assignments(), from, at)) {
        if (ts_node_end_byte(a) > at || m.enclosingFunctionRegion(a) != scope)
            continue;
        const TSNode left = SyntaxTree::field(a, "left");
        if (SyntaxTree::is(left, "identifier") && m.text(left) == t) {
            last = ts_node_start_byte(a);
            found = true;
        }
    }
    return found && std::any_of(bindings.begin(), bindings.end(), [&](const ObjectArrayBinding& b) {
               return candidate(b) && b.at == last;
           });
}

namespace {

// The right side of the plain assignment that binds the name `use` in straight-line code just
// before it (same function, same block chain, same loop iteration, not rebound by a pattern,
// an augmented assignment or a loop header in between); null when there is none.
TSNode straightLineValue(const SemanticModel& m, TSNode use) {
    if (!SyntaxTree::is(use, "identifier"))
        return {};
    const FunctionRegion* fn = m.enclosingFunctionRegion(use);
    if (!fn)
        return {};
    const std::string_view name = m.text(use);
    const uint32_t at = ts_node_start_byte(use);
    // Does `target` (an assignment's left side) bind `name`? 1: exactly `name`; 2: inside a
    // pattern (`a, name = ...`, `name[i]` does not bind); 0: not at all.
    auto binds = [&](TSNode target) {
        if (SyntaxTree::is(target, "identifier"))
            return m.text(target) == name ? 1 : 0;
        if (SyntaxTree::is(target, "pattern_list") || SyntaxTree::is(target, "tuple_pattern") ||
            SyntaxTree::is(target, "list_pattern") || SyntaxTree::is(target, "tuple") ||
            SyntaxTree::is(target, "list")) {
            const uint32_t k = ts_node_named_child_count(target);
            for (uint32_t i = 0; i < k; ++i) {
                const TSNode e = ts_node_named_child(target, i);
                if (SyntaxTree::is(e, "identifier") && m.text(e) == name)
                    return 2;
            }
        }
        return 0;
    };
    TSNode last{};
    for (const TSNode a : SemanticModel::within(m.assignments(), fn->node)) {
        if (ts_node_end_byte(a) > at)
            break; // at or after the use (a use inside its own right side included)
        if (m.enclosingFunctionRegion(a) != fn)
            continue; // a nested def binds its own names
        const int b = binds(SyntaxTree::field(a, "left"));
        if (b == 2)
            return {};
        if (b == 1)
            last = SyntaxTree::is(a, "assignment") ? a : TSNode{};
        if (b == 1 && ts_node_is_null(last))
            return {}; // `name += ...`: derived from the earlier value
    }
    if (ts_node_is_null(last))
        return {};
    // Loop headers, with-as and walrus bindings between the assignment and the use.
    // The loops are in document order (sorted by start byte): only those starting in
    // (end of the assignment, use) are looked at, not every loop of the file per use.
    const std::vector<LoopInfo>& loops = m.loops();
    const uint32_t after = ts_node_end_byte(last);
    for (auto L = std::upper_bound(loops.begin(), loops.end(), after,
                                   [](uint32_t x, const LoopInfo&l) { return x < l.startByte; });
         L != loops.end() && L->startByte < at; ++L) {
        ++t_workCounters.loopVisits;
        if (L->variables.contains(QString::fromUtf8(name.data(), qsizetype(name.size()))))
            return {};
    }
    const TSNode value = SyntaxTree::field(last, "right");
    if (ts_node_is_null(value))
        return {};
    // Straight-line before the use: the statement's block contains the use, and both run in
    // the same iteration of the same innermost loop.
    const TSNode stmt = ts_node_parent(last);
    const TSNode block = ts_node_parent(stmt);
    if (ts_node_is_null(block) || ts_node_start_byte(block) > at || ts_node_end_byte(block) <= at)
        return {};
    return m.enclosingLoop(last) == m.enclosingLoop(use) ? value : TSNode{};
}

} // namespace

bool hostBindingReaches(const SemanticModel& m, TSNode use) {
    const TSNode value = straightLineValue(m, use);
    return !ts_node_is_null(value) && !m.isDeviceValue(value);
}

bool metadataBindingReaches(const SemanticModel& m, TSNode use) {
    const TSNode value = straightLineValue(m, use);
    return !ts_node_is_null(value) && hostMetadataOnly(m, value);
}

std::vector<std::pair<uint32_t, uint32_t>> compiledKernelSpans(const SemanticModel& model) {
    std::vector<std::pair<uint32_t, uint32_t>> spans;
    bool numba = false;
    for (const ImportBinding& ib : model.importBindings())
        numba = numba || ib.canonical == QLatin1String("numba") ||
                ib.canonical.startsWith(QLatin1String("numba."));
    if (!numba)
        return spans;
    for (const TSNode d : model.decorators()) {
        TSNode e = ts_node_named_child(d, 0);
        if (SyntaxTree::is(e, "call"))
            e = SyntaxTree::field(e, "function");
        const QString cn = model.canonicalName(e);
        if (cn != QLatin1String("numba") && !cn.startsWith(QLatin1String("numba.")))
            continue;
        const TSNode def = ts_node_parent(d); // decorated_definition; once per decorator
        if (ts_node_is_null(def))
            continue;
        spans.emplace_back(ts_node_start_byte(def), ts_node_end_byte(def));
    }
    std::sort(spans.begin(), spans.end());
    return spans;
}

} // namespace cnready::blocks
