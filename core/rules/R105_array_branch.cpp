#include "rules/R105_array_branch.h"

#include "parse/SyntaxTree.h"
#include "rules/BlocksSupport.h"
#include "rules/R101_element_loop.h"
#include "semantic/SemanticModel.h"

#include <optional>

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
                       "as whole-array code turns the branch into `np.where`."),
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

void R105ArrayBranch::check(const RuleContext& ctx, FindingSink& out) const {
    const SemanticModel& m = ctx.model;
    if (!m.importsNumpy())
        return;
    // R101's element loops, computed on the first branch on an element.
    std::optional<std::map<int, TSNode>> elements;
    // Reported at the condition: a `while` condition runs once per iteration of its own loop.
    auto test = [&](TSNode stmt, TSNode cond, const char* what, bool ownLoop) {
        if (ts_node_is_null(cond))
            return;
        // An input check that only raises, outside any loop of its own function, runs once
        // per call: the function may be hot through its callers, but the check is not
        // iteration control and the RR-converge recipe has nothing to offer for it. Inside a
        // loop of the same function it runs every pass and is still reported.
        if (!ts_node_is_null(stmt) && !m.inLoop(cond) && blocks::isValidationGuard(stmt))
            return;
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
        // `for i in range(n): if a[i] > 0: ...`: the branch is on the element of a loop that
        // R101 reports; the one fix (RR-loop: the loop becomes whole-array code and the `if` a
        // `np.where`) removes both, so the branch is not a second blocker.
        if (SyntaxTree::is(found, "subscript") && m.inLoop(found)) {
            if (!elements)
                elements = elementLoops(m);
            const auto& loops = m.loops();
            for (const LoopInfo* cur = m.enclosingLoop(found); cur;
                 cur = cur->parent >= 0 ? &loops[size_t(cur->parent)] : nullptr)
                if (elements->count(cur->index) && isElementAccessOf(m, found, *cur))
                    return;
        }
        const bool reduction = m.isArrayReduction(found) || SyntaxTree::is(found, "call");
        out.report(cond, QStringLiteral("%1 on %2 waits for the device every time it is "
                                        "evaluated (%3)")
                             .arg(QLatin1String(what), blocks::quoted(m, found),
                                  reduction ? QStringLiteral("array reduction")
                                  : SyntaxTree::is(found, "subscript")
                                      ? QStringLiteral("array element")
                                      : QStringLiteral("device scalar")));
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
