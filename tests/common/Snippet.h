#pragma once
// One parsed Python snippet and its semantic model, for tests that ask the model about nodes.

#include "parse/SyntaxTree.h"
#include "semantic/SemanticModel.h"
#include "semantic/Walk.h"

#include <memory>
#include <string_view>

namespace test {

struct Snippet {
    std::unique_ptr<cnready::SyntaxTree> tree;
    std::unique_ptr<cnready::SemanticModel> model;
    explicit Snippet(const QByteArray& src, const QString& module = QStringLiteral("mod"))
        : tree(std::make_unique<cnready::SyntaxTree>(src)),
          model(std::make_unique<cnready::SemanticModel>(*tree, module)) {}
    /// The outermost named node whose text is `text`, at or after the first occurrence of
    /// `after` (so a test can pick the use on a given line); null when there is none.
    TSNode find(std::string_view text, std::string_view after = {}) const {
        const std::string_view src(tree->source().constData(), size_t(tree->source().size()));
        const size_t from = after.empty() ? 0 : src.find(after);
        TSNode found{};
        cnready::walkSubtree(tree->root(), [&](TSNode n) {
            if (!ts_node_is_null(found))
                return false;
            if (ts_node_is_named(n) && ts_node_start_byte(n) >= from && tree->text(n) == text) {
                found = n;
                return false;
            }
            return true;
        });
        return found;
    }
};

} // namespace test
