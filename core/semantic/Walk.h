#pragma once
// Iterative subtree walks (no recursion: syntax trees may be 10,000 levels deep), and the
// index items of a subscript.

#include "parse/SyntaxTree.h"

#include <tree_sitter/api.h>

namespace cnready {

/// Visits `root` and every descendant in pre-order (document order) without recursion.
/// `visit(TSNode)` returns true to descend into that node's children, false to skip them.
/// Anonymous tokens are visited too; filter with ts_node_is_named() when needed.
template <class Visit> void walkSubtree(TSNode root, Visit&& visit) {
    if (ts_node_is_null(root))
        return;
    TSTreeCursor c = ts_tree_cursor_new(root);
    for (;;) {
        const TSNode n = ts_tree_cursor_current_node(&c);
        if (visit(n) && ts_tree_cursor_goto_first_child(&c))
            continue;
        for (;;) {
            if (ts_tree_cursor_goto_next_sibling(&c))
                break;
            if (!ts_tree_cursor_goto_parent(&c)) {
                ts_tree_cursor_delete(&c);
                return;
            }
        }
    }
}

/// Calls `visit(item)` for each index item of subscript `sub` in order, with a tuple index
/// (`a[i, :, ::-1]`) read as its items; `visit` returns false to stop. Returns false when it
/// was stopped.
template <typename Visit> bool forEachIndexItem(TSNode sub, Visit&& visit) {
    const TSNode base = SyntaxTree::field(sub, "value");
    const uint32_t n = ts_node_named_child_count(sub);
    for (uint32_t i = 0; i < n; ++i) {
        const TSNode ix = ts_node_named_child(sub, i);
        if (ts_node_eq(ix, base))
            continue;
        if (SyntaxTree::is(ix, "tuple") || SyntaxTree::is(ix, "expression_list")) {
            const uint32_t k = ts_node_named_child_count(ix);
            for (uint32_t j = 0; j < k; ++j)
                if (!visit(ts_node_named_child(ix, j)))
                    return false;
        } else if (!visit(ix)) {
            return false;
        }
    }
    return true;
}

} // namespace cnready
