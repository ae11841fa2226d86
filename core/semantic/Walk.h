#pragma once
// Iterative subtree walks (no recursion: syntax trees may be 10,000 levels deep).

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

} // namespace cnready
