#pragma once
// Finding the syntax node a finding was reported on, for the port preview's rewrites.

#include "model/Finding.h"
#include "parse/SyntaxTree.h"

#include <tree_sitter/api.h>

#include <vector>

namespace cnready::port {

/// Whether `n` spans exactly the finding's range (FindingSink's 1-based start, and end line
/// and column one past the last byte).
inline bool spansFinding(TSNode n, const Finding& f) {
    return SyntaxTree::line(n) == f.range.line && SyntaxTree::column(n) == f.range.column &&
           SyntaxTree::endLine(n) == f.range.endLine &&
           SyntaxTree::endColumn(n) == f.range.endColumn;
}

/// The node of `list` (a document-ordered list of the semantic model) that spans the finding,
/// or a null node.
inline TSNode nodeOfFinding(const std::vector<TSNode>& list, const Finding& f) {
    for (TSNode n : list)
        if (spansFinding(n, f))
            return n;
    return TSNode{};
}

} // namespace cnready::port
