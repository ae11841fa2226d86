#include "rules/R105_array_branch.h"

#include "parse/SyntaxTree.h"
#include "rules/BlocksSupport.h"
#include "rules/R101_element_loop.h"
#include "rules/RuleSupport.h"
#include "semantic/LoopWork.h"
#include "semantic/SemanticModel.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cnready {

const RuleInfo& R105ArrayBranch::info() const {
    static const RuleInfo i{
        QStringLiteral("R105"),
        Category::Blocks,
        QStringLiteral("branch-on-array-value"),
        QStringLiteral("Branching on an array value inside a loop"),
        QStringLiteral("RR-converge"),
        QStringLiteral("Finds `if` / `elif` / `while` / conditional expressions / `assert` "
                       "whose condition reduces an array (`np.max(r) > tol`, `mask.any()`, "
                       "`np.allclose(a, b)`) or reads one of its elements (`a[i] > 0`), when "
                       "they run in a hot path, and `while` loops whose own condition reduces "
                       "an array. A NumPy reduction (`np.linalg.norm(r)`, `np.max(x)`) of a value "
                       "whose kind is unknown, e.g. derived from unannotated parameters, counts "
                       "too where the condition runs once per iteration of a loop of its own "
                       "function: the array runtime returns a device scalar whatever it is "
                       "given. Conditions on Python numbers, shapes (also an array made from "
                       "a shape, `np.asarray(a.shape) < w`) or loop counters are fine, and so "
                       "are input checks that only raise (`if np.any(x < 0): raise ...`, "
                       "`assert`) outside the loops of their own function: they run once per "
                       "call. A branch on the element of a loop that R101 reports "
                       "(`for i in range(n): if a[i] > 0:`) is left to R101: rewriting the loop "
                       "as whole-array code turns the branch into `np.where`. A test behind "
                       "an every-N check (`if it % 50 == 0 and np.linalg.norm(r) < tol:`, or "
                       "inside `if it % 50 == 0:`) is the recipe's own form and stays silent. "
                       "Two recipes: a stopping test (a `while` on a reduction, or an `if` on a "
                       "reduction in a loop that breaks or returns, or compares it with a "
                       "tolerance) points to RR-converge; a branch that chooses what to compute "
                       "(`if mask.any():`, an element compared or used as a dictionary key, a "
                       "conditional expression, an assert) points to RR-branch: a mask, a "
                       "decision made once before the loop, or accepting the wait when the "
                       "loop runs few passes."),
        QStringLiteral("Python has to know the truth value now, so the host stops and waits "
                       "for the reduction (and everything queued before it) to finish. In a "
                       "loop this turns an asynchronous pipeline into lock-step: one full "
                       "device round-trip per iteration."),
        QStringLiteral("while np.linalg.norm(r) > tol:\n"
                       "    x, r = step(x, r)"),
        QStringLiteral("for it in range(max_iter):\n"
                       "    x, r = step(x, r)\n"
                       "    if it % 50 == 0 and float(np.linalg.norm(r)) <= tol:  # rare check\n"
                       "        break"),
        true};
    return i;
}

namespace {

bool isOperator(TSNode n, std::string_view op) {
    const uint32_t k = ts_node_child_count(n);
    for (uint32_t i = 0; i < k; ++i) {
        const TSNode c = ts_node_child(n, i);
        if (!ts_node_is_named(c) && SyntaxTree::type(c) == op)
            return true;
    }
    return false;
}

// Whether parent `p` of `at` keeps `at`'s value a number: parentheses, arithmetic, `x[k]` and
// `x.real` of it, or a method call on it (`x.item()`, `x.any()`).
bool keepsNumber(TSNode p, TSNode at) {
    const std::string_view t = SyntaxTree::type(p);
    return t == "parenthesized_expression" || t == "binary_operator" || t == "unary_operator" ||
           (t == "subscript" && ts_node_eq(SyntaxTree::field(p, "value"), at)) ||
           (t == "attribute" && ts_node_eq(SyntaxTree::field(p, "object"), at)) ||
           (t == "call" && SyntaxTree::is(at, "attribute") &&
            ts_node_eq(SyntaxTree::field(p, "function"), at));
}

// What the condition does with the device value `found`, as the finding's sentence: the
// reader should recognise the code (`if node in index_map` looks an element up in a dict; it
// does not branch on the element's truth). `what` is "if", "while", ...; `kind` says what
// `found` is ("array element", ...).
QString describeUse(const SemanticModel& m, TSNode cond, TSNode found, const QString& what,
                    const QString& kind) {
    QString f = blocks::quoted(m, found);
    const QString tail =
        QStringLiteral(" waits for the device every time it is evaluated (%1)").arg(kind);
    // Climb through what keeps the value a number: parentheses, `x[k]` of it, `x.real`,
    // arithmetic, and numeric builtins (`abs(x)`, `float(x)`).
    TSNode at = found;
    for (int budget = 32; budget > 0 && !ts_node_eq(at, cond); --budget) {
        const TSNode p = ts_node_parent(at);
        if (ts_node_is_null(p))
            break;
        const std::string_view t = SyntaxTree::type(p);
        if (keepsNumber(p, at)) {
            at = p;
            continue;
        }
        if (t == "argument_list") {
            const TSNode call = ts_node_parent(p);
            const TSNode fn = SyntaxTree::field(call, "function");
            const std::string_view name = m.text(fn);
            // NumPy functions and numeric builtins keep it a number: the call is the value.
            if ((SyntaxTree::is(fn, "identifier") &&
                 (name == "abs" || name == "float" || name == "int" || name == "round" ||
                  name == "bool" || name == "complex" || name == "any" || name == "all" ||
                  name == "min" || name == "max" || name == "sum")) ||
                m.canonicalName(fn).startsWith(QLatin1String("numpy."))) {
                at = call;
                f = blocks::quoted(m, call);
                continue;
            }
            return QStringLiteral("%1 passes %2 to %3, which%4")
                .arg(what, f, blocks::quoted(m, fn), tail);
        }
        if (t == "comparison_operator") {
            if (isOperator(p, "in") || isOperator(p, "not in")) {
                const TSNode left = ts_node_named_child(p, 0);
                const TSNode right = ts_node_named_child(p, 1);
                if (ts_node_eq(left, at) && !ts_node_is_null(right))
                    return QStringLiteral("%1 looks %2 up in %3, which needs its value on the "
                                          "host and%4")
                        .arg(what, f, blocks::quoted(m, right), tail);
                return QStringLiteral("%1 searches %2 for a value on the host, which%3")
                    .arg(what, f, tail);
            }
            if (isOperator(p, "is") || isOperator(p, "is not"))
                break;
            return QStringLiteral("%1 compares %2 on the host, which%3").arg(what, f, tail);
        }
        if (t == "subscript") { // `d[x]`: the value is an index or a key
            return QStringLiteral("%1 uses %2 as a key or index of %3, which needs its value on "
                                  "the host and%4")
                .arg(what, f, blocks::quoted(m, SyntaxTree::field(p, "value")), tail);
        }
        if (t == "boolean_operator" || t == "not_operator") {
            at = cond; // a truth test, possibly among others
            break;
        }
        break;
    }
    if (ts_node_eq(at, cond) || SyntaxTree::is(cond, "not_operator") ||
        SyntaxTree::is(cond, "boolean_operator"))
        return QStringLiteral("%1 tests the truth of %2, which%3").arg(what, f, tail);
    return QStringLiteral("%1 on %2%3").arg(what, f, tail);
}

// The comparison the device value `found` feeds, climbing through what keeps it a number (as
// describeUse does), or a null node when it is tested for truth, used as a key, passed on, ...
TSNode comparisonOf(const SemanticModel& m, TSNode cond, TSNode found) {
    TSNode at = found;
    for (int budget = 32; budget > 0 && !ts_node_eq(at, cond); --budget) {
        const TSNode p = ts_node_parent(at);
        if (ts_node_is_null(p))
            break;
        const std::string_view t = SyntaxTree::type(p);
        if (t == "comparison_operator")
            return p;
        if (keepsNumber(p, at)) {
            at = p;
            continue;
        }
        if (t == "argument_list") { // abs(x), np.abs(x), float(x): still the number
            const TSNode call = ts_node_parent(p);
            const TSNode fn = SyntaxTree::field(call, "function");
            const std::string_view name = m.text(fn);
            if ((SyntaxTree::is(fn, "identifier") &&
                 (name == "abs" || name == "float" || name == "int" || name == "round")) ||
                m.canonicalName(fn).startsWith(QLatin1String("numpy."))) {
                at = call;
                continue;
            }
        }
        break;
    }
    return {};
}

// A bound a residual is compared with: a name or attribute such as `tol`, `self.eps`,
// `atol * scale`, `threshold`, or a small float literal written with a negative exponent
// (`1e-8`).
bool looksLikeTolerance(const SemanticModel& m, TSNode e) {
    std::string text(m.text(e));
    for (char& ch : text)
        ch = char(std::tolower(static_cast<unsigned char>(ch)));
    for (const char* w : {"tol", "eps", "thresh", "conv", "crit", "precision"})
        if (text.find(w) != std::string::npos)
            return true;
    const size_t e10 = text.find("e-");
    return e10 != std::string::npos && e10 > 0 &&
           std::isdigit(static_cast<unsigned char>(text[e10 - 1]));
}

// What the block of `stmt` (an if / elif) does with the loop, from its own statements: 1 when
// it leaves it (`break`, `return`), -1 when it skips to the next item (`continue`: a filter,
// a choice per item), 0 otherwise.
int loopExit(TSNode stmt) {
    const TSNode body = SyntaxTree::field(stmt, "consequence");
    const uint32_t k = ts_node_named_child_count(body);
    for (uint32_t i = 0; i < k; ++i) {
        const std::string_view t = SyntaxTree::type(ts_node_named_child(body, i));
        if (t == "break_statement" || t == "return_statement")
            return 1;
        if (t == "continue_statement")
            return -1;
    }
    return 0;
}

// Whether the branch is a convergence test, RR-converge's case: a reduction (or a scalar
// bound to one) that a `while` tests to go on, or that an `if` in a loop of its own function
// tests to stop (its block breaks or returns) or compares with a tolerance
// (`np.linalg.norm(r) < tol`) without skipping to the next item (`continue`).
// Everything else (a mask test that picks what to compute, an element used as a key or
// compared, a conditional expression, an assert) is a data-dependent choice: RR-branch.
bool isConvergenceTest(const SemanticModel& m, TSNode stmt, TSNode cond, TSNode found,
                       bool ownLoop) {
    if (SyntaxTree::is(found, "subscript"))
        return false; // an element: a per-item choice, not a residual
    if (ownLoop)
        return true;
    if (ts_node_is_null(stmt) || SyntaxTree::is(stmt, "assert_statement"))
        return false;
    // Outside a loop of its own function an early `return` ends a call, not an iteration.
    if (!m.inLoop(cond))
        return false;
    const int exit = loopExit(stmt);
    if (exit != 0)
        return exit > 0;
    const TSNode cmp = comparisonOf(m, cond, found);
    if (ts_node_is_null(cmp))
        return false;
    bool ordering = false;
    const uint32_t k = ts_node_child_count(cmp);
    for (uint32_t i = 0; i < k; ++i) {
        const TSNode c = ts_node_child(cmp, i);
        if (ts_node_is_named(c))
            continue;
        const std::string_view op = SyntaxTree::type(c);
        ordering = ordering || op == "<" || op == "<=" || op == ">" || op == ">=";
    }
    if (!ordering)
        return false;
    // Either side: `cost_change < tol * cost` scales the bound by the device value itself.
    const uint32_t n = ts_node_named_child_count(cmp);
    for (uint32_t i = 0; i < n; ++i)
        if (looksLikeTolerance(m, ts_node_named_child(cmp, i)))
            return true;
    return false;
}

} // namespace

namespace {

// Whether the identifier `name` (read in a pass of `loop`) is bound earlier in that pass by an
// assignment whose value (its own element of a tuple assignment) reads an element of the loop:
// `qxk = qx[k]`, `qxk, qyk = qx[k], qy[k]`, `diff = cdf[i] - cdf[i - 1] - limit`.
bool boundFromElement(const SemanticModel& m, TSNode name, const LoopInfo& loop) {
    const std::string_view text = m.text(name);
    const uint32_t at = ts_node_start_byte(name);
    for (const TSNode a : SemanticModel::within(m.assignments(), loop.startByte, at)) {
        TSNode left = SyntaxTree::field(a, "left");
        TSNode right = SyntaxTree::field(a, "right");
        if (ts_node_is_null(left) || ts_node_is_null(right) || ts_node_end_byte(a) > at)
            continue;
        if (SyntaxTree::is(left, "pattern_list") || SyntaxTree::is(left, "tuple_pattern")) {
            const uint32_t k = ts_node_named_child_count(left);
            if (!(SyntaxTree::is(right, "expression_list") || SyntaxTree::is(right, "tuple")) ||
                ts_node_named_child_count(right) != k)
                continue;
            TSNode value{};
            for (uint32_t i = 0; i < k; ++i)
                if (m.text(ts_node_named_child(left, i)) == text)
                    value = ts_node_named_child(right, i);
            if (ts_node_is_null(value))
                continue;
            left = name;
            right = value;
        } else if (!SyntaxTree::is(left, "identifier") || m.text(left) != text) {
            continue;
        }
        for (const TSNode sub : SemanticModel::within(m.subscripts(), right))
            if (isElementAccessOf(m, sub, loop))
                return true;
    }
    return false;
}

} // namespace

void R105ArrayBranch::check(const RuleContext& ctx, FindingSink& out) const {
    const SemanticModel& m = ctx.model;
    if (!m.importsNumpy())
        return;
    // Loop index → whether R101 counts it as an element loop; asked per loop (only for
    // loops with a branch on their element), each answer reads that loop's nodes only.
    std::map<int, bool> elementLoop;
    std::optional<std::vector<blocks::ObjectArrayBinding>> objects;
    // Behind an every-N test the branch syncs once per N passes: RR-converge's own form.
    const std::vector<std::pair<uint32_t, uint32_t>> amortized = blocks::everyNthPassSpans(m);
    // Reported at the condition: a `while` condition runs once per iteration of its own loop.
    auto test = [&](TSNode stmt, TSNode cond, const char* what, bool ownLoop) {
        if (ts_node_is_null(cond))
            return;
        // An input check outside any loop of its own function (SemanticModel::
        // isValidationGuard) runs once per call: its test has the path role Setup, so
        // FindingSink keeps the branch out of the count even when the function is hot.
        // The condition must read a device value itself: a reduction, an element read, or a
        // name bound to one, also through `.item()` / `float()` inside the condition.
        // Lengths and shapes (`len(a[idx]) == 0`) are host values; a value converted on an
        // earlier line (`e = float(np.max(r))`, then `if e < tol`) is R104's business.
        TSNode found{};
        // A NumPy reduction of a value of unknown kind (`np.linalg.norm(r)` with `r` derived
        // from unannotated parameters) also returns a device scalar; it counts where the
        // condition runs once per iteration of a loop of its own function.
        const bool perIteration = ownLoop || m.inLoop(cond);
        if (!blocks::readsDeviceValue(m, cond, &found, perIteration))
            return; // an array-valued condition without a reduction or element read
        if (blocks::insideAny(amortized, found))
            return;
        // `for i in range(n): if a[i] > 0: ...`: the branch is on the element of a loop that
        // R101 reports; the one fix (RR-loop: the loop becomes whole-array code and the `if` a
        // `np.where`) removes both, so the branch is not a second blocker. Unless the branch
        // guards a call that takes an element (`if mask[ijk]: out[ijk] = fit_one(data[ijk])`):
        // the arithmetic rewrite does not remove that call, and the branch decides which
        // elements it runs on (a mask to apply first, RR-mask), a choice of its own.
        // A name the pass binds from the loop's element (`qxk, qyk = qx[k], qy[k]`, then
        // `if abs(qxk) > eps:`; `diff = cdf[i] - cdf[i - 1] - limit`, then `if diff < 0:`) is
        // that element too.
        if ((SyntaxTree::is(found, "subscript") || SyntaxTree::is(found, "identifier")) &&
            m.inLoop(found)) {
            const auto& loops = m.loops();
            for (const LoopInfo* cur = m.enclosingLoop(found); cur;
                 cur = cur->parent >= 0 ? &loops[size_t(cur->parent)] : nullptr) {
                if (SyntaxTree::is(found, "subscript") ? !isElementAccessOf(m, found, *cur)
                                                       : !boundFromElement(m, found, *cur))
                    continue;
                auto [known, fresh] = elementLoop.try_emplace(cur->index, false);
                if (fresh)
                    known->second = !elementLoops(m, cur, &objects).empty();
                const TSNode guarded = SyntaxTree::field(stmt, "consequence");
                const auto& calls = m.loopWork(*cur).elementCalls;
                const bool guardsCall = !ts_node_is_null(guarded) &&
                                        std::any_of(calls.begin(), calls.end(), [&](TSNode c) {
                                            return rules::contains(guarded, c);
                                        });
                if (known->second && !guardsCall)
                    return;
            }
        }
        // `for x_pos in self.pos_x: if x_pos != first: ... break`: a branch on the item of a
        // loop over a data array, the loop R103 reports; vectorising the walk removes both.
        if (const LoopInfo* L = m.enclosingLoop(cond);
            L && (L->source == LoopSource::Array || L->source == LoopSource::NdIter) &&
            m.usesLoopVariable(cond, *L) && m.loopWork(*L).work != PassWork::Slab &&
            !m.isBookkeepingArray(L->iterable))
            return;
        const bool reduction = m.isArrayReduction(found) || SyntaxTree::is(found, "call");
        const QString use =
            describeUse(m, cond, found, QLatin1String(what),
                        reduction                            ? QStringLiteral("array reduction")
                        : SyntaxTree::is(found, "subscript") ? QStringLiteral("array element")
                                                             : QStringLiteral("device scalar"));
        // The recipe follows what the test is for: stopping an iteration (RR-converge) or
        // choosing what to compute (RR-branch, variant 1).
        if (isConvergenceTest(m, stmt, cond, found, ownLoop))
            out.reportAbout(found, cond, use + QStringLiteral("; a stopping test"));
        else
            out.reportAbout(found, cond,
                            use + QStringLiteral("; a choice on the data, not a stopping test"), 1);
    };
    for (const TSNode n : m.ifs())
        test(n, SyntaxTree::field(n, "condition"), SyntaxTree::is(n, "elif_clause") ? "elif" : "if",
             false);
    for (const TSNode n : m.whiles())
        test(TSNode{}, SyntaxTree::field(n, "condition"), "while", true);
    for (const TSNode n : m.ternaries())
        test(TSNode{}, ts_node_named_child(n, 1), "conditional expression", false);
    for (const TSNode n : m.asserts())
        test(n, ts_node_named_child(n, 0), "assert", false);
}

} // namespace cnready
