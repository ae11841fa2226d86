#pragma once
// Private to core/semantic: what the files of the semantic model share: the node kinds it
// tells apart (Sym), field ids, small tree helpers, the kind bits of a name's bindings, the
// lookup tables and SemanticModel::Data (scopes, bindings, facts and caches).
// SemanticModel's member functions live in several files, one concern each:
//   SemanticModel.cpp  construction, node lists, export to the file result
//   Scopes.cpp         imports, scopes and bindings, name and call-name resolution
//   Loops.cpp          the loop model and the provenance passes that classify loops and
//                      names together (each needs the other), loop queries and invariance
//   Parameters.cpp     kinds of unannotated parameters (local evidence, project facts)
//   ArrayModule.cpp    the array module by name (`def run(np, n)`, `xp = array_namespace(x)`)
//   Summary.cpp        per-function summaries for the project's facts
//   Provenance.cpp     the kind of value of an expression
//   HotPaths.cpp       calls to the file's own functions, hot paths and regions
// Not a public header: rules and the rest of core/ include SemanticModel.h only.

#include "model/CompactString.h"
#include "parse/SyntaxTree.h"
#include "parse/WorkCounters.h"
#include "semantic/SemanticModel.h"
#include "semantic/Walk.h"

#include <QHash>

#include <algorithm>
#include <climits>
#include <cstring>
#include <memory>
#include <type_traits>

namespace cnready {
namespace model_internals {

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
    expression_statement,
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
    parenthesized_list_splat,
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
    colon,     // anonymous `:` (between the parts of a slice)
};
inline const std::vector<Sym>& symbolKinds() {
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
            {"expression_statement", Sym::expression_statement},
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
            {"parenthesized_list_splat", Sym::parenthesized_list_splat},
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
            {":", Sym::colon},
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
        module_name, name, object, op, parameters, right, subscript, type, value;
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
        subscript = id("subscript");
        type = id("type");
        value = id("value");
    }
};
inline const FieldIds& F() {
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

inline QString canonicalModule(QString name) {
    if (name == QLatin1String("cupynumeric") || name.startsWith(QLatin1String("cupynumeric.")))
        name.replace(0, 11, QStringLiteral("numpy"));
    return name;
}

// Unwraps parentheses.
inline TSNode unparen(TSNode n) {
    int guard = 0;
    while (is(n, Sym::parenthesized_expression) && ts_node_named_child_count(n) > 0 && guard++ < 64)
        n = ts_node_named_child(n, 0);
    return n;
}
// unparen(), also giving sym() of the result (one symbol lookup per level, not two).
inline TSNode unparen(TSNode n, Sym& kind) {
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
inline void targetNames(TSNode pattern, std::vector<std::pair<TSNode, int>>& out) {
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

// ---- Kind bits of a name's bindings ---------------------------------------------------------

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

inline quint16 bitOf(ValueKind k) {
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

inline ValueKind kindOfBits(quint16 b) {
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
        if (4 * (m_count + 1) > 3 * m_cells.size()) // at most 3/4 full
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

// Memo tables keyed by node id (TSNode::id): open addressing with a multiplicative hash,
// a few instructions per probe where QHash's seeded hashing and spans cost ~150.
// A null key is never stored (callers compute those directly).
template <class V> class NodeMemo {
public:
    const V* find(const void* key) const {
        if (m_count == 0)
            return nullptr;
        for (size_t i = slot(key);; i = (i + 1) & m_mask) {
            ++t_workCounters.memoProbes;
            const Cell& c = m_cells[i];
            if (c.key == key)
                return &c.value;
            if (c.key == nullptr)
                return nullptr;
        }
    }
    /// Stores `value` for a key not stored yet; the reference is valid until the next insert.
    const V& insert(const void* key, V value) {
        if (4 * (m_count + 1) > 3 * m_cells.size()) // at most 3/4 full
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
    struct WideCell {
        const void* key = nullptr;
        V value{};
    };
    // Values of at most 4-byte alignment (flags, codes, spans) sit right after the key: a
    // 1-byte value takes a 12-byte cell, not 16 (the kind and shape memos of a 100,000-line
    // module: 4.2 -> 3.1 MB each).
#pragma pack(push, 4)
    struct PackedCell {
        const void* key = nullptr;
        V value{};
    };
#pragma pack(pop)
    using Cell = std::conditional_t<(alignof(V) <= 4), PackedCell, WideCell>;
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

// A NodeMemo of strings: each distinct string is kept once (calls name a few hundred
// functions many times over) and the cells hold its 4-byte number, 12-byte cells instead of
// QString's 32. The same answers; a pointer from find() is valid until the next insert.
class NodeStringMemo {
public:
    const QString* find(const void* key) const {
        const quint32* id = m_ids.find(key);
        return id ? &m_strings[*id] : nullptr;
    }
    void insert(const void* key, const QString& value) {
        quint32 id = quint32(m_strings.size());
        const auto it = m_numbers.constFind(value);
        if (it != m_numbers.constEnd()) {
            id = *it;
        } else {
            m_numbers.insert(value, id);
            m_strings.push_back(value);
        }
        m_ids.insert(key, id);
    }
    void clear() {
        m_ids.clear();
        m_strings.clear();
        m_numbers.clear();
    }

private:
    NodeMemo<quint32> m_ids;
    std::vector<QString> m_strings;
    QHash<QString, quint32> m_numbers;
};

} // namespace model_internals

using namespace model_internals;

struct SemanticModel::Data {
    enum class BindKind { Assign, Augment, ForTarget, Param, Import, Def, Walrus, WithAs };
    // Members ordered so that no padding is left, the alias (empty but for imports and
    // definitions) a CompactString: 176 -> 152 bytes per binding.
    struct Binding {
        int scope = 0;
        BindKind kind = BindKind::Assign;
        std::string_view name; // view of the source (class attributes: the name after `self.`)
        TSNode value{};        // assigned value / iterable / annotation
        TSNode annotation{};   // parameter or assignment annotation
        TSNode target{};       // the identifier node
        int position = -1;     // index in a tuple target; -1 plain; -2 nested
        int loop = -1;         // ForTarget: loop index
        CompactString alias;   // Import: canonical target
        uint32_t at = 0;       // start byte of the identifier
        int slot = -1;         // index into Data::facts
        int argIndex = -1;     // Param: position among the positional parameters; -1 when
                               // keyword-only (after `*` / `*args`)
        bool splat = false;    // Param: `*args` (a tuple) or `**kwargs` (a dict)
    };
    // Small members first, so that no padding is left, and the strings (mostly empty) as
    // CompactString: 104 -> 40 bytes per slot.
    struct Facts {
        quint16 bits = 0;
        bool aliasConflict = false;
        bool hasInt = false; // the only binding is an integer literal (`nt = 2`)
        int bindings = 0;
        CompactString type;    // for Object kind
        CompactString alias;   // canonical name when every binding is the same alias
        CompactString shapeOf; // bound from `X.shape` / `X.shape[k]`: source text of X
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
    std::vector<quint8> paramHints; // per slot
    // Per function: the parameters its docstring documents as arrays (Docstrings.h), read on
    // first need (docRead).
    std::vector<std::vector<std::string_view>> docArrays;
    std::vector<char> docRead;
    const FileFacts* facts_ = nullptr; // the project's facts for this file (may be null)
    // The array module by name (ArrayModule.cpp): candidate names used only as a module,
    // bare and as attributes; whether an array-API namespace helper is called.
    std::vector<quint8> moduleUse; // per slot: 1 read as a module, 2 used otherwise
    bool moduleUsedAny = false;    // some name is read as a module
    std::vector<std::string_view> moduleAttributes; // sorted candidate attribute names
    bool namespaceHelper = false;
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
    // callsTo(): per function of the file, the indices of the calls that invoke it (filled on
    // first use).
    std::vector<std::vector<int>> callsByCallee;
    bool callsByCalleeBuilt = false;
    // Per loop: overConfiguredItems() once decided (-1 not yet, 0 no, 1 yes); asked for every
    // call inside a loop by inManyPassLoop().
    mutable std::vector<qint8> configuredItems;
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
    mutable NodeStringMemo callNameCache;
    mutable NodeStringMemo canonicalCache;
    mutable QHash<QString, quint8> numpyLeaves; // numpyLeafCategory() per NumPy name seen
    // Bindings per facts slot as linked lists (document order), built on the first
    // nameBindings() call (the shape engine's name lookups).
    mutable std::vector<int> slotHead, slotNext;
};

} // namespace cnready
