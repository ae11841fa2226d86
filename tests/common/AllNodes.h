#pragma once
// Test helper: every node under `root` (itself included), pre-order, through tree-sitter's own
// child API rather than any walk of the code under test. Explicit stack: any depth.

#include <tree_sitter/api.h>

#include <vector>

inline std::vector<TSNode> allNodes(TSNode root) {
    std::vector<TSNode> out, stack{root};
    while (!stack.empty()) {
        const TSNode n = stack.back();
        stack.pop_back();
        out.push_back(n);
        for (uint32_t i = ts_node_child_count(n); i > 0; --i)
            stack.push_back(ts_node_child(n, i - 1));
    }
    return out;
}
