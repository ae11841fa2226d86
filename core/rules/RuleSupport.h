#pragma once
// Small helpers shared by the SCALES, REFACTOR and INFO rules (R0xx, R2xx, R3xx): region
// grouping for SCALES findings, statement/assignment navigation, name-use queries bounded to a
// span, boolean-mask recognition and a tiny integer evaluator for sizes. Everything here reads
// the SemanticModel's indexed lists; nothing walks the whole tree.

#include "parse/SyntaxTree.h"
#include "rules/Rule.h"
#include "semantic/Loops.h"
#include "semantic/Walk.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <QStringView>
#include <QVarLengthArray>
#include <tree_sitter/api.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace cnready {

class SemanticModel;

namespace rules {

/// Grammar field ids the rules ask for, resolved once: SyntaxTree::field(n, id) gives the same
/// node as field(n, "name") without hashing the name on every call.
struct FieldIds {
    TSFieldId left, right, object, attribute, value, operator_, argument, arguments, function, name,
        body, condition, alternative, consequence, subscript, type;
};
/// The process-wide table (thread-safe static, built on first use). Inline: rules ask for it
/// per node, and a call into another translation unit per lookup cost more than the lookup.
inline const FieldIds& fields() {
    static const FieldIds ids{
        SyntaxTree::fieldId("left"),        SyntaxTree::fieldId("right"),
        SyntaxTree::fieldId("object"),      SyntaxTree::fieldId("attribute"),
        SyntaxTree::fieldId("value"),       SyntaxTree::fieldId("operator"),
        SyntaxTree::fieldId("argument"),    SyntaxTree::fieldId("arguments"),
        SyntaxTree::fieldId("function"),    SyntaxTree::fieldId("name"),
        SyntaxTree::fieldId("body"),        SyntaxTree::fieldId("condition"),
        SyntaxTree::fieldId("alternative"), SyntaxTree::fieldId("consequence"),
        SyntaxTree::fieldId("subscript"),   SyntaxTree::fieldId("type"),
    };
    return ids;
}

/// A fixed set of names with a membership test in O(log n) string compares, also for string
/// views (QStringList::contains compares against every entry; QSet needs a QString).
class NameSet {
public:
    NameSet(std::initializer_list<QStringView> names);
    bool contains(QStringView name) const;

private:
    std::vector<QString> m_sorted;
};

/// Last dotted component: "numpy.linalg.norm" → "norm".
QString leafName(const QString& canonical);
/// The same as a view into `canonical` (no copy; valid while `canonical` lives).
QStringView leafView(const QString& canonical);
/// SemanticModel::calleeLeaf() as a view into the source (no QString): the callee identifier,
/// or the attribute name of a dotted callee; empty for calls of other expressions.
std::string_view calleeLeafText(const SemanticModel& model, TSNode call);

/// The named children of `n` in order, found by one cursor pass (ts_node_named_child(n, i)
/// rescans the children from the first on every call in the tree-sitter we build against).
QVarLengthArray<TSNode, 8> namedChildren(TSNode n);
/// Whether a canonical call name is a NumPy / cuPyNumeric module function (not a method):
/// "numpy.sum" yes, "numpy.ndarray.sum" no.
bool isNumpyFunction(const QString& canonical);
/// Whether a canonical call name is an ndarray method ("numpy.ndarray.<m>").
bool isArrayMethod(const QString& canonical);

/// The positional arguments of a call in order: SemanticModel::argument(call, k) for k below
/// SemanticModel::positionalCount(call), from one pass over the argument list. A call whose
/// only argument is a bare generator (`f(x for x in y)`) has one positional, a null node.
QVarLengthArray<TSNode, 8> positionalArguments(TSNode call);

/// The chain of nodes from `from` down to `target` (both included), found by one cursor
/// descent; empty when `target` is not inside `from`. Cheaper than repeated ts_node_parent(),
/// which walks down from the root on every call in the tree-sitter version we build against.
std::vector<TSNode> pathTo(TSNode from, TSNode target);

/// The statement that contains `n` (expression_statement, return_statement, …, or the
/// for/while/if header it belongs to). Climbs at most to the enclosing block.
TSNode enclosingStatement(const SemanticModel& model, TSNode n);
/// Whether the climb of enclosingStatement() stops at `cur`, whose parent is `parent`: `cur` is
/// a statement (or header like elif_clause), or it sits directly in a block or the module.
/// enclosingStatement(n) is the lowest node on the chain from the root to `n` for which this
/// holds (the root when none does).
bool endsStatementClimb(TSNode cur, TSNode parent);

/// enclosingStatement() for a sequence of nodes in document order, as several rules ask it:
/// a node inside the statement found last is resolved by a short descent from that statement
/// instead of one from the root. Same answers as enclosingStatement().
class StatementFinder {
public:
    explicit StatementFinder(const SemanticModel& model) : m_model(model) {}
    /// enclosingStatement(model, n).
    TSNode operator()(TSNode n);

private:
    const SemanticModel& m_model;
    TSNode m_last{}; ///< the statement found last (null before the first call)
};
/// When `expr` is the whole right-hand side of an `assignment` (possibly through parentheses),
/// that assignment node; otherwise a null node.
TSNode assignmentOf(TSNode expr);
/// The same, with the parents read off chainTo() (cheaper than ts_node_parent() per level).
TSNode assignmentOf(const SemanticModel& model, TSNode expr);
/// The chain of visible nodes from an ancestor of `n` down to `n` (both included): from the
/// innermost block the model knows around `n` (loop or function body) when there is one, else
/// from the root. Empty when the descent does not reach `n` (e.g. a zero-width MISSING node).
std::vector<TSNode> chainTo(const SemanticModel& model, TSNode n);
/// The ancestor `levels` steps above `n` (1: the parent), as ts_node_parent() applied `levels`
/// times gives it, mostly read off chainTo().
TSNode ancestorOf(const SemanticModel& model, TSNode n, int levels = 1);
/// The index items of subscript `sub` (cnready::forEachIndexItem, semantic/Walk.h).
template <typename Visit> bool forEachIndexItem(TSNode sub, Visit&& visit) {
    return cnready::forEachIndexItem(sub, std::forward<Visit>(visit));
}

/// walkSubtree() (pre-order, `visit` returns whether to descend) that also passes each node's
/// parent: the same node as ts_node_parent(), kept on a stack instead of searched for. The
/// parent passed for `root` itself is a null node.
template <class Visit> void walkWithParents(TSNode root, Visit&& visit) {
    if (ts_node_is_null(root))
        return;
    std::vector<TSNode> up; // ancestors of the cursor's node, below `root` included
    TSTreeCursor c = ts_tree_cursor_new(root);
    for (;;) {
        const TSNode n = ts_tree_cursor_current_node(&c);
        if (visit(n, up.empty() ? TSNode{} : up.back()) && ts_tree_cursor_goto_first_child(&c)) {
            up.push_back(n);
            continue;
        }
        for (;;) {
            if (ts_tree_cursor_goto_next_sibling(&c))
                break;
            if (!ts_tree_cursor_goto_parent(&c)) {
                ts_tree_cursor_delete(&c);
                return;
            }
            up.pop_back();
        }
    }
}

/// Whether `n` lies inside [start, end) of `container`.
bool contains(TSNode container, TSNode n);

/// Whether a comprehension node has an `if` clause: it selects items, which is work on them.
bool hasFilter(TSNode comprehension);

/// Whether the identifier `name` occurs anywhere in the subtree `expr` as a plain name (not as
/// an attribute after a dot, not as a keyword-argument name). Bounded iterative walk.
bool mentionsName(const SemanticModel& model, TSNode expr, std::string_view name);

/// Whether the value bound to `name` leaves an iteration of `loop`: passed to `append`/`extend`/
/// `insert`/`add`/`put`/`setdefault`/`update` (also as a keyword argument), stored into a container
/// element or attribute
/// (`d[k] = name`, `self.x = name`), returned or yielded (also inside a tuple/list literal).
/// Used by R201/R202: a value that is collected is not a per-iteration scratch buffer.
/// The yield check walks the loop body (bounded, iterative); the rest uses indexed lists.
bool nameEscapes(const SemanticModel& model, std::string_view name, const LoopInfo& loop);

/// Whether `expr` evaluates to a boolean array: a comparison with an array operand, `&`/`|`/`^`
/// or `~` of such, `np.isnan/isfinite/logical_*/isin/isclose…`, `.astype(bool)`, or a name
/// bound (in the same function or at module level) to one of these. `depth` bounds how many
/// name bindings are followed.
bool isBooleanArray(const SemanticModel& model, TSNode expr, int depth = 3);

/// The right-hand sides bound to `name` by simple assignments (`name = …`, also one element of
/// a tuple target is not followed) in the function containing `at` (or at module level when
/// `at` is at module level), in document order. Bounded by the model's assignment list.
QList<TSNode> bindingsOf(const SemanticModel& model, std::string_view name, TSNode at);

/// Integer value of a constant expression: literals (`1_024`), `-k`, `+ - * // ** <<`, and
/// names bound exactly once to such an expression in the function or at module level.
/// std::nullopt when unknown or out of the 63-bit range.
std::optional<qint64> intValue(const SemanticModel& model, TSNode expr, int depth = 4);

/// The argument of a call that gives the shape of a NumPy constructor or random draw, as far
/// as RULES.md needs it: positional 0 / `shape=` for zeros/ones/empty/full/eye/identity; the
/// prototype for *_like and copy; `size=` or the size position for random draws. Null when the
/// call has no shape argument (e.g. a scalar draw).
TSNode shapeArgument(const SemanticModel& model, TSNode call, const QString& canonical);

/// The arrays a finding about `expr` is about: `expr` itself when it is an array; through
/// element reads (`a[i]` → `a`), reductions (`np.max(r)`, `r.sum()` → `r`), host conversions
/// (`float(x)`, `x.item()`, `x.tolist()` → `x`) and the operands of comparisons, arithmetic
/// and boolean operators. With `throughScalars`, a name holding a device scalar is followed
/// to the expressions bound to it (`err = np.max(r)` → `r`): what a host sync reads is the
/// array the scalar came from. At most 8, document order; bounded walk.
QVarLengthArray<TSNode, 4> scalingSubjects(const SemanticModel& model, TSNode expr,
                                           bool throughScalars = false);

/// Whether a scaling finding (RULES.md: R101-R106, R110, R201-R206, and R107's size) about
/// `expr` would be about no data array: every array scalingSubjects() finds is a bookkeeping
/// array (SemanticModel::isBookkeepingArray: all extents small) or, with `nonNumeric`, holds
/// strings or objects (SemanticModel::holdsNonNumeric). False when no subject is found.
/// `throughScalars` as for scalingSubjects() (the host-sync rules R104/R105: a 0-d value is
/// judged by the array it was reduced or read from, not by its own size).
/// FindingSink::reportAbout() asks this; rules that pick among several candidate arrays
/// (R101's element accesses) ask it per candidate.
bool notDataArray(const SemanticModel& model, TSNode expr, bool nonNumeric = true,
                  bool throughScalars = false);

/// Collects sites per function (region) and emits one finding per region spanning the first
/// to the last site: SCALES rules report "stencil update on `u` in `jacobi_step`" once rather
/// than once per operator. Module-level sites form one region per module.
class RegionGroups {
public:
    /// Records one site; `subject` (e.g. the array name or the operator) is listed in the
    /// message, duplicates removed, in first-seen order.
    void add(const SemanticModel& model, TSNode site, const QString& subject);
    /// Emits one finding per region, in document order. `describe(subjects, where)` builds the
    /// message; `where` is "in `func`" or "at module level".
    template <class Describe> void reportAll(FindingSink& out, Describe&& describe) const {
        for (const auto& [key, g] : m_groups)
            out.reportSpan(g.first, g.last, describe(g.subjects, g.where));
    }
    bool isEmpty() const { return m_groups.empty(); }

private:
    struct Group {
        TSNode first{}, last{};
        QStringList subjects;
        QString where;
    };
    std::map<uint32_t, Group> m_groups; ///< keyed by the region's start byte (document order)
};

/// Whether `n` sits in an element loop that walks array positions or elements (an index loop
/// over range/len/shape/product/ndindex, or a loop over an array, nditer, ndenumerate) and
/// reads that loop's variable: SCALES rules skip such sites, they belong to R101/R103.
bool inElementLoop(const SemanticModel& model, TSNode n);

/// SemanticModel::isLoopInvariant / usesLoopVariable, but also right when `expr` itself is a
/// soft-keyword identifier (`type`, `match`, `print`): a tree cursor started on such an
/// aliased node reports the keyword token, so the model's walk misses the name.
bool invariantIn(const SemanticModel& model, TSNode expr, const LoopInfo& loop);
bool usesLoopVar(const SemanticModel& model, TSNode expr, const LoopInfo& loop);

/// Whether `call` has a keyword argument called `name` (e.g. "out").
bool hasKeyword(const SemanticModel& model, TSNode call, std::string_view name);

/// Source text of `n` for a message: whitespace runs collapsed to one space and cut to `max`
/// characters with "…" (no backticks added).
QString shortCode(const SemanticModel& model, TSNode n, int max = 48);

/// "`a`, `b` and `c`" (at most `max` names, then "and N more").
QString quoteList(const QStringList& names, int max = 3);

} // namespace rules
} // namespace cnready
