#include "rules/R202_rebind_in_loop.h"

#include "parse/SyntaxTree.h"
#include "rules/RuleSupport.h"
#include "semantic/SemanticModel.h"
#include "semantic/Walk.h"

#include <algorithm>
#include <iterator>

namespace cnready {

using namespace rules;

namespace {

// Operators that have an in-place form with the same result shape (`+=`, `*=`, ...).
bool hasInPlaceForm(std::string_view op) {
    return op == "+" || op == "-" || op == "*" || op == "/" || op == "//" || op == "%" ||
           op == "**" || op == "&" || op == "|" || op == "^";
}

// NumPy ufuncs that accept `out=` and keep the operands' shape.
bool isBinaryUfunc(const QString& name) {
    static const QStringList names = {
        QStringLiteral("numpy.add"),         QStringLiteral("numpy.subtract"),
        QStringLiteral("numpy.multiply"),    QStringLiteral("numpy.divide"),
        QStringLiteral("numpy.true_divide"), QStringLiteral("numpy.floor_divide"),
        QStringLiteral("numpy.power"),       QStringLiteral("numpy.maximum"),
        QStringLiteral("numpy.minimum"),     QStringLiteral("numpy.fmax"),
        QStringLiteral("numpy.fmin"),        QStringLiteral("numpy.mod"),
        QStringLiteral("numpy.remainder"),   QStringLiteral("numpy.hypot"),
        QStringLiteral("numpy.logical_and"), QStringLiteral("numpy.logical_or"),
    };
    return names.contains(name);
}

// Whether `target` text is a leaf operand of the arithmetic tree rooted at `expr` (descending
// only through in-place-capable binary operators and parentheses). Bounded by an explicit stack.
bool operandOf(const SemanticModel& m, TSNode expr, std::string_view target) {
    std::vector<TSNode> stack{expr};
    while (!stack.empty()) {
        TSNode n = stack.back();
        stack.pop_back();
        while (SyntaxTree::is(n, "parenthesized_expression") && ts_node_named_child_count(n) == 1)
            n = ts_node_named_child(n, 0);
        if (SyntaxTree::is(n, "binary_operator") &&
            hasInPlaceForm(m.text(SyntaxTree::field(n, fields().operator_)))) {
            stack.push_back(SyntaxTree::field(n, fields().left));
            stack.push_back(SyntaxTree::field(n, fields().right));
            continue;
        }
        if ((SyntaxTree::is(n, "identifier") || SyntaxTree::is(n, "attribute")) &&
            m.text(n) == target)
            return true;
    }
    return false;
}

// Whether `expr` looks built to broadcast against the target (`v[:, None]`, `np.newaxis`,
// `np.moveaxis`, `reshape`, `expand_dims`, ...): then `x = x * v` may grow `x`'s shape and has no
// in-place equivalent. Names are followed to their bindings inside the loop, `depth` levels.
constexpr std::string_view kHints[] = {
    "reshape",    "expand_dims",  "moveaxis", "rollaxis", "swapaxes", "atleast_2d",
    "atleast_3d", "broadcast_to", "meshgrid", "outer",    "ix_",
};

bool isHint(std::string_view leaf) {
    return std::find(std::begin(kHints), std::end(kHints), leaf) != std::end(kHints);
}

bool isHint(QStringView leaf) {
    for (std::string_view h : kHints)
        if (leaf == QLatin1String(h.data(), qsizetype(h.size())))
            return true;
    return false;
}

// A callee leaf that names a reshaping helper: a hint itself, a private helper containing one
// (`_reshape_nd`), or a hint with a suffix (`reshape_like`).
bool hintLike(std::string_view leaf) {
    for (std::string_view h : kHints)
        if (leaf == h || (leaf.substr(0, 1) == "_" && leaf.find(h) != std::string_view::npos) ||
            (leaf.size() > h.size() && leaf.substr(0, h.size()) == h && leaf[h.size()] == '_'))
            return true;
    return false;
}

// A value shaped to stretch another along an axis: rank 2 or more with a literal extent of 1
// (`np.ones([n_samples, 1])`, `w.reshape(-1, 1)` once the model knows it). Multiplying by it
// turns a vector into a matrix, so the product has no in-place form.
bool broadcastShaped(const SemanticModel& m, TSNode n) {
    const Shape s = m.shapeOf(n);
    if (s.rank < 2)
        return false;
    for (int k = 0; k < s.rank && k < Shape::kMaxAxes; ++k)
        if (s.axis(k).isLiteral(1))
            return true;
    return false;
}

bool broadcastHint(const SemanticModel& m, TSNode expr, std::string_view target,
                   const LoopInfo& loop, int depth = 2) {
    bool found = false;
    QList<TSNode> names;
    walkSubtree(expr, [&](TSNode n) {
        if (found)
            return false;
        const auto t = SyntaxTree::type(n);
        if (t == "none" && SyntaxTree::is(ts_node_parent(n), "subscript")) {
            found = true; // v[:, None]
            return false;
        }
        if (t == "attribute" && m.text(SyntaxTree::field(n, fields().attribute)) == "newaxis") {
            found = true;
            return false;
        }
        if (t == "call") {
            // project helpers count too: `_reshape_nd(w, ndim, axis)`
            const std::string_view leaf = calleeLeafText(m, n);
            if (hintLike(leaf) || broadcastShaped(m, n)) {
                found = true;
                return false;
            }
            // a function of this file that reshapes what it returns
            if (depth > 0) {
                const QString leafName = QString::fromUtf8(leaf.data(), qsizetype(leaf.size()));
                for (const FunctionRegion& f : m.functions())
                    if (f.name == leafName && f.parent < 0 && f.className.isEmpty()) {
                        for (TSNode ret : SemanticModel::within(m.returns(), f.node))
                            for (TSNode inner : SemanticModel::within(m.calls(), ret))
                                if (isHint(leafView(m.callName(inner))) ||
                                    isHint(calleeLeafText(m, inner)))
                                    found = true;
                        break;
                    }
            }
            if (found)
                return false;
        }
        if (t == "identifier" && m.text(n) != target)
            names << n;
        return true;
    });
    if (found || depth <= 0)
        return found;
    for (TSNode n : names)
        for (TSNode rhs : bindingsOf(m, m.text(n), n))
            if (loop.hotContains(ts_node_start_byte(rhs)) &&
                broadcastHint(m, rhs, target, loop, depth - 1))
                return true;
    return false;
}

// Whether `target` is also bound, in this function, to a one-element or 0-d array
// (`w = np.array([1.0])`, `acc = np.ones(1)`, `v = np.array(0.0)`) that later products and sums
// broadcast up to full size: the rebind changes the shape, so it has no in-place form.
bool startsAsOneElement(const SemanticModel& m, std::string_view target, TSNode at) {
    for (TSNode rhs : bindingsOf(m, target, at)) {
        if (!SyntaxTree::is(rhs, "call"))
            continue;
        const QString name = m.callName(rhs);
        const TSNode a0 = SemanticModel::argument(rhs, 0);
        if (name == QLatin1String("numpy.array") || name == QLatin1String("numpy.asarray")) {
            if ((SyntaxTree::is(a0, "list") || SyntaxTree::is(a0, "tuple")) &&
                ts_node_named_child_count(a0) == 1)
                return true;
            if (SyntaxTree::is(a0, "integer") || SyntaxTree::is(a0, "float"))
                return true;
        }
        if (name == QLatin1String("numpy.ones") || name == QLatin1String("numpy.zeros") ||
            name == QLatin1String("numpy.empty") || name == QLatin1String("numpy.full")) {
            const auto v = intValue(m, a0, 1);
            if ((v && *v == 1) || m.text(a0) == "()" || m.text(a0) == "(1,)" || m.text(a0) == "[1]")
                return true;
        }
    }
    return false;
}

// Another name keeps the old array alive inside the loop (`prev = x`, `hist.append(x)`): an
// in-place update would change that one too, so the rebind is deliberate.
bool aliased(const SemanticModel& m, std::string_view target, const LoopInfo& loop) {
    for (TSNode a : SemanticModel::within(m.assignments(), loop.hotStart, loop.hotEnd)) {
        if (!SyntaxTree::is(a, "assignment"))
            continue;
        const TSNode right = SyntaxTree::field(a, fields().right);
        const TSNode left = SyntaxTree::field(a, fields().left);
        if (ts_node_is_null(right) || m.text(left) == target)
            continue;
        if (m.text(right) == target)
            return true;
        // `a, b = x, y` tuples holding the old value
        if ((SyntaxTree::is(right, "expression_list") || SyntaxTree::is(right, "tuple")) &&
            mentionsName(m, right, target))
            return true;
    }
    return nameEscapes(m, target, loop);
}

// Whether `target` is still the caller's array when the loop starts: a parameter of the
// function around the loop that no statement before the loop rebinds to a copy
// (`x = x.copy()`, `x = np.array(x)`, `x = x * 1.0`). `np.asarray(x)` keeps the caller's array.
bool callersArray(const SemanticModel& m, std::string_view target, const LoopInfo& loop) {
    const FunctionRegion* f = m.enclosingFunctionRegion(loop.node);
    if (!f)
        return false;
    const QString name = QString::fromUtf8(target.data(), qsizetype(target.size()));
    if (!f->parameters.contains(name) || name == QLatin1String("self"))
        return false;
    for (TSNode a :
         SemanticModel::within(m.assignments(), f->startByte, ts_node_start_byte(loop.node))) {
        if (m.text(SyntaxTree::field(a, fields().left)) != target)
            continue;
        const TSNode right = SyntaxTree::field(a, fields().right);
        if (!SyntaxTree::is(right, "call"))
            return false; // arithmetic or another value: a new array already
        const QString callee = m.callName(right);
        if (callee != QLatin1String("numpy.asarray") &&
            callee != QLatin1String("numpy.asanyarray") &&
            callee != QLatin1String("numpy.atleast_1d") &&
            callee != QLatin1String("numpy.atleast_2d"))
            return false;
    }
    return true;
}

} // namespace

const RuleInfo& R202RebindInLoop::info() const {
    static const RuleInfo i{
        QStringLiteral("R202"),
        Category::Refactor,
        QStringLiteral("rebind-in-loop"),
        QStringLiteral("Array rebound to a new result in a loop"),
        QStringLiteral("RR-inplace"),
        QStringLiteral("Finds `x = x + y`, `x = a * x - b` and `x = np.add(x, y)` inside a loop "
                       "where `x` is an array: each iteration builds a new array and drops the "
                       "old one. Judged on the hot path (not in a loop of a handful of passes). "
                       "Silent on `x += y`, on `np.add(x, y, out=x)`, on buffer swaps, "
                       "on the loop's own variable, and when another name keeps the old array "
                       "(`prev = x`, `history.append(x)`), because an in-place update would "
                       "change that copy too."),
        QStringLiteral("The new result needs a fresh buffer while the old one is still held by "
                       "tasks queued behind it, so memory use grows and the allocator works "
                       "on every step. Updating in place reuses the storage that is already "
                       "there."),
        QStringLiteral("for t in range(steps):\n"
                       "    pos = pos + dt * vel\n"
                       "    vel = np.multiply(vel, damping)"),
        QStringLiteral("for t in range(steps):\n"
                       "    pos += dt * vel\n"
                       "    np.multiply(vel, damping, out=vel)"),
        true};
    return i;
}

void R202RebindInLoop::check(const RuleContext& ctx, FindingSink& out) const {
    const SemanticModel& m = ctx.model;
    if (!m.importsNumpy())
        return;
    for (TSNode a : m.assignments()) {
        if (!SyntaxTree::is(a, "assignment"))
            continue;
        const TSNode left = SyntaxTree::field(a, fields().left);
        TSNode right = SyntaxTree::field(a, fields().right);
        if (!(SyntaxTree::is(left, "identifier") || SyntaxTree::is(left, "attribute")) ||
            ts_node_is_null(right))
            continue;
        const std::string_view target = m.text(left);
        while (SyntaxTree::is(right, "parenthesized_expression") &&
               ts_node_named_child_count(right) == 1)
            right = ts_node_named_child(right, 0);

        // The shape of the right-hand side first: it needs no model lookup, and most
        // assignments are not `x = x op y` / `x = np.ufunc(x, y)`.
        if (SyntaxTree::is(right, "binary_operator")) {
            const auto op = m.text(SyntaxTree::field(right, fields().operator_));
            if (!hasInPlaceForm(op) || !operandOf(m, right, target))
                continue;
        } else if (SyntaxTree::is(right, "call")) {
            const QString name = m.callName(right);
            if (!isBinaryUfunc(name) || hasKeyword(m, right, "out"))
                continue;
            const auto args = positionalArguments(right);
            bool direct = false;
            for (qsizetype k = 0; k < 2 && k < args.size() && !direct; ++k)
                direct = !ts_node_is_null(args[k]) && m.text(args[k]) == target;
            if (!direct)
                continue;
        } else {
            continue;
        }
        const LoopInfo* loop = m.enclosingLoop(a);
        if (!loop || loop->kind == LoopKind::Comprehension)
            continue;
        const QString targetText = m.tree().qtext(left);
        const QString form = QStringLiteral("`%1`").arg(shortCode(m, a));
        if (!m.isArray(left) && !m.isArray(right))
            continue;
        if (loop->variables.contains(targetText) || aliased(m, target, *loop) ||
            (SyntaxTree::is(left, "identifier") && startsAsOneElement(m, target, a)))
            continue;
        // The other operands may be shaped to broadcast and grow the target.
        bool grows = false;
        if (SyntaxTree::is(right, "binary_operator") || SyntaxTree::is(right, "call"))
            grows = broadcastHint(m, right, target, *loop);
        if (grows)
            continue;
        QString message = QStringLiteral("%1 allocates a new `%2` on every iteration; update "
                                         "it in place (`+=`, `out=%2`)")
                              .arg(form, targetText);
        if (SyntaxTree::is(left, "identifier") && callersArray(m, target, *loop))
            message += QStringLiteral(", but `%1` is a parameter, the caller's array: in place "
                                      "would change it for the caller too, so copy it once "
                                      "before the loop (`%1 = %1.copy()`) first")
                           .arg(targetText);
        out.reportAbout(left, a, message);
    }
}

} // namespace cnready
