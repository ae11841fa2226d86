#pragma once
// RAII ownership of a tree-sitter parse of one Python source, plus small node helpers.

#include <QByteArray>
#include <QString>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>
#include <tree_sitter/api.h>

namespace cnready {

/// The tree-sitter-python language (grammar compiled from the pinned npm package).
const TSLanguage* pythonLanguage();

/// One parsed Python file. Owns the source bytes and the TSTree; not copyable.
/// Parsing never fails: tree-sitter recovers from syntax errors with ERROR/MISSING nodes.
class SyntaxTree {
public:
    /// Parses `utf8Source` (UTF-8 bytes). One TSParser per thread is reused internally.
    explicit SyntaxTree(QByteArray utf8Source);
    ~SyntaxTree();
    SyntaxTree(const SyntaxTree&) = delete;
    SyntaxTree& operator=(const SyntaxTree&) = delete;

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
    /// The node's grammar type, e.g. "call", "for_statement".
    static std::string_view type(TSNode n) { return ts_node_type(n); }
    static bool is(TSNode n, std::string_view t) { return !ts_node_is_null(n) && type(n) == t; }
    /// Named child by field name ("function", "arguments", "left", ...); null node if absent.
    static TSNode field(TSNode n, std::string_view name);
    /// The parent of `n` (null for the root) in O(log nodes). Prefer this to ts_node_parent(),
    /// which in tree-sitter 0.20 re-descends from the root on every call. The index is built
    /// on first use by one iterative walk and kept for the tree's lifetime (~24 bytes/node).
    TSNode parent(TSNode n) const;

    /// Trimmed first line of the node's text (for finding snippets).
    QString firstLine(TSNode n) const;

    /// Whether the tree has any ERROR or MISSING node, and the first such node's start line.
    bool hasErrors() const;
    int firstErrorLine() const;

private:
    void buildParentIndex() const;

    QByteArray m_source;
    TSTree* m_tree = nullptr;
    /// (node id, parent) sorted by node id; built lazily by parent().
    mutable std::vector<std::pair<const void*, TSNode>> m_parents;
};

} // namespace cnready
