#include "rules/RuleSupport.h"

#include "parse/SyntaxTree.h"
#include "semantic/Literals.h"
#include "semantic/SemanticModel.h"
#include "semantic/Walk.h"

#include <algorithm>
#include <iterator>
#include <limits>
#include <vector>

namespace cnready::rules {

namespace {

bool isType(TSNode n, std::string_view t) {
    return SyntaxTree::is(n, t);
}

TSNode unparen(TSNode n) {
    while (isType(n, "parenthesized_expression") && ts_node_named_child_count(n) == 1)
        n = ts_node_named_child(n, 0);
    return n;
}

bool isStatementType(std::string_view t) {
    return t == "expression_statement" || t == "return_statement" || t == "delete_statement" ||
           t == "assert_statement" || t == "raise_statement" || t == "for_statement" ||
           t == "while_statement" || t == "if_statement" || t == "elif_clause" ||
           t == "with_statement" || t == "print_statement" || t == "decorated_definition" ||
           t == "function_definition" || t == "class_definition" || t == "module" || t == "block";
}

// Leaf names of NumPy functions that return a boolean array from array input.
bool isBooleanUfunc(QStringView leaf) {
    static const QStringList names = {
        QStringLiteral("isnan"),       QStringLiteral("isinf"),
        QStringLiteral("isfinite"),    QStringLiteral("isposinf"),
        QStringLiteral("isneginf"),    QStringLiteral("isclose"),
        QStringLiteral("isin"),        QStringLiteral("in1d"),
        QStringLiteral("logical_and"), QStringLiteral("logical_or"),
        QStringLiteral("logical_not"), QStringLiteral("logical_xor"),
        QStringLiteral("greater"),     QStringLiteral("greater_equal"),
        QStringLiteral("less"),        QStringLiteral("less_equal"),
        QStringLiteral("equal"),       QStringLiteral("not_equal"),
        QStringLiteral("signbit"),     QStringLiteral("isreal"),
        QStringLiteral("iscomplex"),
    };
    return names.contains(leaf);
}

} // namespace

NameSet::NameSet(std::initializer_list<QStringView> names) {
    for (QStringView n : names)
        m_sorted.push_back(n.toString());
    std::sort(m_sorted.begin(), m_sorted.end());
}

bool NameSet::contains(QStringView name) const {
    const auto it =
        std::lower_bound(m_sorted.begin(), m_sorted.end(), name,
                         [](const QString& a, QStringView b) { return QStringView(a) < b; });
    return it != m_sorted.end() && QStringView(*it) == name;
}

QString leafName(const QString& canonical) {
    // The same as canonical.section('.', -1), which splits the whole name on every call.
    return canonical.mid(canonical.lastIndexOf(QLatin1Char('.')) + 1);
}

QStringView leafView(const QString& canonical) {
    return QStringView(canonical).mid(canonical.lastIndexOf(QLatin1Char('.')) + 1);
}

std::string_view calleeLeafText(const SemanticModel& model, TSNode call) {
    // Mirrors SemanticModel::calleeLeaf(), including its bounded unwrapping of parentheses.
    TSNode fn = SyntaxTree::field(call, fields().function);
    for (int guard = 0;
         isType(fn, "parenthesized_expression") && ts_node_named_child_count(fn) > 0 && guard < 64;
         ++guard)
        fn = ts_node_named_child(fn, 0);
    if (isType(fn, "identifier"))
        return model.text(fn);
    if (isType(fn, "attribute"))
        return model.text(SyntaxTree::field(fn, fields().attribute));
    return {};
}

QVarLengthArray<TSNode, 8> namedChildren(TSNode n) {
    QVarLengthArray<TSNode, 8> out;
    if (ts_node_is_null(n))
        return out;
    // A cursor costs an allocation and ~500 instructions per step (anonymous children
    // included) in tree-sitter 0.20, while ts_node_named_child(n, i) costs ~700 plus a little
    // per skipped child: indexing wins for the short child lists of expressions, the cursor
    // for long ones (a module's statements).
    const uint32_t count = ts_node_named_child_count(n);
    if (count <= 16) {
        for (uint32_t i = 0; i < count; ++i)
            out.append(ts_node_named_child(n, i));
        return out;
    }
    TSTreeCursor c = ts_tree_cursor_new(n);
    if (ts_tree_cursor_goto_first_child(&c)) {
        do {
            const TSNode ch = ts_tree_cursor_current_node(&c);
            if (ts_node_is_named(ch))
                out.append(ch);
        } while (ts_tree_cursor_goto_next_sibling(&c));
    }
    ts_tree_cursor_delete(&c);
    return out;
}

bool isNumpyFunction(const QString& canonical) {
    return canonical.startsWith(QLatin1String("numpy.")) && !isArrayMethod(canonical) &&
           !canonical.startsWith(QLatin1String("numpy.random.Generator.")) &&
           !canonical.startsWith(QLatin1String("numpy.random.RandomState."));
}

bool isArrayMethod(const QString& canonical) {
    return canonical.startsWith(QLatin1String("numpy.ndarray."));
}

QVarLengthArray<TSNode, 8> positionalArguments(TSNode call) {
    QVarLengthArray<TSNode, 8> out;
    const TSNode args = SyntaxTree::field(call, fields().arguments);
    if (ts_node_is_null(args))
        return out;
    if (!isType(args, "argument_list")) {
        if (isType(args, "generator_expression"))
            out.append(TSNode{});
        return out;
    }
    for (TSNode a : namedChildren(args))
        if (!isType(a, "keyword_argument") && !isType(a, "dictionary_splat") &&
            !isType(a, "comment"))
            out.append(a);
    return out;
}

std::vector<TSNode> pathTo(TSNode from, TSNode target) {
    std::vector<TSNode> path;
    const uint32_t ts = ts_node_start_byte(target), te = ts_node_end_byte(target);
    TSTreeCursor c = ts_tree_cursor_new(from);
    for (;;) {
        const TSNode cur = ts_tree_cursor_current_node(&c);
        path.push_back(cur);
        if (ts_node_eq(cur, target))
            break;
        bool descended = false;
        if (ts_tree_cursor_goto_first_child(&c)) {
            do {
                const TSNode ch = ts_tree_cursor_current_node(&c);
                if (ts_node_start_byte(ch) <= ts && ts_node_end_byte(ch) >= te &&
                    (ts_node_eq(ch, target) || ts_node_end_byte(ch) > ts_node_start_byte(ch) ||
                     ts == te)) {
                    descended = true;
                    break;
                }
            } while (ts_tree_cursor_goto_next_sibling(&c));
        }
        if (!descended) {
            path.clear(); // target is not below `from`
            break;
        }
    }
    ts_tree_cursor_delete(&c);
    return path;
}

namespace {
// The chain of visible nodes from the root down to `target`, found by descending towards its
// start byte. ts_node_first_child_for_byte() skips whole hidden subtrees that end before the
// byte, and long statement lists are balanced hidden subtrees in tree-sitter, so one step costs
// about log(children): no parent index and no re-descent per level. Empty when the descent
// does not reach `target` (e.g. a zero-width MISSING node sharing its byte with a neighbour).
std::vector<TSNode> pathFrom(TSNode from, TSNode target) {
    std::vector<TSNode> path;
    const uint32_t ts = ts_node_start_byte(target), te = ts_node_end_byte(target);
    TSNode cur = from;
    for (;;) {
        path.push_back(cur);
        if (ts_node_eq(cur, target))
            return path;
        const TSNode c = ts_node_first_child_for_byte(cur, ts);
        if (ts_node_is_null(c) || ts_node_start_byte(c) > ts || ts_node_end_byte(c) < te ||
            ts_node_eq(c, cur)) {
            path.clear();
            return path;
        }
        cur = c;
    }
}

} // namespace

bool endsStatementClimb(TSNode cur, TSNode parent) {
    const auto t = SyntaxTree::type(cur);
    if (isStatementType(t) && t != "block" && t != "module")
        return true;
    const auto pt = SyntaxTree::type(parent);
    return pt == "block" || pt == "module";
}

namespace {
// The innermost block the model knows to lie around `n` (the body of its loop, else of its
// function), or a null node. A descent can start there instead of at the root: the block is
// an ancestor of `n`, so the chain below it is the tail of the chain from the root.
TSNode blockAround(const SemanticModel& model, TSNode n) {
    const auto strictlyInside = [&](TSNode block) {
        return isType(block, "block") && contains(block, n) && !ts_node_eq(block, n);
    };
    if (const LoopInfo* loop = model.enclosingLoop(n); loop && strictlyInside(loop->body))
        return loop->body;
    if (const FunctionRegion* fn = model.enclosingFunctionRegion(n); fn && strictlyInside(fn->body))
        return fn->body;
    return TSNode{};
}
} // namespace

std::vector<TSNode> chainTo(const SemanticModel& model, TSNode n) {
    if (ts_node_is_null(n))
        return {};
    if (const TSNode block = blockAround(model, n); !ts_node_is_null(block)) {
        std::vector<TSNode> path = pathFrom(block, n);
        if (!path.empty())
            return path;
    }
    return pathFrom(ts_tree_root_node(n.tree), n);
}

TSNode ancestorOf(const SemanticModel& model, TSNode n, int levels) {
    const std::vector<TSNode> path = chainTo(model, n);
    if (path.size() > size_t(levels))
        return path[path.size() - 1 - size_t(levels)];
    for (int i = 0; i < levels && !ts_node_is_null(n); ++i)
        n = ts_node_parent(n);
    return n;
}

TSNode enclosingStatement(const SemanticModel& model, TSNode n) {
    // Neither ts_node_parent() (it re-descends from the root on every call in tree-sitter
    // 0.20, quadratic in a module with many top-level statements) nor the tree's parent index
    // (building it is a whole extra walk for a file that may need only this). Below a block
    // the climb always ends (a block's child ends it), so a descent from the innermost block
    // the model knows gives the same answer as one from the root, in fewer steps.
    if (const TSNode block = blockAround(model, n); !ts_node_is_null(block)) {
        const std::vector<TSNode> path = pathFrom(block, n);
        for (size_t i = path.size(); i-- > 1;)
            if (endsStatementClimb(path[i], path[i - 1]))
                return path[i];
    }
    const std::vector<TSNode> path = pathFrom(ts_tree_root_node(n.tree), n);
    if (!path.empty()) {
        for (size_t i = path.size(); i-- > 1;)
            if (endsStatementClimb(path[i], path[i - 1]))
                return path[i];
        return path.front();
    }
    const SyntaxTree& tree = model.tree();
    TSNode cur = n;
    for (;;) {
        const TSNode p = tree.parent(cur);
        if (ts_node_is_null(p) || endsStatementClimb(cur, p))
            return cur;
        cur = p;
    }
}

TSNode StatementFinder::operator()(TSNode n) {
    // enclosingStatement() answers with the lowest node of the root-to-`n` chain that ends the
    // climb. When `n` lies below the last answer S, that chain runs through S and S itself
    // ends the climb, so only the part below S needs looking at.
    if (!ts_node_is_null(m_last) && !ts_node_is_null(n) && contains(m_last, n)) {
        // Inside a simple statement free of syntax errors nothing else ends the climb:
        // expressions hold no statements and no blocks.
        const auto t = SyntaxTree::type(m_last);
        if ((t == "expression_statement" || t == "return_statement" || t == "delete_statement" ||
             t == "assert_statement" || t == "raise_statement" || t == "print_statement") &&
            !ts_node_has_error(m_last) && ts_node_end_byte(n) > ts_node_start_byte(n))
            return m_last;
        const std::vector<TSNode> path = pathFrom(m_last, n);
        if (!path.empty()) {
            for (size_t i = path.size(); i-- > 1;)
                if (endsStatementClimb(path[i], path[i - 1]))
                    return path[i];
            return m_last;
        }
    }
    m_last = enclosingStatement(m_model, n);
    return m_last;
}

TSNode assignmentOf(const SemanticModel& model, TSNode expr) {
    const std::vector<TSNode> path = chainTo(model, expr);
    if (path.size() < 2)
        return assignmentOf(expr);
    // The same climb as assignmentOf(expr), reading the parents off the chain.
    size_t i = path.size() - 1; // path[i] is `cur`
    while (i >= 2 && isType(path[i - 1], "parenthesized_expression"))
        --i;
    if (isType(path[i - 1], "parenthesized_expression"))
        return assignmentOf(expr); // the chain ends inside the brackets: climb the long way
    const TSNode p = path[i - 1];
    if (isType(p, "assignment") && ts_node_eq(SyntaxTree::field(p, fields().right), path[i]))
        return p;
    return TSNode{};
}

TSNode assignmentOf(TSNode expr) {
    // ts_node_parent() descends from the root through tree-sitter's balanced hidden nodes
    // (about depth x log(siblings)); for a few calls per file that is cheaper than building
    // the tree's parent index.
    TSNode cur = expr;
    TSNode p = ts_node_parent(cur);
    while (isType(p, "parenthesized_expression")) {
        cur = p;
        p = ts_node_parent(p);
    }
    if (isType(p, "assignment") && ts_node_eq(SyntaxTree::field(p, fields().right), cur))
        return p;
    return TSNode{};
}

bool hasFilter(TSNode comprehension) {
    for (uint32_t k = 0; k < ts_node_named_child_count(comprehension); ++k)
        if (SyntaxTree::is(ts_node_named_child(comprehension, k), "if_clause"))
            return true;
    return false;
}

bool contains(TSNode container, TSNode n) {
    return ts_node_start_byte(n) >= ts_node_start_byte(container) &&
           ts_node_end_byte(n) <= ts_node_end_byte(container);
}

bool mentionsName(const SemanticModel& model, TSNode expr, std::string_view name) {
    if (isType(expr, "identifier")) // also for aliased soft keywords, see invariantIn()
        return model.text(expr) == name;
    // Explicit stack; attribute names (`x.name`) and keyword names (`f(name=1)`) are skipped
    // structurally, without asking for parents.
    std::vector<TSNode> stack{expr};
    while (!stack.empty()) {
        const TSNode n = stack.back();
        stack.pop_back();
        const auto t = SyntaxTree::type(n);
        if (t == "identifier") {
            if (model.text(n) == name)
                return true;
            continue;
        }
        if (t == "attribute") {
            stack.push_back(SyntaxTree::field(n, fields().object));
            continue;
        }
        if (t == "keyword_argument") {
            stack.push_back(SyntaxTree::field(n, fields().value));
            continue;
        }
        for (const TSNode ch : namedChildren(n))
            stack.push_back(ch);
    }
    return false;
}

// Whether `expr` is the value bound to `name` itself, or a literal container holding it
// (`name`, `(name, k)`, `[name]`, `{k: name}`), rather than something computed from it.
bool holdsName(const SemanticModel& model, TSNode expr, std::string_view name, int depth = 3) {
    expr = unparen(expr);
    if (ts_node_is_null(expr) || depth < 0)
        return false;
    if (isType(expr, "identifier"))
        return model.text(expr) == name;
    const auto t = SyntaxTree::type(expr);
    if (t == "pair" || t == "keyword_argument") // `{k: name}`, `d.update(data=name)`
        return holdsName(model, SyntaxTree::field(expr, fields().value), name, depth - 1);
    if (t == "list" || t == "tuple" || t == "set" || t == "expression_list" || t == "dictionary" ||
        t == "argument_list") {
        const uint32_t n = ts_node_named_child_count(expr);
        for (uint32_t i = 0; i < n; ++i)
            if (holdsName(model, ts_node_named_child(expr, i), name, depth - 1))
                return true;
    }
    return false;
}

bool nameEscapes(const SemanticModel& model, std::string_view name, const LoopInfo& loop) {
    const uint32_t start = loop.hotStart;
    const uint32_t end = loop.hotEnd;
    static constexpr std::string_view collectors[] = {
        "append",     "extend", "insert",     "add",        "put",
        "setdefault", "update", "appendleft", "put_nowait",
    };
    // holdsName() is true only for an identifier spelled `name` inside the expression, so an
    // expression whose text lacks `name` is skipped without walking it.
    const auto mayHold = [&](TSNode e) {
        return !ts_node_is_null(e) && model.text(e).find(name) != std::string_view::npos;
    };
    for (TSNode call : SemanticModel::within(model.calls(), start, end)) {
        const std::string_view leaf = calleeLeafText(model, call);
        if (std::find(std::begin(collectors), std::end(collectors), leaf) == std::end(collectors))
            continue;
        const TSNode args = SyntaxTree::field(call, fields().arguments);
        if (mayHold(args) && holdsName(model, args, name))
            return true;
    }
    for (TSNode a : SemanticModel::within(model.assignments(), start, end)) {
        const TSNode right = SyntaxTree::field(a, fields().right);
        if (!mayHold(right))
            continue;
        const TSNode left = SyntaxTree::field(a, fields().left);
        // Stored into a container element or an attribute of another object, or bound into a
        // tuple/list/dict that outlives the statement.
        if ((isType(left, "subscript") || isType(left, "attribute")) &&
            holdsName(model, right, name))
            return true;
    }
    for (TSNode r : SemanticModel::within(model.returns(), start, end))
        if (mayHold(r) && ts_node_named_child_count(r) > 0 &&
            holdsName(model, ts_node_named_child(r, 0), name))
            return true;
    // `yield name` / `yield f, name`: yields are not indexed, so walk the loop body once, and
    // only when its text has a yield at all.
    if (ts_node_is_null(loop.body) || model.text(loop.body).find("yield") == std::string_view::npos)
        return false;
    bool yielded = false;
    walkSubtree(loop.body, [&](TSNode n) {
        if (yielded)
            return false;
        if (isType(n, "yield")) {
            if (ts_node_named_child_count(n) > 0 &&
                holdsName(model, ts_node_named_child(n, 0), name))
                yielded = true;
            return false;
        }
        const auto t = SyntaxTree::type(n);
        return t != "function_definition" && t != "class_definition" && t != "lambda";
    });
    return yielded;
}

QList<TSNode> bindingsOf(const SemanticModel& model, std::string_view name, TSNode at) {
    QList<TSNode> out;
    const FunctionRegion* fn = model.enclosingFunctionRegion(at);
    // An assignment to `name` starts with `name`: a cheap test before the node and region
    // lookups.
    const auto startsWithName = [&](TSNode a) {
        return model.text(a).substr(0, name.size()) == name;
    };
    auto consider = [&](TSNode a) {
        if (!isType(a, "assignment"))
            return;
        const TSNode left = SyntaxTree::field(a, fields().left);
        const TSNode right = SyntaxTree::field(a, fields().right);
        if (isType(left, "identifier") && !ts_node_is_null(right) && model.text(left) == name)
            out.append(right);
    };
    if (fn) {
        for (TSNode a : SemanticModel::within(model.assignments(), fn->node))
            if (startsWithName(a) && model.enclosingFunctionRegion(a) == fn)
                consider(a);
        return out;
    }
    for (TSNode stmt : namedChildren(model.tree().root()))
        if (isType(stmt, "expression_statement") && startsWithName(stmt) &&
            ts_node_named_child_count(stmt) == 1)
            consider(ts_node_named_child(stmt, 0));
    return out;
}

namespace {
// Recursion on nested operators is bounded by `budget` (nodes visited), so deeply nested
// input (10,000 levels) cannot exhaust the stack.
bool isBooleanArrayImpl(const SemanticModel& model, TSNode expr, int depth, int& budget) {
    expr = unparen(expr);
    if (ts_node_is_null(expr) || depth < 0 || --budget < 0)
        return false;
    const auto t = SyntaxTree::type(expr);
    if (t == "comparison_operator") {
        // `a > lo`, `lo < a < hi`: one operand must be an array (not `x is None`).
        for (TSNode operand : namedChildren(expr))
            if (model.isArray(operand))
                return true;
        return false;
    }
    if (t == "binary_operator") {
        const TSNode op = SyntaxTree::field(expr, fields().operator_);
        const auto o = model.text(op);
        if (o != "&" && o != "|" && o != "^")
            return false;
        return isBooleanArrayImpl(model, SyntaxTree::field(expr, fields().left), depth, budget) ||
               isBooleanArrayImpl(model, SyntaxTree::field(expr, fields().right), depth, budget);
    }
    if (t == "unary_operator") {
        if (model.text(SyntaxTree::field(expr, fields().operator_)) != "~")
            return false;
        return isBooleanArrayImpl(model, SyntaxTree::field(expr, fields().argument), depth, budget);
    }
    if (t == "call") {
        const QString name = model.callName(expr);
        if (name.startsWith(QLatin1String("numpy.")) && isBooleanUfunc(leafView(name)))
            return true;
        // `x.astype(bool)` on an array
        if (calleeLeafText(model, expr) == "astype") {
            const TSNode arg = SemanticModel::argument(expr, 0);
            const auto a = model.text(arg);
            return a == "bool" || a == "np.bool_" || a == "numpy.bool_" || a == "'bool'" ||
                   a == "\"bool\"";
        }
        return false;
    }
    if (t == "identifier" && depth > 0) {
        const std::string_view name = model.text(expr);
        for (TSNode rhs : bindingsOf(model, name, expr))
            if (isBooleanArrayImpl(model, rhs, depth - 1, budget))
                return true;
        return false;
    }
    return false;
}
} // namespace

bool isBooleanArray(const SemanticModel& model, TSNode expr, int depth) {
    int budget = 256;
    return isBooleanArrayImpl(model, expr, depth, budget);
}

QVarLengthArray<TSNode, 4> scalingSubjects(const SemanticModel& model, TSNode expr,
                                           bool throughScalars) {
    QVarLengthArray<TSNode, 4> out;
    int followed = 0; // names followed to their bindings
    QVarLengthArray<TSNode, 16> stack;
    stack.push_back(expr);
    for (int budget = 64; !stack.isEmpty() && budget > 0 && out.size() < 8; --budget) {
        TSNode e = unparen(stack.back());
        stack.pop_back();
        if (ts_node_is_null(e))
            continue;
        const auto t = SyntaxTree::type(e);
        if (t == "comparison_operator" || t == "binary_operator" || t == "boolean_operator" ||
            t == "not_operator" || t == "unary_operator") {
            const auto kids = namedChildren(e);
            for (qsizetype i = kids.size(); i-- > 0;)
                stack.push_back(kids[i]);
            continue;
        }
        const ValueKind k = model.valueKind(e);
        if (t == "subscript" && k != ValueKind::Array) {
            stack.push_back(SyntaxTree::field(e, fields().value)); // an element read
            continue;
        }
        if (t == "call" && k != ValueKind::Array) {
            const TSNode fn = unparen(SyntaxTree::field(e, fields().function));
            const std::string_view leaf = calleeLeafText(model, e);
            // `x.max()`, `x.item()`: the receiver; `np.max(x)` is not a method of `np`.
            if (SyntaxTree::is(fn, "attribute") &&
                !(model.callName(e).startsWith(QLatin1String("numpy.")) &&
                  !model.callName(e).startsWith(QLatin1String("numpy.ndarray."))) &&
                (leaf == "item" || leaf == "tolist" || model.isArrayReduction(e))) {
                stack.push_back(SyntaxTree::field(fn, fields().object));
                continue;
            }
            // A NumPy function giving a scalar (`np.allclose(u, 0.0)`, `np.isnan(r[1])`):
            // the arrays it reads.
            if (!model.isNumpyFullReduction(e) &&
                model.callName(e).startsWith(QLatin1String("numpy.")) &&
                !model.callName(e).startsWith(QLatin1String("numpy.ndarray."))) {
                const auto args = positionalArguments(e);
                for (qsizetype i = args.size(); i-- > 0;)
                    stack.push_back(args[i]);
                continue;
            }
            if (model.isNumpyFullReduction(e) ||
                (SyntaxTree::is(fn, "identifier") &&
                 (leaf == "float" || leaf == "int" || leaf == "bool" || leaf == "complex" ||
                  leaf == "len" || leaf == "list" || leaf == "tuple" || leaf == "sum" ||
                  leaf == "max" || leaf == "min" || leaf == "any" || leaf == "all" ||
                  leaf == "sorted" || leaf == "str" || leaf == "repr" || leaf == "abs"))) {
                stack.push_back(SemanticModel::argument(e, 0));
                continue;
            }
        }
        // The target of a loop over an array (`for row in rows`): what a sync inside the
        // loop reads, pass after pass, is the iterated array.
        if (throughScalars && t == "identifier" && followed < 4) {
            const std::string_view name = model.text(e);
            TSNode iterated{};
            for (const LoopInfo* L = model.enclosingLoop(e); L && ts_node_is_null(iterated);
                 L = L->parent >= 0 ? &model.loops()[size_t(L->parent)] : nullptr)
                if ((L->source == LoopSource::Array || L->source == LoopSource::EnumerateArray) &&
                    L->variables.contains(QString::fromUtf8(name.data(), qsizetype(name.size()))))
                    iterated = L->iterable;
            if (!ts_node_is_null(iterated)) {
                ++followed;
                stack.push_back(iterated);
                continue;
            }
        }
        // A device scalar held in a name (`err = np.max(r)`, `node = table[k]`): the arrays
        // it was read from.
        if (throughScalars && t == "identifier" && k == ValueKind::DeviceScalar && followed < 4) {
            const QList<TSNode> rhs = bindingsOf(model, model.text(e), e);
            if (!rhs.isEmpty()) {
                ++followed;
                for (qsizetype i = rhs.size(); i-- > 0 && i < 4;)
                    stack.push_back(rhs[i]);
                continue;
            }
        }
        // A bare tolerance (`> eps`, `< tol`) is a number to compare with, not a subject.
        if (t == "identifier" && k == ValueKind::Unknown) {
            const std::string_view w = model.text(e);
            if (w == "eps" || w == "epsilon" || w == "tol" || w == "atol" || w == "rtol" ||
                w == "thresh" || w == "threshold" || w == "tolerance")
                continue;
        }
        // Host numbers, strings and containers are no array a finding could be about.
        if (k == ValueKind::Array || k == ValueKind::DeviceScalar ||
            (k == ValueKind::Unknown &&
             (t == "identifier" || t == "call" || t == "attribute" || t == "subscript")))
            out.push_back(e);
    }
    return out;
}

bool notDataArray(const SemanticModel& model, TSNode expr, bool nonNumeric, bool throughScalars) {
    const QVarLengthArray<TSNode, 4> subjects = scalingSubjects(model, expr, throughScalars);
    if (subjects.isEmpty())
        return false;
    for (const TSNode s : subjects) {
        if (!model.isBookkeepingArray(s) && !(nonNumeric && model.holdsNonNumeric(s)))
            return false;
    }
    return true;
}

namespace {
std::optional<qint64> intValueImpl(const SemanticModel& model, TSNode expr, int depth,
                                   int& budget) {
    expr = unparen(expr);
    if (ts_node_is_null(expr) || depth < 0 || --budget < 0)
        return std::nullopt;
    const auto t = SyntaxTree::type(expr);
    if (t == "integer")
        return integerLiteralValue(model.text(expr));
    if (t == "unary_operator") {
        const auto v =
            intValueImpl(model, SyntaxTree::field(expr, fields().argument), depth, budget);
        if (!v)
            return std::nullopt;
        const auto o = model.text(SyntaxTree::field(expr, fields().operator_));
        if (o == "-")
            return -*v;
        if (o == "+")
            return *v;
        return std::nullopt;
    }
    if (t == "binary_operator") {
        const auto l = intValueImpl(model, SyntaxTree::field(expr, fields().left), depth, budget);
        const auto r = intValueImpl(model, SyntaxTree::field(expr, fields().right), depth, budget);
        if (!l || !r)
            return std::nullopt;
        const auto o = model.text(SyntaxTree::field(expr, fields().operator_));
        constexpr qint64 lim = std::numeric_limits<qint64>::max() / 4;
        const auto bounded = [&](long double v) -> std::optional<qint64> {
            if (v > lim || v < -lim)
                return std::nullopt;
            return qint64(v);
        };
        if (o == "+")
            return bounded((long double)*l + *r);
        if (o == "-")
            return bounded((long double)*l - *r);
        if (o == "*")
            return bounded((long double)*l * *r);
        if (o == "//" && *r != 0)
            return *l / *r;
        if (o == "**" && *r >= 0 && *r < 63) {
            long double v = 1;
            for (qint64 i = 0; i < *r; ++i) {
                v *= *l;
                if (v > lim || v < -lim)
                    return std::nullopt;
            }
            return qint64(v);
        }
        if (o == "<<" && *r >= 0 && *r < 62)
            return bounded((long double)*l * (long double)(qint64(1) << *r));
        return std::nullopt;
    }
    if (t == "identifier" && depth > 0) {
        const QList<TSNode> b = bindingsOf(model, model.text(expr), expr);
        if (b.size() == 1)
            return intValueImpl(model, b.first(), depth - 1, budget);
        if (b.isEmpty() && model.enclosingFunctionRegion(expr)) {
            // Not bound in the function: a module constant.
            const QList<TSNode> m = bindingsOf(model, model.text(expr), model.tree().root());
            if (m.size() == 1)
                return intValueImpl(model, m.first(), depth - 1, budget);
        }
    }
    return std::nullopt;
}
} // namespace

std::optional<qint64> intValue(const SemanticModel& model, TSNode expr, int depth) {
    int budget = 256;
    return intValueImpl(model, expr, depth, budget);
}

TSNode shapeArgument(const SemanticModel& model, TSNode call, const QString& canonical) {
    const QString leaf = leafName(canonical);
    if (isArrayMethod(canonical) && leaf == QLatin1String("copy")) {
        const TSNode fn = SyntaxTree::field(call, fields().function);
        return isType(fn, "attribute") ? SyntaxTree::field(fn, fields().object) : TSNode{};
    }
    if (leaf.endsWith(QLatin1String("_like")) || leaf == QLatin1String("copy")) {
        const TSNode a = SemanticModel::argument(call, 0);
        return ts_node_is_null(a) ? model.keywordArgument(call, "a") : a;
    }
    if (leaf == QLatin1String("zeros") || leaf == QLatin1String("ones") ||
        leaf == QLatin1String("empty") || leaf == QLatin1String("full") ||
        leaf == QLatin1String("eye") || leaf == QLatin1String("identity")) {
        const TSNode a = SemanticModel::argument(call, 0);
        if (!ts_node_is_null(a))
            return a;
        const TSNode s = model.keywordArgument(call, "shape");
        return ts_node_is_null(s) ? model.keywordArgument(call, "N") : s;
    }
    // Random draws: a `size=` keyword, else the positional that carries the size.
    const TSNode size = model.keywordArgument(call, "size");
    if (!ts_node_is_null(size))
        return size;
    const int pos = randomDrawSizePosition(leaf);
    return pos >= 0 ? SemanticModel::argument(call, pos) : TSNode{};
}

namespace {
bool walksElements(const LoopInfo& loop) {
    return loop.isIndexLoop() || loop.source == LoopSource::Array ||
           loop.source == LoopSource::EnumerateArray || loop.source == LoopSource::NdIter ||
           loop.source == LoopSource::NdEnumerate;
}
} // namespace

bool inElementLoop(const SemanticModel& model, TSNode n) {
    const auto& loops = model.loops();
    for (const LoopInfo* loop = model.enclosingLoop(n); loop;
         loop = loop->parent >= 0 ? &loops[size_t(loop->parent)] : nullptr) {
        if (walksElements(*loop) && usesLoopVar(model, n, *loop))
            return true;
    }
    return false;
}

bool invariantIn(const SemanticModel& model, TSNode expr, const LoopInfo& loop) {
    if (isType(expr, "identifier"))
        return !model.boundInLoop(loop, model.tree().text(expr));
    return model.isLoopInvariant(expr, loop);
}

bool usesLoopVar(const SemanticModel& model, TSNode expr, const LoopInfo& loop) {
    if (isType(expr, "identifier") && loop.variables.contains(model.tree().qtext(expr)))
        return true;
    // The model rules out, from the text alone, expressions that mention none of the names.
    return model.usesLoopVariable(expr, loop);
}

bool hasKeyword(const SemanticModel& model, TSNode call, std::string_view name) {
    return !ts_node_is_null(model.keywordArgument(call, name));
}

void RegionGroups::add(const SemanticModel& model, TSNode site, const QString& subject) {
    const FunctionRegion* fn = model.enclosingFunctionRegion(site);
    const uint32_t key = fn ? uint32_t(fn->index + 1) : 0u;
    auto it = m_groups.find(key);
    if (it == m_groups.end()) {
        Group g;
        g.first = site;
        g.last = site;
        g.where = fn ? QStringLiteral("in `%1`").arg(fn->name) : QStringLiteral("at module level");
        it = m_groups.emplace(key, g).first;
    }
    Group& g = it->second;
    if (ts_node_start_byte(site) < ts_node_start_byte(g.first))
        g.first = site;
    if (ts_node_end_byte(site) > ts_node_end_byte(g.last))
        g.last = site;
    if (!subject.isEmpty() && !g.subjects.contains(subject))
        g.subjects.append(subject);
}

QString shortCode(const SemanticModel& model, TSNode n, int max) {
    QString s = model.tree().qtext(n).simplified();
    if (s.size() > max)
        s = s.left(max - 1) + QChar(0x2026);
    return s;
}

QString quoteList(const QStringList& names, int max) {
    // "`a`, `b` and `c`", or "`a`, `b` and N more" when names are left out; built in one
    // string (this runs once per reported region).
    const int shown = int(std::min<qsizetype>(names.size(), std::max(max, 0)));
    const int rest = int(names.size()) - shown;
    QString out;
    for (int i = 0; i < shown; ++i) {
        if (i > 0)
            out += rest == 0 && i == shown - 1 ? QLatin1String(" and ") : QLatin1String(", ");
        out += QLatin1Char('`');
        out += names[i];
        out += QLatin1Char('`');
    }
    if (rest > 0)
        out += QStringLiteral(" and %1 more").arg(rest);
    return out;
}

} // namespace cnready::rules
