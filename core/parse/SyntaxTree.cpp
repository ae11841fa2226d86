#include "parse/SyntaxTree.h"

#include <algorithm>
#include <string>
#include <vector>

extern "C" const TSLanguage* tree_sitter_python(void);

namespace cnready {

const TSLanguage* pythonLanguage() {
    return tree_sitter_python();
}

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

SyntaxTree::SyntaxTree(QByteArray utf8Source, quint64 timeoutMicros)
    : m_source(std::move(utf8Source)) {
    TSParser* parser = threadParser();
    ts_parser_set_timeout_micros(parser, timeoutMicros);
    m_tree =
        ts_parser_parse_string(parser, nullptr, m_source.constData(), uint32_t(m_source.size()));
    if (!m_tree) {
        ts_parser_reset(parser); // a timed-out parse leaves state behind; start clean next time
        return;
    }
    // tree-sitter 0.20.x keeps an ERROR node's child count in 16 bits: with more than 65,535
    // unparsable tokens in one place the count wraps, the node (and every ancestor, whose
    // sizes are summed from their children) ends too early, and ts_tree_delete() would free
    // a bad pointer. Only trees with errors can be affected; for those, anything but
    // whitespace after the root's end reveals the wrap, and the tree is leaked, not deleted.
    if (!ts_node_has_error(root()))
        return;
    const char* d = m_source.constData();
    for (qsizetype i = qsizetype(ts_node_end_byte(root())); i < m_source.size(); ++i) {
        if (d[i] != ' ' && d[i] != '\t' && d[i] != '\n' && d[i] != '\r' && d[i] != '\f') {
            m_leak = true;
            return;
        }
    }
}

SyntaxTree::~SyntaxTree() {
    if (m_tree && !m_leak)
        ts_tree_delete(m_tree);
}

TSNode SyntaxTree::root() const {
    return ts_tree_root_node(m_tree);
}

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

bool SyntaxTree::hasErrors() const {
    return ts_node_has_error(root());
}

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

bool SyntaxTree::startsLine(TSNode n) const {
    const char* d = m_source.constData();
    for (qsizetype i = qsizetype(ts_node_start_byte(n)) - 1; i >= 0; --i) {
        if (d[i] == '\n')
            return true;
        if (d[i] != ' ' && d[i] != '\t' && d[i] != '\f')
            return false;
    }
    return true;
}

namespace {

bool isHardKeyword(std::string_view t) {
    static constexpr std::string_view kKeywords[] = {
        "and",   "as",     "assert",   "break", "class", "continue", "def",   "del",    "elif",
        "else",  "except", "finally",  "for",   "from",  "global",   "if",    "import", "in",
        "is",    "lambda", "nonlocal", "not",   "or",    "pass",     "raise", "return", "try",
        "while", "with",   "yield",    "None",  "True",  "False"};
    if (t.size() < 2 || t.size() > 8)
        return false;
    for (std::string_view k : kKeywords)
        if (k == t)
            return true;
    return false;
}

// Per-depth state of the walk: whether the node at that depth is a statement container and
// the column its line-starting statements must share.
struct Frame {
    bool container = false;
    bool exceptClause = false;
    int column = -1;
};

} // namespace

SyntaxTree::Survey SyntaxTree::survey() const {
    Survey s;
    TSTreeCursor cursor = ts_tree_cursor_new(root());
    std::vector<Frame> frames(1);
    int depth = 0;
    int errorDepth = -1; // depth of the error node we are inside, -1 outside any
    auto python2 = [&s](TSNode n, const char* what) {
        if (s.python2Line == 0) {
            s.python2Line = line(n);
            s.python2What = what;
        }
    };
    auto indent = [&s](int atLine, const char* what) {
        if (s.indentLine == 0) {
            s.indentLine = atLine;
            s.indentProblem = what;
        }
    };
    for (;;) {
        const TSNode n = ts_tree_cursor_current_node(&cursor);
        ++s.nodeCount;
        s.maxDepth = std::max(s.maxDepth, depth);
        if (errorDepth >= 0 && depth <= errorDepth)
            errorDepth = -1; // left the previous error region
        const std::string_view t = type(n);
        const bool named = ts_node_is_named(n);
        const bool missing = ts_node_is_missing(n);
        if (missing || t == "ERROR") {
            if (errorDepth < 0) {
                if (s.errorCount == 0) {
                    // An ERROR node often swallows the complete statements before the real
                    // mistake (up to the top of the file): point at the first child that is
                    // not such a statement.
                    TSNode at = n;
                    TSTreeCursor inner = ts_tree_cursor_new(n);
                    if (!missing && ts_tree_cursor_goto_first_child(&inner)) {
                        do {
                            const TSNode c = ts_tree_cursor_current_node(&inner);
                            const std::string_view ct = type(c);
                            const bool complete = ts_node_is_named(c) && !ts_node_has_error(c) &&
                                                  (ct.ends_with("statement") ||
                                                   ct.ends_with("definition") || ct == "comment");
                            if (!complete) {
                                at = c;
                                break;
                            }
                        } while (ts_tree_cursor_goto_next_sibling(&inner));
                    }
                    ts_tree_cursor_delete(&inner);
                    s.errorLine = line(at);
                    s.errorColumn = column(at);
                    s.errorEndLine = endLine(n);
                    s.errorEndColumn = endColumn(n);
                    s.errorIsMissing = missing;
                    if (missing)
                        s.missingToken = QByteArray(ts_node_type(n));
                }
                ++s.errorCount;
                errorDepth = depth;
            }
        } else if (named) {
            // Statements of one block (or the module) that start a line share one column.
            if (depth > 0 && frames[size_t(depth - 1)].container && t != "comment" &&
                startsLine(n)) {
                Frame& parent = frames[size_t(depth - 1)];
                const int col = int(ts_node_start_point(n).column);
                if (parent.column < 0)
                    parent.column = col;
                else if (col > parent.column)
                    indent(line(n), "unexpected indent");
                else if (col < parent.column)
                    indent(line(n), "unindent does not match any outer indentation level");
            }
            if (t == "identifier") {
                if (errorDepth < 0 && s.keywordLine == 0 && isHardKeyword(text(n))) {
                    s.keywordLine = line(n);
                    s.keyword = QByteArray(text(n).data(), qsizetype(text(n).size()));
                }
            } else if (t == "block") {
                if (ts_node_child_count(n) == 0)
                    indent(line(n), "expected an indented block");
            } else if (t == "print_statement") {
                python2(n, "print statement");
            } else if (t == "exec_statement") {
                python2(n, "exec statement");
            } else if (t == "integer") {
                const std::string_view v = text(n);
                if (v.size() > 1 && v[0] == '0' && v[1] >= '0' && v[1] <= '9' &&
                    v.find_first_not_of("0_") != std::string_view::npos)
                    python2(n, "octal literal without 0o");
            } else if (t == "string_start") {
                const std::string_view v = text(n);
                if (!v.empty() && v[0] == '`')
                    python2(n, "backtick repr");
                else if (v.size() >= 3 && (v[0] == 'u' || v[0] == 'U') &&
                         (v[1] == 'r' || v[1] == 'R'))
                    python2(n, "ur'' string prefix");
            }
        } else if (t == "<>") {
            python2(n, "<> operator");
        } else if (t == "," && depth > 0 && frames[size_t(depth - 1)].exceptClause) {
            python2(n, "except E, name");
        }
        if (ts_tree_cursor_goto_first_child(&cursor)) {
            if (frames.size() <= size_t(depth))
                frames.resize(size_t(depth) + 1);
            frames[size_t(depth)] =
                Frame{t == "block" || t == "module", t == "except_clause", t == "module" ? 0 : -1};
            ++depth;
            if (frames.size() <= size_t(depth))
                frames.resize(size_t(depth) + 1);
            continue;
        }
        bool moved = false;
        while (!moved) {
            if (ts_tree_cursor_goto_next_sibling(&cursor))
                moved = true;
            else if (ts_tree_cursor_goto_parent(&cursor))
                --depth;
            else
                break;
        }
        if (!moved)
            break;
    }
    ts_tree_cursor_delete(&cursor);
    s.corrupt = m_leak;
    return s;
}

} // namespace cnready
