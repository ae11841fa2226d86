#pragma once
// RAII ownership of a tree-sitter parse of one Python source, plus small node helpers.

#include <QByteArray>
#include <QString>
#include <array>
#include <memory>
#include <string_view>
#include <tree_sitter/api.h>
#include <utility>
#include <vector>

namespace cnready {

/// The tree-sitter-python language (grammar compiled from the pinned npm package).
const TSLanguage* pythonLanguage();

/// One parsed Python file. Owns the source bytes and the TSTree; not copyable.
/// Parsing never fails: tree-sitter recovers from syntax errors with ERROR/MISSING nodes.
class SyntaxTree {
public:
    /// Parses `utf8Source` (UTF-8 bytes). One TSParser per thread is reused internally.
    /// `timeoutMicros` > 0 bounds the parse time (microseconds on tree-sitter's monotonic
    /// clock, i.e. wall time): when exceeded, isValid() is false and the tree must not be used.
    explicit SyntaxTree(QByteArray utf8Source, quint64 timeoutMicros = 0);
    ~SyntaxTree();
    SyntaxTree(const SyntaxTree&) = delete;
    SyntaxTree& operator=(const SyntaxTree&) = delete;

    /// False only when the parse ran out of time (see the constructor); every other call on
    /// the tree requires isValid().
    bool isValid() const { return m_tree != nullptr; }
    /// tree-sitter 0.20.x stores an ERROR node's child count in 16 bits: past 65,535
    /// unparsable tokens in one place (e.g. 70,000 unclosed brackets) the node is corrupt and
    /// ts_tree_delete() would free a bad pointer. The constructor checks every ERROR node;
    /// a corrupt tree is deliberately leaked instead of deleted, and its shape must not be
    /// trusted (the analyzer reports the file and skips it).
    bool isCorrupt() const { return m_leak; }
    TSNode root() const;
    const QByteArray& source() const { return m_source; }

    /// The source text of a node, as a view into source() (valid while this tree lives).
    std::string_view text(TSNode n) const;
    /// The same as a QString (copies).
    QString qtext(TSNode n) const;
    /// 1-based line and column of a node's start / end.
    static int line(TSNode n) { return int(ts_node_start_point(n).row) + 1; }
    static int endLine(TSNode n) { return int(ts_node_end_point(n).row) + 1; }
    static int column(TSNode n) { return int(ts_node_start_point(n).column) + 1; }
    static int endColumn(TSNode n) { return int(ts_node_end_point(n).column) + 1; }
    /// The node's grammar type, e.g. "call", "for_statement"; "" for a null node (a field or
    /// child that error recovery left out), which ts_node_type() would dereference.
    static std::string_view type(TSNode n) {
        return n.id == nullptr ? std::string_view() : std::string_view(ts_node_type(n));
    }
    /// Whether `n` is non-null and of grammar type `t`. Compares up to the first differing
    /// character (no strlen): it is called for almost every node the rules look at.
    static bool is(TSNode n, std::string_view t) {
        if (n.id == nullptr) // ts_node_is_null()
            return false;
        const char* s = ts_node_type(n);
        for (const char c : t)
            if (*s++ != c)
                return false;
        return *s == '\0';
    }
    /// Named child by field name ("function", "arguments", "left", ...); null node if absent.
    /// Same result as ts_node_child_by_field_name(); see field(TSNode, TSFieldId) for the cost.
    static TSNode field(TSNode n, std::string_view name);
    /// Child by field id; the same node as ts_node_child_by_field_id() (null if absent). For a
    /// node of a live SyntaxTree whose walk has run (survey() / nodes()), and whose parent is
    /// of a kind the walk records (calls, attributes, subscripts, operators, assignments,
    /// definitions, loops, parameters, imports, ...), this is a hash-table lookup recorded
    /// during that walk instead of tree-sitter's scan (~580 instructions per call in 0.20.7).
    /// Thread-safe for trees used by one thread at a time.
    static TSNode field(TSNode n, TSFieldId id);
    /// The grammar's id of a field name ("body", "left", ...); 0 when the grammar has none.
    static TSFieldId fieldId(std::string_view name);
    /// The parent of `n` (null for the root) in O(log nodes). Prefer this to ts_node_parent(),
    /// which in tree-sitter 0.20 re-descends from the root on every call. The index is built
    /// on first use by one iterative walk and kept for the tree's lifetime (~24 bytes/node).
    TSNode parent(TSNode n) const;

    /// Trimmed first line of the node's text (for finding snippets).
    QString firstLine(TSNode n) const;

    /// Whether the tree has any ERROR or MISSING node, and the first such node's start line.
    bool hasErrors() const;
    int firstErrorLine() const;

    /// What one iterative walk over the whole tree learns about its shape: nesting depth,
    /// syntax errors (tree-sitter's own, plus the indentation and keyword mistakes its lenient
    /// recovery accepts silently) and Python 2 constructs. One visit per node, no recursion.
    struct Survey {
        /// Deepest nesting, in tree levels below the root (root = 0), except that a binary or
        /// boolean operator that is the left operand of the same kind of operator adds no
        /// level: `a0 + a1 + ... + a599` (generated sums) nests 600 nodes deep in the tree but
        /// is one flat chain for every walk over it. Brackets, calls, attributes, subscripts,
        /// right-nested operators and blocks count one level per tree level, and so do chained
        /// assignments (`a0 = a1 = ... = x`, right-nested): SemanticModel::buildLoops costs
        /// grow with the square of such a chain inside a loop (800 links: 0.15 s, 5,000: 7 s).
        int maxDepth = 0;
        int nodeCount = 0; ///< named and anonymous nodes visited
        /// ERROR and MISSING nodes (outermost ones only). Not counted: errors that start in an
        /// f-string format spec beginning with '=' (`f"{x:=}"`, `f"{x:=^10}"`), which
        /// tree-sitter-python misreads as a walrus (Python reads a spec there).
        int errorCount = 0;
        /// Source lines the outermost error regions span (a region of one line counts 1): code
        /// there is not seen as statements, so its findings are missing.
        int errorLines = 0;
        int errorLine = 0; ///< 1-based span of the first error node; 0 when none
        int errorColumn = 0;
        int errorEndLine = 0;
        int errorEndColumn = 0;
        bool errorIsMissing = false; ///< the first error is a MISSING token (e.g. a ':' or ')')
        QByteArray missingToken;     ///< its grammar type, e.g. ")" or ":"
        /// First statement whose indentation does not match its block (CPython:
        /// IndentationError), or first empty block ("expected an indented block"); 0 if none.
        int indentLine = 0;
        QByteArray indentProblem; ///< "unexpected indent", "unindent does not match ...", ...
        /// First hard keyword parsed as a name (e.g. a stray `else:`), 0 if none.
        int keywordLine = 0;
        QByteArray keyword;
        /// First Python 2-only construct (print/exec statement, `except E, e`, backticks,
        /// `<>`, octal `0777`, `ur''`), 0 if none; python2What names it.
        int python2Line = 0;
        QByteArray python2What;
        /// Same as SyntaxTree::isCorrupt().
        bool corrupt = false;
    };
    /// Walks the whole tree once (TSTreeCursor, explicit depth counter). The same walk fills
    /// the node lists of nodes(); both are kept, so later calls of either cost nothing.
    Survey survey() const;

    /// The named node kinds that the walk behind survey() collects for the semantic model.
    enum class NodeList : uint8_t {
        Call,          ///< call
        Subscript,     ///< subscript
        Attribute,     ///< attribute
        Assignment,    ///< assignment and augmented_assignment
        Augmented,     ///< augmented_assignment
        Comprehension, ///< list/set/dictionary comprehensions, generator_expression
        For,           ///< for_statement
        While,         ///< while_statement
        If,            ///< if_statement and elif_clause
        ModuleIf,      ///< if_statement directly below the module node
        Assert,        ///< assert_statement
        Ternary,       ///< conditional_expression
        FunctionDef,   ///< function_definition
        ClassDef,      ///< class_definition
        Import,        ///< import_statement and import_from_statement
        Decorator,     ///< decorator
        BinaryOp,      ///< binary_operator
        Comparison,    ///< comparison_operator
        Keyword,       ///< keyword_argument
        Slice,         ///< slice
        Interpolation, ///< interpolation (f-string `{...}`)
        Return,        ///< return_statement
        Lambda,        ///< lambda
        NamedExpr,     ///< named_expression
        WithItem,      ///< with_item
        Count
    };
    /// All named nodes of one kind in document order (pre-order, so sorted by start byte).
    /// Filled by the same single walk as survey() (run on first use of either); the lists
    /// live as long as the tree.
    const std::vector<TSNode>& nodes(NodeList kind) const;
    /// Grammar type of the visible parent of nodes(kind)[i] (e.g. "binary_operator"); empty
    /// for a node without parent or an index out of range. Recorded by the same walk: the
    /// answer of ts_node_type(ts_node_parent(n)), which costs O(depth) per call in 0.20.
    std::string_view parentType(NodeList kind, size_t i) const;

private:
    /// What the walk records (node lists, field children, the survey); SyntaxTree.cpp.
    struct Walked;
    TSNode recordedField(TSNode n, TSFieldId id) const;
    const Walked& walked() const;
    void buildParentIndex() const;
    bool startsLine(TSNode n) const;

    QByteArray m_source;
    TSTree* m_tree = nullptr;
    mutable bool m_leak = false; ///< set by survey() on a corrupt tree; see Survey::corrupt
    /// (node id, parent) sorted by node id; built lazily by parent().
    mutable std::vector<std::pair<const void*, TSNode>> m_parents;
    /// Result of the one walk behind survey() and nodes(); built lazily.
    mutable std::unique_ptr<Walked> m_walked;
};

} // namespace cnready
