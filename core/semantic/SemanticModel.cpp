#include "semantic/SemanticModel.h"

#include "manifest/Manifest.h"
#include "parse/SyntaxTree.h"
#include "semantic/NumpyNames.h"
#include "semantic/Walk.h"

#include <QHash>

#include <algorithm>
#include <array>
#include <climits>
#include <cstring>

namespace cnready {

namespace {

// Node types the model tells apart, classified once per grammar symbol: is() by name costs
// ts_node_type() plus a string compare (~110 instructions), a symbol lookup a fifth of that.
// The table goes by symbol name, so every symbol (and alias) of a name maps like the name.
enum class Sym : uint8_t {
    other,
    aliased_import,
    argument_list,
    as_pattern,
    assignment,
    attribute,
    augmented_assignment,
    await,
    binary_operator,
    boolean_operator,
    call,
    comment,
    comparison_operator,
    concatenated_string,
    conditional_expression,
    default_parameter,
    dictionary,
    dictionary_comprehension,
    dictionary_splat,
    dictionary_splat_pattern,
    dotted_name,
    ellipsis,
    expression_list,
    false_,
    float_,
    for_in_clause,
    for_statement,
    function_definition,
    generator_expression,
    identifier,
    import_statement,
    integer,
    keyword_argument,
    keyword_separator,
    list,
    list_comprehension,
    list_pattern,
    list_splat,
    list_splat_pattern,
    named_expression,
    none,
    not_operator,
    parenthesized_expression,
    pattern_list,
    relative_import,
    set,
    set_comprehension,
    slice,
    string,
    subscript,
    true_,
    tuple,
    tuple_pattern,
    typed_default_parameter,
    typed_parameter,
    unary_operator,
    while_statement,
    wildcard_import,
    op_is,     // anonymous `is`
    op_in,     // anonymous `in`
    op_not_in, // anonymous `not in`
    op_is_not, // anonymous `is not`
};
const std::vector<Sym>& symbolKinds() {
    static const std::vector<Sym> table = [] {
        static constexpr std::pair<std::string_view, Sym> names[] = {
            {"aliased_import", Sym::aliased_import},
            {"argument_list", Sym::argument_list},
            {"as_pattern", Sym::as_pattern},
            {"assignment", Sym::assignment},
            {"attribute", Sym::attribute},
            {"augmented_assignment", Sym::augmented_assignment},
            {"await", Sym::await},
            {"binary_operator", Sym::binary_operator},
            {"boolean_operator", Sym::boolean_operator},
            {"call", Sym::call},
            {"comment", Sym::comment},
            {"comparison_operator", Sym::comparison_operator},
            {"concatenated_string", Sym::concatenated_string},
            {"conditional_expression", Sym::conditional_expression},
            {"default_parameter", Sym::default_parameter},
            {"dictionary", Sym::dictionary},
            {"dictionary_comprehension", Sym::dictionary_comprehension},
            {"dictionary_splat", Sym::dictionary_splat},
            {"dictionary_splat_pattern", Sym::dictionary_splat_pattern},
            {"dotted_name", Sym::dotted_name},
            {"ellipsis", Sym::ellipsis},
            {"expression_list", Sym::expression_list},
            {"false", Sym::false_},
            {"float", Sym::float_},
            {"for_in_clause", Sym::for_in_clause},
            {"for_statement", Sym::for_statement},
            {"function_definition", Sym::function_definition},
            {"generator_expression", Sym::generator_expression},
            {"identifier", Sym::identifier},
            {"import_statement", Sym::import_statement},
            {"integer", Sym::integer},
            {"keyword_argument", Sym::keyword_argument},
            {"keyword_separator", Sym::keyword_separator},
            {"list", Sym::list},
            {"list_comprehension", Sym::list_comprehension},
            {"list_pattern", Sym::list_pattern},
            {"list_splat", Sym::list_splat},
            {"list_splat_pattern", Sym::list_splat_pattern},
            {"named_expression", Sym::named_expression},
            {"none", Sym::none},
            {"not_operator", Sym::not_operator},
            {"parenthesized_expression", Sym::parenthesized_expression},
            {"pattern_list", Sym::pattern_list},
            {"relative_import", Sym::relative_import},
            {"set", Sym::set},
            {"set_comprehension", Sym::set_comprehension},
            {"slice", Sym::slice},
            {"string", Sym::string},
            {"subscript", Sym::subscript},
            {"true", Sym::true_},
            {"tuple", Sym::tuple},
            {"tuple_pattern", Sym::tuple_pattern},
            {"typed_default_parameter", Sym::typed_default_parameter},
            {"typed_parameter", Sym::typed_parameter},
            {"unary_operator", Sym::unary_operator},
            {"while_statement", Sym::while_statement},
            {"wildcard_import", Sym::wildcard_import},
            {"is", Sym::op_is},
            {"in", Sym::op_in},
            {"not in", Sym::op_not_in},
            {"is not", Sym::op_is_not},
        };
        const TSLanguage* lang = pythonLanguage();
        const uint32_t count = ts_language_symbol_count(lang);
        std::vector<Sym> t(count, Sym::other);
        for (uint32_t s = 0; s < count; ++s) {
            const char* nm = ts_language_symbol_name(lang, TSSymbol(s));
            if (!nm)
                continue;
            for (const auto& [name, id] : names)
                if (name == nm)
                    t[s] = id;
        }
        return t;
    }();
    return table;
}
// The model's kind of a node: Sym::other for a null node, an ERROR node and unlisted types.
inline Sym sym(TSNode n) {
    if (n.id == nullptr)
        return Sym::other;
    static const std::vector<Sym>& table = symbolKinds();
    const TSSymbol s = ts_node_symbol(n);
    return s < table.size() ? table[s] : Sym::other;
}
inline bool is(TSNode n, Sym t) {
    return sym(n) == t;
}
// Field ids resolved once: ts_node_child_by_field_name() compares the name against every
// field of the grammar on each call, which showed up in profiles.
struct FieldIds {
    TSFieldId alias, argument, arguments, attribute, body, condition, definition, function, left,
        module_name, name, object, op, parameters, right, type, value;
    FieldIds() {
        const TSLanguage* l = pythonLanguage();
        auto id = [l](const char* n) {
            return ts_language_field_id_for_name(l, n, uint32_t(std::strlen(n)));
        };
        alias = id("alias");
        definition = id("definition");
        argument = id("argument");
        arguments = id("arguments");
        attribute = id("attribute");
        body = id("body");
        condition = id("condition");
        function = id("function");
        left = id("left");
        module_name = id("module_name");
        name = id("name");
        object = id("object");
        op = id("operator");
        parameters = id("parameters");
        right = id("right");
        type = id("type");
        value = id("value");
    }
};
const FieldIds& F() {
    static const FieldIds f;
    return f;
}
inline TSNode field(TSNode n, TSFieldId id) {
    return SyntaxTree::field(n, id); // recorded by the tree's walk for the common parents
}
inline uint32_t startOf(TSNode n) {
    return ts_node_start_byte(n);
}
inline uint32_t endOf(TSNode n) {
    return ts_node_end_byte(n);
}

QString canonicalModule(QString name) {
    if (name == QLatin1String("cupynumeric") || name.startsWith(QLatin1String("cupynumeric.")))
        name.replace(0, 11, QStringLiteral("numpy"));
    return name;
}

// Unwraps parentheses.
TSNode unparen(TSNode n) {
    int guard = 0;
    while (is(n, Sym::parenthesized_expression) && ts_node_named_child_count(n) > 0 && guard++ < 64)
        n = ts_node_named_child(n, 0);
    return n;
}
// unparen(), also giving sym() of the result (one symbol lookup per level, not two).
TSNode unparen(TSNode n, Sym& kind) {
    int guard = 0;
    kind = sym(n);
    while (kind == Sym::parenthesized_expression && ts_node_named_child_count(n) > 0 &&
           guard++ < 64) {
        n = ts_node_named_child(n, 0);
        kind = sym(n);
    }
    return n;
}

// Collects identifier names of an assignment target pattern (identifier, pattern_list,
// tuple_pattern, list_pattern, starred). Attributes and subscripts bind no name.
void targetNames(TSNode pattern, std::vector<std::pair<TSNode, int>>& out) {
    // (identifier, position in a flat tuple target or -1)
    pattern = unparen(pattern);
    if (is(pattern, Sym::identifier)) {
        out.push_back({pattern, -1});
        return;
    }
    if (is(pattern, Sym::pattern_list) || is(pattern, Sym::tuple_pattern) ||
        is(pattern, Sym::list_pattern) || is(pattern, Sym::expression_list) ||
        is(pattern, Sym::tuple) || is(pattern, Sym::list)) {
        const uint32_t k = ts_node_named_child_count(pattern);
        for (uint32_t i = 0; i < k; ++i) {
            TSNode c = unparen(ts_node_named_child(pattern, i));
            if (is(c, Sym::identifier))
                out.push_back({c, int(i)});
            else if (is(c, Sym::list_splat_pattern) || is(c, Sym::list_splat))
                ; // starred targets: a list, not tracked
            else
                walkSubtree(c, [&](TSNode x) {
                    if (is(x, Sym::identifier))
                        out.push_back({x, -2}); // nested pattern: unknown element
                    return !is(x, Sym::attribute) && !is(x, Sym::subscript);
                });
        }
    }
}

} // namespace

QString loopSourceName(LoopSource s) {
    switch (s) {
    case LoopSource::Unknown:
        return QStringLiteral("unknown");
    case LoopSource::None:
        return QStringLiteral("none");
    case LoopSource::Range:
        return QStringLiteral("range");
    case LoopSource::SmallLiteralRange:
        return QStringLiteral("small-range");
    case LoopSource::RangeLen:
        return QStringLiteral("range-len");
    case LoopSource::RangeShape:
        return QStringLiteral("range-shape");
    case LoopSource::Product:
        return QStringLiteral("product");
    case LoopSource::NdIndex:
        return QStringLiteral("ndindex");
    case LoopSource::NdIter:
        return QStringLiteral("nditer");
    case LoopSource::NdEnumerate:
        return QStringLiteral("ndenumerate");
    case LoopSource::Array:
        return QStringLiteral("array");
    case LoopSource::EnumerateArray:
        return QStringLiteral("enumerate-array");
    case LoopSource::Collection:
        return QStringLiteral("collection");
    case LoopSource::Files:
        return QStringLiteral("files");
    }
    return {};
}

// Whether `ret` (a return statement of the function `def`) returns the name `value` from the
// block of an `if not isinstance(value, <...ndarray...>):`: there the name is not an array,
// whatever its other bindings are (`if not isinstance(chunkmap, np.ndarray): return
// chunkmap`, an iterator). One descent from the function to the return.
static bool returnedUnderNonArrayTest(const SyntaxTree& tree, TSNode def, TSNode ret,
                                      TSNode value) {
    if (!SyntaxTree::is(value, "identifier"))
        return false;
    const uint32_t at = ts_node_start_byte(ret);
    const std::string_view name = tree.text(value);
    TSNode cur = def;
    for (int guard = 0; guard < 512 && !ts_node_eq(cur, ret); ++guard) {
        const TSNode next = ts_node_first_named_child_for_byte(cur, at);
        if (ts_node_is_null(next) || ts_node_start_byte(next) > at)
            return false;
        if (SyntaxTree::is(cur, "if_statement")) {
            const TSNode body = SyntaxTree::field(cur, "consequence");
            const TSNode cond = SyntaxTree::field(cur, "condition");
            if (ts_node_eq(next, body) && SyntaxTree::is(cond, "not_operator")) {
                const TSNode call = SyntaxTree::field(cond, "argument");
                const TSNode args = SyntaxTree::field(call, "arguments");
                if (SyntaxTree::is(call, "call") &&
                    tree.text(SyntaxTree::field(call, "function")) == "isinstance" &&
                    ts_node_named_child_count(args) == 2 &&
                    tree.text(ts_node_named_child(args, 0)) == name &&
                    tree.text(ts_node_named_child(args, 1)).find("ndarray") !=
                        std::string_view::npos) {
                    // Unless the block converts it first (`x = np.asarray(x); return x`).
                    const uint32_t k = ts_node_named_child_count(body);
                    for (uint32_t i = 0; i < k; ++i) {
                        const TSNode st = ts_node_named_child(body, i);
                        if (ts_node_start_byte(st) >= at)
                            break;
                        const TSNode a = ts_node_named_child(st, 0);
                        if (SyntaxTree::is(st, "expression_statement") &&
                            SyntaxTree::is(a, "assignment") &&
                            tree.text(SyntaxTree::field(a, "left")) == name)
                            return false;
                    }
                    return true;
                }
            }
        }
        cur = next;
    }
    return false;
}

// ---- Private data ---------------------------------------------------------------------------

namespace {

enum KindBit : quint16 {
    B_Array = 1,
    B_Device = 2,
    B_Host = 4,
    B_String = 8,
    B_Sequence = 16,
    B_Object = 32,
    B_None = 64,
    B_Unknown = 128,
};

quint16 bitOf(ValueKind k) {
    switch (k) {
    case ValueKind::Array:
        return B_Array;
    case ValueKind::DeviceScalar:
        return B_Device;
    case ValueKind::HostScalar:
        return B_Host;
    case ValueKind::String:
        return B_String;
    case ValueKind::Sequence:
        return B_Sequence;
    case ValueKind::Object:
        return B_Object;
    case ValueKind::None:
        return B_None;
    case ValueKind::Unknown:
        return B_Unknown;
    }
    return B_Unknown;
}

ValueKind kindOfBits(quint16 b) {
    if (b & (B_String | B_Sequence)) {
        // A name that is sometimes a string or a list is never trusted as an array.
        if (b & B_String)
            return (b & ~(B_String | B_None)) ? ValueKind::Unknown : ValueKind::String;
        return (b & ~(B_Sequence | B_None)) ? ValueKind::Unknown : ValueKind::Sequence;
    }
    if (b & B_Array)
        return ValueKind::Array;
    if (b & B_Device)
        return ValueKind::DeviceScalar;
    if (b & B_Object)
        return (b & B_Unknown) ? ValueKind::Unknown : ValueKind::Object;
    if (b & B_Host)
        return (b & B_Unknown) ? ValueKind::Unknown : ValueKind::HostScalar;
    if (b & B_Unknown)
        return ValueKind::Unknown;
    if (b & B_None)
        return ValueKind::None;
    return ValueKind::Unknown;
}

} // namespace

namespace {
// Facts slots by (scope, name): one open-addressing table for the whole file, keyed by views
// of the source text, so a lookup neither builds a QString nor hashes one. Scope is a scope
// index, or -1 - class index for a class's `self.<name>` attributes (keyed by <name>).
class SlotTable {
public:
    static uint64_t hash(std::string_view v) {
        uint64_t h = 1469598103934665603ull;
        for (const char ch : v)
            h = (h ^ uint8_t(ch)) * 1099511628211ull;
        return h;
    }
    /// The slot of `name` (hashed with hash()) in `scope`, or -1.
    int find(int scope, std::string_view name, uint64_t h) const {
        if (m_cells.empty())
            return -1;
        for (size_t i = start(scope, h);; i = (i + 1) & m_mask) {
            const Cell& c = m_cells[i];
            if (c.slot < 0)
                return -1;
            if (c.scope == scope && c.name == name)
                return c.slot;
        }
    }
    /// The slot of (scope, name), inserting `slot` when there is none yet.
    int insert(int scope, std::string_view name, int slot) {
        if (2 * (m_count + 1) > m_cells.size())
            grow();
        const uint64_t h = hash(name);
        for (size_t i = start(scope, h);; i = (i + 1) & m_mask) {
            Cell& c = m_cells[i];
            if (c.slot < 0) {
                c = Cell{name, h, scope, slot};
                ++m_count;
                return slot;
            }
            if (c.scope == scope && c.name == name)
                return c.slot;
        }
    }

private:
    struct Cell {
        std::string_view name;
        uint64_t hash = 0;
        int scope = 0;
        int slot = -1;
    };
    size_t start(int scope, uint64_t h) const {
        h ^= uint64_t(uint32_t(scope)) * 0x9E3779B97F4A7C15ull;
        h ^= h >> 29;
        return size_t(h) & m_mask;
    }
    void grow() {
        std::vector<Cell> old = std::move(m_cells);
        const size_t size = old.empty() ? 64 : 2 * old.size();
        m_cells.assign(size, Cell{});
        m_mask = size - 1;
        for (const Cell& c : old) {
            if (c.slot < 0)
                continue;
            size_t i = start(c.scope, c.hash);
            while (m_cells[i].slot >= 0)
                i = (i + 1) & m_mask;
            m_cells[i] = c;
        }
    }
    std::vector<Cell> m_cells;
    size_t m_mask = 0;
    size_t m_count = 0;
};
} // namespace

namespace {
// Memo tables keyed by node id (TSNode::id): open addressing with a multiplicative hash,
// a few instructions per probe where QHash's seeded hashing and spans cost ~150.
// A null key is never stored (callers compute those directly).
template <class V> class NodeMemo {
public:
    const V* find(const void* key) const {
        if (m_count == 0)
            return nullptr;
        for (size_t i = slot(key);; i = (i + 1) & m_mask) {
            const Cell& c = m_cells[i];
            if (c.key == key)
                return &c.value;
            if (c.key == nullptr)
                return nullptr;
        }
    }
    /// Stores `value` for a key not stored yet; the reference is valid until the next insert.
    const V& insert(const void* key, V value) {
        if (2 * (m_count + 1) > m_cells.size())
            grow();
        size_t i = slot(key);
        while (m_cells[i].key != nullptr)
            i = (i + 1) & m_mask;
        m_cells[i] = Cell{key, std::move(value)};
        ++m_count;
        return m_cells[i].value;
    }
    void clear() {
        if (m_count == 0)
            return;
        for (Cell& c : m_cells)
            c = Cell{};
        m_count = 0;
    }

private:
    struct Cell {
        const void* key = nullptr;
        V value{};
    };
    size_t slot(const void* key) const {
        return size_t((uint64_t(reinterpret_cast<uintptr_t>(key)) * 0x9E3779B97F4A7C15ull) >>
                      m_shift) &
               m_mask;
    }
    void grow() {
        std::vector<Cell> old = std::move(m_cells);
        size_t size = old.empty() ? 64 : 2 * old.size();
        m_cells.assign(size, Cell{});
        m_mask = size - 1;
        m_shift = 64;
        while (size > 1) {
            size >>= 1;
            --m_shift;
        }
        for (Cell& c : old) {
            if (c.key == nullptr)
                continue;
            size_t i = slot(c.key);
            while (m_cells[i].key != nullptr)
                i = (i + 1) & m_mask;
            m_cells[i] = std::move(c);
        }
    }
    std::vector<Cell> m_cells;
    size_t m_mask = 0;
    size_t m_count = 0;
    int m_shift = 58;
};
} // namespace

struct SemanticModel::Data {
    enum class BindKind { Assign, Augment, ForTarget, Param, Import, Def, Walrus, WithAs };
    struct Binding {
        int scope = 0;
        std::string_view name; // view of the source (class attributes: the name after `self.`)
        BindKind kind = BindKind::Assign;
        TSNode value{};      // assigned value / iterable / annotation
        TSNode annotation{}; // parameter or assignment annotation
        TSNode target{};     // the identifier node
        int position = -1;   // index in a tuple target; -1 plain; -2 nested
        int loop = -1;       // ForTarget: loop index
        QString alias;       // Import: canonical target
        uint32_t at = 0;     // start byte of the identifier
        int slot = -1;       // index into Data::facts
        int argIndex = -1;   // Param: position among the positional parameters; -1 when
                             // keyword-only (after `*` / `*args`)
        bool splat = false;  // Param: `*args` (a tuple) or `**kwargs` (a dict)
    };
    struct Facts {
        quint16 bits = 0;
        QString type;  // for Object kind
        QString alias; // canonical name when every binding is the same alias
        bool aliasConflict = false;
        QString shapeOf; // bound from `X.shape` / `X.shape[k]`: source text of X
        int bindings = 0;
        bool hasInt = false; // the only binding is an integer literal (`nt = 2`)
        qint64 intValue = 0;
        bool operator==(const Facts&) const = default;
    };
    struct Scope {
        int lookupParent = -1;     // next scope for name lookup (skips classes)
        int structuralParent = -1; // innermost enclosing scope
        uint32_t start = 0, end = 0;
        int function = -1;
        int cls = -1;
    };
    std::vector<Scope> scopes;          // 0 = module
    std::vector<int> scopeOrder;        // scope indices sorted by start (excluding 0)
    std::vector<uint32_t> scopeBounds;  // every scope start and end byte, sorted
    std::vector<int> scopeAtBound;      // innermost scope from each bound on
    std::vector<uint32_t> boundsBefore; // per 256-byte bucket: bounds <= its first byte
    std::vector<uint32_t> loopsBefore;  // per 256-byte bucket: loops starting <= its first byte
    std::vector<int>
        scopeFunction; // per scope: function index of it or its nearest enclosing function scope
    std::vector<Binding> bindings; // document order
    /// Stable sort of `bindings` by start byte: sorts (byte, index) keys and moves each
    /// binding once (a Binding is ~170 bytes with a QString; std::stable_sort moves it
    /// log n times).
    void sortBindings() {
        std::vector<std::pair<uint32_t, uint32_t>> keys;
        keys.reserve(bindings.size());
        bool sorted = true;
        for (size_t i = 0; i < bindings.size(); ++i) {
            keys.emplace_back(bindings[i].at, uint32_t(i));
            sorted = sorted && (i == 0 || bindings[i - 1].at <= bindings[i].at);
        }
        if (sorted)
            return;
        // The bindings come in a few runs that are each in document order (definitions,
        // parameters, imports, assignments, ...): merge the runs of keys instead of sorting.
        // Keys are unique (byte, index) pairs, so the result is the sorted order either way.
        std::vector<size_t> runs{0};
        for (size_t i = 1; i < keys.size(); ++i)
            if (keys[i].first < keys[i - 1].first)
                runs.push_back(i);
        runs.push_back(keys.size());
        while (runs.size() > 2) {
            std::vector<size_t> merged{0};
            for (size_t r = 0; r + 2 < runs.size(); r += 2) {
                std::inplace_merge(keys.begin() + std::ptrdiff_t(runs[r]),
                                   keys.begin() + std::ptrdiff_t(runs[r + 1]),
                                   keys.begin() + std::ptrdiff_t(runs[r + 2]));
                merged.push_back(runs[r + 2]);
            }
            if (runs.size() % 2 == 0) // an odd number of runs: the last one waits
                merged.push_back(runs.back());
            runs = std::move(merged);
        }
        std::vector<Binding> out;
        out.reserve(bindings.size());
        for (const auto& k : keys)
            out.push_back(std::move(bindings[k.second]));
        bindings = std::move(out);
    }
    int classCount = 0;
    SlotTable slotTable;      // (scope, name) → slot in facts
    std::vector<Facts> facts; // one per (scope, name), see slots
    /// The facts slot of `name` seen from `scope` (its lookup chain), or -1.
    int lookup(std::string_view name, int scope) const {
        const uint64_t h = SlotTable::hash(name);
        for (int s = scope; s >= 0; s = scopes[size_t(s)].lookupParent)
            if (const int slot = slotTable.find(s, name, h); slot >= 0)
                return slot;
        return -1;
    }
    std::vector<std::string_view> importLocals; // per import binding: the local name
    // Provenance passes (see buildLoops): reads of a name whose bindings are not all
    // evaluated yet in the current pass see the previous pass's facts and are remembered.
    struct Snap {
        bool set = false;
        ValueKind kind = ValueKind::Unknown;
        QString alias, type;
    };
    std::vector<int> lastBinding;    // per slot: index of its last binding
    std::vector<Facts> prevFacts;    // the previous pass's facts
    std::vector<Snap> snaps;         // per slot: what an early read saw
    bool snapConflict = false;       // two early reads of one slot saw different things
    int evalIndex = INT_MAX;         // binding being evaluated; INT_MAX after construction
    std::vector<char> returnsRead;   // per function: returnsArray read while still false
    std::vector<int> loopSpanParent; // per loop: innermost loop whose span contains it
    const Facts& read(int slot) {
        if (evalIndex == INT_MAX || lastBinding[size_t(slot)] < evalIndex)
            return facts[size_t(slot)];
        // Some but not all bindings evaluated (`p = np.asarray(p)` reads p's earlier
        // bindings): those were computed in this pass from inputs that are themselves checked
        // (snapshots of earlier reads, returns, loop sources), so the next pass would read
        // the same; only reads of the previous pass's facts can disagree with this one.
        if (facts[size_t(slot)].bindings > 0)
            return facts[size_t(slot)];
        const Facts& f = prevFacts[size_t(slot)];
        Snap& sn = snaps[size_t(slot)];
        const ValueKind k = kindOfBits(f.bits);
        if (!sn.set) {
            sn.set = true;
            sn.kind = k;
            sn.alias = f.alias;
            sn.type = f.type;
        } else if (sn.kind != k || sn.alias != f.alias || sn.type != f.type) {
            snapConflict = true;
        }
        return f;
    }
    const std::vector<TSNode>* namedExprs = nullptr; // the tree's lists
    const std::vector<TSNode>* withItems = nullptr;
    std::vector<TSNode> mainBlocks;
    // Parameter inference (collectParameterHints / inferParameterKind).
    enum ParamHint : quint8 {
        H_Idiom = 1,
        H_Veto = 2,
        H_Number = 4,
        H_Subscript = 8,
        H_Slab = 16,
        H_Rebound = 32
    };
    std::vector<quint8> paramHints;                 // per slot
    const QSet<QString>* arrayParameters = nullptr; // the project's facts (constructor only)
    struct CallSite {
        TSNode call;
        int caller = -1;    // function containing the call, -1 at module level
        bool bound = false; // passes the instance implicitly (`self.m(x)`, `Class(x)`)
    };
    std::vector<std::vector<CallSite>> callSites; // per function: its calls in this file
    std::vector<char> escapes; // per function: 0 not known yet, 1 used as a value (callers
                               // not seen here), 2 only ever called
    struct ParsedCall {
        bool readable = false; // an argument list (not a generator argument)
        bool bound = false;    // see CallSite::bound
        bool splat = false;    // `*args` / `**kwargs` among the arguments
        std::vector<TSNode> positional;
        std::vector<std::pair<std::string_view, TSNode>> keywords;
    };
    std::vector<std::vector<ParsedCall>> parsedCalls; // per function, filled on first need
    int scans = 0;                                    // onlyCalled() scans made for this file
    std::vector<char> argState;                // per binding: 0 not known, 1 none, 2 argCache
    std::vector<std::vector<TSNode>> argCache; // per binding: what each local call passes
    /// Last components of the names of the file's functions and classes, sorted: a name that
    /// is none of them cannot resolve to a local function or class (no QString needed).
    std::vector<std::string_view> defNames;
    std::vector<int> callTargets; // per call of the file: localCallee(), when computed
    bool isDefName(std::string_view n) const {
        return std::binary_search(defNames.begin(), defNames.end(), n);
    }
    /// Sorted, duplicate-free name views: membership by binary search, no QString.
    using NameSet = std::vector<std::string_view>;
    static bool contains(const NameSet& set, std::string_view n) {
        return std::binary_search(set.begin(), set.end(), n);
    }
    static void insert(NameSet& set, std::string_view n) {
        const auto it = std::lower_bound(set.begin(), set.end(), n);
        if (it == set.end() || *it != n)
            set.insert(it, n);
    }
    std::vector<NameSet> derivedLoopVars; // per loop
    std::vector<NameSet> boundViews;      // per loop: LoopInfo::boundInLoop as views
    std::vector<NameSet> variableViews;   // per loop: LoopInfo::variables as views
    QSet<QString> importedModules;        // canonical modules and parents
    QStringList starModules;
    QHash<QString, int> localFunctionsByName; // "f" / "Class.m" → function index
    QHash<QString, int> classesByName;
    mutable NodeMemo<quint8> kindCache;
    /// Positional arguments per call node (see SemanticModel::arg): `count` is what
    /// positionalCount() says, the nodes are argPool[offset, offset + stored).
    struct ArgSpan {
        uint32_t offset = 0;
        uint32_t stored = 0;
        int count = 0;
    };
    mutable NodeMemo<ArgSpan> argSpans;
    mutable std::vector<TSNode> argPool;
    mutable NodeMemo<QString> callNameCache;
    mutable NodeMemo<QString> canonicalCache;
    mutable QHash<QString, quint8> numpyLeaves; // numpyLeafCategory() per NumPy name seen
    // Bindings per facts slot as linked lists (document order), built on the first
    // nameBindings() call.
    mutable std::vector<int> slotHead, slotNext;
};

SemanticModel::~SemanticModel() = default;

SemanticModel::SemanticModel(const SyntaxTree& tree, QString moduleName, bool isPackageInit,
                             const QSet<QString>* arrayParameters)
    : m_tree(tree), m_module(std::move(moduleName)), m_isInit(isPackageInit),
      d(std::make_unique<Data>()), m_calls(tree.nodes(SyntaxTree::NodeList::Call)),
      m_subscripts(tree.nodes(SyntaxTree::NodeList::Subscript)),
      m_attributes(tree.nodes(SyntaxTree::NodeList::Attribute)),
      m_assignments(tree.nodes(SyntaxTree::NodeList::Assignment)),
      m_augmented(tree.nodes(SyntaxTree::NodeList::Augmented)),
      m_comprehensions(tree.nodes(SyntaxTree::NodeList::Comprehension)),
      m_fors(tree.nodes(SyntaxTree::NodeList::For)),
      m_whiles(tree.nodes(SyntaxTree::NodeList::While)),
      m_ifs(tree.nodes(SyntaxTree::NodeList::If)),
      m_asserts(tree.nodes(SyntaxTree::NodeList::Assert)),
      m_ternaries(tree.nodes(SyntaxTree::NodeList::Ternary)),
      m_functionDefs(tree.nodes(SyntaxTree::NodeList::FunctionDef)),
      m_classDefs(tree.nodes(SyntaxTree::NodeList::ClassDef)),
      m_importNodes(tree.nodes(SyntaxTree::NodeList::Import)),
      m_decorators(tree.nodes(SyntaxTree::NodeList::Decorator)),
      m_binaryOps(tree.nodes(SyntaxTree::NodeList::BinaryOp)),
      m_comparisons(tree.nodes(SyntaxTree::NodeList::Comparison)),
      m_keywords(tree.nodes(SyntaxTree::NodeList::Keyword)),
      m_slices(tree.nodes(SyntaxTree::NodeList::Slice)),
      m_interpolations(tree.nodes(SyntaxTree::NodeList::Interpolation)),
      m_returns(tree.nodes(SyntaxTree::NodeList::Return)),
      m_lambdas(tree.nodes(SyntaxTree::NodeList::Lambda)) {
    if (arrayParameters && !arrayParameters->isEmpty())
        d->arrayParameters = arrayParameters;
    index();
    buildImports();
    buildScopes();
    buildLoops();
    buildHotness();
}

std::string_view SemanticModel::text(TSNode n) const {
    return m_tree.text(n);
}

// ---- Node lists -----------------------------------------------------------------------------

void SemanticModel::index() {
    // The lists themselves come from the tree's single walk (SyntaxTree::nodes); what is left
    // here is what the model derives from a few of them.
    d->namedExprs = &m_tree.nodes(SyntaxTree::NodeList::NamedExpr);
    d->withItems = &m_tree.nodes(SyntaxTree::NodeList::WithItem);
    for (TSNode n : m_tree.nodes(SyntaxTree::NodeList::ModuleIf)) {
        // `if __name__ == "__main__":` at module level: a boundary block.
        const TSNode cond = field(n, F().condition);
        if (is(cond, Sym::comparison_operator) &&
            text(cond).find("__name__") != std::string_view::npos &&
            text(cond).find("__main__") != std::string_view::npos)
            d->mainBlocks.push_back(n);
    }
}

std::span<const TSNode> SemanticModel::within(const std::vector<TSNode>& list, TSNode container) {
    if (ts_node_is_null(container))
        return {};
    return within(list, startOf(container), endOf(container));
}

std::span<const TSNode> SemanticModel::within(const std::vector<TSNode>& list, uint32_t start,
                                              uint32_t end) {
    auto lo = std::lower_bound(list.begin(), list.end(), start,
                               [](TSNode n, uint32_t b) { return startOf(n) < b; });
    auto hi =
        std::lower_bound(lo, list.end(), end, [](TSNode n, uint32_t b) { return startOf(n) < b; });
    return std::span<const TSNode>(list.data() + (lo - list.begin()), size_t(hi - lo));
}

// ---- Imports ------------------------------------------------------------------------------

void SemanticModel::buildImports() {
    // Package of this module, for relative imports.
    QStringList pkg = m_module.split(QLatin1Char('.'), Qt::SkipEmptyParts);
    if (!m_isInit && !pkg.isEmpty())
        pkg.removeLast();
    auto addModule = [&](const QString& mod) {
        QString m = mod;
        for (;;) {
            d->importedModules.insert(m);
            const qsizetype dot = m.lastIndexOf(QLatin1Char('.'));
            if (dot < 0)
                break;
            m.truncate(dot);
        }
    };
    for (TSNode stmt : m_importNodes) {
        if (is(stmt, Sym::import_statement)) {
            const uint32_t k = ts_node_named_child_count(stmt);
            for (uint32_t j = 0; j < k; ++j) {
                const TSNode c = ts_node_named_child(stmt, j);
                if (is(c, Sym::aliased_import)) {
                    const QString target = canonicalModule(m_tree.qtext(field(c, F().name)));
                    m_importBindings.push_back(
                        {m_tree.qtext(field(c, F().alias)), target, stmt, false});
                    d->importLocals.push_back(text(field(c, F().alias)));
                    addModule(target);
                } else if (is(c, Sym::dotted_name)) {
                    const QString full = canonicalModule(m_tree.qtext(c));
                    const QString head = m_tree.qtext(ts_node_named_child(c, 0));
                    m_importBindings.push_back({head, canonicalModule(head), stmt, false});
                    d->importLocals.push_back(text(ts_node_named_child(c, 0)));
                    addModule(full);
                }
            }
        } else {
            const TSNode modNode = field(stmt, F().module_name);
            QString module;
            if (is(modNode, Sym::relative_import)) {
                const std::string_view t = text(modNode);
                size_t dots = 0;
                while (dots < t.size() && t[dots] == '.')
                    ++dots;
                QStringList base = pkg;
                for (size_t i = 1; i < dots && !base.isEmpty(); ++i)
                    base.removeLast();
                const QString rest =
                    QString::fromUtf8(t.substr(dots).data(), qsizetype(t.size() - dots));
                if (!rest.isEmpty())
                    base.append(rest);
                module = base.join(QLatin1Char('.'));
            } else {
                module = canonicalModule(m_tree.qtext(modNode));
            }
            addModule(module);
            const uint32_t k = ts_node_named_child_count(stmt);
            bool star = false;
            for (uint32_t j = 0; j < k; ++j) {
                const TSNode c = ts_node_named_child(stmt, j);
                if (ts_node_eq(c, modNode))
                    continue;
                if (is(c, Sym::wildcard_import)) {
                    star = true;
                } else if (is(c, Sym::aliased_import)) {
                    const QString nm = m_tree.qtext(field(c, F().name));
                    m_importBindings.push_back({m_tree.qtext(field(c, F().alias)),
                                                module + QLatin1Char('.') + nm, stmt, false});
                    d->importLocals.push_back(text(field(c, F().alias)));
                } else if (is(c, Sym::dotted_name)) {
                    const QString nm = m_tree.qtext(c);
                    m_importBindings.push_back({nm, module + QLatin1Char('.') + nm, stmt, false});
                    d->importLocals.push_back(text(c));
                }
            }
            // tree-sitter-python exposes `*` as an unnamed child in some versions.
            if (!star && text(stmt).find('*') != std::string_view::npos) {
                const uint32_t all = ts_node_child_count(stmt);
                for (uint32_t j = 0; j < all; ++j)
                    if (is(ts_node_child(stmt, j), Sym::wildcard_import) ||
                        SyntaxTree::type(ts_node_child(stmt, j)) == "*")
                        star = true;
            }
            if (star) {
                m_importBindings.push_back({QStringLiteral("*"), module, stmt, true});
                d->importLocals.push_back("*");
                d->starModules.append(module);
            }
        }
    }
}

bool SemanticModel::importsModule(const QString& module) const {
    return d->importedModules.contains(canonicalModule(module));
}

// ---- Scopes and bindings ------------------------------------------------------------------

void SemanticModel::buildScopes() {
    // Functions and classes, in document order.
    d->scopes.push_back({-1, -1, 0, endOf(m_tree.root()), -1, -1});
    struct Open {
        uint32_t end;
        int scope;
    };
    std::vector<TSNode> defs;
    defs.reserve(m_functionDefs.size() + m_classDefs.size());
    std::merge(m_functionDefs.begin(), m_functionDefs.end(), m_classDefs.begin(), m_classDefs.end(),
               std::back_inserter(defs),
               [](TSNode a, TSNode b) { return startOf(a) < startOf(b); });
    std::vector<Open> stack;
    for (TSNode def : defs) {
        const bool isFunc = is(def, Sym::function_definition);
        const TSNode body = field(def, F().body);
        const TSNode params = field(def, F().parameters);
        const uint32_t s = isFunc ? (ts_node_is_null(params) ? startOf(def) : startOf(params))
                                  : (ts_node_is_null(body) ? endOf(def) : startOf(body));
        while (!stack.empty() && stack.back().end <= startOf(def))
            stack.pop_back();
        const int parentScope = stack.empty() ? 0 : stack.back().scope;
        Data::Scope sc;
        sc.structuralParent = parentScope;
        // Name lookup skips class scopes (Python semantics).
        int lp = parentScope;
        while (lp > 0 && d->scopes[size_t(lp)].cls >= 0)
            lp = d->scopes[size_t(lp)].structuralParent;
        sc.lookupParent = lp;
        sc.start = s;
        sc.end = endOf(def);
        const std::string_view nameView = text(field(def, F().name));
        const QString name = QString::fromUtf8(nameView.data(), qsizetype(nameView.size()));
        // Relative name: path through enclosing functions/classes.
        QString prefix;
        const Data::Scope& ps = d->scopes[size_t(parentScope)];
        if (ps.function >= 0)
            prefix = m_functions[size_t(ps.function)].name;
        else if (ps.cls >= 0)
            prefix = m_classes[size_t(ps.cls)].name;
        const QString rel = prefix.isEmpty() ? name : prefix + QLatin1Char('.') + name;
        if (isFunc) {
            FunctionRegion f;
            f.index = int(m_functions.size());
            f.node = def;
            f.body = body;
            f.name = rel;
            f.qualifiedName = m_module.isEmpty() ? rel : m_module + QLatin1Char('.') + rel;
            f.className = ps.cls >= 0 ? m_classes[size_t(ps.cls)].name : QString();
            f.parent = ps.function;
            f.startByte = s;
            f.endByte = endOf(def);
            sc.function = f.index;
            m_functions.push_back(f);
            d->localFunctionsByName.insert(rel, f.index);
        } else {
            ClassRegion c{def, rel, s, endOf(def)};
            sc.cls = int(m_classes.size());
            d->classesByName.insert(rel, sc.cls);
            m_classes.push_back(c);
            ++d->classCount;
        }
        const int idx = int(d->scopes.size());
        d->scopes.push_back(sc);
        d->scopeOrder.push_back(idx);
        stack.push_back({endOf(def), idx});
        // The def/class name is bound in the parent scope.
        Data::Binding b;
        b.scope = parentScope;
        b.name = nameView;
        b.kind = Data::BindKind::Def;
        b.target = field(def, F().name);
        b.at = startOf(def);
        b.alias = isFunc ? QStringLiteral("function") : QStringLiteral("class");
        d->bindings.push_back(std::move(b));
    }
    // scopeOrder is already sorted by start (document order of defs; starts differ).
    std::stable_sort(d->scopeOrder.begin(), d->scopeOrder.end(), [&](int a, int b) {
        return d->scopes[size_t(a)].start < d->scopes[size_t(b)].start;
    });
    // scopeIndexAt() as a step function: its answer changes only at scope starts and ends.
    for (size_t i = 1; i < d->scopes.size(); ++i) {
        d->scopeBounds.push_back(d->scopes[i].start);
        d->scopeBounds.push_back(d->scopes[i].end);
    }
    std::sort(d->scopeBounds.begin(), d->scopeBounds.end());
    d->scopeBounds.erase(std::unique(d->scopeBounds.begin(), d->scopeBounds.end()),
                         d->scopeBounds.end());
    if (!d->scopeBounds.empty()) {
        d->boundsBefore.resize((d->scopeBounds.back() >> 8) + 1);
        size_t i = 0;
        for (size_t b = 0; b < d->boundsBefore.size(); ++b) {
            while (i < d->scopeBounds.size() && d->scopeBounds[i] <= (b << 8))
                ++i;
            d->boundsBefore[b] = uint32_t(i);
        }
    }
    d->scopeAtBound.reserve(d->scopeBounds.size());
    for (const uint32_t b : d->scopeBounds)
        d->scopeAtBound.push_back(scopeSearch(b));
    d->scopeFunction.reserve(d->scopes.size());
    for (size_t i = 0; i < d->scopes.size(); ++i) {
        int s = int(i);
        while (s > 0 && d->scopes[size_t(s)].function < 0)
            s = d->scopes[size_t(s)].structuralParent;
        d->scopeFunction.push_back(s > 0 ? d->scopes[size_t(s)].function : -1);
    }
    d->defNames.reserve(defs.size());
    for (TSNode def : defs)
        d->defNames.push_back(text(field(def, F().name)));
    std::sort(d->defNames.begin(), d->defNames.end());

    // Parameters.
    for (const FunctionRegion& f : m_functions) {
        const TSNode params = field(f.node, F().parameters);
        const int scope = scopeIndexAt(startOf(params) + 1);
        const uint32_t k = ts_node_named_child_count(params);
        int positional = 0; // -1 once `*` or `*args` closed the positional parameters
        for (uint32_t i = 0; i < k; ++i) {
            const TSNode p = ts_node_named_child(params, i);
            if (is(p, Sym::keyword_separator) || is(p, Sym::list_splat_pattern) ||
                (is(p, Sym::typed_parameter) &&
                 is(ts_node_named_child(p, 0), Sym::list_splat_pattern)))
                positional = -1;
            Data::Binding b;
            b.scope = scope;
            b.kind = Data::BindKind::Param;
            TSNode id;
            if (is(p, Sym::identifier)) {
                id = p;
            } else if (is(p, Sym::typed_parameter)) {
                id = ts_node_named_child(p, 0);
                b.annotation = field(p, F().type);
            } else if (is(p, Sym::default_parameter) || is(p, Sym::typed_default_parameter)) {
                id = field(p, F().name);
                b.annotation = field(p, F().type);
                b.value = field(p, F().value);
            } else if (is(p, Sym::list_splat_pattern) || is(p, Sym::dictionary_splat_pattern)) {
                // `*args` is a tuple and `**kwargs` a dict, whatever is passed: a later
                // `args = np.array(args)` must not make the tuple read as an array before it.
                // Not a positional slot and not listed among the parameters.
                id = ts_node_named_child(p, 0);
                if (!is(id, Sym::identifier))
                    continue;
                b.splat = true;
                b.name = text(id);
                b.target = id;
                b.at = startOf(id);
                b.position = int(i);
                d->bindings.push_back(std::move(b));
                continue;
            } else {
                continue; // separators, typed `*args: T`
            }
            if (!is(id, Sym::identifier))
                continue;
            b.name = text(id);
            b.target = id;
            b.at = startOf(id);
            b.position = int(i);
            b.argIndex = positional >= 0 ? positional++ : -1;
            if (i == 0 && !f.className.isEmpty() && (b.name == "self" || b.name == "cls"))
                b.alias = QStringLiteral("self");
            d->bindings.push_back(std::move(b));
            m_functions[size_t(f.index)].parameters.append(
                QString::fromUtf8(b.name.data(), qsizetype(b.name.size())));
        }
    }

    // Imports.
    for (size_t i = 0; i < m_importBindings.size(); ++i) {
        const ImportBinding& ib = m_importBindings[i];
        if (ib.star)
            continue;
        Data::Binding b;
        b.scope = scopeIndexAt(startOf(ib.node));
        b.name = d->importLocals[i];
        b.kind = Data::BindKind::Import;
        b.alias = ib.canonical;
        b.at = startOf(ib.node);
        d->bindings.push_back(std::move(b));
    }

    // Assignments.
    d->bindings.reserve(d->bindings.size() + m_assignments.size() + d->namedExprs->size() +
                        d->withItems->size() + m_fors.size() + m_comprehensions.size());
    std::vector<std::pair<TSNode, int>> names;
    for (TSNode a : m_assignments) {
        const bool aug = is(a, Sym::augmented_assignment);
        TSNode left = field(a, F().left);
        TSNode right = field(a, F().right);
        // `a = b = expr`: the right side is itself an assignment; use its final value.
        int guard = 0;
        while (is(right, Sym::assignment) && guard++ < 64)
            right = field(right, F().right);
        // self.x = value → class attribute facts.
        const TSNode target = unparen(left);
        if (is(target, Sym::attribute)) {
            const TSNode obj = field(target, F().object);
            if (is(obj, Sym::identifier) && text(obj) == "self") {
                const int sc = scopeIndexAt(startOf(a));
                const int fn = d->scopes[size_t(sc)].function;
                if (fn >= 0 && !m_functions[size_t(fn)].className.isEmpty()) {
                    Data::Binding b;
                    b.scope = -1 - d->classesByName.value(m_functions[size_t(fn)].className);
                    b.name = text(field(target, F().attribute));
                    b.kind = aug ? Data::BindKind::Augment : Data::BindKind::Assign;
                    b.value = right;
                    b.at = startOf(left);
                    b.target = left;
                    d->bindings.push_back(std::move(b));
                }
            }
            continue;
        }
        names.clear();
        targetNames(left, names);
        if (names.empty())
            continue;
        const int scope = scopeIndexAt(startOf(a));
        const TSNode annotation = field(a, F().type);
        for (const auto& [id, pos] : names) {
            Data::Binding b;
            b.scope = scope;
            b.name = text(id);
            b.kind = aug ? Data::BindKind::Augment : Data::BindKind::Assign;
            b.value = right;
            b.annotation = annotation;
            b.target = id;
            b.position = pos;
            b.at = startOf(id);
            d->bindings.push_back(std::move(b));
        }
    }
    for (TSNode ne : *d->namedExprs) {
        const TSNode id = field(ne, F().name);
        if (!is(id, Sym::identifier))
            continue;
        Data::Binding b;
        b.scope = scopeIndexAt(startOf(ne));
        b.name = text(id);
        b.kind = Data::BindKind::Walrus;
        b.value = field(ne, F().value);
        b.target = id;
        b.at = startOf(id);
        d->bindings.push_back(std::move(b));
    }
    for (TSNode wi : *d->withItems) {
        const TSNode v = field(wi, F().value);
        if (!is(v, Sym::as_pattern))
            continue;
        const TSNode alias = field(v, F().alias);
        TSNode id = ts_node_named_child_count(alias) > 0 ? ts_node_named_child(alias, 0) : alias;
        if (!is(id, Sym::identifier))
            continue;
        Data::Binding b;
        b.scope = scopeIndexAt(startOf(wi));
        b.name = text(id);
        b.kind = Data::BindKind::WithAs;
        b.value = ts_node_named_child(v, 0);
        b.target = id;
        b.at = startOf(id);
        d->bindings.push_back(std::move(b));
    }
    d->sortBindings();
}

int SemanticModel::scopeIndexAt(uint32_t byte) const {
    // The innermost scope only changes at a scope's start or end byte: one binary search over
    // those bytes (the table holds the answer of scopeSearch() at each of them).
    // A 256-byte bucket gives the number of bounds before it; the few bounds inside the
    // bucket are stepped over.
    const auto& bounds = d->scopeBounds;
    const size_t bucket = byte >> 8;
    size_t i = bucket < d->boundsBefore.size() ? d->boundsBefore[bucket] : bounds.size();
    while (i < bounds.size() && bounds[i] <= byte)
        ++i;
    return i == 0 ? 0 : d->scopeAtBound[i - 1];
}

int SemanticModel::scopeSearch(uint32_t byte) const {
    const auto& order = d->scopeOrder;
    auto it = std::upper_bound(order.begin(), order.end(), byte,
                               [&](uint32_t b, int s) { return b < d->scopes[size_t(s)].start; });
    if (it == order.begin())
        return 0;
    int s = *(it - 1);
    while (s > 0) {
        const Data::Scope& sc = d->scopes[size_t(s)];
        if (byte >= sc.start && byte < sc.end)
            return s;
        s = sc.structuralParent;
    }
    return 0;
}

int SemanticModel::functionIndexAt(uint32_t start, uint32_t) const {
    return d->scopeFunction[size_t(scopeIndexAt(start))];
}

// ---- Loops --------------------------------------------------------------------------------

void SemanticModel::buildLoops() {
    std::vector<TSNode> all;
    all.reserve(m_fors.size() + m_whiles.size() + m_comprehensions.size());
    all.insert(all.end(), m_fors.begin(), m_fors.end());
    all.insert(all.end(), m_whiles.begin(), m_whiles.end());
    all.insert(all.end(), m_comprehensions.begin(), m_comprehensions.end());
    std::sort(all.begin(), all.end(), [](TSNode a, TSNode b) {
        return startOf(a) != startOf(b) ? startOf(a) < startOf(b) : endOf(a) > endOf(b);
    });
    m_loops.reserve(all.size());
    std::vector<int> stack;
    std::vector<std::pair<TSNode, int>> names;
    std::vector<std::pair<int, TSNode>> clauses; // (loop, for_in_clause) of comprehensions
    for (TSNode n : all) {
        LoopInfo L;
        L.index = int(m_loops.size());
        L.node = n;
        L.startByte = startOf(n);
        L.endByte = endOf(n);
        L.function = functionIndexAt(L.startByte, L.endByte);
        if (is(n, Sym::for_statement)) {
            L.kind = LoopKind::For;
            L.iterable = field(n, F().right);
            L.body = field(n, F().body);
            L.hotStart = ts_node_is_null(L.body) ? L.endByte : startOf(L.body);
            L.hotEnd = ts_node_is_null(L.body) ? L.endByte : endOf(L.body);
            names.clear();
            targetNames(field(n, F().left), names);
            for (const auto& [id, pos] : names) {
                L.variables.append(m_tree.qtext(id));
                d->variableViews.resize(m_loops.size() + 1);
                Data::insert(d->variableViews.back(), text(id));
            }
        } else if (is(n, Sym::while_statement)) {
            L.kind = LoopKind::While;
            L.source = LoopSource::None;
            L.condition = field(n, F().condition);
            L.body = field(n, F().body);
            L.hotStart = ts_node_is_null(L.condition) ? L.startByte : startOf(L.condition);
            L.hotEnd = ts_node_is_null(L.body) ? L.endByte : endOf(L.body);
        } else {
            L.kind = LoopKind::Comprehension;
            L.body = field(n, F().body);
            if (ts_node_is_null(L.body))
                L.body = ts_node_named_child(n, 0);
            const uint32_t k = ts_node_named_child_count(n);
            bool first = true;
            for (uint32_t i = 0; i < k; ++i) {
                const TSNode cl = ts_node_named_child(n, i);
                if (!is(cl, Sym::for_in_clause))
                    continue;
                clauses.emplace_back(L.index, cl); // for the target bindings below
                names.clear();
                targetNames(field(cl, F().left), names);
                for (const auto& [id, pos] : names) {
                    L.variables.append(m_tree.qtext(id));
                    d->variableViews.resize(m_loops.size() + 1);
                    Data::insert(d->variableViews.back(), text(id));
                }
                if (first) {
                    L.iterable = field(cl, F().right);
                    first = false;
                }
            }
            L.hotStart = ts_node_is_null(L.body) ? L.startByte : startOf(L.body);
            L.hotEnd = ts_node_is_null(L.body) ? L.startByte : endOf(L.body);
            L.hotStart2 = ts_node_is_null(L.iterable) ? L.endByte : endOf(L.iterable);
            L.hotEnd2 = L.endByte;
        }
        while (!stack.empty() && m_loops[size_t(stack.back())].endByte <= L.startByte)
            stack.pop_back();
        d->loopSpanParent.push_back(stack.empty() ? -1 : stack.back());
        for (auto it = stack.rbegin(); it != stack.rend(); ++it) {
            const LoopInfo& P = m_loops[size_t(*it)];
            if (P.function != L.function)
                break;
            if (P.hotContains(L.startByte)) {
                L.parent = P.index;
                L.depth = P.depth + 1;
                break;
            }
        }
        stack.push_back(L.index);
        m_loops.push_back(L);
    }
    // Bucket index for enclosingLoop(): loops starting at or before each 256-byte bucket.
    if (!m_loops.empty()) {
        d->loopsBefore.resize((m_loops.back().startByte >> 8) + 1);
        size_t i = 0;
        for (size_t b = 0; b < d->loopsBefore.size(); ++b) {
            while (i < m_loops.size() && m_loops[i].startByte <= (b << 8))
                ++i;
            d->loopsBefore[b] = uint32_t(i);
        }
    }
    // Names bound in each loop (same function), plus header variables.
    d->variableViews.resize(m_loops.size());
    d->boundViews.resize(m_loops.size());
    for (LoopInfo& L : m_loops) {
        for (const QString& v : L.variables)
            L.boundInLoop.insert(v);
        Data::NameSet& views = d->boundViews[size_t(L.index)];
        views = d->variableViews[size_t(L.index)];
        auto lo = std::lower_bound(d->bindings.begin(), d->bindings.end(), L.startByte,
                                   [](const Data::Binding& b, uint32_t x) { return b.at < x; });
        for (auto it = lo; it != d->bindings.end() && it->at < L.endByte; ++it) {
            if (it->kind == Data::BindKind::Param || it->kind == Data::BindKind::Def ||
                it->scope < 0)
                continue;
            if (d->scopes[size_t(it->scope)].function != L.function)
                continue;
            if (!Data::contains(views, it->name)) {
                Data::insert(views, it->name);
                L.boundInLoop.insert(
                    QString::fromUtf8(it->name.data(), qsizetype(it->name.size())));
            }
        }
    }
    // For-target bindings (after loops exist, so their kinds can use the loop source).
    for (const LoopInfo& L : m_loops) {
        if (L.kind == LoopKind::While)
            continue;
        auto addTargets = [&](TSNode pattern, TSNode iterable) {
            names.clear();
            targetNames(pattern, names);
            const int scope = scopeIndexAt(L.startByte);
            for (const auto& [id, pos] : names) {
                Data::Binding b;
                b.scope = scope;
                b.name = text(id);
                b.kind = Data::BindKind::ForTarget;
                b.value = iterable;
                b.target = id;
                b.position = pos;
                b.loop = L.index;
                b.at = startOf(id);
                d->bindings.push_back(std::move(b));
            }
        };
        if (L.kind == LoopKind::For) {
            addTargets(field(L.node, F().left), L.iterable);
        } else {
            // The loop's for_in_clause children, in order, as collected above.
            const auto from = std::lower_bound(
                clauses.begin(), clauses.end(), L.index,
                [](const std::pair<int, TSNode>& c, int loop) { return c.first < loop; });
            for (auto it = from; it != clauses.end() && it->first == L.index; ++it)
                addTargets(field(it->second, F().left), field(it->second, F().right));
        }
    }
    d->sortBindings();

    // Provenance fixpoint: a few passes so that names defined later in the text are seen.
    // One facts slot per (scope, name), so that the passes below index a flat vector.
    for (Data::Binding& b : d->bindings) {
        b.slot = d->slotTable.insert(b.scope, b.name, int(d->facts.size()));
        if (b.slot == int(d->facts.size()))
            d->facts.emplace_back();
    }
    // Import aliases are known before any pass, so that the first pass already resolves `np.*`.
    for (const Data::Binding& b : d->bindings) {
        Data::Facts& f = d->facts[size_t(b.slot)];
        ++f.bindings;
        if (b.kind != Data::BindKind::Import || f.aliasConflict)
            continue;
        f.bits |= B_Object;
        f.type = QStringLiteral("module");
        if (f.alias.isEmpty())
            f.alias = b.alias;
        else if (f.alias != b.alias) {
            f.alias.clear();
            f.aliasConflict = true;
        }
    }
    for (Data::Facts& f : d->facts)
        f.bindings = 0; // counted again by every pass
    // What a for-loop or comprehension ranges over (uses the facts read so far).
    auto classify = [&](LoopInfo& L) {
        if (L.kind == LoopKind::While)
            return;
        // classification below
        TSNode it = unparen(L.iterable);
        L.iteratedArray.clear();
        L.literalCount = -1;
        L.source = LoopSource::Unknown;
        if (ts_node_is_null(it)) {
            // nothing
        } else if (is(it, Sym::call)) {
            const TSNode fn = field(it, F().function);
            const QString cn = canonicalName(fn);
            const std::string_view ft = text(fn);
            const bool builtin = cn.isEmpty() && is(fn, Sym::identifier);
            if (builtin && ft == "range") {
                const int n = argCount(it);
                auto lit = [&](TSNode x, long long& v) {
                    x = unparen(x);
                    bool neg = false;
                    if (is(x, Sym::unary_operator) && text(x).starts_with("-")) {
                        neg = true;
                        x = field(x, F().argument);
                    }
                    if (is(x, Sym::identifier)) {
                        // A name bound once to an integer literal (`nt = 2`).
                        const int slot = d->lookup(text(x), scopeIndexAt(startOf(x)));
                        if (slot < 0)
                            return false;
                        const Data::Facts* f = &d->read(slot);
                        if (!f->hasInt)
                            return false;
                        v = neg ? -f->intValue : f->intValue;
                        return true;
                    }
                    if (!is(x, Sym::integer))
                        return false;
                    bool ok = false;
                    v = QString::fromUtf8(text(x).data(), qsizetype(text(x).size()))
                            .remove(QLatin1Char('_'))
                            .toLongLong(&ok, 0);
                    if (neg)
                        v = -v;
                    return ok;
                };
                long long a = 0, bnd = 0, step = 1;
                bool literal = false;
                if (n == 1)
                    literal = lit(arg(it, 0), bnd);
                else if (n >= 2)
                    literal = lit(arg(it, 0), a) && lit(arg(it, 1), bnd) &&
                              (n < 3 || lit(arg(it, 2), step));
                if (literal && step != 0) {
                    const long long cnt = step > 0 ? (bnd > a ? (bnd - a + step - 1) / step : 0)
                                                   : (a > bnd ? (a - bnd - step - 1) / -step : 0);
                    L.literalCount = int(std::min<long long>(cnt, 1 << 30));
                    L.source = cnt <= 8 ? LoopSource::SmallLiteralRange : LoopSource::Range;
                } else {
                    L.source = LoopSource::Range;
                    const TSNode bound = arg(it, n >= 2 ? 1 : 0);
                    // Look for len(X), X.shape, X.size or a name bound from X.shape.
                    walkSubtree(bound, [&](TSNode x) {
                        if (L.source != LoopSource::Range)
                            return false;
                        if (is(x, Sym::call) && text(field(x, F().function)) == "len") {
                            L.source = LoopSource::RangeLen;
                            L.iteratedArray = m_tree.qtext(unparen(arg(x, 0)));
                            return false;
                        }
                        if (is(x, Sym::attribute)) {
                            const std::string_view a2 = text(field(x, F().attribute));
                            if (a2 == "shape" || a2 == "size") {
                                L.source = LoopSource::RangeShape;
                                L.iteratedArray = m_tree.qtext(field(x, F().object));
                                return false;
                            }
                        }
                        if (is(x, Sym::identifier)) {
                            const int slot = d->lookup(text(x), scopeIndexAt(startOf(x)));
                            if (slot >= 0) {
                                const Data::Facts* f = &d->read(slot);
                                if (!f->shapeOf.isEmpty()) {
                                    L.source = LoopSource::RangeShape;
                                    L.iteratedArray = f->shapeOf;
                                }
                            }
                        }
                        return true;
                    });
                }
            } else if (cn == QLatin1String("itertools.product")) {
                L.source = LoopSource::Product;
            } else if (cn == QLatin1String("numpy.ndindex")) {
                L.source = LoopSource::NdIndex;
            } else if (cn == QLatin1String("numpy.nditer")) {
                L.source = LoopSource::NdIter;
                L.iteratedArray = m_tree.qtext(arg(it, 0));
            } else if (cn == QLatin1String("numpy.ndenumerate")) {
                L.source = LoopSource::NdEnumerate;
                L.iteratedArray = m_tree.qtext(arg(it, 0));
            } else if (builtin && (ft == "enumerate" || ft == "zip" || ft == "reversed")) {
                L.source = LoopSource::Collection;
                const int n = argCount(it);
                for (int i = 0; i < n; ++i) {
                    const TSNode a = arg(it, i);
                    if (isArray(a)) {
                        L.source =
                            ft == "reversed" ? LoopSource::Array : LoopSource::EnumerateArray;
                        L.iteratedArray = m_tree.qtext(unparen(a));
                        break;
                    }
                    if (ft == "enumerate" || ft == "reversed") {
                        const TSNode ua = unparen(a);
                        if (is(ua, Sym::call) && text(field(ua, F().function)) == "range")
                            L.source = LoopSource::Range;
                        break;
                    }
                }
            } else if (cn == QLatin1String("os.listdir") || cn == QLatin1String("os.scandir") ||
                       cn == QLatin1String("os.walk") || cn == QLatin1String("glob.glob") ||
                       cn == QLatin1String("glob.iglob") || (builtin && ft == "open") ||
                       (is(fn, Sym::attribute) &&
                        (text(field(fn, F().attribute)) == "glob" ||
                         text(field(fn, F().attribute)) == "rglob" ||
                         text(field(fn, F().attribute)) == "iterdir" ||
                         text(field(fn, F().attribute)) == "readlines"))) {
                L.source = LoopSource::Files;
            } else if ((builtin &&
                        (ft == "sorted" || ft == "list" || ft == "set" || ft == "tuple" ||
                         ft == "dict" || ft == "map" || ft == "filter")) ||
                       (is(fn, Sym::attribute) &&
                        (text(field(fn, F().attribute)) == "items" ||
                         text(field(fn, F().attribute)) == "keys" ||
                         text(field(fn, F().attribute)) == "values" ||
                         text(field(fn, F().attribute)) == "split" ||
                         text(field(fn, F().attribute)) == "splitlines"))) {
                L.source = LoopSource::Collection;
            } else if (isArray(it)) {
                L.source = LoopSource::Array;
                L.iteratedArray = m_tree.qtext(it);
            }
        } else {
            ValueKind k = valueKind(it);
            // `x = np.array([f(v) for v in x])`: the comprehension reads the value `x` had
            // before this conversion; trust it as an array only if every binding is one.
            if (k == ValueKind::Array && is(it, Sym::identifier)) {
                TSNode p = ts_node_parent(L.node);
                for (int up = 0; up < 6 && !ts_node_is_null(p); ++up, p = ts_node_parent(p)) {
                    if (!is(p, Sym::assignment))
                        continue;
                    if (text(field(p, F().left)) == text(it) &&
                        lookupBits(text(it), scopeIndexAt(startOf(it))) != B_Array)
                        k = ValueKind::Unknown;
                    break;
                }
            }
            if (k == ValueKind::Array) {
                L.source = LoopSource::Array;
                L.iteratedArray = m_tree.qtext(it);
            } else if (k == ValueKind::Sequence || k == ValueKind::String || is(it, Sym::list) ||
                       is(it, Sym::tuple) || is(it, Sym::dictionary) || is(it, Sym::set)) {
                L.source = LoopSource::Collection;
            } else if (k == ValueKind::Object && typeName(it) == QLatin1String("file")) {
                L.source = LoopSource::Files;
            }
        }
    };
    // Provenance passes. Bindings are evaluated in document order, updating the facts in
    // place; a name read before all its bindings are evaluated sees the previous pass's facts,
    // and the pass is repeated only when such an early read turns out different from the
    // final facts (or a function was found to return an array after a caller asked).
    collectParameterHints();
    d->lastBinding.assign(d->facts.size(), -1);
    for (size_t bi = 0; bi < d->bindings.size(); ++bi)
        d->lastBinding[size_t(d->bindings[bi].slot)] = int(bi);
    d->returnsRead.assign(m_functions.size(), 0);
    // What a pass carries into the next besides the facts: the loops' classification (read
    // by for-target bindings before their loop is classified again) and which functions
    // return arrays. When a pass leaves all of it and the facts as it found them, another
    // pass would compute exactly the same again: the fixpoint is reached.
    struct LoopState {
        LoopSource source;
        int literalCount;
        QString iteratedArray;
        bool operator==(const LoopState&) const = default;
    };
    auto loopStates = [this] {
        std::vector<LoopState> v;
        v.reserve(m_loops.size());
        for (const LoopInfo& L : m_loops)
            v.push_back({L.source, L.literalCount, L.iteratedArray});
        return v;
    };
    auto returningFunctions = [this] {
        std::vector<char> v;
        v.reserve(m_functions.size());
        for (const FunctionRegion& f : m_functions)
            v.push_back(f.returnsArray ? 1 : 0);
        return v;
    };
    std::vector<TSNode> returnValues(m_returns.size()); // unparen(value) per return statement
    std::vector<char> returnKnown(m_returns.size(), 0);
    for (int pass = 0; pass < 5; ++pass) {
        d->prevFacts = d->facts;
        const std::vector<LoopState> loopsBefore = loopStates();
        const std::vector<char> returnsBefore = returningFunctions();
        for (Data::Facts& f : d->facts)
            f = Data::Facts{};
        d->snaps.assign(d->facts.size(), Data::Snap{});
        d->snapConflict = false;
        std::fill(d->returnsRead.begin(), d->returnsRead.end(), 0);
        std::vector<char> classified(m_loops.size(), 0);
        for (size_t bi = 0; bi < d->bindings.size(); ++bi) {
            const Data::Binding& b = d->bindings[bi];
            d->evalIndex = int(bi);
            if (b.kind == Data::BindKind::ForTarget && !classified[size_t(b.loop)]) {
                classified[size_t(b.loop)] = 1;
                classify(m_loops[size_t(b.loop)]);
            }
            Data::Facts& f = d->facts[size_t(b.slot)];
            ++f.bindings;
            QString type;
            ValueKind k = ValueKind::Unknown;
            QString alias;
            switch (b.kind) {
            case Data::BindKind::Import:
                k = ValueKind::Object;
                type = QStringLiteral("module");
                alias = b.alias;
                break;
            case Data::BindKind::Def:
                k = ValueKind::Object;
                type = b.alias;
                break;
            case Data::BindKind::Param: {
                const std::string_view ann = text(b.annotation);
                bool inferable = b.alias.isEmpty() && !b.splat;
                if (b.splat) {
                    k = ValueKind::Sequence;
                } else if (!b.alias.isEmpty()) {
                    k = ValueKind::Object;
                    type = b.alias;
                } else if (ann.find("ndarray") != std::string_view::npos ||
                           ann.find("NDArray") != std::string_view::npos) {
                    k = ValueKind::Array;
                } else if (ann == "int" || ann == "float" || ann == "bool" || ann == "complex") {
                    k = ValueKind::HostScalar;
                } else if (ann == "str") {
                    k = ValueKind::String;
                } else if (!ts_node_is_null(b.value)) {
                    const ValueKind dk = kindOf(b.value, 0, &type);
                    // Defaults say little about the value passed in, except its family.
                    k = (dk == ValueKind::None || dk == ValueKind::Array) ? ValueKind::Unknown : dk;
                    if (dk == ValueKind::Array)
                        k = ValueKind::Array;
                }
                // An annotation other than an ndarray one names what the author meant
                // (`pd.Series`, `ArrayLike`, `list[float]`): nothing is inferred against it.
                if (k == ValueKind::Unknown && inferable && ts_node_is_null(b.annotation))
                    k = inferParameterKind(int(bi));
                break;
            }
            case Data::BindKind::Assign:
            case Data::BindKind::Walrus: {
                const std::string_view ann = text(b.annotation);
                if (ann.find("ndarray") != std::string_view::npos ||
                    ann.find("NDArray") != std::string_view::npos) {
                    k = ValueKind::Array;
                    break;
                }
                TSNode v = unparen(b.value);
                if (b.position >= 0 && (is(v, Sym::expression_list) || is(v, Sym::tuple) ||
                                        is(v, Sym::list) || is(v, Sym::pattern_list))) {
                    const TSNode e = ts_node_named_child(v, uint32_t(b.position));
                    k = ts_node_is_null(e) ? ValueKind::Unknown : kindOf(e, 0, &type);
                    if (is(unparen(e), Sym::attribute) || is(unparen(e), Sym::identifier)) {
                        const QString c = canonicalName(e);
                        if (!c.isEmpty())
                            alias = c;
                    }
                } else if (b.position != -1) {
                    // Unpacking a single value: shapes give host ints, numpy calls arrays.
                    if (is(v, Sym::attribute) && text(field(v, F().attribute)) == "shape") {
                        k = ValueKind::HostScalar;
                        f.shapeOf = m_tree.qtext(field(v, F().object));
                    } else if (is(v, Sym::call)) {
                        const QString cn = callName(v);
                        QString t;
                        const ValueKind ck = kindOf(v, 0, &t);
                        if (ck == ValueKind::Array ||
                            (ck == ValueKind::Sequence && cn.startsWith(QLatin1String("numpy."))))
                            k = ValueKind::Array;
                        else if (numpy::returnsArrayTuple(cn))
                            k = ValueKind::Array;
                    }
                } else {
                    k = kindOf(v, 0, &type);
                    if (is(v, Sym::integer) && f.bindings == 1) {
                        bool ok = false;
                        const qint64 iv =
                            m_tree.qtext(v).remove(QLatin1Char('_')).toLongLong(&ok, 0);
                        f.hasInt = ok;
                        f.intValue = iv;
                    } else {
                        f.hasInt = false;
                    }
                    if (is(v, Sym::attribute) && text(field(v, F().attribute)) == "shape")
                        f.shapeOf = m_tree.qtext(field(v, F().object));
                    if (is(v, Sym::subscript)) {
                        const TSNode base = unparen(field(v, F().value));
                        if (is(base, Sym::attribute) && text(field(base, F().attribute)) == "shape")
                            f.shapeOf = m_tree.qtext(field(base, F().object));
                    }
                    if (is(v, Sym::attribute) || is(v, Sym::identifier)) {
                        const QString c = canonicalName(v);
                        if (!c.isEmpty())
                            alias = c;
                    }
                }
                break;
            }
            case Data::BindKind::Augment: {
                const ValueKind vk = kindOf(b.value, 0, &type);
                k = (vk == ValueKind::Array || vk == ValueKind::DeviceScalar) ? vk
                                                                              : ValueKind::Unknown;
                if (vk == ValueKind::HostScalar || vk == ValueKind::String ||
                    vk == ValueKind::Sequence)
                    k = vk;
                break;
            }
            case Data::BindKind::ForTarget: {
                const LoopInfo& L = m_loops[size_t(b.loop)];
                const bool header = ts_node_eq(b.value, L.iterable);
                const LoopSource src = header ? L.source : LoopSource::Unknown;
                switch (src) {
                case LoopSource::Range:
                case LoopSource::SmallLiteralRange:
                case LoopSource::RangeLen:
                case LoopSource::RangeShape:
                    k = ValueKind::HostScalar;
                    break;
                case LoopSource::Product:
                case LoopSource::NdIndex:
                    k = b.position == -1 ? ValueKind::Sequence : ValueKind::HostScalar;
                    break;
                case LoopSource::EnumerateArray:
                case LoopSource::NdEnumerate:
                    k = b.position == 0 ? ValueKind::HostScalar : ValueKind::Unknown;
                    break;
                case LoopSource::Files:
                    k = ValueKind::String;
                    break;
                default:
                    k = ValueKind::Unknown;
                    break;
                }
                break;
            }
            case Data::BindKind::WithAs: {
                const TSNode v = unparen(b.value);
                if (is(v, Sym::call) && text(field(v, F().function)) == "open") {
                    k = ValueKind::Object;
                    type = QStringLiteral("file");
                }
                break;
            }
            }
            if (f.bindings > 1)
                f.hasInt = false;
            f.bits |= bitOf(k);
            if (k == ValueKind::Object && !type.isEmpty()) {
                if (f.type.isEmpty())
                    f.type = type;
                else if (f.type != type)
                    f.type = QStringLiteral("?");
            }
            // A name is an alias only when every binding binds the same imported object
            // (`try: import cupynumeric as np / except: import numpy as np`); a fallback
            // `np = None` is neutral.
            const bool neutral =
                b.kind == Data::BindKind::Assign && is(unparen(b.value), Sym::none);
            if (!neutral) {
                if (alias.isEmpty()) {
                    f.aliasConflict = true;
                    f.alias.clear();
                } else if (!f.aliasConflict) {
                    if (f.alias.isEmpty())
                        f.alias = alias;
                    else if (f.alias != alias) {
                        f.alias.clear();
                        f.aliasConflict = true;
                    }
                }
            }
        }
        d->evalIndex = INT_MAX;
        for (LoopInfo& L : m_loops)
            if (!classified[size_t(L.index)])
                classify(L);
        // Functions of this file that return arrays.
        // Repeated until nothing changes: `def a(): return b()` before `def b(): return
        // np.ones(3)` learns about b only on a second round.
        bool dirty = d->snapConflict;
        for (bool grew = true; grew;) {
            grew = false;
            for (size_t ri = 0; ri < m_returns.size(); ++ri) {
                const TSNode r = m_returns[ri];
                const int fn = functionIndexAt(startOf(r), endOf(r));
                if (fn < 0 || m_functions[size_t(fn)].returnsArray)
                    continue;
                // A return's value, read once for every round and pass.
                if (!returnKnown[ri]) {
                    returnValues[ri] = unparen(ts_node_named_child(r, 0));
                    returnKnown[ri] = 1;
                }
                const TSNode v = returnValues[ri];
                if (ts_node_is_null(v) || is(v, Sym::expression_list) || is(v, Sym::tuple))
                    continue; // a tuple of arrays is a tuple
                if (kindOf(v, 0, nullptr) == ValueKind::Array &&
                    !returnedUnderNonArrayTest(m_tree, m_functions[size_t(fn)].node, r, v)) {
                    m_functions[size_t(fn)].returnsArray = true;
                    grew = true;
                    if (d->returnsRead[size_t(fn)])
                        dirty = true;
                }
            }
            if (grew) { // kinds and call names cached this round may rest on a stale return
                d->kindCache.clear();
                d->callNameCache.clear();
            }
        }
        for (size_t k = 0; k < d->snaps.size() && !dirty; ++k) {
            const Data::Snap& sn = d->snaps[k];
            const Data::Facts& f = d->facts[k];
            dirty = sn.set &&
                    (sn.kind != kindOfBits(f.bits) || sn.alias != f.alias || sn.type != f.type);
        }
        d->kindCache.clear();
        d->callNameCache.clear();
        d->canonicalCache.clear();
        // An early read that can never agree with the final facts (a name read while its own
        // last binding is evaluated, `p = np.asarray(p)`) keeps `dirty` set on every pass;
        // stop anyway once nothing a pass depends on has changed.
        if (dirty && d->facts == d->prevFacts && loopStates() == loopsBefore &&
            returningFunctions() == returnsBefore)
            dirty = false;
        if (!dirty)
            break;
    }

    // Names derived from loop variables inside each loop (k = i + 1).
    // Each assigned value is walked once for the identifiers it mentions (attribute and
    // keyword names included), however many loops nest around it.
    d->derivedLoopVars.resize(m_loops.size());
    std::vector<std::pair<uint32_t, uint32_t>> mentionSpan(d->bindings.size(), {0, UINT32_MAX});
    std::vector<std::string_view> mentions;
    auto mentionsOf = [&](size_t bi) {
        auto& span = mentionSpan[bi];
        if (span.second == UINT32_MAX) {
            span.first = uint32_t(mentions.size());
            walkSubtree(d->bindings[bi].value, [&](TSNode x) {
                if (is(x, Sym::identifier))
                    mentions.push_back(text(x));
                return true;
            });
            span.second = uint32_t(mentions.size());
        }
        return span;
    };
    for (const LoopInfo& L : m_loops) {
        Data::NameSet vars = d->variableViews[size_t(L.index)];
        const auto lo =
            std::lower_bound(d->bindings.begin(), d->bindings.end(), L.startByte,
                             [](const Data::Binding& b, uint32_t x) { return b.at < x; });
        for (int pass = 0; pass < 2; ++pass)
            for (auto it = lo; it != d->bindings.end() && it->at < L.endByte; ++it) {
                if ((it->kind != Data::BindKind::Assign && it->kind != Data::BindKind::Walrus) ||
                    Data::contains(vars, it->name) || ts_node_is_null(it->value))
                    continue;
                // An identifier of the value is a piece of its text: most values mention no
                // variable of the set even as a substring and need no walk.
                const std::string_view valueText = m_tree.text(it->value);
                if (std::none_of(vars.begin(), vars.end(), [&](std::string_view v) {
                        return valueText.find(v) != std::string_view::npos;
                    }))
                    continue;
                const auto [from, to] = mentionsOf(size_t(it - d->bindings.begin()));
                for (uint32_t k = from; k < to; ++k)
                    if (Data::contains(vars, mentions[k])) {
                        Data::insert(vars, it->name);
                        break;
                    }
            }
        d->derivedLoopVars[size_t(L.index)] = std::move(vars);
    }
}

// ---- Parameters -----------------------------------------------------------------------------

namespace {
// Attributes that only array-likes have (lists, strings, dicts and numbers have none of them).
bool arrayIdiom(std::string_view a) {
    return a == "shape" || a == "ndim" || a == "dtype" || a == "T" || a == "reshape" ||
           a == "astype";
}
// Attributes of the other array-likes (sparse matrices, pandas and torch objects) and of
// lists: a name that uses one of them is not taken for an ndarray.
bool otherContainerIdiom(std::string_view a) {
    if (a.size() < 3 || a.size() > 14)
        return false;
    static constexpr std::string_view names[] = {
        "toarray", "todense", "tocsr",   "tocsc",    "tocoo",         "tolil",  "nnz",
        "getnnz",  "indptr",  "indices", "format",   "iloc",          "loc",    "values",
        "columns", "index",   "dtypes",  "to_numpy", "append",        "extend", "keys",
        "items",   "cpu",     "numpy",   "detach",   "sum_duplicates"};
    for (std::string_view n : names)
        if (a == n)
            return true;
    return false;
}
// Calls that test the type of their first argument: code that asks is prepared for more than
// one kind of value.
bool typeTest(std::string_view f) {
    if (f.size() < 4 || (f[0] != 'i' && f[0] != 'h' && f[0] != 'g' && f[0] != 'c' && f[0] != 't'))
        return false;
    return f == "isinstance" || f == "hasattr" || f == "getattr" || f == "callable" ||
           f == "type" || f.starts_with("issparse") || f.starts_with("isspmatrix") ||
           f == "isscalar" || f == "is_scalar" || f == "is_list_like";
}
} // namespace

void SemanticModel::collectParameterHints() {
    d->paramHints.assign(d->facts.size(), 0);
    d->callSites.assign(m_functions.size(), {});
    d->escapes.assign(m_functions.size(), 0);
    if (m_functions.empty() || !importsNumpy())
        return;
    // Where other array-likes are around, `x.shape` / `x.dtype` no longer point at NumPy.
    const bool idiomsTell =
        !importsModule(QStringLiteral("pandas")) && !importsModule(QStringLiteral("torch")) &&
        !importsModule(QStringLiteral("tensorflow")) && !importsModule(QStringLiteral("jax")) &&
        !importsModule(QStringLiteral("dask")) && !importsModule(QStringLiteral("xarray")) &&
        !importsModule(QStringLiteral("cupy"));
    // The facts slot a bare name at `id` reads.
    auto slotAt = [&](TSNode id) { return d->lookup(text(id), scopeIndexAt(startOf(id))); };
    for (TSNode a : m_attributes) {
        // The attribute name ends the node's text (cheaper than the field lookup).
        std::string_view at = text(a);
        while (!at.empty() && (at.back() == ' ' || at.back() == '\t' || at.back() == '\n' ||
                               at.back() == '\r' || at.back() == '\\'))
            at.remove_suffix(1);
        if (const size_t dot = at.find_last_of('.'); dot != std::string_view::npos)
            at.remove_prefix(dot + 1);
        while (!at.empty() && (at.front() == ' ' || at.front() == '\t'))
            at.remove_prefix(1);
        const quint8 bit = arrayIdiom(at)            ? (idiomsTell ? Data::H_Idiom : 0)
                           : otherContainerIdiom(at) ? Data::H_Veto
                                                     : 0;
        if (!bit)
            continue;
        const TSNode obj = field(a, F().object);
        if (!is(obj, Sym::identifier))
            continue;
        const int slot = slotAt(obj);
        if (slot >= 0)
            d->paramHints[size_t(slot)] |= bit;
    }
    // Two more signs that only an ndarray fits (session 5, docs/audit/precision-audit.md):
    // - an index with two or more components one of which is a slice, `...` or None
    //   (`A[i, :]`, `u[1:-1, 1:-1]`, `x[:, None]`): lists, tuples and strings reject a tuple
    //   index, numbers are not subscriptable;
    // - arithmetic with a number literal (`u - 1.0`, `0.5 * u`, `u ** 2`, `u / 4`) together
    //   with a subscript of the same name anywhere in the function: sequences and strings
    //   reject the arithmetic (`*` only with a float, since `2 * [x]` repeats a list),
    //   numbers reject the subscript. Arithmetic with another name proves nothing (`[1, 2] -
    //   np.ones(2)` is an array) and passing a name to a NumPy function neither (NumPy
    //   takes lists).
    // These uses are seen flow-insensitively, so they only speak for a parameter that nothing
    // else rebinds (`data = np.concatenate(data)` then `data[..., idx]` says nothing about
    // the tuple passed in); an augmented assignment updates in place and does not count.
    if (idiomsTell) {
        std::vector<quint8> seen(d->facts.size(), 0);
        for (const Data::Binding& b : d->bindings)
            if (b.kind != Data::BindKind::Augment && b.slot >= 0 && seen[size_t(b.slot)]++)
                d->paramHints[size_t(b.slot)] |= Data::H_Rebound;
        for (TSNode sub : m_subscripts) {
            const TSNode base = field(sub, F().value);
            if (!is(base, Sym::identifier))
                continue;
            const int slot = slotAt(base);
            if (slot < 0)
                continue;
            quint8 bit = Data::H_Subscript;
            // `A[i, :]` has its components as children; `A[(i, slice(None))]`-like tuples
            // are read through.
            uint32_t components = 0;
            bool sliced = false;
            auto component = [&](TSNode e) {
                ++components;
                sliced = sliced || is(e, Sym::slice) || is(e, Sym::ellipsis) || is(e, Sym::none);
            };
            const uint32_t n = ts_node_named_child_count(sub);
            for (uint32_t i = 0; i < n; ++i) {
                const TSNode ix = ts_node_named_child(sub, i);
                if (ts_node_eq(ix, base) || is(ix, Sym::comment))
                    continue;
                if (is(ix, Sym::tuple) || is(ix, Sym::expression_list)) {
                    const uint32_t k = ts_node_named_child_count(ix);
                    for (uint32_t j = 0; j < k; ++j)
                        component(ts_node_named_child(ix, j));
                } else {
                    component(ix);
                }
            }
            if (components >= 2 && sliced)
                bit |= Data::H_Slab;
            d->paramHints[size_t(slot)] |= bit;
        }
        for (TSNode b : m_binaryOps) {
            const std::string_view op = text(field(b, F().op));
            const bool mul = op == "*";
            if (!mul && op != "-" && op != "/" && op != "//" && op != "**" && op != "+")
                continue;
            const TSNode l = unparen(field(b, F().left)), r = unparen(field(b, F().right));
            auto number = [&](TSNode x) {
                return is(x, Sym::float_) || (!mul && is(x, Sym::integer));
            };
            TSNode name{};
            if (is(l, Sym::identifier) && number(r))
                name = l;
            else if (is(r, Sym::identifier) && number(l))
                name = r;
            if (ts_node_is_null(name))
                continue;
            const int slot = slotAt(name);
            if (slot >= 0)
                d->paramHints[size_t(slot)] |= Data::H_Number;
        }
    }
    // Names of the functions and classes of this file (last component), so that most callees
    // and arguments are dismissed without building a string.
    auto isDefName = [&](std::string_view n) { return d->isDefName(n); };
    // Whether `v` may name a local function as a value (`f`, `self.f`).
    auto namesDef = [&](TSNode v) {
        if (is(v, Sym::identifier))
            return isDefName(text(v));
        if (!is(v, Sym::attribute))
            return false;
        const TSNode obj = field(v, F().object);
        return is(obj, Sym::identifier) && (text(obj) == "self" || text(obj) == "cls") &&
               isDefName(text(field(v, F().attribute)));
    };
    for (TSNode c : m_calls) {
        Sym fk = Sym::other;
        const TSNode fn = unparen(field(c, F().function), fk);
        const bool ident = fk == Sym::identifier;
        const std::string_view leaf = ident                  ? text(fn)
                                      : fk == Sym::attribute ? text(field(fn, F().attribute))
                                                             : std::string_view{};
        if (typeTest(leaf)) {
            const TSNode a0 = unparen(arg(c, 0));
            if (is(a0, Sym::identifier)) {
                const int slot = slotAt(a0);
                if (slot >= 0)
                    d->paramHints[size_t(slot)] |= Data::H_Veto;
            }
        }
        int target = -1; // localCallee() is -1 whenever namesDef() is false
        if (namesDef(fn)) {
            bool bound = false;
            target = localCallee(c, &bound);
            if (target >= 0)
                d->callSites[size_t(target)].push_back(
                    {c, functionIndexAt(startOf(c), endOf(c)), bound});
        }
        d->callTargets.push_back(target);
    }
    // A decorator may change what reaches the parameters (`@np.vectorize` hands over single
    // elements); only the two that leave the arguments alone are trusted.
    for (TSNode dec : m_decorators) {
        const std::string_view t = text(dec);
        if (t == "@staticmethod" || t == "@classmethod")
            continue;
        const TSNode def = field(ts_node_parent(dec), F().definition);
        if (!is(def, Sym::function_definition))
            continue;
        const int f = functionIndexAt(startOf(field(def, F().body)), endOf(def));
        if (f >= 0)
            d->escapes[size_t(f)] = 1;
    }
}

ValueKind SemanticModel::inferParameterKind(int bi) const {
    const Data::Binding& b = d->bindings[size_t(bi)];
    if (d->paramHints.empty() || b.scope <= 0)
        return ValueKind::Unknown;
    const quint8 h = d->paramHints[size_t(b.slot)];
    if (h & Data::H_Veto)
        return ValueKind::Unknown;
    // Shapes and axes are tuples of ints even when a caller computed them with NumPy
    // (`np.delete(image.shape, axis)`).
    const std::string_view nm = text(b.target);
    if (nm.find("shape") != std::string_view::npos || nm == "axes" || nm == "axis")
        return ValueKind::Unknown;
    // Used as an array in its own function: `p.shape`, `p.T`, `p.reshape(...)`.
    if (h & Data::H_Idiom)
        return ValueKind::Array;
    // The project's call sites in other files pass arrays for it (ProjectAnalyzer).
    if (d->arrayParameters && openToProjectFact(bi)) {
        const int owner = d->scopes[size_t(b.scope)].function;
        if (d->arrayParameters->contains(arrayParameterKey(m_functions[size_t(owner)].qualifiedName,
                                                           m_tree.qtext(b.target)))) {
            // Handed over as a value in its own file: callers the project does not see.
            if (onlyCalled(owner, true))
                return ValueKind::Array;
        }
    }
    // Session 5 evidence (collectParameterHints), for parameters nothing rebinds.
    if (!(h & Data::H_Rebound) &&
        ((h & Data::H_Slab) ||
         (h & (Data::H_Number | Data::H_Subscript)) == (Data::H_Number | Data::H_Subscript)))
        return ValueKind::Array;
    // Every call of the function in this file passes an array for it.
    const int fn = d->scopes[size_t(b.scope)].function;
    if (fn < 0 || d->escapes[size_t(fn)] == 1)
        return ValueKind::Unknown;
    const std::vector<TSNode>* args = parameterArguments(bi, fn);
    if (!args)
        return ValueKind::Unknown;
    int seen = 0;
    for (const TSNode arg : *args) {
        if (kindOf(arg, 0, nullptr) != ValueKind::Array)
            return ValueKind::Unknown;
        // A name that is a number somewhere in its scope (`n = n_samples // 2`, later
        // `n = np.full(...)`) is an array only for the flow-insensitive provenance.
        const TSNode ua = unparen(arg);
        if (is(ua, Sym::identifier) &&
            (lookupBits(text(ua), scopeIndexAt(startOf(ua))) & (B_Host | B_Device)))
            return ValueKind::Unknown;
        ++seen;
    }
    if (seen == 0)
        return ValueKind::Unknown;
    if (d->escapes[size_t(fn)] == 0) {
        // Each check scans the file once; past a bound, later functions count as escaping
        // (conservative) so that a file of thousands of helpers stays linear.
        d->escapes[size_t(fn)] = d->scans < 64 && onlyCalled(fn) ? 2 : 1;
        ++d->scans;
    }
    return d->escapes[size_t(fn)] == 2 ? ValueKind::Array : ValueKind::Unknown;
}

bool SemanticModel::openToProjectFact(int bi) const {
    const Data::Binding& b = d->bindings[size_t(bi)];
    if (b.kind != Data::BindKind::Param || b.scope <= 0 || !b.alias.isEmpty() ||
        !ts_node_is_null(b.annotation) || d->paramHints.empty())
        return false;
    const int fn = d->scopes[size_t(b.scope)].function;
    if (fn < 0 || m_functions[size_t(fn)].parent >= 0 ||
        !m_functions[size_t(fn)].className.isEmpty())
        return false;
    if (d->paramHints[size_t(b.slot)] & Data::H_Veto)
        return false;
    const std::string_view nm = text(b.target);
    if (nm.find("shape") != std::string_view::npos || nm == "axes" || nm == "axis")
        return false;
    // `@np.vectorize`, `@njit`, `@lru_cache`, ...: what reaches the body is not what the
    // callers pass (or not only what they pass).
    const TSNode outer = ts_node_parent(m_functions[size_t(fn)].node);
    if (!ts_node_is_null(outer) &&
        std::string_view(ts_node_type(outer)) == std::string_view("decorated_definition")) {
        const uint32_t n = ts_node_named_child_count(outer);
        for (uint32_t i = 0; i < n; ++i) {
            const TSNode dec = ts_node_named_child(outer, i);
            if (std::string_view(ts_node_type(dec)) != std::string_view("decorator"))
                continue;
            const std::string_view t = text(dec);
            if (t != "@staticmethod" && t != "@classmethod")
                return false;
        }
    }
    return true;
}

const std::vector<TSNode>* SemanticModel::parameterArguments(int bi, int fn) const {
    if (d->argState.empty()) {
        d->argState.assign(d->bindings.size(), 0);
        d->argCache.resize(d->bindings.size());
        d->parsedCalls.resize(m_functions.size());
    }
    char& state = d->argState[size_t(bi)];
    if (state != 0)
        return state == 2 ? &d->argCache[size_t(bi)] : nullptr;
    state = 1;
    // The arguments of every call of `fn`, read once per function (one pass per call).
    std::vector<Data::ParsedCall>& calls = d->parsedCalls[size_t(fn)];
    if (calls.empty()) {
        for (const Data::CallSite& cs : d->callSites[size_t(fn)]) {
            if (cs.caller == fn)
                continue; // a recursive call passes on what the function itself was given
            Data::ParsedCall pc;
            pc.bound = cs.bound;
            const TSNode argList = field(cs.call, F().arguments);
            pc.readable = is(argList, Sym::argument_list);
            if (pc.readable) {
                TSTreeCursor cur = ts_tree_cursor_new(argList);
                for (bool more = ts_tree_cursor_goto_first_child(&cur); more;
                     more = ts_tree_cursor_goto_next_sibling(&cur)) {
                    const TSNode a = ts_tree_cursor_current_node(&cur);
                    if (!ts_node_is_named(a) || is(a, Sym::comment))
                        continue;
                    if (is(a, Sym::keyword_argument))
                        pc.keywords.push_back({text(field(a, F().name)), field(a, F().value)});
                    else if (is(a, Sym::list_splat) || is(a, Sym::dictionary_splat))
                        pc.splat = true;
                    else
                        pc.positional.push_back(a);
                }
                ts_tree_cursor_delete(&cur);
            }
            calls.push_back(std::move(pc));
        }
        if (calls.empty())
            calls.push_back(Data::ParsedCall{}); // "read, nothing usable": never matches
    }
    const Data::Binding& b = d->bindings[size_t(bi)];
    const std::string_view nm = text(b.target);
    const FunctionRegion& f = m_functions[size_t(fn)];
    const bool hasSelf = !f.className.isEmpty() && !f.parameters.isEmpty() &&
                         (f.parameters.first() == QLatin1String("self") ||
                          f.parameters.first() == QLatin1String("cls"));
    std::vector<TSNode>& out = d->argCache[size_t(bi)];
    for (const Data::ParsedCall& pc : calls) {
        TSNode arg{};
        for (const auto& [kw, value] : pc.keywords)
            if (kw == nm)
                arg = value;
        // By position unless a splat hides which argument lands where.
        const int pos = b.argIndex - (pc.bound && hasSelf ? 1 : 0);
        if (ts_node_is_null(arg) && !pc.splat && b.argIndex >= 0 && pos >= 0 &&
            size_t(pos) < pc.positional.size())
            arg = pc.positional[size_t(pos)];
        if (!pc.readable || ts_node_is_null(arg)) {
            out.clear(); // left to its default, or not readable
            return nullptr;
        }
        out.push_back(arg);
    }
    state = 2;
    return &out;
}

bool SemanticModel::onlyCalled(int fn, bool codeOnly) const {
    // Every mention of the name in the file must be its definition or a call: a function
    // handed over as a value (`minimize(f, x0)`, `cb = f`, `[f, g]`) has callers that are not
    // seen here. A mention in a comment or a string counts against it too (conservative).
    // Runs once per function whose calls all pass arrays; a plain text scan, no tree walk.
    const FunctionRegion& f = m_functions[size_t(fn)];
    std::string_view name = text(field(f.node, F().name));
    std::string_view intro = "def";
    if (name == "__init__" && !f.className.isEmpty()) {
        // Instances are made through the class name.
        const auto c = d->classesByName.constFind(f.className);
        if (c == d->classesByName.cend())
            return false;
        name = text(field(m_classes[size_t(*c)].node, F().name));
        intro = "class";
    }
    const std::string_view src = text(m_tree.root());
    auto word = [](char ch) {
        return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
               ch == '_' || (static_cast<unsigned char>(ch) & 0x80);
    };
    for (size_t at = src.find(name); at != std::string_view::npos;
         at = src.find(name, at + name.size())) {
        const size_t end = at + name.size();
        if ((at > 0 && word(src[at - 1])) || (end < src.size() && word(src[end])))
            continue; // part of a longer name
        if (codeOnly) {
            // A mention in a comment, a docstring or `__all__` hands nothing over.
            const TSNode at_ =
                ts_node_descendant_for_byte_range(m_tree.root(), uint32_t(at), uint32_t(end));
            if (!is(at_, Sym::identifier))
                continue;
        }
        size_t after = end;
        while (after < src.size() && (src[after] == ' ' || src[after] == '\t'))
            ++after;
        if (after < src.size() && src[after] == '(')
            continue; // a call (or the parameter list of the definition)
        size_t before = at;
        while (before > 0 && (src[before - 1] == ' ' || src[before - 1] == '\t'))
            --before;
        if (before < at && before >= intro.size() &&
            src.substr(before - intro.size(), intro.size()) == intro &&
            (before == intro.size() || !word(src[before - intro.size() - 1])))
            continue; // `class K:` without bases
        return false;
    }
    return true;
}

// ---- Names and provenance -----------------------------------------------------------------

QString SemanticModel::aliasOf(std::string_view name, int scope) const {
    if (const int slot = d->lookup(name, scope); slot >= 0)
        return d->read(slot).alias;
    // Star imports: a bare name that numpy provides.
    if (!d->starModules.isEmpty()) {
        const QString qname = QString::fromUtf8(name.data(), qsizetype(name.size()));
        for (const QString& m : d->starModules)
            if (m == QLatin1String("numpy") && isKnownNumpyFunction(qname))
                return QStringLiteral("numpy.") + qname;
    }
    return {};
}

bool SemanticModel::boundLocally(std::string_view name, int scope) const {
    return d->lookup(name, scope) >= 0;
}

QString SemanticModel::canonicalName(TSNode expr) const {
    // Memoized per node: rules, the evidence collector and exportTo() ask for the same names.
    if (ts_node_is_null(expr))
        return {};
    if (const QString* hit = d->canonicalCache.find(expr.id))
        return *hit;
    const QString name = resolveCanonicalName(expr);
    d->canonicalCache.insert(expr.id, name);
    return name;
}

QString SemanticModel::resolveCanonicalName(TSNode expr) const {
    Sym kind = Sym::other;
    expr = unparen(expr, kind);
    if (kind == Sym::identifier)
        return aliasOf(text(expr), scopeIndexAt(startOf(expr)));
    if (kind != Sym::attribute)
        return {};
    // Find the root identifier first: most attribute chains do not start at an import, and
    // then no string needs to be built. The chain's attribute nodes are kept on the way down.
    TSNode cur = expr;
    int depth = 0;
    std::array<TSNode, 8> near{};
    std::vector<TSNode> far;
    while (kind == Sym::attribute && depth < 256) {
        if (depth < int(near.size()))
            near[size_t(depth)] = cur;
        else
            far.push_back(cur);
        cur = unparen(field(cur, F().object), kind);
        ++depth;
    }
    if (kind != Sym::identifier)
        return {};
    const QString base = aliasOf(text(cur), scopeIndexAt(startOf(cur)));
    if (base.isEmpty())
        return {};
    // base + ".a.b.c": the attribute names in source order, appended to one buffer
    // (ASCII names, nearly all of them, without a conversion).
    std::array<std::string_view, 8> nearNames{};
    std::vector<std::string_view> farNames;
    qsizetype size = base.size();
    for (int i = 0; i < depth; ++i) {
        const TSNode a = i < int(near.size()) ? near[size_t(i)] : far[size_t(i) - near.size()];
        const std::string_view nm = text(field(a, F().attribute));
        size += qsizetype(nm.size()) + 1;
        if (i < int(nearNames.size()))
            nearNames[size_t(i)] = nm;
        else
            farNames.push_back(nm);
    }
    QString out;
    out.reserve(size);
    out.append(base);
    for (int i = depth - 1; i >= 0; --i) {
        const std::string_view nm = i < int(nearNames.size())
                                        ? nearNames[size_t(i)]
                                        : farNames[size_t(i) - nearNames.size()];
        out.append(QLatin1Char('.'));
        if (std::all_of(nm.begin(), nm.end(), [](char c) { return uchar(c) < 0x80; }))
            out.append(QLatin1String(nm.data(), qsizetype(nm.size())));
        else
            out.append(QString::fromUtf8(nm.data(), qsizetype(nm.size())));
    }
    return out;
}

QString SemanticModel::calleeLeaf(TSNode call) const {
    const TSNode fn = unparen(field(call, F().function));
    if (is(fn, Sym::identifier))
        return m_tree.qtext(fn);
    if (is(fn, Sym::attribute))
        return m_tree.qtext(field(fn, F().attribute));
    return {};
}

QString SemanticModel::callName(TSNode call) const {
    // Memoized: several rules and exportTo() ask for the same calls.
    if (call.id == nullptr)
        return resolveCallName(call);
    if (const QString* hit = d->callNameCache.find(call.id))
        return *hit;
    const QString name = resolveCallName(call);
    d->callNameCache.insert(call.id, name);
    return name;
}

QString SemanticModel::resolveCallName(TSNode call) const {
    const TSNode fn = unparen(field(call, F().function));
    const QString cn = canonicalName(fn);
    if (!cn.isEmpty())
        return cn;
    if (is(fn, Sym::attribute)) {
        const TSNode obj = field(fn, F().object);
        QString type;
        const ValueKind k = kindOf(obj, 0, &type);
        const QString m = m_tree.qtext(field(fn, F().attribute));
        if (k == ValueKind::Array)
            return QStringLiteral("numpy.ndarray.") + m;
        if (k == ValueKind::Object && !type.isEmpty() && type != QLatin1String("?") &&
            type != QLatin1String("module") && type != QLatin1String("self"))
            return type + QLatin1Char('.') + m;
    }
    return {};
}

TSNode SemanticModel::argument(TSNode call, int i) {
    const TSNode args = field(call, F().arguments);
    if (ts_node_is_null(args) || !is(args, Sym::argument_list))
        return TSNode{};
    const uint32_t k = ts_node_named_child_count(args);
    int pos = 0;
    for (uint32_t j = 0; j < k; ++j) {
        const TSNode a = ts_node_named_child(args, j);
        const Sym t = sym(a);
        if (t == Sym::keyword_argument || t == Sym::dictionary_splat || t == Sym::comment)
            continue;
        if (pos++ == i)
            return a;
    }
    return TSNode{};
}

std::span<const TSNode> SemanticModel::positionalArgs(TSNode call, int* count) const {
    // The model asks the same calls for their arguments again and again (every pass, every
    // rule), and each ts_node_named_child(args, j) rescans the children from the first.
    auto span = [&](const Data::ArgSpan& a) {
        *count = a.count;
        return std::span<const TSNode>(d->argPool.data() + a.offset, a.stored);
    };
    if (const Data::ArgSpan* hit = d->argSpans.find(call.id))
        return span(*hit);
    Data::ArgSpan made;
    made.offset = uint32_t(d->argPool.size());
    const TSNode args = field(call, F().arguments);
    if (is(args, Sym::argument_list)) {
        const uint32_t k = ts_node_named_child_count(args);
        for (uint32_t j = 0; j < k; ++j) {
            const TSNode a = ts_node_named_child(args, j);
            const Sym t = sym(a);
            if (t != Sym::keyword_argument && t != Sym::dictionary_splat && t != Sym::comment)
                d->argPool.push_back(a);
        }
        made.stored = uint32_t(d->argPool.size()) - made.offset;
        made.count = int(made.stored);
    } else {
        made.count = is(args, Sym::generator_expression) ? 1 : 0;
    }
    return span(d->argSpans.insert(call.id, made));
}

TSNode SemanticModel::arg(TSNode call, int i) const {
    if (ts_node_is_null(call))
        return argument(call, i);
    int count = 0;
    const std::span<const TSNode> args = positionalArgs(call, &count);
    return i >= 0 && size_t(i) < args.size() ? args[size_t(i)] : TSNode{};
}

int SemanticModel::argCount(TSNode call) const {
    if (ts_node_is_null(call))
        return positionalCount(call);
    int count = 0;
    positionalArgs(call, &count);
    return count;
}

int SemanticModel::positionalCount(TSNode call) {
    const TSNode args = field(call, F().arguments);
    if (ts_node_is_null(args) || !is(args, Sym::argument_list))
        return is(args, Sym::generator_expression) ? 1 : 0;
    const uint32_t k = ts_node_named_child_count(args);
    int pos = 0;
    for (uint32_t j = 0; j < k; ++j) {
        const Sym t = sym(ts_node_named_child(args, j));
        if (t != Sym::keyword_argument && t != Sym::dictionary_splat && t != Sym::comment)
            ++pos;
    }
    return pos;
}

TSNode SemanticModel::keywordArgument(TSNode call, std::string_view name) const {
    const TSNode args = field(call, F().arguments);
    if (ts_node_is_null(args))
        return TSNode{};
    // Rules ask every call for `order=`, `axis=`, `out=`...; most calls have none, and a
    // search of the argument text is far cheaper than visiting each argument node.
    if (text(args).find(name) == std::string_view::npos)
        return TSNode{};
    const uint32_t k = ts_node_named_child_count(args);
    for (uint32_t j = 0; j < k; ++j) {
        const TSNode a = ts_node_named_child(args, j);
        if (is(a, Sym::keyword_argument) && text(field(a, F().name)) == name)
            return field(a, F().value);
    }
    return TSNode{};
}

ValueKind SemanticModel::lookupName(std::string_view name, int scope, QString* type) const {
    {
        if (const int slot = d->lookup(name, scope); slot >= 0) {
            const Data::Facts* it = &d->read(slot);
            const ValueKind k = kindOfBits(it->bits);
            if (type) {
                if (k == ValueKind::Object)
                    *type = it->type == QLatin1String("module") && !it->alias.isEmpty()
                                ? QStringLiteral("module")
                                : it->type;
                if (k == ValueKind::Object && !it->alias.isEmpty() &&
                    it->type != QLatin1String("module"))
                    *type = it->type;
            }
            return k;
        }
    }
    if (name == "True" || name == "False")
        return ValueKind::HostScalar;
    return ValueKind::Unknown;
}

quint16 SemanticModel::lookupBits(std::string_view name, int scope) const {
    const int slot = d->lookup(name, scope);
    return slot >= 0 ? d->read(slot).bits : 0;
}

bool SemanticModel::isNameBound(const QString& name, TSNode at) const {
    const QByteArray u = name.toUtf8();
    return boundLocally(std::string_view(u.constData(), size_t(u.size())),
                        scopeIndexAt(startOf(at)));
}

ValueKind SemanticModel::nameKind(const QString& name, TSNode at) const {
    const QByteArray u = name.toUtf8();
    return lookupName(std::string_view(u.constData(), size_t(u.size())), scopeIndexAt(startOf(at)),
                      nullptr);
}

namespace {
ValueKind combine(ValueKind a, ValueKind b) {
    if (a == ValueKind::Array || b == ValueKind::Array)
        return ValueKind::Array;
    if (a == ValueKind::DeviceScalar || b == ValueKind::DeviceScalar)
        return ValueKind::DeviceScalar;
    if (a == ValueKind::HostScalar && b == ValueKind::HostScalar)
        return ValueKind::HostScalar;
    return ValueKind::Unknown;
}
} // namespace

ValueKind SemanticModel::valueKind(TSNode expr) const {
    if (ts_node_is_null(expr))
        return ValueKind::Unknown;
    const void* key = expr.id;
    if (const quint8* hit = d->kindCache.find(key))
        return ValueKind(*hit);
    const ValueKind k = kindOf(expr, 0, nullptr);
    d->kindCache.insert(key, quint8(k));
    return k;
}

QString SemanticModel::typeName(TSNode expr) const {
    QString t;
    const ValueKind k = kindOf(expr, 0, &t);
    if (k == ValueKind::Array)
        return QStringLiteral("numpy.ndarray");
    return k == ValueKind::Object ? t : QString();
}

bool SemanticModel::isArray(TSNode expr) const {
    return valueKind(expr) == ValueKind::Array;
}

bool SemanticModel::isDeviceValue(TSNode expr) const {
    const ValueKind k = valueKind(expr);
    return k == ValueKind::Array || k == ValueKind::DeviceScalar;
}

bool SemanticModel::isArrayReduction(TSNode expr) const {
    expr = unparen(expr);
    if (!is(expr, Sym::call))
        return false;
    const QString cn = callName(expr);
    if (cn.startsWith(QLatin1String("numpy.ndarray."))) {
        if (!numpy::isReduction(cn.mid(14)))
            return false;
        return ts_node_is_null(keywordArgument(expr, "axis")) && argCount(expr) == 0;
    }
    return isNumpyFullReduction(expr) && isArray(arg(expr, 0));
}

bool SemanticModel::isNumpyFullReduction(TSNode expr) const {
    expr = unparen(expr);
    if (!is(expr, Sym::call))
        return false;
    const QString cn = callName(expr);
    if (!cn.startsWith(QLatin1String("numpy.")) || cn.startsWith(QLatin1String("numpy.ndarray.")) ||
        !numpy::isReduction(cn.mid(6)))
        return false;
    if (!ts_node_is_null(keywordArgument(expr, "axis")))
        return false;
    return argCount(expr) < 2 || cn == QLatin1String("numpy.linalg.norm") ||
           cn.endsWith(QLatin1String("percentile")) || cn.endsWith(QLatin1String("quantile"));
}

bool SemanticModel::isScalarElementRead(TSNode expr) const {
    expr = unparen(expr);
    if (!is(expr, Sym::subscript))
        return false;
    return isArray(field(expr, F().value)) && valueKind(expr) == ValueKind::DeviceScalar;
}

ValueKind SemanticModel::kindOf(TSNode expr, int depth, QString* type) const {
    if (ts_node_is_null(expr) || depth > 48)
        return ValueKind::Unknown;
    const Sym t = sym(expr);
    if (t == Sym::parenthesized_expression)
        return ts_node_named_child_count(expr)
                   ? kindOf(ts_node_named_child(expr, 0), depth + 1, type)
                   : ValueKind::Sequence;
    if (t == Sym::identifier)
        return lookupName(text(expr), scopeIndexAt(startOf(expr)), type);
    if (t == Sym::integer || t == Sym::float_ || t == Sym::true_ || t == Sym::false_)
        return ValueKind::HostScalar;
    if (t == Sym::none)
        return ValueKind::None;
    if (t == Sym::string || t == Sym::concatenated_string)
        return ValueKind::String;
    if (t == Sym::list || t == Sym::tuple || t == Sym::dictionary || t == Sym::set ||
        t == Sym::list_comprehension || t == Sym::dictionary_comprehension ||
        t == Sym::set_comprehension || t == Sym::generator_expression || t == Sym::expression_list)
        return ValueKind::Sequence;
    if (t == Sym::unary_operator)
        return kindOf(field(expr, F().argument), depth + 1, type);
    if (t == Sym::not_operator) {
        const ValueKind a = kindOf(field(expr, F().argument), depth + 1, nullptr);
        return (a == ValueKind::DeviceScalar || a == ValueKind::Array) ? ValueKind::DeviceScalar
                                                                       : ValueKind::HostScalar;
    }
    if (t == Sym::binary_operator) {
        const ValueKind l = kindOf(field(expr, F().left), depth + 1, nullptr);
        if (l == ValueKind::String)
            return ValueKind::String;
        if (l == ValueKind::Sequence) {
            const std::string_view op = text(field(expr, F().op));
            if (op == "+" || op == "*")
                return ValueKind::Sequence;
        }
        const ValueKind r = kindOf(field(expr, F().right), depth + 1, nullptr);
        if (l == ValueKind::HostScalar && r == ValueKind::Sequence)
            return ValueKind::Sequence; // 3 * [0]
        // `r @ r`: a vector with itself is a squared norm, as `np.dot(r, r)` (see
        // numpyCallKind): a 0-d device value, not an array.
        if (l == ValueKind::Array && r == ValueKind::Array && text(field(expr, F().op)) == "@") {
            const TSNode a = unparen(field(expr, F().left)), b = unparen(field(expr, F().right));
            if (is(a, Sym::identifier) && is(b, Sym::identifier) && text(a) == text(b))
                return ValueKind::DeviceScalar;
        }
        return combine(l, r);
    }
    if (t == Sym::comparison_operator) {
        // `x is None`, `k in d`: host booleans.
        const uint32_t n = ts_node_child_count(expr);
        for (uint32_t i = 0; i < n; ++i) {
            const Sym op = sym(ts_node_child(expr, i));
            if (op == Sym::op_is || op == Sym::op_in || op == Sym::op_not_in ||
                op == Sym::op_is_not)
                return ValueKind::HostScalar;
        }
        ValueKind k = ValueKind::HostScalar;
        const uint32_t m = ts_node_named_child_count(expr);
        for (uint32_t i = 0; i < m; ++i) {
            const ValueKind c = kindOf(ts_node_named_child(expr, i), depth + 1, nullptr);
            if (c == ValueKind::Array)
                return ValueKind::Array;
            if (c == ValueKind::DeviceScalar)
                k = ValueKind::DeviceScalar;
        }
        return k;
    }
    if (t == Sym::boolean_operator) {
        const ValueKind l = kindOf(field(expr, F().left), depth + 1, nullptr);
        const ValueKind r = kindOf(field(expr, F().right), depth + 1, nullptr);
        if (l == ValueKind::DeviceScalar || r == ValueKind::DeviceScalar || l == ValueKind::Array ||
            r == ValueKind::Array)
            return ValueKind::DeviceScalar;
        return (l == ValueKind::HostScalar && r == ValueKind::HostScalar) ? ValueKind::HostScalar
                                                                          : ValueKind::Unknown;
    }
    if (t == Sym::conditional_expression) {
        const ValueKind a = kindOf(ts_node_named_child(expr, 0), depth + 1, type);
        const ValueKind b = kindOf(ts_node_named_child(expr, 2), depth + 1, nullptr);
        if (a == ValueKind::Array || b == ValueKind::Array)
            return ValueKind::Array;
        return a == b ? a : ValueKind::Unknown;
    }
    if (t == Sym::named_expression)
        return kindOf(field(expr, F().value), depth + 1, type);
    if (t == Sym::await)
        return ValueKind::Unknown;
    if (t == Sym::attribute) {
        const std::string_view attr = text(field(expr, F().attribute));
        const TSNode obj = field(expr, F().object);
        // self.x: class attribute facts.
        if (is(obj, Sym::identifier) && text(obj) == "self") {
            const int fn = functionIndexAt(startOf(expr), endOf(expr));
            if (fn >= 0 && !m_functions[size_t(fn)].className.isEmpty()) {
                const int c = d->classesByName.value(m_functions[size_t(fn)].className, -1);
                if (c >= 0) {
                    const int slot = d->slotTable.find(-1 - c, attr, SlotTable::hash(attr));
                    if (slot >= 0) {
                        const Data::Facts* it = &d->read(slot);
                        const ValueKind k = kindOfBits(it->bits);
                        if (type && k == ValueKind::Object)
                            *type = it->type;
                        return k;
                    }
                }
            }
            return ValueKind::Unknown;
        }
        if (attr == "shape" || attr == "strides")
            return ValueKind::Sequence;
        if (attr == "size" || attr == "ndim" || attr == "nbytes" || attr == "itemsize")
            return ValueKind::HostScalar;
        const QString cn = canonicalName(expr);
        if (!cn.isEmpty()) {
            if (cn.startsWith(QLatin1String("numpy."))) {
                const QString leaf = cn.mid(6);
                if (leaf == QLatin1String("pi") || leaf == QLatin1String("e") ||
                    leaf == QLatin1String("inf") || leaf == QLatin1String("nan") ||
                    leaf == QLatin1String("euler_gamma") || leaf == QLatin1String("newaxis") ||
                    leaf == QLatin1String("Inf") || leaf == QLatin1String("NaN"))
                    return leaf == QLatin1String("newaxis") ? ValueKind::None
                                                            : ValueKind::HostScalar;
            }
            if (type)
                *type = cn;
            return ValueKind::Object;
        }
        const ValueKind ok = kindOf(obj, depth + 1, nullptr);
        if (ok == ValueKind::Array) {
            if (attr == "T" || attr == "real" || attr == "imag" || attr == "flat" || attr == "mT" ||
                attr == "H")
                return ValueKind::Array;
            if (attr == "dtype") {
                if (type)
                    *type = QStringLiteral("numpy.dtype");
                return ValueKind::Object;
            }
        }
        return ValueKind::Unknown;
    }
    if (t == Sym::subscript) {
        const TSNode base = field(expr, F().value);
        const TSNode ub = unparen(base);
        if (is(ub, Sym::attribute) && (text(field(ub, F().attribute)) == "shape" ||
                                       text(field(ub, F().attribute)) == "strides"))
            return ValueKind::HostScalar;
        const ValueKind bk = kindOf(base, depth + 1, nullptr);
        if (bk == ValueKind::String)
            return ValueKind::String;
        // A slice of a name bound to a list or tuple is a list or tuple (`bitspersample[i +
        // 1:]`); an item of one may be anything. Calls are left out: some NumPy calls that
        // read as tuples return arrays (`np.unique(a)[::-1]`).
        if (bk == ValueKind::Sequence && is(ub, Sym::identifier) &&
            ts_node_named_child_count(expr) == 2 && is(ts_node_named_child(expr, 1), Sym::slice))
            return ValueKind::Sequence;
        if (bk != ValueKind::Array)
            return ValueKind::Unknown;
        // Array: a slice, ellipsis, newaxis, mask or index array anywhere → an array.
        const uint32_t n = ts_node_named_child_count(expr);
        bool any = false;
        for (uint32_t i = 0; i < n; ++i) {
            const TSNode ix = ts_node_named_child(expr, i);
            if (ts_node_eq(ix, base) || is(ix, Sym::comment))
                continue;
            any = true;
            const Sym it = sym(ix);
            if (it == Sym::slice || it == Sym::ellipsis || it == Sym::none || it == Sym::string ||
                it == Sym::list || it == Sym::list_comprehension)
                return ValueKind::Array;
            if (it == Sym::tuple || it == Sym::expression_list) {
                const uint32_t m = ts_node_named_child_count(ix);
                for (uint32_t j = 0; j < m; ++j) {
                    const TSNode e = ts_node_named_child(ix, j);
                    const Sym et = sym(e);
                    if (et == Sym::slice || et == Sym::ellipsis || et == Sym::none ||
                        kindOf(e, depth + 1, nullptr) == ValueKind::Array ||
                        kindOf(e, depth + 1, nullptr) == ValueKind::Sequence ||
                        canonicalName(e) == QLatin1String("numpy.newaxis"))
                        return ValueKind::Array;
                }
                continue;
            }
            const ValueKind ik = kindOf(ix, depth + 1, nullptr);
            if (ik == ValueKind::Array || ik == ValueKind::Sequence ||
                canonicalName(ix) == QLatin1String("numpy.newaxis"))
                return ValueKind::Array;
        }
        return any ? ValueKind::DeviceScalar : ValueKind::Unknown;
    }
    if (t == Sym::call) {
        const TSNode fn = unparen(field(expr, F().function));
        const QString cn = canonicalName(fn);
        if (cn.isEmpty() && is(fn, Sym::identifier)) {
            const std::string_view b = text(fn);
            const int scope = scopeIndexAt(startOf(fn));
            if (!boundLocally(b, scope)) {
                if (b == "len" || b == "int" || b == "float" || b == "bool" || b == "complex" ||
                    b == "round" || b == "isinstance" || b == "hasattr" || b == "callable" ||
                    b == "id" || b == "hash" || b == "ord")
                    return ValueKind::HostScalar;
                if (b == "str" || b == "repr" || b == "format" || b == "chr")
                    return ValueKind::String;
                if (b == "list" || b == "tuple" || b == "dict" || b == "set" || b == "sorted" ||
                    b == "zip" || b == "enumerate" || b == "range" || b == "map" || b == "filter" ||
                    b == "frozenset")
                    return ValueKind::Sequence;
                if (b == "abs") {
                    const ValueKind a = kindOf(arg(expr, 0), depth + 1, nullptr);
                    return a;
                }
                if (b == "sum" || b == "max" || b == "min") {
                    ValueKind k = ValueKind::HostScalar;
                    const int n = argCount(expr);
                    for (int i = 0; i < n; ++i) {
                        const ValueKind a = kindOf(arg(expr, i), depth + 1, nullptr);
                        if (a == ValueKind::Array || a == ValueKind::DeviceScalar)
                            k = ValueKind::DeviceScalar;
                        else if (a == ValueKind::Unknown && k == ValueKind::HostScalar)
                            k = ValueKind::Unknown;
                    }
                    return k;
                }
                if (b == "open") {
                    if (type)
                        *type = QStringLiteral("file");
                    return ValueKind::Object;
                }
                return ValueKind::Unknown;
            }
            // A function of this file that returns arrays; a class of this file.
            if (!d->isDefName(b))
                return ValueKind::Unknown;
            const QString qb = m_tree.qtext(fn);
            const auto fIt = d->localFunctionsByName.constFind(qb);
            if (fIt != d->localFunctionsByName.cend()) {
                if (m_functions[size_t(*fIt)].returnsArray)
                    return ValueKind::Array;
                if (d->evalIndex != INT_MAX)
                    d->returnsRead[size_t(*fIt)] = 1;
                return ValueKind::Unknown;
            }
            if (d->classesByName.contains(qb)) {
                if (type)
                    *type = m_module + QLatin1Char('.') + qb;
                return ValueKind::Object;
            }
            return ValueKind::Unknown;
        }
        if (cn.startsWith(QLatin1String("numpy."))) {
            return numpyCallKind(expr, cn.mid(6), depth, type);
        }
        if (!cn.isEmpty()) {
            if (cn.startsWith(QLatin1String("mpi4py."))) {
                if (type)
                    *type = QStringLiteral("mpi4py.MPI.Comm");
                return ValueKind::Object;
            }
            // An imported class (CapWords by convention): an instance of it.
            const qsizetype dot = cn.lastIndexOf(QLatin1Char('.'));
            if (dot >= 0 && dot + 1 < cn.size() && cn.at(dot + 1).isUpper() &&
                cn.mid(dot + 1) != cn.mid(dot + 1).toUpper()) {
                if (type)
                    *type = cn;
                return ValueKind::Object;
            }
            return ValueKind::Unknown;
        }
        if (is(fn, Sym::attribute)) {
            const TSNode obj = field(fn, F().object);
            // self.method() of this class.
            if (is(obj, Sym::identifier) && text(obj) == "self") {
                const int f = functionIndexAt(startOf(expr), endOf(expr));
                if (f >= 0 && !m_functions[size_t(f)].className.isEmpty()) {
                    const auto fIt = d->localFunctionsByName.constFind(
                        m_functions[size_t(f)].className + QLatin1Char('.') +
                        m_tree.qtext(field(fn, F().attribute)));
                    if (fIt != d->localFunctionsByName.cend()) {
                        if (m_functions[size_t(*fIt)].returnsArray)
                            return ValueKind::Array;
                        if (d->evalIndex != INT_MAX)
                            d->returnsRead[size_t(*fIt)] = 1;
                        return ValueKind::Unknown;
                    }
                }
            }
            QString otype;
            const ValueKind ok = kindOf(obj, depth + 1, &otype);
            const std::string_view m = text(field(fn, F().attribute));
            if (ok == ValueKind::Array) {
                if (m == "searchsorted")
                    return searchsortedKind(arg(expr, 0), depth);
                return arrayMethodKind(expr, QString::fromUtf8(m.data(), qsizetype(m.size())));
            }
            if (ok == ValueKind::Object) {
                if (otype == QLatin1String("numpy.random.Generator") ||
                    otype == QLatin1String("numpy.random.RandomState"))
                    return randomDrawKind(expr, QString::fromUtf8(m.data(), qsizetype(m.size())));
                if (otype.startsWith(QLatin1String("mpi4py."))) {
                    if (m.starts_with("Get_") || m == "Wtime")
                        return ValueKind::HostScalar;
                    if (type)
                        *type = QStringLiteral("mpi4py.MPI.Comm");
                    return m == "Split" || m == "Dup" || m == "Create_cart" ? ValueKind::Object
                                                                            : ValueKind::Unknown;
                }
                if (otype == QLatin1String("file") && (m == "readlines"))
                    return ValueKind::Sequence;
            }
            if (ok == ValueKind::String) {
                if (m == "split" || m == "splitlines")
                    return ValueKind::Sequence;
                if (m == "startswith" || m == "endswith" || m == "isdigit" || m == "find" ||
                    m == "count" || m == "index")
                    return ValueKind::HostScalar;
                return ValueKind::String;
            }
            if (m == "item")
                return ValueKind::HostScalar;
            if (m == "tolist")
                return ValueKind::Sequence;
        }
        return ValueKind::Unknown;
    }
    return ValueKind::Unknown;
}

namespace {
// What numpyCallKind() can tell from the name of a NumPy function alone, in the order of its
// checks; the argument-dependent rest is decided per call. Computed once per name and file.
enum NumpyLeaf : quint8 {
    NL_ScalarType,  // a scalar type used as a conversion: a host scalar
    NL_Generator,   // numpy.random.Generator factory
    NL_RandomState, // numpy.random.RandomState
    NL_NoneResult,  // in-place / output functions returning None
    NL_RandomDraw,  // other numpy.random.* functions
    NL_Object,      // an object of type numpy.<leaf>
    NL_HostScalar,  // host-scalar queries (isscalar, ndim, ...)
    NL_Shape,       // numpy.shape: a tuple
    NL_Reduction,   // numpy::isReduction
    NL_ArrayTuple,  // returns a tuple of arrays
    NL_Rest,        // + the NLR_* flags below
};
enum NumpyRest : quint8 {
    NLR_Where = 1,
    NLR_Searchsorted = 2,
    NLR_DotInner = 4,
    NLR_Elementwise = 8,
};
quint8 numpyLeafCategory(const QString& leaf) {
    if (numpy::isScalarType(leaf))
        return NL_ScalarType;
    if (leaf == QLatin1String("random.default_rng") || leaf == QLatin1String("random.Generator"))
        return NL_Generator;
    if (leaf == QLatin1String("random.RandomState"))
        return NL_RandomState;
    if (leaf == QLatin1String("random.seed") || leaf == QLatin1String("random.shuffle") ||
        leaf == QLatin1String("copyto") || leaf == QLatin1String("put") ||
        leaf == QLatin1String("place") || leaf == QLatin1String("putmask") ||
        leaf == QLatin1String("fill_diagonal") || leaf == QLatin1String("save") ||
        leaf == QLatin1String("savez") || leaf == QLatin1String("savez_compressed") ||
        leaf == QLatin1String("savetxt") || leaf == QLatin1String("set_printoptions") ||
        leaf == QLatin1String("seterr"))
        return NL_NoneResult;
    if (leaf.startsWith(QLatin1String("random.")))
        return NL_RandomDraw;
    if (leaf == QLatin1String("dtype") || leaf == QLatin1String("finfo") ||
        leaf == QLatin1String("iinfo") || leaf == QLatin1String("errstate") ||
        leaf == QLatin1String("printoptions") || leaf == QLatin1String("result_type") ||
        leaf == QLatin1String("promote_types") || leaf == QLatin1String("vectorize") ||
        leaf == QLatin1String("frompyfunc") || leaf == QLatin1String("nditer") ||
        leaf == QLatin1String("ndindex") || leaf == QLatin1String("ndenumerate") ||
        leaf == QLatin1String("poly1d"))
        return NL_Object;
    if (leaf == QLatin1String("isscalar") || leaf == QLatin1String("ndim") ||
        leaf == QLatin1String("size") || leaf == QLatin1String("isrealobj") ||
        leaf == QLatin1String("iscomplexobj") || leaf == QLatin1String("issubdtype") ||
        leaf == QLatin1String("can_cast") || leaf == QLatin1String("shares_memory") ||
        leaf == QLatin1String("may_share_memory") || leaf == QLatin1String("prod_shape"))
        return NL_HostScalar;
    if (leaf == QLatin1String("shape"))
        return NL_Shape;
    if (numpy::isReduction(leaf))
        return NL_Reduction;
    if (numpy::returnsArrayTuple(QStringLiteral("numpy.") + leaf) &&
        !(leaf == QLatin1String("atleast_1d") || leaf == QLatin1String("atleast_2d") ||
          leaf == QLatin1String("atleast_3d")))
        return NL_ArrayTuple;
    quint8 rest = 0;
    if (leaf == QLatin1String("where"))
        rest |= NLR_Where;
    if (leaf == QLatin1String("searchsorted"))
        rest |= NLR_Searchsorted;
    if (leaf == QLatin1String("dot") || leaf == QLatin1String("inner"))
        rest |= NLR_DotInner;
    if (numpy::isElementwise(leaf))
        rest |= NLR_Elementwise;
    return quint8(NL_Rest + rest);
}
} // namespace

ValueKind SemanticModel::numpyCallKind(TSNode call, const QString& leaf, int depth,
                                       QString* type) const {
    auto object = [&](const QString& t) {
        if (type)
            *type = t;
        return ValueKind::Object;
    };
    quint8 category = 0;
    if (const auto c = d->numpyLeaves.constFind(leaf); c != d->numpyLeaves.cend())
        category = *c;
    else
        category = *d->numpyLeaves.insert(leaf, numpyLeafCategory(leaf));
    switch (category) {
    case NL_ScalarType:
        return ValueKind::HostScalar;
    case NL_Generator:
        return object(QStringLiteral("numpy.random.Generator"));
    case NL_RandomState:
        return object(QStringLiteral("numpy.random.RandomState"));
    case NL_NoneResult:
        return ValueKind::None;
    case NL_RandomDraw:
        return randomDrawKind(call, leaf.mid(7));
    case NL_Object:
        return object(QStringLiteral("numpy.") + leaf);
    case NL_HostScalar:
        return ValueKind::HostScalar;
    case NL_Shape:
        return ValueKind::Sequence;
    case NL_ArrayTuple:
        return ValueKind::Sequence;
    default:
        break;
    }
    const quint8 rest = category >= NL_Rest ? quint8(category - NL_Rest) : 0;
    if (category == NL_Reduction) {
        const ValueKind a = kindOf(arg(call, 0), depth + 1, nullptr);
        const bool hasAxis =
            !ts_node_is_null(keywordArgument(call, "axis")) ||
            (argCount(call) >= 2 && leaf != QLatin1String("linalg.norm") &&
             !leaf.endsWith(QLatin1String("percentile")) &&
             !leaf.endsWith(QLatin1String("quantile")) && leaf != QLatin1String("allclose") &&
             leaf != QLatin1String("array_equal") && leaf != QLatin1String("array_equiv") &&
             leaf != QLatin1String("vdot") && leaf != QLatin1String("average"));
        if (a == ValueKind::Array)
            return hasAxis ? ValueKind::Array : ValueKind::DeviceScalar;
        if (a == ValueKind::DeviceScalar)
            return ValueKind::DeviceScalar;
        if (a == ValueKind::HostScalar || a == ValueKind::Sequence)
            return ValueKind::HostScalar;
        // Of a value of unknown kind, in a loop of its own function: the array runtime
        // returns a device scalar whatever it is given (R104/R105 count it there, and a name
        // bound to it reads as one).
        // Not an item of a container of unknown kind (`for c in f.chunks[ax]: np.min(c)`,
        // most often a number) nor a name that says it is a shape (`np.prod(shape)`): those
        // are host values, as R105's device-value walk reads them.
        if (a == ValueKind::Unknown && !hasAxis && isNumpyFullReduction(call)) {
            const LoopInfo* L = enclosingLoop(call);
            const TSNode a0 = unparen(arg(call, 0));
            bool host = false;
            if (L && is(a0, Sym::identifier)) {
                const std::string_view nm = text(a0);
                host = nm.ends_with("shape") || nm.ends_with("Shape") || nm.ends_with("SHAPE");
                const QString q = QString::fromUtf8(nm.data(), qsizetype(nm.size()));
                for (const LoopInfo* l = L; l && !host;
                     l = l->parent >= 0 ? &m_loops[size_t(l->parent)] : nullptr) {
                    if (!l->variables.contains(q))
                        continue;
                    host = !ts_node_is_null(l->iterable) &&
                           kindOf(l->iterable, depth + 1, nullptr) == ValueKind::Unknown;
                    break;
                }
            }
            if (L && !host)
                return ValueKind::DeviceScalar;
        }
        return ValueKind::Unknown;
    }
    if ((rest & NLR_Where) && argCount(call) == 1)
        return ValueKind::Sequence;
    if (rest & NLR_Searchsorted)
        return searchsortedKind(arg(call, 1), depth);
    if (rest & NLR_DotInner) {
        // A product of two rows (`np.dot(x[i], w)`, `np.dot(L[k, :k], L[k, :k])`) is a number;
        // with an operand of unknown kind the result is unknown too.
        const TSNode a0 = arg(call, 0), a1 = arg(call, 1);
        const ValueKind k0 = kindOf(a0, depth + 1, nullptr), k1 = kindOf(a1, depth + 1, nullptr);
        auto isArr = [](ValueKind k) { return k == ValueKind::Array || k == ValueKind::Sequence; };
        if (!isArr(k0) || !isArr(k1))
            return (k0 == ValueKind::DeviceScalar || k1 == ValueKind::DeviceScalar) &&
                           (isArr(k0) || isArr(k1) || k0 == k1)
                       ? ValueKind::DeviceScalar
                       : ValueKind::Unknown;
        // Vectors by the usual naming (lower case; matrices are `A`, `X`, `R`): `np.dot(r, r)`
        // is a squared norm, `np.inner(u, v[:k])` a number. `np.dot(x, w)` stays an array (a
        // matrix-vector product is as common as a dot product).
        auto vectorName = [&](TSNode x) {
            x = unparen(x);
            // `v[:k]`, `v.conj()`, `v.T`: the name underneath counts.
            for (int guard = 0; guard < 8; ++guard) {
                if (is(x, Sym::subscript))
                    x = unparen(field(x, F().value));
                else if (is(x, Sym::call) && is(field(x, F().function), Sym::attribute))
                    x = unparen(field(field(x, F().function), F().object));
                else if (is(x, Sym::attribute))
                    x = unparen(field(x, F().object));
                else
                    break;
            }
            const std::string_view t = text(x);
            return is(x, Sym::identifier) && !t.empty() && t[0] >= 'a' && t[0] <= 'z';
        };
        if (k0 == ValueKind::Array && k1 == ValueKind::Array && vectorName(a0) && vectorName(a1) &&
            (leaf == QLatin1String("inner") ||
             (is(unparen(a0), Sym::identifier) && text(unparen(a0)) == text(unparen(a1)))))
            return ValueKind::DeviceScalar;
        auto rowLike = [&](TSNode x) {
            x = unparen(x);
            if (!is(x, Sym::subscript))
                return false;
            const uint32_t n = ts_node_named_child_count(x);
            for (uint32_t i = 1; i < n; ++i) {
                const TSNode ix = ts_node_named_child(x, i);
                const uint32_t m = is(ix, Sym::tuple) ? ts_node_named_child_count(ix) : 1;
                for (uint32_t j = 0; j < m; ++j) {
                    const TSNode e = is(ix, Sym::tuple) ? ts_node_named_child(ix, j) : ix;
                    if (kindOf(e, depth + 1, nullptr) == ValueKind::HostScalar)
                        return true;
                }
            }
            return false;
        };
        return rowLike(a0) && rowLike(a1) ? ValueKind::DeviceScalar : ValueKind::Array;
    }
    if (rest & NLR_Elementwise) {
        ValueKind k = ValueKind::HostScalar;
        const int n = argCount(call);
        for (int i = 0; i < n; ++i) {
            const ValueKind a = kindOf(arg(call, i), depth + 1, nullptr);
            if (a == ValueKind::Array)
                return ValueKind::Array;
            if (a == ValueKind::DeviceScalar)
                k = ValueKind::DeviceScalar;
            else if (a == ValueKind::Sequence && k != ValueKind::DeviceScalar)
                return ValueKind::Array; // np.sqrt([1, 2]) is an array
            else if (a != ValueKind::HostScalar && k == ValueKind::HostScalar)
                k = ValueKind::Unknown;
        }
        return n == 0 ? ValueKind::Unknown : k;
    }
    // Constructors, shape manipulation, linear algebra, fft, stacking, ...: arrays.
    return ValueKind::Array;
}

ValueKind SemanticModel::randomDrawKind(TSNode call, const QString& method) const {
    // Position of the `size` argument of each draw: an array comes back only when a size is
    // given (by keyword or position); `rand`/`randn` take the dimensions themselves.
    static const QHash<QString, int> sizeAt = [] {
        QHash<QString, int> h;
        for (const char* n : {"random", "random_sample", "ranf", "sample", "standard_normal",
                              "standard_exponential", "standard_cauchy", "rand", "randn"})
            h.insert(QString::fromLatin1(n), 0);
        for (const char* n :
             {"poisson", "exponential", "choice", "standard_gamma", "chisquare", "geometric",
              "rayleigh", "zipf", "logseries", "power", "standard_t", "weibull", "pareto", "bytes"})
            h.insert(QString::fromLatin1(n), 1);
        for (const char* n :
             {"integers", "randint", "normal", "uniform", "lognormal", "binomial", "gamma", "beta",
              "laplace", "logistic", "gumbel", "multivariate_normal", "negative_binomial", "f",
              "vonmises", "wald", "random_integers", "multinomial", "dirichlet"})
            h.insert(QString::fromLatin1(n), 2);
        for (const char* n : {"triangular", "hypergeometric", "noncentral_f"})
            h.insert(QString::fromLatin1(n), 3);
        return h;
    }();
    if (method == QLatin1String("permutation"))
        return ValueKind::Array;
    if (method == QLatin1String("shuffle") || method == QLatin1String("seed"))
        return ValueKind::None;
    if (!ts_node_is_null(keywordArgument(call, "size")))
        return ValueKind::Array;
    const auto it = sizeAt.constFind(method);
    if (it == sizeAt.cend())
        return ValueKind::Unknown;
    return argCount(call) > *it ? ValueKind::Array : ValueKind::HostScalar;
}

ValueKind SemanticModel::searchsortedKind(TSNode v, int depth) const {
    // One insertion index per value looked up: a number for one number. Arithmetic that mixes
    // a device scalar with a value of unknown kind (`u * total`) may well be an array.
    v = unparen(v);
    const ValueKind k = kindOf(v, depth + 1, nullptr);
    if (k == ValueKind::HostScalar)
        return ValueKind::DeviceScalar;
    if (k != ValueKind::DeviceScalar)
        return ValueKind::Array;
    if (is(v, Sym::binary_operator))
        for (const TSNode side : {field(v, F().left), field(v, F().right)}) {
            const ValueKind sk = kindOf(side, depth + 1, nullptr);
            if (sk != ValueKind::HostScalar && sk != ValueKind::DeviceScalar)
                return ValueKind::Array;
        }
    return ValueKind::DeviceScalar;
}

ValueKind SemanticModel::arrayMethodKind(TSNode call, const QString& m) const {
    if (m == QLatin1String("item"))
        return ValueKind::HostScalar;
    if (m == QLatin1String("tolist"))
        return ValueKind::Sequence;
    if (m == QLatin1String("tobytes") || m == QLatin1String("tostring"))
        return ValueKind::String;
    if (numpy::isReductionMethod(m))
        return (argCount(call) > 0 || !ts_node_is_null(keywordArgument(call, "axis")))
                   ? ValueKind::Array
                   : ValueKind::DeviceScalar;
    if (m == QLatin1String("nonzero"))
        return ValueKind::Sequence;
    if (m == QLatin1String("sort") || m == QLatin1String("fill") || m == QLatin1String("resize") ||
        m == QLatin1String("put") || m == QLatin1String("itemset") ||
        m == QLatin1String("setflags") || m == QLatin1String("partition") ||
        m == QLatin1String("tofile") || m == QLatin1String("dump"))
        return ValueKind::None;
    if (numpy::isArrayMethodReturningArray(m))
        return ValueKind::Array;
    return ValueKind::Unknown;
}

// ---- Hooks for the shape engine (semantic/Shapes.cpp) --------------------------------------

int SemanticModel::nameBindings(std::string_view name, TSNode at, bool selfAttribute,
                                NameBinding* out, int max) const {
    int slot = -1;
    if (selfAttribute) {
        const FunctionRegion* f = enclosingFunctionRegion(at);
        if (!f || f->className.isEmpty())
            return 0;
        const auto it = d->classesByName.constFind(f->className);
        if (it == d->classesByName.cend())
            return 0;
        slot = d->slotTable.find(-1 - *it, name, SlotTable::hash(name));
    } else {
        slot = d->lookup(name, scopeIndexAt(startOf(at)));
    }
    if (slot < 0)
        return 0;
    if (d->slotHead.empty()) {
        d->slotHead.assign(d->facts.size(), -1);
        d->slotNext.assign(d->bindings.size(), -1);
        for (int i = int(d->bindings.size()) - 1; i >= 0; --i) {
            const int sl = d->bindings[size_t(i)].slot;
            if (sl < 0 || size_t(sl) >= d->slotHead.size())
                continue;
            d->slotNext[size_t(i)] = d->slotHead[size_t(sl)];
            d->slotHead[size_t(sl)] = i;
        }
    }
    if (size_t(slot) >= d->slotHead.size())
        return 0;
    int n = 0;
    for (int i = d->slotHead[size_t(slot)]; i >= 0; i = d->slotNext[size_t(i)], ++n) {
        if (n >= max)
            continue;
        const Data::Binding& b = d->bindings[size_t(i)];
        NameBinding& o = out[n];
        o.kind = NameBinding::Kind(int(b.kind));
        o.value = b.value;
        o.target = b.target;
        o.position = b.position;
        o.argIndex = b.argIndex;
        o.index = i;
        o.splat = b.splat;
    }
    return n;
}

const std::vector<TSNode>* SemanticModel::bindingArguments(int bi) const {
    if (bi < 0 || size_t(bi) >= d->bindings.size())
        return nullptr;
    const Data::Binding& b = d->bindings[size_t(bi)];
    if (b.kind != Data::BindKind::Param || b.scope < 0)
        return nullptr;
    const int fn = d->scopes[size_t(b.scope)].function;
    return fn >= 0 ? parameterArguments(bi, fn) : nullptr;
}

Shape SemanticModel::shapeOf(TSNode expr) const {
    if (!m_shapes)
        m_shapes = std::make_unique<ShapeEngine>(*this);
    return m_shapes->shapeOf(expr);
}

Extent SemanticModel::extentOf(TSNode intExpr) const {
    if (!m_shapes)
        m_shapes = std::make_unique<ShapeEngine>(*this);
    return m_shapes->extentOf(intExpr);
}

SizeClass SemanticModel::extentClass(TSNode intExpr) const {
    return extentOf(intExpr).size;
}

SizeClass SemanticModel::arraySizeClass(TSNode expr) const {
    return shapeOf(expr).sizeClass();
}

bool SemanticModel::isBookkeepingArray(TSNode expr) const {
    return arraySizeClass(expr) == SizeClass::Small;
}

ElementKind SemanticModel::elementKind(TSNode expr) const {
    if (!m_shapes)
        m_shapes = std::make_unique<ShapeEngine>(*this);
    return m_shapes->elementKind(expr);
}

bool SemanticModel::holdsNonNumeric(TSNode expr) const {
    const ElementKind k = elementKind(expr);
    return k == ElementKind::String || k == ElementKind::Object;
}

// ---- Loops queries ------------------------------------------------------------------------

const LoopInfo* SemanticModel::enclosingLoop(TSNode n) const {
    if (ts_node_is_null(n) || m_loops.empty())
        return nullptr;
    const uint32_t b = startOf(n);
    const int fn = functionIndexAt(b, endOf(n));
    // The number of loops starting at or before b: from the 256-byte bucket index on.
    size_t count = 0;
    if (d->loopsBefore.empty()) {
        count =
            size_t(std::upper_bound(m_loops.begin(), m_loops.end(), b,
                                    [](uint32_t x, const LoopInfo& L) { return x < L.startByte; }) -
                   m_loops.begin());
    } else {
        const size_t bucket = b >> 8;
        count = bucket < d->loopsBefore.size() ? d->loopsBefore[bucket] : m_loops.size();
        while (count < m_loops.size() && m_loops[count].startByte <= b)
            ++count;
    }
    if (count == 0)
        return nullptr;
    // The last loop starting at or before b; the loops containing b are it or its ancestors
    // by span (loops nest properly), so climb the span-parent chain: O(nesting depth).
    int i = int(count) - 1;
    while (i >= 0 && !(b >= m_loops[size_t(i)].startByte && b < m_loops[size_t(i)].endByte))
        i = d->loopSpanParent[size_t(i)];
    for (; i >= 0; i = d->loopSpanParent[size_t(i)]) {
        const LoopInfo& L = m_loops[size_t(i)];
        if (L.function != fn)
            return nullptr; // b is inside a def nested in that loop: a boundary
        if (L.hotContains(b))
            return &L;
    }
    return nullptr;
}

const LoopInfo* SemanticModel::loopOf(TSNode loopNode) const {
    const uint32_t b = startOf(loopNode);
    auto it = std::lower_bound(m_loops.begin(), m_loops.end(), b,
                               [](const LoopInfo& L, uint32_t x) { return L.startByte < x; });
    for (; it != m_loops.end() && it->startByte == b; ++it)
        if (ts_node_eq(it->node, loopNode))
            return &*it;
    return nullptr;
}

bool SemanticModel::inLoop(TSNode n) const {
    return enclosingLoop(n) != nullptr;
}

int SemanticModel::loopDepth(TSNode n) const {
    const LoopInfo* L = enclosingLoop(n);
    return L ? L->depth : 0;
}

namespace {
// Whether some name of `names` occurs in `text` as a substring: an identifier inside an
// expression is a piece of its text, so when this is false no identifier can match.
bool mentionsAnyText(std::string_view text, const std::vector<std::string_view>& names) {
    return std::any_of(names.begin(), names.end(),
                       [&](std::string_view n) { return text.find(n) != std::string_view::npos; });
}

// Identifiers read by an expression: skips attribute names and keyword names. Explicit
// stack (no recursion, no ts_node_parent()). Stops as soon as `f` returns true.
template <class Fn> void forEachName(const SyntaxTree& tree, TSNode expr, Fn&& f) {
    if (ts_node_is_null(expr))
        return;
    std::vector<TSNode> stack{expr};
    while (!stack.empty()) {
        const TSNode x = stack.back();
        stack.pop_back();
        if (is(x, Sym::identifier)) {
            if (f(tree.text(x)))
                return;
            continue;
        }
        if (is(x, Sym::attribute)) {
            stack.push_back(field(x, F().object));
            continue;
        }
        if (is(x, Sym::keyword_argument)) {
            stack.push_back(field(x, F().value));
            continue;
        }
        const uint32_t n = ts_node_named_child_count(x);
        for (uint32_t k = n; k > 0; --k)
            stack.push_back(ts_node_named_child(x, k - 1));
    }
}
} // namespace

bool SemanticModel::isLoopInvariant(TSNode expr, const LoopInfo& loop) const {
    const Data::NameSet& bound = d->boundViews[size_t(loop.index)];
    if (!mentionsAnyText(text(expr), bound))
        return true; // no name of the set occurs in the text at all: no walk needed
    bool inv = true;
    forEachName(m_tree, expr, [&](std::string_view nm) {
        if (Data::contains(bound, nm))
            inv = false;
        return !inv;
    });
    return inv;
}

bool SemanticModel::usesLoopVariable(TSNode expr, const LoopInfo& loop) const {
    const Data::NameSet& vars = d->derivedLoopVars[size_t(loop.index)];
    if (!mentionsAnyText(text(expr), vars))
        return false; // no name of the set occurs in the text at all: no walk needed
    bool uses = false;
    forEachName(m_tree, expr, [&](std::string_view nm) {
        if (Data::contains(vars, nm))
            uses = true;
        return uses;
    });
    return uses;
}

// ---- Hot paths and regions ----------------------------------------------------------------

namespace {
// Resolution of a call to a function of this file or of the project.
} // namespace

int SemanticModel::localCallee(TSNode c, bool* bound) const {
    const TSNode fn = unparen(field(c, F().function));
    int target = -1;
    bool viaInstance = false;
    // Every lookup below needs the callee's name to be the last component of a def or class
    // name of this file: most calls are dismissed before any string is built.
    if (is(fn, Sym::identifier) && d->isDefName(text(fn))) {
        const QString nm = m_tree.qtext(fn);
        // Nested function of an enclosing function, then module-level function, then class.
        const int caller = functionIndexAt(startOf(c), endOf(c));
        for (int f = caller; f >= 0 && target < 0; f = m_functions[size_t(f)].parent) {
            const auto it = d->localFunctionsByName.constFind(m_functions[size_t(f)].name +
                                                              QLatin1Char('.') + nm);
            if (it != d->localFunctionsByName.cend())
                target = *it;
        }
        if (target < 0)
            target = d->localFunctionsByName.value(nm, -1);
        if (target < 0 && d->classesByName.contains(nm)) {
            target = d->localFunctionsByName.value(nm + QStringLiteral(".__init__"), -1);
            viaInstance = true;
        }
    } else if (is(fn, Sym::attribute)) {
        const TSNode obj = field(fn, F().object);
        if (is(obj, Sym::identifier) && (text(obj) == "self" || text(obj) == "cls")) {
            const int caller = functionIndexAt(startOf(c), endOf(c));
            if (caller >= 0 && !m_functions[size_t(caller)].className.isEmpty() &&
                d->isDefName(text(field(fn, F().attribute))))
                target = d->localFunctionsByName.value(m_functions[size_t(caller)].className +
                                                           QLatin1Char('.') +
                                                           m_tree.qtext(field(fn, F().attribute)),
                                                       -1);
            viaInstance = true;
        }
    }
    if (bound)
        *bound = viaInstance;
    return target;
}

void SemanticModel::buildHotness() {
    // Local call graph.
    std::vector<std::vector<int>> callees(m_functions.size());
    std::vector<int> work;
    // collectParameterHints() resolved every call already when it ran.
    const bool known = d->callTargets.size() == m_calls.size();
    for (size_t i = 0; i < m_calls.size(); ++i) {
        const TSNode c = m_calls[i];
        const int target = known ? d->callTargets[i] : localCallee(c, nullptr);
        if (target < 0)
            continue;
        const int caller = functionIndexAt(startOf(c), endOf(c));
        if (inLoop(c))
            work.push_back(target);
        else if (caller >= 0)
            callees[size_t(caller)].push_back(target);
    }
    while (!work.empty()) {
        const int f = work.back();
        work.pop_back();
        if (m_functions[size_t(f)].locallyHot)
            continue;
        m_functions[size_t(f)].locallyHot = true;
        for (int g : callees[size_t(f)])
            work.push_back(g);
    }
}

const FunctionRegion* SemanticModel::enclosingFunctionRegion(TSNode n) const {
    const int f = functionIndexAt(startOf(n), endOf(n));
    return f >= 0 ? &m_functions[size_t(f)] : nullptr;
}

QString SemanticModel::enclosingFunction(TSNode n) const {
    const FunctionRegion* f = enclosingFunctionRegion(n);
    return f ? f->name : QString();
}

QString SemanticModel::enclosingClass(TSNode n) const {
    int s = scopeIndexAt(startOf(n));
    while (s > 0 && d->scopes[size_t(s)].cls < 0)
        s = d->scopes[size_t(s)].structuralParent;
    return s > 0 ? m_classes[size_t(d->scopes[size_t(s)].cls)].name : QString();
}

bool SemanticModel::isHot(TSNode n) const {
    if (inLoop(n))
        return true;
    const FunctionRegion* f = enclosingFunctionRegion(n);
    return f && f->locallyHot;
}

bool SemanticModel::atBoundary(TSNode n) const {
    return !inLoop(n) && enclosingFunctionRegion(n) == nullptr;
}

QString SemanticModel::hotCondition(TSNode n) const {
    if (isHot(n))
        return {};
    const FunctionRegion* f = enclosingFunctionRegion(n);
    return f ? f->qualifiedName : QString();
}

bool SemanticModel::isKnownNumpyFunction(const QString& name) {
    static const QSet<QString> names = [] {
        QSet<QString> s = numpy::knownFunctionNames();
        const Manifest m = Manifest::bundled();
        for (const ManifestEntry& e : m.entries())
            if (e.name.startsWith(QLatin1String("numpy.")) && e.name.count(QLatin1Char('.')) == 1)
                s.insert(e.name.mid(6));
        return s;
    }();
    return names.contains(name);
}

void SemanticModel::exportTo(FileResult& out) const {
    // Imports: canonical modules (with parents), sorted.
    QStringList mods(d->importedModules.begin(), d->importedModules.end());
    mods.sort();
    out.imports = mods;

    for (const FunctionRegion& f : m_functions)
        out.functions.append(
            FunctionInfo{f.qualifiedName,
                         SourceRange{out.path, SyntaxTree::line(f.node), SyntaxTree::column(f.node),
                                     SyntaxTree::endLine(f.node), SyntaxTree::endColumn(f.node)},
                         f.returnsArray});
    // Parameters the file leaves unknown that the project's call sites may decide.
    for (size_t bi = 0; bi < d->bindings.size(); ++bi) {
        const Data::Binding& b = d->bindings[bi];
        if (b.kind != Data::BindKind::Param || b.slot < 0 ||
            kindOfBits(d->facts[size_t(b.slot)].bits) != ValueKind::Unknown ||
            !openToProjectFact(int(bi)))
            continue;
        const int fn = d->scopes[size_t(b.scope)].function;
        out.openParameters.append(OpenParameter{m_functions[size_t(fn)].qualifiedName,
                                                m_tree.qtext(b.target), b.argIndex});
    }
    // What a call passes, per argument: 1 an ndarray, 2 another known kind, 0 unknown.
    auto argumentKind = [&](TSNode a) {
        const ValueKind k = valueKind(a);
        switch (k) {
        case ValueKind::Array: {
            // A name that is also a number in its scope is an array only flow-insensitively.
            const TSNode ua = unparen(a);
            if (is(ua, Sym::identifier) &&
                (lookupBits(text(ua), scopeIndexAt(startOf(ua))) & (B_Host | B_Device)))
                return 0;
            return 1;
        }
        case ValueKind::Unknown:
            return 0;
        default:
            return 2;
        }
    };
    // A function handed over as a value: `f` (a module-level def of this file or an
    // imported name) or `mod.f`.
    auto notePassed = [&](TSNode a) {
        Sym k = Sym::other;
        const TSNode v = unparen(a, k);
        QString name;
        if (k == Sym::identifier) {
            const std::string_view t = text(v);
            if (d->isDefName(t)) {
                const auto it = d->localFunctionsByName.constFind(m_tree.qtext(v));
                if (it != d->localFunctionsByName.cend() && m_functions[size_t(*it)].parent < 0)
                    name = m_functions[size_t(*it)].qualifiedName;
            }
            if (name.isEmpty())
                name = aliasOf(t, scopeIndexAt(startOf(v)));
        } else if (k == Sym::attribute) {
            name = canonicalName(v);
        } else {
            return;
        }
        if (!name.isEmpty() && !name.startsWith(QLatin1String("numpy.")) &&
            name != QLatin1String("numpy"))
            out.passedFunctions.append(name);
    };
    auto describeArguments = [&](TSNode c, CallArguments& site) {
        const TSNode args = field(c, F().arguments);
        if (!is(args, Sym::argument_list))
            return;
        int positional = 0;
        bool anyArray = false;
        const uint32_t n = ts_node_named_child_count(args);
        for (uint32_t j = 0; j < n; ++j) {
            const TSNode a = ts_node_named_child(args, j);
            const Sym t = sym(a);
            if (t == Sym::comment)
                continue;
            if (t == Sym::list_splat || t == Sym::dictionary_splat) {
                site.splat = true;
                continue;
            }
            if (t == Sym::keyword_argument) {
                const TSNode v = field(a, F().value);
                notePassed(v);
                anyArray = anyArray || argumentKind(v) == 1;
                continue;
            }
            notePassed(a);
            if (positional < 32) {
                const int k = argumentKind(a);
                if (k == 1)
                    site.arrayArgs |= quint32(1) << positional;
                else if (k == 2)
                    site.otherArgs |= quint32(1) << positional;
            }
            ++positional;
        }
        site.positional = quint16(std::min(positional, 65535));
        if (!anyArray && site.arrayArgs == 0)
            return;
        for (uint32_t j = 0; j < n; ++j) {
            const TSNode a = ts_node_named_child(args, j);
            if (sym(a) != Sym::keyword_argument)
                continue;
            const int k = argumentKind(field(a, F().value));
            if (!site.keywords.isEmpty())
                site.keywords += QLatin1Char(',');
            site.keywords += QLatin1Char(k == 1 ? 'A' : k == 2 ? 'O' : 'U');
            site.keywords += m_tree.qtext(field(a, F().name));
        }
    };

    for (TSNode c : m_calls) {
        const TSNode fn = unparen(field(c, F().function));
        const FunctionRegion* caller = enclosingFunctionRegion(c);
        QString callee;
        if (is(fn, Sym::identifier) && !d->isDefName(text(fn))) {
            // Not the name of a local def or class: only an import alias can resolve it.
            callee = aliasOf(text(fn), scopeIndexAt(startOf(fn)));
        } else if (is(fn, Sym::identifier)) {
            const QString nm = m_tree.qtext(fn);
            const int scope = scopeIndexAt(startOf(fn));
            // Local def (nested first), else import alias.
            for (int f = caller ? caller->index : -1; f >= 0 && callee.isEmpty();
                 f = m_functions[size_t(f)].parent) {
                const QString rel = m_functions[size_t(f)].name + QLatin1Char('.') + nm;
                if (d->localFunctionsByName.contains(rel))
                    callee = m_functions[size_t(d->localFunctionsByName.value(rel))].qualifiedName;
            }
            if (callee.isEmpty() && d->localFunctionsByName.contains(nm))
                callee = m_functions[size_t(d->localFunctionsByName.value(nm))].qualifiedName;
            if (callee.isEmpty() && d->classesByName.contains(nm))
                callee = m_module + QLatin1Char('.') + nm + QStringLiteral(".__init__");
            if (callee.isEmpty())
                callee = aliasOf(text(fn), scope);
        } else if (is(fn, Sym::attribute)) {
            const TSNode obj = field(fn, F().object);
            if (is(obj, Sym::identifier) && (text(obj) == "self" || text(obj) == "cls") && caller &&
                !caller->className.isEmpty())
                callee = m_module + QLatin1Char('.') + caller->className + QLatin1Char('.') +
                         m_tree.qtext(field(fn, F().attribute));
            else
                callee = canonicalName(fn);
            // A method on an instance of a known class: `s = Solver(); s.step()`.
            if (callee.isEmpty())
                callee = callName(c);
        }
        // inLoop(c) once per call (isHot() would ask again, and for the same caller).
        int looped = -1;
        auto loopedNow = [&] {
            if (looped < 0)
                looped = inLoop(c) ? 1 : 0;
            return looped == 1;
        };
        if (!callee.isEmpty() && !callee.startsWith(QLatin1String("numpy."))) {
            out.calls.append(CallSite{caller ? caller->qualifiedName : QString(), callee,
                                      loopedNow(), SyntaxTree::line(c)});
            CallArguments passed;
            describeArguments(c, passed);
            out.callArguments.append(std::move(passed));
        }
        // API uses: numpy module functions and ndarray methods.
        const QString api = callName(c);
        if (api.startsWith(QLatin1String("numpy."))) {
            ApiUse u;
            u.name = api;
            u.range = SourceRange{out.path, SyntaxTree::line(c), SyntaxTree::column(c),
                                  SyntaxTree::endLine(c), SyntaxTree::endColumn(c)};
            u.function = caller ? caller->name : QString();
            u.hot = loopedNow() || (caller && caller->locallyHot); // isHot(c)
            if (!u.hot && caller)
                u.requiresHotFunction = caller->qualifiedName;
            out.apiUses.append(u);
        }
    }
}

} // namespace cnready
