#include "parse/SyntaxTree.h"

#include <algorithm>
#include <string>
#include <vector>

extern "C" const TSLanguage* tree_sitter_python(void);

namespace cnready {

const TSLanguage* pythonLanguage() { return tree_sitter_python(); }

namespace {
// TSParser is not thread-safe but is cheap to reuse: one per worker thread.
struct ParserHandle {
    TSParser* parser = ts_parser_new();
    ParserHandle() { ts_parser_set_language(parser, pythonLanguage()); }
    ~ParserHandle() { ts_parser_delete(parser); }
};
TSParser* threadParser() {
    thread_local ParserHandle handle;
    return handle.parser;
}
} // namespace

SyntaxTree::SyntaxTree(QByteArray utf8Source) : m_source(std::move(utf8Source)) {
    m_tree = ts_parser_parse_string(threadParser(), nullptr, m_source.constData(),
                                    uint32_t(m_source.size()));
}

SyntaxTree::~SyntaxTree() {
    if (m_tree)
        ts_tree_delete(m_tree);
}

TSNode SyntaxTree::root() const { return ts_tree_root_node(m_tree); }

std::string_view SyntaxTree::text(TSNode n) const {
    if (ts_node_is_null(n))
        return {};
    const uint32_t b = ts_node_start_byte(n);
    const uint32_t e = ts_node_end_byte(n);
    if (e > uint32_t(m_source.size()) || b > e)
        return {};
    return std::string_view(m_source.constData() + b, e - b);
}

QString SyntaxTree::qtext(TSNode n) const {
    const auto t = text(n);
    return QString::fromUtf8(t.data(), qsizetype(t.size()));
}

TSNode SyntaxTree::field(TSNode n, std::string_view name) {
    if (ts_node_is_null(n))
        return n;
    // ts_node_child_by_field_name compares the name against every field of the grammar on each
    // call; the ids never change, so resolve each name once per thread.
    thread_local std::vector<std::pair<std::string, TSFieldId>> ids;
    TSFieldId id = 0;
    for (const auto& [known, knownId] : ids)
        if (known == name) {
            id = knownId;
            break;
        }
    if (id == 0) {
        id = ts_language_field_id_for_name(pythonLanguage(), name.data(), uint32_t(name.size()));
        if (id == 0)
            return TSNode{};
        ids.emplace_back(name, id);
    }
    return ts_node_child_by_field_id(n, id);
}

QString SyntaxTree::firstLine(TSNode n) const {
    const auto t = text(n);
    const auto nl = t.find('\n');
    const auto head = nl == std::string_view::npos ? t : t.substr(0, nl);
    QString s = QString::fromUtf8(head.data(), qsizetype(head.size())).trimmed();
    if (s.size() > 160)
        s = s.left(157) + QStringLiteral("...");
    return s;
}

void SyntaxTree::buildParentIndex() const {
    // Pre-order walk with an explicit stack of ancestors (the cursor knows its depth).
    std::vector<TSNode> ancestors;
    TSTreeCursor c = ts_tree_cursor_new(root());
    for (;;) {
        const TSNode n = ts_tree_cursor_current_node(&c);
        m_parents.emplace_back(n.id, ancestors.empty() ? TSNode{} : ancestors.back());
        if (ts_tree_cursor_goto_first_child(&c)) {
            ancestors.push_back(n);
            continue;
        }
        bool done = false;
        while (!ts_tree_cursor_goto_next_sibling(&c)) {
            if (!ts_tree_cursor_goto_parent(&c)) {
                done = true;
                break;
            }
            ancestors.pop_back();
        }
        if (done)
            break;
    }
    ts_tree_cursor_delete(&c);
    std::sort(m_parents.begin(), m_parents.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
}

TSNode SyntaxTree::parent(TSNode n) const {
    if (ts_node_is_null(n))
        return n;
    if (m_parents.empty())
        buildParentIndex();
    const auto it = std::lower_bound(m_parents.begin(), m_parents.end(), n.id,
                                     [](const auto& e, const void* id) { return e.first < id; });
    if (it == m_parents.end() || it->first != n.id)
        return ts_node_parent(n); // not from this tree's walk (should not happen)
    return it->second;
}

bool SyntaxTree::hasErrors() const { return ts_node_has_error(root()); }

int SyntaxTree::firstErrorLine() const {
    // Iterative descent (no recursion: deeply nested input must not overflow the stack).
    TSTreeCursor cursor = ts_tree_cursor_new(root());
    int found = 0;
    for (;;) {
        TSNode n = ts_tree_cursor_current_node(&cursor);
        if (type(n) == "ERROR" || ts_node_is_missing(n)) {
            found = line(n);
            break;
        }
        if (ts_node_has_error(n) && ts_tree_cursor_goto_first_child(&cursor))
            continue;
        bool moved = false;
        while (!moved) {
            if (ts_tree_cursor_goto_next_sibling(&cursor)) {
                moved = true;
            } else if (!ts_tree_cursor_goto_parent(&cursor)) {
                break;
            }
        }
        if (!moved)
            break;
    }
    ts_tree_cursor_delete(&cursor);
    return found;
}

} // namespace cnready
