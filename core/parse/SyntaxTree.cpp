#include "parse/SyntaxTree.h"

#include "parse/WorkCounters.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
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

// Live trees by their TSTree, so that the static field() can find the table recorded by a
// node's tree. TSTree addresses are reused once a tree is freed, so every destruction bumps
// an epoch first, and a thread's one-entry cache is only trusted while the epoch is unchanged.
std::mutex g_treesMutex;
std::vector<std::pair<const TSTree*, const SyntaxTree*>> g_trees;
std::atomic<uint64_t> g_treesEpoch{0};
struct OwnerCache {
    const TSTree* tree = nullptr;
    const SyntaxTree* owner = nullptr;
    uint64_t epoch = ~uint64_t(0);
};
thread_local OwnerCache t_owner;

const SyntaxTree* ownerOf(const TSTree* tree) {
    const uint64_t epoch = g_treesEpoch.load(std::memory_order_acquire);
    if (t_owner.tree == tree && t_owner.epoch == epoch)
        return t_owner.owner;
    const SyntaxTree* owner = nullptr;
    {
        const std::lock_guard<std::mutex> lock(g_treesMutex);
        for (const auto& [t, o] : g_trees)
            if (t == tree)
                owner = o;
    }
    t_owner = OwnerCache{tree, owner, epoch};
    return owner;
}
// Hash of one (parent node, field) key of the field table that the walk records.
size_t fieldHash(const void* parent, TSFieldId field) {
    const auto v = uint64_t(reinterpret_cast<uintptr_t>(parent)) ^ (uint64_t(field) << 48);
    return size_t((v * 0x9E3779B97F4A7C15ull) >> 17);
}
} // namespace

struct SyntaxTree::Walked {
    /// One recorded field child: (parent node id, field id) -> child (24 bytes). The child's
    /// TSNode::context is its start byte, row and column, then its alias symbol; the row and
    /// column follow from the start byte (Walked::pointAt), so only the byte is kept.
    struct FieldSlot {
        const void* parent = nullptr; ///< TSNode::id of the parent
        const void* child = nullptr;  ///< TSNode::id of the child
        uint32_t startByte = 0;       ///< TSNode::context[0] of the child
        TSSymbol alias = 0;           ///< TSNode::context[3] of the child
        TSFieldId field = 0;
    };
    Survey survey;
    std::array<std::vector<TSNode>, size_t(NodeList::Count)> lists;
    /// Per list entry: the parent's grammar symbol + 1 (0: no parent).
    std::array<std::vector<uint32_t>, size_t(NodeList::Count)> parents;
    static_assert(sizeof(FieldSlot) == 24, "a field slot is two pointers and two 32-bit words");
    std::vector<FieldSlot> fields; ///< in walk order, one per (parent, field)
    /// Open addressing over `fields`: index + 1, 0 = empty; size a power of two (or 0).
    std::vector<uint32_t> fieldIndex;
    /// Start byte of every line (the first is 0): a line begins after each '\n', as
    /// tree-sitter counts rows (columns are bytes).
    std::vector<uint32_t> lineStarts;
    /// Per 256-byte bucket of the source: the line holding the bucket's first byte.
    std::vector<uint32_t> bucketLine;
    /// Field slots whose child's (row, column) is not the one pointAt() gives, by slot index
    /// (none has been seen; kept so that the table answers as tree-sitter does regardless).
    std::vector<std::pair<uint32_t, TSPoint>> oddPoints;

    void indexLines(const QByteArray& src) {
        const char* d = src.constData();
        const size_t n = size_t(src.size());
        lineStarts.push_back(0);
        for (const char* p = d;
             (p = static_cast<const char*>(std::memchr(p, '\n', n - size_t(p - d))));)
            lineStarts.push_back(uint32_t(++p - d));
        bucketLine.resize((n >> 8) + 1);
        size_t line = 0;
        for (size_t b = 0; b < bucketLine.size(); ++b) {
            while (line + 1 < lineStarts.size() && lineStarts[line + 1] <= (b << 8))
                ++line;
            bucketLine[b] = uint32_t(line);
        }
        lineStarts.shrink_to_fit();
    }
    /// The (row, column) of a byte offset, as tree-sitter computes it for a node's start.
    TSPoint pointAt(uint32_t byte) const {
        const size_t b = std::min(size_t(byte >> 8), bucketLine.size() - 1);
        const auto from = lineStarts.begin() + std::ptrdiff_t(bucketLine[b]);
        const auto to = b + 1 < bucketLine.size()
                            ? lineStarts.begin() + std::ptrdiff_t(bucketLine[b + 1]) + 1
                            : lineStarts.end();
        const auto at = std::upper_bound(from, to, byte) - 1;
        return TSPoint{uint32_t(at - lineStarts.begin()), byte - *at};
    }
};

SyntaxTree::SyntaxTree(QByteArray utf8Source, quint64 timeoutMicros)
    : m_source(std::move(utf8Source)) {
    TSParser* parser = threadParser();
    // tree-sitter-python's external scanner (0.23.6) keeps `inside_f_string` across parses:
    // restoring the empty start state does not clear it. After a file that ends inside an
    // f-string, the next file on this thread would lose its first DEDENTs and parse wrongly,
    // so results would depend on which file the thread parsed before. Setting the language
    // again destroys and recreates the scanner (one small allocation) for a clean start.
    ts_parser_set_language(parser, pythonLanguage());
    ts_parser_set_timeout_micros(parser, timeoutMicros);
    m_tree =
        ts_parser_parse_string(parser, nullptr, m_source.constData(), uint32_t(m_source.size()));
    if (!m_tree) {
        ts_parser_reset(parser); // a timed-out parse leaves state behind; start clean next time
        return;
    }
    {
        const std::lock_guard<std::mutex> lock(g_treesMutex);
        g_trees.emplace_back(m_tree, this);
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
    if (!m_tree)
        return;
    g_treesEpoch.fetch_add(1, std::memory_order_acq_rel);
    {
        const std::lock_guard<std::mutex> lock(g_treesMutex);
        const auto it = std::find(g_trees.begin(), g_trees.end(),
                                  std::pair<const TSTree*, const SyntaxTree*>(m_tree, this));
        if (it != g_trees.end()) {
            *it = g_trees.back();
            g_trees.pop_back();
        }
    }
    if (!m_leak)
        ts_tree_delete(m_tree);
}

TSNode SyntaxTree::root() const {
    return ts_tree_root_node(m_tree);
}

std::string_view SyntaxTree::text(TSNode n) const {
    // ts_node_is_null() only tests the id; testing it here saves a library call on one of
    // the most frequent calls of the model and the rules.
    if (n.id == nullptr)
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

TSFieldId SyntaxTree::fieldId(std::string_view name) {
    // ts_node_child_by_field_name() looks the name up by a linear scan with string compares on
    // every call; resolve names through a small hash table built once from the grammar's own
    // field list (thread-safe static). The stored name is compared in full, so any string
    // (not only literals) gives the grammar's answer.
    struct Table {
        static size_t hash(std::string_view v) {
            size_t h = 2166136261u;
            for (const char ch : v)
                h = (h ^ uint8_t(ch)) * 16777619u;
            return h;
        }
        std::vector<std::pair<std::string_view, TSFieldId>> cells;
        size_t mask = 0;
        TSFieldId find(std::string_view name) const {
            for (size_t h = hash(name) & mask;; h = (h + 1) & mask)
                if (cells[h].second == 0 || cells[h].first == name)
                    return cells[h].second;
        }
        Table() {
            const TSLanguage* lang = pythonLanguage();
            const uint32_t count = ts_language_field_count(lang);
            size_t size = 16;
            while (size < 4 * size_t(count))
                size *= 2;
            cells.assign(size, {std::string_view(), TSFieldId(0)});
            mask = size - 1;
            for (uint32_t i = 1; i <= count; ++i)
                if (const char* n = ts_language_field_name_for_id(lang, TSFieldId(i))) {
                    const std::string_view v(n);
                    size_t h = hash(v) & mask;
                    while (cells[h].second != 0 && cells[h].first != v)
                        h = (h + 1) & mask;
                    if (cells[h].second == 0)
                        cells[h] = {v, TSFieldId(i)};
                }
        }
    };
    static const Table table;
    // The names rules ask for most, compared before hashing (their ids come from the table,
    // so they are the grammar's own).
    static const std::array<std::pair<std::string_view, TSFieldId>, 10> common = [] {
        std::array<std::pair<std::string_view, TSFieldId>, 10> c = {{{"left", 0},
                                                                     {"right", 0},
                                                                     {"body", 0},
                                                                     {"name", 0},
                                                                     {"value", 0},
                                                                     {"object", 0},
                                                                     {"function", 0},
                                                                     {"attribute", 0},
                                                                     {"arguments", 0},
                                                                     {"operator", 0}}};
        for (auto& [n, id] : c)
            id = table.find(n);
        return c;
    }();
    // Length and one letter pick the only common name that can match (~90,000 calls on a
    // 20,000-line corpus); any other name, or a failed compare, goes to the table, which
    // knows every name, so the answer is the same either way.
    int candidate = -1;
    switch (name.size()) {
    case 4: // left, body, name
        candidate = name[0] == 'l' ? 0 : name[0] == 'b' ? 2 : name[0] == 'n' ? 3 : -1;
        break;
    case 5: // right, value
        candidate = name[0] == 'r' ? 1 : name[0] == 'v' ? 4 : -1;
        break;
    case 6: // object
        candidate = 5;
        break;
    case 8: // function, operator
        candidate = name[0] == 'f' ? 6 : name[0] == 'o' ? 9 : -1;
        break;
    case 9: // attribute, arguments
        candidate = name[1] == 't' ? 7 : name[1] == 'r' ? 8 : -1;
        break;
    default:
        break;
    }
    if (candidate >= 0 && common[size_t(candidate)].first == name)
        return common[size_t(candidate)].second;
    return table.find(name);
}

TSNode SyntaxTree::field(TSNode n, std::string_view name) {
    if (n.id == nullptr) // ts_node_is_null()
        return n;
    const TSFieldId id = fieldId(name);
    if (id == 0)
        return TSNode{}; // no such field in the grammar: a null node, as the by-name call gives
    return field(n, id);
}

// Only field() calls this (~400,000 times on a 20,000-line corpus): inlined there, which
// spares copying the node in and out once more.
[[gnu::always_inline]] inline TSNode SyntaxTree::recordedField(TSNode n, TSFieldId id) const {
    // Every node type with fields is recorded (kFieldParents): a miss means no such child.
    const std::vector<uint32_t>& index = m_walked->fieldIndex;
    if (index.empty())
        return TSNode{}; // the tree has no field children at all
    const std::vector<Walked::FieldSlot>& fields = m_walked->fields;
    const size_t mask = index.size() - 1;
    for (size_t h = fieldHash(n.id, id) & mask; index[h] != 0; h = (h + 1) & mask) {
        ++t_workCounters.fieldProbes;
        const Walked::FieldSlot& e = fields[index[h] - 1];
        if (e.parent == n.id && e.field == id) {
            TSNode c{};
            TSPoint p = m_walked->pointAt(e.startByte);
            if (!m_walked->oddPoints.empty()) {
                const auto& odd = m_walked->oddPoints;
                const uint32_t slot = index[h] - 1;
                const auto it = std::lower_bound(
                    odd.begin(), odd.end(), slot,
                    [](const std::pair<uint32_t, TSPoint>& o, uint32_t v) { return o.first < v; });
                if (it != odd.end() && it->first == slot)
                    p = it->second;
            }
            c.context[0] = e.startByte;
            c.context[1] = p.row;
            c.context[2] = p.column;
            c.context[3] = e.alias;
            c.id = e.child;
            c.tree = n.tree;
            return c;
        }
    }
    return TSNode{};
}

TSNode SyntaxTree::field(TSNode n, TSFieldId id) {
    if (n.id == nullptr || id == 0) // ts_node_is_null() tests the id only
        return TSNode{};
    ++t_workCounters.fieldLookups;
    if (const SyntaxTree* owner = ownerOf(n.tree); owner && owner->m_walked)
        return owner->recordedField(n, id);
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
    // The keywords by length: an identifier is compared with those of its own length only
    // (every identifier of a file comes here; 33 compares each cost ~5 M instructions on a
    // 20,000-line corpus).
    static constexpr std::string_view k2[] = {"as", "if", "in", "is", "or"};
    static constexpr std::string_view k3[] = {"and", "def", "del", "for", "not", "try", "None"};
    static constexpr std::string_view k4[] = {"elif", "else", "from", "pass", "with", "True"};
    static constexpr std::string_view k5[] = {"break", "class", "raise", "while", "yield", "False"};
    static constexpr std::string_view k6[] = {"assert", "except", "global",
                                              "import", "lambda", "return"};
    static constexpr std::string_view k7[] = {"finally"};
    static constexpr std::string_view k8[] = {"continue", "nonlocal"};
    auto any = [t](const auto& words) {
        for (const std::string_view k : words)
            if (k[0] == t[0] && k == t) // first letters before a memcmp call
                return true;
        return false;
    };
    switch (t.size()) {
    case 2:
        return any(k2);
    case 3:
        return any(k3);
    case 4:
        return any(k4);
    case 5:
        return any(k5);
    case 6:
        return any(k6);
    case 7:
        return any(k7);
    case 8:
        return any(k8);
    default:
        return false;
    }
}

// The node types the survey looks at, classified once per symbol id (string compares per
// node cost a third of the walk). Every id with a given name maps, so aliases are covered.
enum class Kind : uint8_t {
    Other,
    Error,
    Comment,
    Identifier,
    Block,
    Module,
    PrintStatement,
    ExecStatement,
    Integer,
    StringStart,
    NotEqual,
    Comma,
    ExceptClause,
    Interpolation,
    OperatorChain ///< binary_operator, boolean_operator: left-nested in long chains
};

constexpr uint8_t kNoList = 0xFF;

// Per grammar symbol: its survey kind, and the node list (SyntaxTree::NodeList) a named node
// of that symbol goes to, if any. Built once; looking a symbol up replaces string compares.
struct SymbolInfo {
    Kind kind = Kind::Other;
    uint8_t list = kNoList;
    bool recordFields = false; ///< the walk records this node's field children
    /// ts_node_is_named() of a node of this (public) symbol: a public symbol stands for
    /// symbols and aliases of one name and one kind, so the symbol decides it.
    bool named = false;
};

// Every node type that has fields in tree-sitter-python's node-types.json: the walk records
// the field children of all of them, so a (node, field) pair missing from the table has no
// such child, whatever the node. Checked against ts_node_child_by_field_id() for every node
// and every field id of the six benchmark corpora, the tests and 300 randomly damaged files
// (identical results, aliases included).
constexpr std::string_view kFieldParents[] = {"aliased_import",
                                              "as_pattern",
                                              "assignment",
                                              "attribute",
                                              "augmented_assignment",
                                              "binary_operator",
                                              "block",
                                              "boolean_operator",
                                              "call",
                                              "case_clause",
                                              "class_definition",
                                              "comparison_operator",
                                              "decorated_definition",
                                              "default_parameter",
                                              "dict_pattern",
                                              "dictionary_comprehension",
                                              "elif_clause",
                                              "else_clause",
                                              "except_clause",
                                              "exec_statement",
                                              "for_in_clause",
                                              "for_statement",
                                              "format_expression",
                                              "function_definition",
                                              "future_import_statement",
                                              "generator_expression",
                                              "if_statement",
                                              "import_from_statement",
                                              "import_statement",
                                              "interpolation",
                                              "keyword_argument",
                                              "lambda",
                                              "list_comprehension",
                                              "match_statement",
                                              "named_expression",
                                              "not_operator",
                                              "pair",
                                              "print_statement",
                                              "raise_statement",
                                              "set_comprehension",
                                              "subscript",
                                              "try_statement",
                                              "type_alias_statement",
                                              "typed_default_parameter",
                                              "typed_parameter",
                                              "unary_operator",
                                              "while_statement",
                                              "with_item",
                                              "with_statement"};

const std::vector<SymbolInfo>& symbolTable() {
    static const std::vector<SymbolInfo> table = [] {
        using L = SyntaxTree::NodeList;
        const TSLanguage* lang = pythonLanguage();
        const uint32_t count = ts_language_symbol_count(lang);
        std::vector<SymbolInfo> t(count);
        static constexpr std::pair<std::string_view, Kind> names[] = {
            {"ERROR", Kind::Error},
            {"comment", Kind::Comment},
            {"identifier", Kind::Identifier},
            {"block", Kind::Block},
            {"module", Kind::Module},
            {"print_statement", Kind::PrintStatement},
            {"exec_statement", Kind::ExecStatement},
            {"integer", Kind::Integer},
            {"string_start", Kind::StringStart},
            {"<>", Kind::NotEqual},
            {",", Kind::Comma},
            {"except_clause", Kind::ExceptClause},
            {"interpolation", Kind::Interpolation},
            {"binary_operator", Kind::OperatorChain},
            {"boolean_operator", Kind::OperatorChain}};
        static constexpr std::pair<std::string_view, L> lists[] = {
            {"call", L::Call},
            {"subscript", L::Subscript},
            {"attribute", L::Attribute},
            {"assignment", L::Assignment},
            {"augmented_assignment", L::Augmented},
            {"list_comprehension", L::Comprehension},
            {"set_comprehension", L::Comprehension},
            {"dictionary_comprehension", L::Comprehension},
            {"generator_expression", L::Comprehension},
            {"for_statement", L::For},
            {"while_statement", L::While},
            {"if_statement", L::If},
            {"elif_clause", L::If},
            {"assert_statement", L::Assert},
            {"conditional_expression", L::Ternary},
            {"function_definition", L::FunctionDef},
            {"class_definition", L::ClassDef},
            {"import_statement", L::Import},
            {"import_from_statement", L::Import},
            {"decorator", L::Decorator},
            {"binary_operator", L::BinaryOp},
            {"comparison_operator", L::Comparison},
            {"keyword_argument", L::Keyword},
            {"slice", L::Slice},
            {"interpolation", L::Interpolation},
            {"return_statement", L::Return},
            {"lambda", L::Lambda},
            {"named_expression", L::NamedExpr},
            {"with_item", L::WithItem},
        };
        for (uint32_t id = 0; id < count; ++id) {
            t[id].named = ts_language_symbol_type(lang, TSSymbol(id)) == TSSymbolTypeRegular;
            const char* name = ts_language_symbol_name(lang, TSSymbol(id));
            if (!name)
                continue;
            for (const auto& [n, k] : names)
                if (n == name)
                    t[id].kind = k;
            // Only regular (named, visible) symbols are listed, as the model always did.
            if (ts_language_symbol_type(lang, TSSymbol(id)) != TSSymbolTypeRegular)
                continue;
            for (const auto& [n, l] : lists)
                if (n == name)
                    t[id].list = uint8_t(l);
            for (const std::string_view n : kFieldParents)
                if (n == name)
                    t[id].recordFields = true;
        }
        return t;
    }();
    return table;
}

// Per-depth state of the walk: whether the node at that depth is a statement container and
// the column its line-starting statements must share.
struct Frame {
    bool container = false;
    bool exceptClause = false;
    bool module = false;
    bool recordFields = false;
    int column = -1;
    const void* node = nullptr; ///< TSNode::id, for recording field children
    TSSymbol symbol = 0;        ///< ts_node_symbol of the node at this depth
    int nesting = 0;            ///< the node's nesting depth, see Survey::maxDepth
    int interpolation = -1;     ///< depth of the nearest f-string interpolation at or above, or -1
    uint32_t start = 0;         ///< start and end byte, recorded for interpolations only
    uint32_t end = 0;
    int64_t specColon = -2; ///< for an interpolation: equalsSpecColon() of it, -2 until needed
    /// Children of this node not visited yet (ts_node_child_count counts the visible
    /// children the cursor visits, through hidden nodes and aliases alike).
    uint32_t unvisited = 0;
};

// In an f-string replacement field a ':' outside brackets always starts the format spec, so
// `{x:=}` or `{x:=^10}` is a spec that begins with '=' (fill/alignment), never a walrus, which
// needs parentheses there. tree-sitter-python lexes the ':=' as a walrus and reports the spec
// as an ERROR or MISSING node. Returns the byte offset of the ':' that starts such a spec in
// the interpolation at bytes [start, end) (from its '{'), or -1 when its spec (if any) does
// not begin with '='.
int64_t equalsSpecColon(const QByteArray& src, uint32_t start, uint32_t end) {
    end = std::min(end, uint32_t(src.size()));
    int brackets = 0;
    char quote = 0;
    for (uint32_t i = start + 1; i < end; ++i) {
        const char c = src[qsizetype(i)];
        if (quote != 0) {
            if (c == quote)
                quote = 0;
        } else if (c == '\'' || c == '"') {
            quote = c;
        } else if (c == '(' || c == '[' || c == '{') {
            ++brackets;
        } else if (c == ')' || c == ']' || c == '}') {
            if (--brackets < 0)
                return -1; // the field's closing brace: no format spec
        } else if (c == ':' && brackets == 0) {
            return i + 1 < end && src[qsizetype(i + 1)] == '=' ? int64_t(i) : -1;
        }
    }
    return -1;
}

} // namespace

SyntaxTree::Survey SyntaxTree::survey() const {
    return walked().survey;
}

const std::vector<TSNode>& SyntaxTree::nodes(NodeList kind) const {
    return walked().lists[size_t(kind)];
}

std::string_view SyntaxTree::parentType(NodeList kind, size_t i) const {
    const std::vector<uint32_t>& parents = walked().parents[size_t(kind)];
    if (i >= parents.size() || parents[i] == 0)
        return {};
    const char* name = ts_language_symbol_name(pythonLanguage(), TSSymbol(parents[i] - 1));
    return name ? std::string_view(name) : std::string_view();
}

const SyntaxTree::Walked& SyntaxTree::walked() const {
    if (m_walked)
        return *m_walked;
    // One pass over every node serves both the survey and the semantic model's node lists:
    // a cursor walk costs ~700 instructions per node in tree-sitter 0.20.7, more than what
    // either consumer does with the node.
    m_walked = std::make_unique<Walked>();
    Survey& s = m_walked->survey;
    auto& lists = m_walked->lists;
    auto& parents = m_walked->parents;
    const std::vector<SymbolInfo>& table = symbolTable();
    std::vector<Walked::FieldSlot>& fields = m_walked->fields;
    m_walked->indexLines(m_source);
    TSTreeCursor cursor = ts_tree_cursor_new(root());
    std::vector<Frame> frames(1);
    int depth = 0;
    static const TSFieldId leftField = fieldId("left");
    int errorDepth = -1; // depth of the error node we are inside, -1 outside any
    const bool treeHasError = ts_node_has_error(root());
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
        if (errorDepth >= 0 && depth <= errorDepth)
            errorDepth = -1; // left the previous error region
        const TSSymbol sym = ts_node_symbol(n);
        // The builtin ERROR symbol is named and records no fields.
        const SymbolInfo info = sym == TSSymbol(-1)  ? SymbolInfo{Kind::Error, kNoList, false, true}
                                : sym < table.size() ? table[sym]
                                                     : SymbolInfo{};
        const Kind k = info.kind;
        const bool named =
            sym == TSSymbol(-1) || sym < table.size() ? info.named : ts_node_is_named(n);
        const TSFieldId fid = depth > 0 && frames[size_t(depth - 1)].recordFields
                                  ? ts_tree_cursor_current_field_id(&cursor)
                                  : 0;
        // `a0 + a1 + ... + a599` nests 600 binary_operator nodes through their left operands;
        // such a chain is one level of nesting, not 600 (see Survey::maxDepth).
        const int nesting = depth == 0 ? 0
                            : k == Kind::OperatorChain && fid == leftField &&
                                    frames[size_t(depth - 1)].symbol == sym
                                ? frames[size_t(depth - 1)].nesting
                                : frames[size_t(depth - 1)].nesting + 1;
        s.maxDepth = std::max(s.maxDepth, nesting);
        if (depth > 0 && frames[size_t(depth - 1)].recordFields) {
            if (fid != 0) {
                Walked::FieldSlot& e = fields.emplace_back();
                e.parent = frames[size_t(depth - 1)].node;
                e.child = n.id;
                e.startByte = n.context[0];
                if (const TSPoint p = m_walked->pointAt(n.context[0]);
                    p.row != n.context[1] || p.column != n.context[2])
                    m_walked->oddPoints.emplace_back(uint32_t(fields.size() - 1),
                                                     TSPoint{n.context[1], n.context[2]});
                Q_ASSERT(n.context[3] <= 0xFFFF);
                e.alias = TSSymbol(n.context[3]); // ts_node_new() stores a TSSymbol there
                e.field = fid;
            }
        }
        if (info.list != kNoList && named) {
            const uint32_t parentSymbol =
                depth > 0 ? uint32_t(frames[size_t(depth - 1)].symbol) + 1 : 0;
            auto add = [&](size_t list) {
                lists[list].push_back(n);
                parents[list].push_back(parentSymbol);
            };
            add(info.list);
            if (info.list == uint8_t(NodeList::Augmented))
                add(size_t(NodeList::Assignment));
            else if (sym < table.size() && info.list == uint8_t(NodeList::If) && depth > 0 &&
                     frames[size_t(depth - 1)].module && type(n) == "if_statement")
                add(size_t(NodeList::ModuleIf));
        }
        // A MISSING leaf has a positive error cost, which tree-sitter adds up into every
        // ancestor: without an error at the root there is none below (one call saved per node).
        const bool missing = treeHasError && ts_node_is_missing(n);
        const int interpolation = depth > 0 ? frames[size_t(depth - 1)].interpolation : -1;
        bool inFormatSpec = false;
        if ((missing || k == Kind::Error) && errorDepth < 0 && interpolation >= 0) {
            Frame& f = frames[size_t(interpolation)];
            if (f.specColon == -2) // once per interpolation: many errors may share one
                f.specColon = equalsSpecColon(m_source, f.start, f.end);
            inFormatSpec = f.specColon >= 0 && int64_t(ts_node_start_byte(n)) > f.specColon;
        }
        if (inFormatSpec) {
            errorDepth = depth; // a format spec, not an error: skip it and what it holds
        } else if (missing || k == Kind::Error) {
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
                s.errorLines += endLine(n) - line(n) + 1;
                errorDepth = depth;
            }
        } else if (named) {
            // Statements of one block (or the module) that start a line share one column.
            if (depth > 0 && frames[size_t(depth - 1)].container && k != Kind::Comment &&
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
            if (k == Kind::Identifier) {
                if (errorDepth < 0 && s.keywordLine == 0 && isHardKeyword(text(n))) {
                    s.keywordLine = line(n);
                    s.keyword = QByteArray(text(n).data(), qsizetype(text(n).size()));
                }
            } else if (k == Kind::Block) {
                if (ts_node_child_count(n) == 0)
                    indent(line(n), "expected an indented block");
            } else if (k == Kind::PrintStatement) {
                python2(n, "print statement");
            } else if (k == Kind::ExecStatement) {
                python2(n, "exec statement");
            } else if (k == Kind::Integer) {
                const std::string_view v = text(n);
                if (v.size() > 1 && v[0] == '0' && v[1] >= '0' && v[1] <= '9' &&
                    v.find_first_not_of("0_") != std::string_view::npos)
                    python2(n, "octal literal without 0o");
            } else if (k == Kind::StringStart) {
                const std::string_view v = text(n);
                if (!v.empty() && v[0] == '`')
                    python2(n, "backtick repr");
                else if (v.size() >= 3 && (v[0] == 'u' || v[0] == 'U') &&
                         (v[1] == 'r' || v[1] == 'R'))
                    python2(n, "ur'' string prefix");
            }
        } else if (k == Kind::NotEqual) {
            python2(n, "<> operator");
        } else if (k == Kind::Comma && depth > 0 && frames[size_t(depth - 1)].exceptClause) {
            python2(n, "except E, name");
        }
        if (depth > 0)
            --frames[size_t(depth - 1)].unvisited;
        // A leaf has no children to go to: skip the cursor call (most nodes are leaves).
        const uint32_t childCount = ts_node_child_count(n);
        if (childCount > 0 && ts_tree_cursor_goto_first_child(&cursor)) {
            if (frames.size() <= size_t(depth))
                frames.resize(size_t(depth) + 1);
            frames[size_t(depth)] = Frame{k == Kind::Block || k == Kind::Module,
                                          k == Kind::ExceptClause,
                                          k == Kind::Module,
                                          info.recordFields,
                                          k == Kind::Module ? 0 : -1,
                                          n.id,
                                          sym,
                                          nesting,
                                          k == Kind::Interpolation ? depth : interpolation,
                                          k == Kind::Interpolation ? ts_node_start_byte(n) : 0,
                                          k == Kind::Interpolation ? ts_node_end_byte(n) : 0,
                                          -2,
                                          childCount};
            ++depth;
            if (frames.size() <= size_t(depth))
                frames.resize(size_t(depth) + 1);
            continue;
        }
        // After a node's last child, go up without asking for a next sibling: a failing
        // ts_tree_cursor_goto_next_sibling() searches the hidden ancestors first and is the
        // dearest cursor call there is.
        bool moved = false;
        while (!moved) {
            if (depth > 0 && frames[size_t(depth - 1)].unvisited == 0) {
                if (!ts_tree_cursor_goto_parent(&cursor))
                    break;
                --depth;
            } else if (ts_tree_cursor_goto_next_sibling(&cursor))
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
    // The field table: the first child per (parent, field) wins, as in
    // ts_node_child_by_field_id(); load factor at most 2/3.
    // A dense list plus a 32-bit index table keeps this at ~24 bytes per field child plus
    // ~6 bytes of index (a 3.6 MB generated file has ~555,000 of them).
    if (fields.capacity() > fields.size() + fields.size() / 4)
        fields.shrink_to_fit();
    // The node lists live as long as the tree; their growth slack (up to half of each list)
    // went with them: ~3 MB on a generated 100,000-line module.
    for (size_t i = 0; i < lists.size(); ++i) {
        if (lists[i].capacity() > lists[i].size() + lists[i].size() / 8)
            lists[i].shrink_to_fit();
        if (parents[i].capacity() > parents[i].size() + parents[i].size() / 8)
            parents[i].shrink_to_fit();
    }
    if (!fields.empty()) {
        size_t size = 16;
        while (size < fields.size() + fields.size() / 2)
            size *= 2;
        std::vector<uint32_t>& index = m_walked->fieldIndex;
        index.assign(size, 0);
        const size_t mask = size - 1;
        for (size_t i = 0; i < fields.size(); ++i) {
            const Walked::FieldSlot& e = fields[i];
            size_t h = fieldHash(e.parent, e.field) & mask;
            bool seen = false;
            for (; index[h] != 0; h = (h + 1) & mask) {
                const Walked::FieldSlot& o = fields[index[h] - 1];
                if (o.parent == e.parent && o.field == e.field) {
                    seen = true; // the first child per (parent, field) wins
                    break;
                }
            }
            if (!seen)
                index[h] = uint32_t(i + 1);
        }
    }
    return *m_walked;
}

} // namespace cnready
