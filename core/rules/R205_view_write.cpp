#include "rules/R205_view_write.h"

#include "parse/SyntaxTree.h"
#include "rules/RuleSupport.h"
#include "semantic/SemanticModel.h"
#include "semantic/Walk.h"

#include <algorithm>

namespace cnready {

using namespace rules;

namespace {

// Calls that give a view in NumPy but a copy on cuPyNumeric. `.flatten()` is left out on
// purpose: it copies in NumPy too, so writing to its result changes nothing in either library.
QString viewSource(const SemanticModel& m, TSNode call) {
    static const QStringList names = {
        QStringLiteral("numpy.diag"),
        QStringLiteral("numpy.diagonal"),
        QStringLiteral("numpy.ndarray.diagonal"),
        QStringLiteral("numpy.flip"),
        QStringLiteral("numpy.fliplr"),
        QStringLiteral("numpy.flipud"),
        QStringLiteral("numpy.ravel"),
        QStringLiteral("numpy.ndarray.ravel"),
    };
    QString name = m.callName(call);
    if (name.isEmpty()) {
        // `x.ravel()` / `x.diagonal()` on a receiver the model cannot type (a parameter):
        // both method names are specific to arrays.
        const std::string_view leaf = calleeLeafText(m, call);
        const TSNode fn = SyntaxTree::field(call, fields().function);
        if ((leaf == "ravel" || leaf == "diagonal") && SyntaxTree::is(fn, "attribute") &&
            m.valueKind(SyntaxTree::field(fn, fields().object)) == ValueKind::Unknown)
            name = QStringLiteral("numpy.ndarray.") +
                   QLatin1String(leaf.data(), qsizetype(leaf.size()));
    }
    if (!names.contains(name))
        return {};
    if (name == QLatin1String("numpy.ravel") || name == QLatin1String("numpy.ndarray.ravel")) {
        // `x.T.ravel()`, `np.ravel(x.transpose())`: a transposed array is not contiguous, so
        // NumPy's ravel copies it too; writing to the result changes `x` in neither library.
        TSNode src =
            name == QLatin1String("numpy.ravel")
                ? SemanticModel::argument(call, 0)
                : SyntaxTree::field(SyntaxTree::field(call, fields().function), fields().object);
        while (SyntaxTree::is(src, "parenthesized_expression") &&
               ts_node_named_child_count(src) > 0)
            src = ts_node_named_child(src, 0);
        if (SyntaxTree::is(src, "attribute") &&
            m.text(SyntaxTree::field(src, fields().attribute)) == "T")
            return {};
        if (SyntaxTree::is(src, "call")) {
            const QString inner = m.callName(src);
            const std::string_view leaf = calleeLeafText(m, src);
            if (inner == QLatin1String("numpy.transpose") || leaf == "transpose" ||
                leaf == "swapaxes")
                return {};
        }
    }
    if (name == QLatin1String("numpy.diag")) {
        // np.diag of a 1-D input builds a new matrix: a copy in both libraries.
        const TSNode arg = SemanticModel::argument(call, 0);
        if (SyntaxTree::is(arg, "list") || SyntaxTree::is(arg, "tuple"))
            return {};
        if (SyntaxTree::is(arg, "call")) {
            const QString inner = m.callName(arg);
            if (inner == QLatin1String("numpy.arange") ||
                inner == QLatin1String("numpy.linspace") || inner == QLatin1String("numpy.ravel") ||
                inner == QLatin1String("numpy.ndarray.ravel") ||
                inner == QLatin1String("numpy.ndarray.flatten"))
                return {};
            if ((inner == QLatin1String("numpy.ones") || inner == QLatin1String("numpy.zeros") ||
                 inner == QLatin1String("numpy.full") || inner == QLatin1String("numpy.empty")) &&
                !SyntaxTree::is(SemanticModel::argument(arg, 0), "tuple"))
                return {};
        }
    }
    return m.tree().qtext(SyntaxTree::field(call, fields().function));
}

// The written-to node when `n` (a name or the view expression itself) is the target of a write:
// `n[...] = v`, `n[...] += v`, `n += v`, `n.fill(v)`, `out=n`, `np.copyto(n, ...)`.
bool isWriteTarget(const SemanticModel& m, TSNode n) {
    TSNode p = ts_node_parent(n);
    // n[...] (= | op=) v
    if (SyntaxTree::is(p, "subscript") && ts_node_eq(SyntaxTree::field(p, fields().value), n)) {
        const TSNode a = ts_node_parent(p);
        if ((SyntaxTree::is(a, "assignment") || SyntaxTree::is(a, "augmented_assignment")) &&
            ts_node_eq(SyntaxTree::field(a, fields().left), p))
            return true;
        return false;
    }
    if (SyntaxTree::is(p, "augmented_assignment") &&
        ts_node_eq(SyntaxTree::field(p, fields().left), n))
        return true;
    if (SyntaxTree::is(p, "keyword_argument") &&
        ts_node_eq(SyntaxTree::field(p, fields().value), n))
        return m.text(SyntaxTree::field(p, fields().name)) == "out";
    if (SyntaxTree::is(p, "attribute") && ts_node_eq(SyntaxTree::field(p, fields().object), n)) {
        const auto method = m.text(SyntaxTree::field(p, fields().attribute));
        const TSNode call = ts_node_parent(p);
        if (SyntaxTree::is(call, "call") &&
            (method == "fill" || method == "sort" || method == "put" || method == "itemset" ||
             method == "partition" || method == "setfield"))
            return true;
        return false;
    }
    if (SyntaxTree::is(p, "argument_list")) {
        const TSNode call = ts_node_parent(p);
        const QString cn = m.callName(call);
        if ((cn == QLatin1String("numpy.copyto") || cn == QLatin1String("numpy.put") ||
             cn == QLatin1String("numpy.putmask") || cn == QLatin1String("numpy.place") ||
             cn == QLatin1String("numpy.fill_diagonal")) &&
            ts_node_eq(SemanticModel::argument(call, 0), n))
            return true;
    }
    return false;
}

// The array a view call reads from: the receiver of a method, else the first argument.
TSNode originOf(const SemanticModel& m, TSNode call) {
    const TSNode function = SyntaxTree::field(call, fields().function);
    if (m.callName(call).startsWith(QLatin1String("numpy.ndarray.")) ||
        (m.callName(call).isEmpty() && SyntaxTree::is(function, "attribute"))) {
        const TSNode fn = SyntaxTree::field(call, fields().function);
        return SyntaxTree::field(fn, fields().object);
    }
    const TSNode a = SemanticModel::argument(call, 0);
    return ts_node_is_null(a) ? m.keywordArgument(call, "a") : a;
}

// Whether identifier `name` is read in `scope` at or after byte `from`.
bool readAfter(const SemanticModel& m, TSNode scope, std::string_view name, uint32_t from) {
    bool found = false;
    walkSubtree(scope, [&](TSNode n) {
        if (found || ts_node_end_byte(n) <= from)
            return false;
        if (SyntaxTree::is(n, "identifier") && ts_node_start_byte(n) >= from && m.text(n) == name) {
            const TSNode p = ts_node_parent(n);
            if (!(SyntaxTree::is(p, "attribute") &&
                  ts_node_eq(SyntaxTree::field(p, fields().attribute), n)))
                found = true;
        }
        return true;
    });
    return found;
}

// Whether a write into a copy of `origin` (made at `call`, written at byte `writeEnd`) would be
// observed in NumPy: the origin is a parameter, an attribute or a global (the caller sees it),
// or a local read again after the write. A temporary expression never is.
bool originObserved(const SemanticModel& m, TSNode origin, uint32_t writeEnd) {
    if (SyntaxTree::is(origin, "attribute") || SyntaxTree::is(origin, "subscript"))
        return true;
    if (!SyntaxTree::is(origin, "identifier"))
        return false;
    const FunctionRegion* fn = m.enclosingFunctionRegion(origin);
    if (!fn)
        return true; // module-level array
    const QString name = m.tree().qtext(origin);
    if (fn->parameters.contains(name) || bindingsOf(m, m.text(origin), origin).isEmpty())
        return true; // parameter, closure or global
    return readAfter(m, fn->body, m.text(origin), writeEnd);
}

// diag / diagonal of a matrix are read-only views in NumPy: code that writes into them must
// first make them writable (`d.flags.writeable = True`, `d.setflags(write=True)`); without
// that, a write that works means the input was 1-D and diag built a new matrix (a copy in both
// libraries).
bool isDiagonal(const SemanticModel& m, TSNode call) {
    const std::string_view leaf = calleeLeafText(m, call);
    return leaf == "diag" || leaf == "diagonal";
}

bool madeWritable(const SemanticModel& m, std::string_view name, uint32_t from, uint32_t to) {
    const std::string flags = std::string(name) + ".flags";
    for (TSNode a : SemanticModel::within(m.assignments(), from, to)) {
        const auto left = m.text(SyntaxTree::field(a, fields().left));
        if (left.substr(0, flags.size()) == flags)
            return true;
    }
    for (TSNode c : SemanticModel::within(m.calls(), from, to)) {
        const TSNode fn = SyntaxTree::field(c, fields().function);
        if (calleeLeafText(m, c) == "setflags" && SyntaxTree::is(fn, "attribute") &&
            m.text(SyntaxTree::field(fn, fields().object)) == name)
            return true;
    }
    return false;
}

} // namespace

const RuleInfo& R205ViewWrite::info() const {
    static const RuleInfo i{
        QStringLiteral("R205"),
        Category::Refactor,
        QStringLiteral("write-to-would-be-view"),
        QStringLiteral("Write to a result that is a view only in NumPy"),
        QStringLiteral("RR-write-through"),
        QStringLiteral("Finds writes into the result of `np.flip`/`fliplr`/`flipud`, `ravel`, "
                       "`.flat`, and `np.diag`/`diagonal` made writable: `d[0] = v`, `d += v`, "
                       "`d.fill(v)`, `out=d`, `a.flat[k] = v`, `a.ravel()[i] = v`, when the "
                       "original array is seen again (a parameter, an attribute, or read after "
                       "the write). Read-only use stays silent, and so do `.flatten()` and "
                       "`np.diag` of a vector, which copy in NumPy as well."),
        QStringLiteral("NumPy hands back a view here, so writing through it changes the "
                       "original array; cuPyNumeric hands back a copy, so the same write "
                       "silently leaves the original untouched. The program keeps running "
                       "with different results."),
        QStringLiteral("flat = grid.ravel()\n"
                       "flat[edge_ids] = 0.0      # meant to clear cells of grid"),
        QStringLiteral("grid[np.unravel_index(edge_ids, grid.shape)] = 0.0"),
        false};
    return i;
}

namespace {
// Whether `object` (an identifier) is given attributes no ndarray has in its function:
// `group.e0 = e0` next to `group.flat = flat` makes `group` a record object.
bool recordObject(const SemanticModel& m, TSNode object) {
    if (!SyntaxTree::is(object, "identifier"))
        return false;
    const FunctionRegion* f = m.enclosingFunctionRegion(object);
    if (!f)
        return false;
    static constexpr std::string_view arrayAttributes[] = {
        "flat",    "shape",    "dtype",  "size",   "ndim",    "T",        "real", "imag",
        "strides", "itemsize", "nbytes", "base",   "flags",   "mask",     "data", "fill",
        "ravel",   "reshape",  "copy",   "astype", "view",    "sum",      "max",  "min",
        "mean",    "any",      "all",    "put",    "itemset", "setflags",
    };
    const std::string_view name = m.text(object);
    for (const TSNode a : SemanticModel::within(m.attributes(), f->startByte, f->endByte)) {
        const TSNode o = SyntaxTree::field(a, fields().object);
        if (!SyntaxTree::is(o, "identifier") || m.text(o) != name)
            continue;
        const std::string_view leaf = m.text(SyntaxTree::field(a, fields().attribute));
        if (leaf.substr(0, 2) == "__")
            continue;
        if (std::find(std::begin(arrayAttributes), std::end(arrayAttributes), leaf) ==
            std::end(arrayAttributes))
            return true;
    }
    return false;
}
} // namespace

void R205ViewWrite::check(const RuleContext& ctx, FindingSink& out) const {
    const SemanticModel& m = ctx.model;
    if (!m.importsNumpy())
        return;
    // `.flat` writes: a.flat[k] = v, a.flat = v
    for (TSNode attr : m.attributes()) {
        // `x.flat` ends with its attribute name: a text test before the field lookup.
        const std::string_view whole = m.text(attr);
        if (whole.size() < 4 || whole.substr(whole.size() - 4) != "flat" ||
            m.text(SyntaxTree::field(attr, fields().attribute)) != "flat")
            continue;
        const TSNode object = SyntaxTree::field(attr, fields().object);
        const ValueKind k = m.valueKind(object);
        if (k != ValueKind::Array && k != ValueKind::Unknown)
            continue;
        const TSNode p = ts_node_parent(attr);
        // `a.flat = v` fills an array only when `a` is one; on a record object
        // (`group.flat = flat` beside `group.e0 = e0`) it sets an attribute.
        const bool wholeAssign = SyntaxTree::is(p, "assignment") &&
                                 ts_node_eq(SyntaxTree::field(p, fields().left), attr) &&
                                 (k == ValueKind::Array || !recordObject(m, object));
        if ((wholeAssign || isWriteTarget(m, attr)) &&
            originObserved(m, object, ts_node_end_byte(p)))
            out.report(ts_node_parent(attr),
                       QStringLiteral("writes through `%1.flat`, which is a copy on cuPyNumeric; "
                                      "`%1` itself is not changed")
                           .arg(shortCode(m, object, 32)));
    }
    for (TSNode call : m.calls()) {
        const QString source = viewSource(m, call);
        if (source.isEmpty())
            continue;
        // Direct: np.flip(a)[0] = v
        if (isWriteTarget(m, call)) {
            if (isDiagonal(m, call) ||
                !originObserved(m, originOf(m, call), ts_node_end_byte(ts_node_parent(call))))
                continue;
            out.report(ts_node_parent(call),
                       QStringLiteral("writes into the result of `%1`, a copy on cuPyNumeric; "
                                      "the original array is not changed")
                           .arg(source));
            continue;
        }
        const TSNode assign = assignmentOf(m, call);
        if (ts_node_is_null(assign))
            continue;
        const TSNode left = SyntaxTree::field(assign, fields().left);
        if (!SyntaxTree::is(left, "identifier"))
            continue;
        const std::string_view name = m.text(left);
        // `b = b.ravel()`: the original is no longer reachable under its name; later writes
        // target the flattened array itself.
        if (m.text(originOf(m, call)) == name)
            continue;
        const FunctionRegion* fn = m.enclosingFunctionRegion(call);
        const uint32_t from = ts_node_end_byte(assign);
        uint32_t to = fn ? fn->endByte : ts_node_end_byte(m.tree().root());
        // stop at the next rebinding of the name
        for (TSNode rhs : bindingsOf(m, name, call)) {
            const uint32_t at = ts_node_start_byte(rhs);
            if (at > from && at < to)
                to = at;
        }
        // Candidates: subscripts with the name as value, augmented assignments, keyword
        // arguments, method calls and copyto-like calls; all contain an identifier `name`.
        TSNode write{};
        auto consider = [&](TSNode candidate) {
            if (!ts_node_is_null(write) || m.enclosingFunctionRegion(candidate) != fn)
                return;
            if (isWriteTarget(m, candidate))
                write = candidate;
        };
        for (TSNode s : SemanticModel::within(m.subscripts(), from, to)) {
            const TSNode v = SyntaxTree::field(s, fields().value);
            if (SyntaxTree::is(v, "identifier") && m.text(v) == name)
                consider(v);
        }
        for (TSNode a : SemanticModel::within(m.augmentedAssignments(), from, to)) {
            const TSNode l = SyntaxTree::field(a, fields().left);
            if (SyntaxTree::is(l, "identifier") && m.text(l) == name)
                consider(l);
        }
        for (TSNode kw : SemanticModel::within(m.keywordArguments(), from, to)) {
            const TSNode v = SyntaxTree::field(kw, fields().value);
            if (SyntaxTree::is(v, "identifier") && m.text(v) == name)
                consider(v);
        }
        for (TSNode c : SemanticModel::within(m.calls(), from, to)) {
            const TSNode fnNode = SyntaxTree::field(c, fields().function);
            if (SyntaxTree::is(fnNode, "attribute")) {
                const TSNode obj = SyntaxTree::field(fnNode, fields().object);
                if (SyntaxTree::is(obj, "identifier") && m.text(obj) == name)
                    consider(obj);
            }
            const TSNode a0 = SemanticModel::argument(c, 0);
            if (SyntaxTree::is(a0, "identifier") && m.text(a0) == name)
                consider(a0);
        }
        if (ts_node_is_null(write) ||
            !originObserved(m, originOf(m, call), ts_node_end_byte(write)))
            continue;
        if (isDiagonal(m, call) && !madeWritable(m, name, from, ts_node_start_byte(write)))
            continue;
        out.reportAbout(call, call,
                        QStringLiteral("`%1` is written on line %2 but comes from `%3`, a copy "
                                       "on cuPyNumeric: the original array will not change")
                            .arg(m.tree().qtext(left))
                            .arg(SyntaxTree::line(write))
                            .arg(source));
    }
}

} // namespace cnready
