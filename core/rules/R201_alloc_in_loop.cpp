#include "rules/R201_alloc_in_loop.h"

#include "parse/SyntaxTree.h"
#include "rules/RuleSupport.h"
#include "semantic/SemanticModel.h"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <optional>
#include <vector>

namespace cnready {

using namespace rules;

namespace {

// `ixs = np.arange(1, n_layers - 1)` followed by `for ix in ixs:` and no other use: the array
// is a range written with NumPy, walked once by the loop after it. Allocating it again per
// pass costs one small array; the loop it drives is what a rule would judge (R103).
bool onlyLoopRange(const SemanticModel& m, std::string_view name, const LoopInfo& outer) {
    if (SyntaxTree::is(outer.node, "list_comprehension") || ts_node_is_null(outer.body))
        return false;
    int ranges = 0;
    for (const LoopInfo& L : m.loops())
        if (L.parent >= 0 && ts_node_start_byte(L.node) >= outer.hotStart &&
            ts_node_end_byte(L.node) <= outer.hotEnd && m.text(L.iterable) == name)
            ++ranges;
    if (ranges == 0)
        return false;
    // Every other mention of the name in the pass is its own assignment.
    const std::string_view body = m.text(outer.body);
    const auto identChar = [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               c == '_';
    };
    int uses = 0;
    for (size_t at = body.find(name); at != std::string_view::npos;
         at = body.find(name, at + name.size()))
        if ((at == 0 || !identChar(body[at - 1])) &&
            (at + name.size() >= body.size() || !identChar(body[at + name.size()])))
            ++uses;
    int assigns = 0;
    for (const TSNode a : SemanticModel::within(m.assignments(), outer.hotStart, outer.hotEnd))
        if (m.text(SyntaxTree::field(a, fields().left)) == name)
            ++assigns;
    return uses == ranges + assigns;
}

enum class AllocKind { None, Shape, Prototype, Values, Draw };

// Which allocation a canonical call name is, and how its shape is given.
AllocKind allocationKind(const QString& name) {
    if (!name.startsWith(QLatin1String("numpy.")))
        return AllocKind::None; // every kind below is a NumPy name: most calls stop here
    static const QStringList shaped = {
        QStringLiteral("numpy.zeros"), QStringLiteral("numpy.ones"),
        QStringLiteral("numpy.empty"), QStringLiteral("numpy.full"),
        QStringLiteral("numpy.eye"),   QStringLiteral("numpy.identity"),
    };
    static const QStringList protos = {
        QStringLiteral("numpy.zeros_like"), QStringLiteral("numpy.ones_like"),
        QStringLiteral("numpy.empty_like"), QStringLiteral("numpy.full_like"),
        QStringLiteral("numpy.copy"),       QStringLiteral("numpy.ndarray.copy"),
    };
    static const QStringList values = {
        QStringLiteral("numpy.array"),
        QStringLiteral("numpy.arange"),
        QStringLiteral("numpy.linspace"),
        QStringLiteral("numpy.logspace"),
    };
    if (shaped.contains(name))
        return AllocKind::Shape;
    if (protos.contains(name))
        return AllocKind::Prototype;
    if (values.contains(name))
        return AllocKind::Values;
    if (name.startsWith(QLatin1String("numpy.random.")) &&
        name != QLatin1String("numpy.random.seed") &&
        name != QLatin1String("numpy.random.default_rng") &&
        name != QLatin1String("numpy.random.RandomState") &&
        name != QLatin1String("numpy.random.Generator") &&
        !name.startsWith(QLatin1String("numpy.random.Generator.spawn")))
        return AllocKind::Draw;
    return AllocKind::None;
}

// Whether an `if`/`elif`/ternary inside the loop guards the allocation so that it does not run
// on every iteration: lazy initialisation (`if buf is None: buf = np.zeros(n)`) mentions the
// target; a first-iteration test (`if step == 0:`) compares a loop variable.
// `path` is pathTo(loop.node, call).
bool guardedByName(const SemanticModel& m, const std::vector<TSNode>& path, const LoopInfo& loop,
                   std::string_view name) {
    for (size_t i = path.size(); i-- > 1;) {
        const TSNode p = path[i];
        if (SyntaxTree::is(p, "if_statement") || SyntaxTree::is(p, "elif_clause") ||
            SyntaxTree::is(p, "conditional_expression")) {
            const TSNode cond = SyntaxTree::is(p, "conditional_expression")
                                    ? ts_node_named_child(p, 1)
                                    : SyntaxTree::field(p, fields().condition);
            if (ts_node_is_null(cond))
                continue;
            if (mentionsName(m, cond, name) || (name.find('.') != std::string_view::npos &&
                                                m.text(cond).find(name) != std::string_view::npos))
                return true;
            // `if step == 0:` — runs on one iteration only.
            if (m.text(cond).find("==") != std::string_view::npos)
                for (const QString& v : loop.variables)
                    if (mentionsName(m, cond, v.toStdString()))
                        return true;
        }
    }
    return false;
}

// Whether the loop hands `name` to a writer on each pass (`np.save(path, buf)`,
// `fh.write(buf.tobytes())`, `json.dump(buf.tolist(), fh)`): every pass fills and saves its
// own output, an I/O loop rather than per-pass scratch (SemanticModel::pathRole).
bool writtenOutPerPass(const SemanticModel& m, std::string_view name, const LoopInfo& loop) {
    for (TSNode c : SemanticModel::within(m.calls(), loop.hotStart, loop.hotEnd)) {
        const TSNode args = SyntaxTree::field(c, fields().arguments);
        if (ts_node_is_null(args) || m.text(args).find(name) == std::string_view::npos ||
            !mentionsName(m, args, name))
            continue;
        if (m.pathRole(c) == PathRole::InputOutput)
            return true;
    }
    return false;
}

bool leavesStatement(TSNode s) {
    const auto t = SyntaxTree::type(s);
    return t == "break_statement" || t == "return_statement" || t == "raise_statement";
}

// Whether the allocation's statement is followed in its own block by `break`, `return` or
// `raise`: it then runs at most once per loop, on the way out. `path` is pathTo(loop.node,
// call): when it is known, the statement and its parent come from it (ts_node_parent() and
// ts_node_next_named_sibling() each re-descend from the root in the tree-sitter we use).
bool leavesLoopRightAfter(const SemanticModel& m, TSNode call, const std::vector<TSNode>& path) {
    // The loop node is a statement, so enclosingStatement(call) is the lowest node of the
    // path that ends the climb, found the way StatementFinder does.
    size_t at = 0;
    for (size_t i = path.size(); i-- > 1;)
        if (endsStatementClimb(path[i], path[i - 1])) {
            at = i;
            break;
        }
    if (at == 0) {
        const TSNode stmt = enclosingStatement(m, call);
        for (TSNode s = ts_node_next_named_sibling(stmt); !ts_node_is_null(s);
             s = ts_node_next_named_sibling(s))
            if (leavesStatement(s))
                return true;
        return false;
    }
    const TSNode stmt = path[at];
    bool after = false;
    for (TSNode s : namedChildren(path[at - 1])) {
        if (after && leavesStatement(s))
            return true;
        after = after || ts_node_eq(s, stmt);
    }
    return false;
}

// Whether the allocation's block restarts the `while` loop around it: a sibling statement sets
// a name the loop's condition reads back to a number (`step = 0` under `while step < steps`).
// Such a branch is the rare recovery after a failed step (halve the rate, start over), not a
// pass of the loop; what it allocates is no per-pass cost. `path` as in leavesLoopRightAfter.
bool restartsLoop(const SemanticModel& m, const std::vector<TSNode>& path, const LoopInfo& loop) {
    if (loop.kind != LoopKind::While || ts_node_is_null(loop.condition))
        return false;
    TSNode block{};
    for (size_t i = path.size(); i-- > 1;)
        if (endsStatementClimb(path[i], path[i - 1])) {
            block = path[i - 1];
            break;
        }
    if (ts_node_is_null(block) || ts_node_eq(block, loop.node))
        return false;
    const std::string_view cond = m.text(loop.condition);
    for (TSNode st : namedChildren(block)) {
        if (!SyntaxTree::is(st, "expression_statement") || ts_node_named_child_count(st) != 1)
            continue;
        const TSNode a = ts_node_named_child(st, 0);
        if (!SyntaxTree::is(a, "assignment"))
            continue;
        const TSNode left = SyntaxTree::field(a, "left");
        const TSNode right = SyntaxTree::field(a, "right");
        if (!SyntaxTree::is(left, "identifier") || !SyntaxTree::is(right, "integer"))
            continue;
        const std::string_view name = m.text(left);
        for (size_t at = cond.find(name); at != std::string_view::npos;
             at = cond.find(name, at + 1)) {
            const auto word = [](char c) {
                return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
            };
            const size_t end = at + name.size();
            if ((at == 0 || !word(cond[at - 1])) && (end >= cond.size() || !word(cond[end])))
                return true;
        }
    }
    return false;
}

// Whether `call` sits under an if/elif/else/try inside the loop: a copy taken only on some
// iterations (`if f < best: x_best = x.copy()`) is a snapshot, not per-iteration scratch.
// `path` is pathTo(loop.node, call).
bool conditionalInLoop(const std::vector<TSNode>& path) {
    for (size_t i = path.size(); i-- > 1;) {
        const auto t = SyntaxTree::type(path[i]);
        if (t == "if_statement" || t == "elif_clause" || t == "else_clause" ||
            t == "except_clause" || t == "conditional_expression")
            return true;
    }
    return false;
}

} // namespace

const RuleInfo& R201AllocationInLoop::info() const {
    static const RuleInfo i{
        QStringLiteral("R201"),
        Category::Refactor,
        QStringLiteral("allocation-in-loop"),
        QStringLiteral("Allocation with a fixed shape inside a loop"),
        QStringLiteral("RR-alloc"),
        QStringLiteral(
            "Finds array allocations that run on every iteration although their "
            "shape does not change in the loop: `zeros/ones/empty/full`, the "
            "`*_like` family, `eye`, `array`/`arange`/`linspace` of loop-invariant "
            "values, `copy()` and sized random draws (`rng.normal(size=n)`). "
            "Judged on the hot path: silent in a loop of a handful of passes (a literal range, the "
            "axes of an array, a few configured items) unless its function runs per step. "
            "Stays silent when the allocation is hoisted before the loop, when "
            "its shape depends on the loop variable (then each iteration really "
            "needs a different buffer), when it is collected into a list or "
            "container, and for lazy initialisation guarded by the variable it "
            "fills (`if buf is None:`)."),
        QStringLiteral("Each iteration asks the allocator for a buffer of the same size and "
                       "drops it again; on the GPU this churns the memory pool and adds small "
                       "tasks to every step. One buffer made before the loop, filled in place "
                       "(`out=`, `buf[...] = ...`, `buf.fill(0)`), does the same work once."),
        QStringLiteral("for t in range(steps):\n"
                       "    flux = np.zeros((ny, nx))\n"
                       "    flux[:, 1:] = q[:, 1:] - q[:, :-1]\n"
                       "    q -= dt * flux"),
        QStringLiteral("flux = np.zeros((ny, nx))\n"
                       "for t in range(steps):\n"
                       "    flux[:, 1:] = q[:, 1:] - q[:, :-1]\n"
                       "    q -= dt * flux"),
        true};
    return i;
}

void R201AllocationInLoop::check(const RuleContext& ctx, FindingSink& out) const {
    const SemanticModel& m = ctx.model;
    for (TSNode call : m.calls()) {
        const QString name = m.callName(call);
        const AllocKind kind = allocationKind(name);
        if (kind == AllocKind::None)
            continue;
        const LoopInfo* loop = m.enclosingLoop(call);
        if (!loop || loop->kind == LoopKind::Comprehension)
            continue; // a comprehension collects one array per element on purpose
        // The loop-to-call chain, found once for the three checks that climb it.
        std::optional<std::vector<TSNode>> loopPath;
        const auto pathInLoop = [&]() -> const std::vector<TSNode>& {
            if (!loopPath)
                loopPath = pathTo(loop->node, call);
            return *loopPath;
        };

        // What decides the shape, and is it the same on every iteration?
        bool invariant = false;
        QString shapeText;
        if (kind == AllocKind::Values) {
            const auto args = positionalArguments(call);
            if (args.isEmpty())
                continue;
            invariant = true;
            for (qsizetype k = 0; k < args.size() && invariant; ++k)
                invariant = invariantIn(m, args[k], *loop);
            const TSNode first = args[0];
            // `np.array([], dtype=...)`: an empty accumulator reset for this pass; there is
            // nothing to hoist (growing it is R203's concern).
            if ((SyntaxTree::is(first, "list") || SyntaxTree::is(first, "tuple")) &&
                ts_node_named_child_count(first) == 0)
                continue;
            // np.array of a name: a conversion of existing data; only a literal is a plain
            // constant worth hoisting.
            if (name == QLatin1String("numpy.array") && !SyntaxTree::is(first, "list") &&
                !SyntaxTree::is(first, "tuple"))
                invariant = false;
        } else {
            const TSNode shape = shapeArgument(m, call, name);
            if (ts_node_is_null(shape))
                continue; // a scalar draw, or a shape we cannot see
            shapeText = m.tree().qtext(shape);
            if (kind == AllocKind::Prototype) {
                // a copy of a fresh result (`frombuffer(...).copy()`): its shape is whatever
                // the call returns this time; a snapshot taken only on some iterations
                if (SyntaxTree::is(shape, "call") || conditionalInLoop(pathInLoop()))
                    continue;
                invariant = !usesLoopVar(m, shape, *loop);
            } else
                invariant = invariantIn(m, shape, *loop);
        }
        // A dtype that changes with the iteration needs a different buffer each time.
        TSNode dtype = m.keywordArgument(call, "dtype");
        if (ts_node_is_null(dtype) && kind != AllocKind::Draw && kind != AllocKind::Values) {
            // positional dtype: zeros/ones/empty(shape, dtype), full(shape, fill, dtype),
            // *_like(proto, dtype)
            const QStringView leaf = leafView(name);
            const int at = leaf == QLatin1String("full")                                     ? 2
                           : (leaf == QLatin1String("eye") || leaf == QLatin1String("copy")) ? -1
                           : leaf == QLatin1String("full_like")                              ? 2
                           : leaf == QLatin1String("identity")                               ? 1
                                                                                             : 1;
            if (at > 0 && !isArrayMethod(name))
                dtype = SemanticModel::argument(call, at);
        }
        if (!invariant || (!ts_node_is_null(dtype) && !invariantIn(m, dtype, *loop)))
            continue;
        if (leavesLoopRightAfter(m, call, pathInLoop()) || restartsLoop(m, pathInLoop(), *loop))
            continue;

        // Where does the new array go? The parents come from the loop-to-call chain when it is
        // known (the same nodes ts_node_parent() gives, without a descent from the root each).
        const std::vector<TSNode>& up = pathInLoop();
        const auto parentAt = [&](size_t depth) { // depth 1: the call's parent, 2: its parent
            return up.size() > depth ? up[up.size() - 1 - depth] : TSNode{};
        };
        TSNode assign{};
        if (up.size() >= 2) {
            size_t d = 1;
            TSNode cur = call;
            while (SyntaxTree::is(parentAt(d), "parenthesized_expression"))
                cur = parentAt(d++);
            const TSNode p = parentAt(d);
            if (SyntaxTree::is(p, "assignment") &&
                ts_node_eq(SyntaxTree::field(p, fields().right), cur))
                assign = p;
        } else {
            assign = assignmentOf(call);
        }
        QString target;
        if (!ts_node_is_null(assign)) {
            const TSNode left = SyntaxTree::field(assign, fields().left);
            if (SyntaxTree::is(left, "subscript"))
                continue; // stored into a container / a slot of a bigger array
            if (SyntaxTree::is(left, "identifier") || SyntaxTree::is(left, "attribute"))
                target = m.tree().qtext(left);
        } else {
            // Not bound to a name: an argument of a collecting call, an element of a literal,
            // a return value — all keep the array beyond the iteration.
            TSNode parent = up.size() >= 2 ? parentAt(1) : ts_node_parent(call);
            size_t argsDepth = 2; // the depth of the call whose argument list holds it
            if (SyntaxTree::is(parent, "keyword_argument")) {
                parent = up.size() >= 3 ? parentAt(2) : ts_node_parent(parent);
                argsDepth = 3;
            }
            if (SyntaxTree::is(parent, "list") || SyntaxTree::is(parent, "tuple") ||
                SyntaxTree::is(parent, "set") || SyntaxTree::is(parent, "pair") ||
                SyntaxTree::is(parent, "return_statement") || SyntaxTree::is(parent, "yield") ||
                SyntaxTree::is(parent, "expression_list"))
                continue;
            if (SyntaxTree::is(parent, "argument_list")) {
                const TSNode outer =
                    up.size() > argsDepth ? parentAt(argsDepth) : ts_node_parent(parent);
                static constexpr std::string_view collectors[] = {
                    "append", "extend", "insert", "add", "put", "setdefault",
                };
                const std::string_view leaf = calleeLeafText(m, outer);
                if (std::find(std::begin(collectors), std::end(collectors), leaf) !=
                    std::end(collectors))
                    continue;
                // Handed to a class (`Column(data=np.empty(n))`, `Table([...])`): the new
                // object keeps the buffer, so each pass needs its own.
                if (!leaf.empty() && leaf[0] >= 'A' && leaf[0] <= 'Z')
                    continue;
            }
        }
        if (!target.isEmpty()) {
            const std::string_view t = m.text(SyntaxTree::field(assign, fields().left));
            if (loop->variables.contains(target))
                continue;
            if (!SyntaxTree::is(SyntaxTree::field(assign, fields().left), "attribute") &&
                (nameEscapes(m, t, *loop) || writtenOutPerPass(m, t, *loop)))
                continue;
            if (guardedByName(m, pathInLoop(), *loop, t))
                continue;
            if (onlyLoopRange(m, t, *loop))
                continue;
        }

        const QString what =
            QStringLiteral("`%1`").arg(m.tree().qtext(SyntaxTree::field(call, fields().function)));
        QString message;
        if (kind == AllocKind::Draw)
            message = QStringLiteral("%1 draws a new same-size array on every iteration; draw "
                                     "into a buffer made before the loop, or draw all "
                                     "iterations at once")
                          .arg(what);
        else if (kind == AllocKind::Values)
            message = QStringLiteral("%1 rebuilds the same constant array on every iteration; "
                                     "build it once before the loop")
                          .arg(what);
        else if (!target.isEmpty())
            message = QStringLiteral("%1 makes a new `%2` of the same shape on every "
                                     "iteration; allocate it once before the loop and fill it "
                                     "in place")
                          .arg(what, target);
        else
            message = QStringLiteral("%1 allocates a same-shape temporary on every iteration; "
                                     "allocate it once before the loop")
                          .arg(what);
        out.reportAbout(call, call, message);
    }
}

} // namespace cnready
