#pragma once
// Private to core/assess: the per-file evidence collector behind collectEvidence() (Evidence.h).
// One class, its members defined by concern: Evidence.cpp (where nodes sit, imports, the
// per-call dispatch), evidence/CallNames.cpp (what a canonical call name means),
// evidence/SizeEvidence.cpp (constant evaluation and size hints), evidence/PatternEvidence.cpp
// (compute-pattern evidence), evidence/Touchpoints.cpp (host touchpoints, readiness hints).

#include "model/FileResult.h"
#include "parse/SyntaxTree.h"
#include "semantic/SemanticModel.h"

#include <QHash>
#include <QSet>
#include <QString>

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace cnready::evidence {

using ST = SyntaxTree;

// Largest size we still believe (elements). Beyond this an expression is a hash constant or
// a bit mask, not an array size.
constexpr double kMaxElements = 1e15;
// Expressions nested deeper than this are not evaluated (bounded recursion).
constexpr int kMaxEvalDepth = 48;

// A value the evaluator knows, with the definitions (indices into Collector::m_defs) that
// supplied its literal parts.
struct Value {
    double v = 0;
    QList<int> origins;
};
// Names with known values. A function's environment is its own bindings (and the module
// names it shadows) on top of the module's, which is shared, not copied: a copy per function
// of a large module's constants took most of the memory on big files (9,000 functions x 275
// constants ~ 164 MB on a 3 MB file). Names are the UTF-8 bytes of identifier nodes (views
// into the tree's source): tree-sitter only lexes valid UTF-8 into identifiers, so byte
// equality is the same test as comparing the decoded strings, without decoding them.
class Env {
public:
    Env() = default;
    explicit Env(const Env* base) : m_base(base) {}
    const Value* find(std::string_view name) const {
        if (const auto it = m_local.find(name); it != m_local.end())
            return it->second.has_value() ? &*it->second : nullptr;
        return m_base ? m_base->find(name) : nullptr;
    }
    void insert(std::string_view name, const Value& v) { m_local.insert_or_assign(name, v); }
    void remove(std::string_view name) {
        if (m_base && m_base->find(name))
            m_local.insert_or_assign(name, std::nullopt); // shadows the module's value
        else
            m_local.erase(name);
    }

private:
    const Env* m_base = nullptr;
    std::unordered_map<std::string_view, std::optional<Value>> m_local; // nullopt: unknown here
};

// A definition that gave a name a literal-derived value (module constant, parameter default,
// local assignment, call-site argument).
struct Def {
    QString name;
    QString text; // "N_SAMPLES = 16_000_000"
    SourceRange range;
    double value = 0;
    bool moduleConstant = false;
    bool fed = false;
    // A parameter's default (`samples: int = 200`, `worN=512`) is a library knob, not the size
    // of the data: it never makes a size "size-named" enough to fail Gate 2.
    bool parameterDefault = false;
    // Where it was made: 0 module constants, 1 a function's environment with call sites,
    // 2 one without; the function (index into SemanticModel::functionDefs()), the parameter
    // whose default it is (-1: a local assignment) and its rank among the definitions made
    // by that same step. See Collector::describeOrigins().
    uint8_t env = 0;
    int fn = -1;
    int param = -1;
    int sub = 0;
    std::optional<bool> sizeName; // isSizeName(name), once asked
};

struct DrawSpec {
    int sizePos; // positional index of the size argument, -1 = all positionals are dims
    const char* sizeKw;
};

// Draw methods of a generator object by the method's UTF-8 name; null if none
// (evidence/CallNames.cpp).
const DrawSpec* generatorSpec(std::string_view method);

// What a canonical call name means to the collector, worked out once per distinct name:
// everything onCall() asks of the name alone (string prefixes, set lookups, the pattern and
// touchpoint tables).
struct CanonInfo {
    enum Size : uint8_t { NoSize, Linspace, Arange, Eye, Identity, Spec };
    bool numpy = false; // "numpy.*": sizes are looked for
    Size size = NoSize;
    const DrawSpec* spec = nullptr; // Size == Spec
    QString pattern;                // numpyPattern(), else modulePattern() of a non-NumPy name
    bool re = false;                // "re.*"
    bool heappop = false;           // "heapq.heappop"
    QString touchpoint;             // touchpointKind()
    bool logging = false;           // "logging.*"
    bool goldenTest = false;        // a comparison helper of a golden test
    bool benchmark = false;         // a timer
};

// The pattern an imported module (or "module.name" of a from-import) hints at, or ""
// (evidence/CallNames.cpp).
QString modulePattern(const QString& full);

// What a canonical call name means (classify() memoised per thread; evidence/CallNames.cpp).
// Returned by value: the memo may rehash on the next call.
CanonInfo canonInfo(const QString& canonical);

// Names that state a data size: N, NX, SIZE, N_SAMPLES, FRAME_LEN, GRID, ...
// (evidence/SizeEvidence.cpp).
bool isSizeName(const QString& name);

// `word` occurs in `text` as a whole identifier; `text` contains `word - <digits>`
// (evidence/PatternEvidence.cpp).
bool containsWord(const QString& text, const QString& word);
bool hasBackOffset(const QString& text, const QString& word);

// Receivers whose method calls are log calls (evidence/Touchpoints.cpp).
bool isLoggerName(std::string_view s);

// Field ids resolved once (a lookup by name hashes the name on every call).
struct FieldIds {
    TSFieldId alias = ST::fieldId("alias");
    TSFieldId argument = ST::fieldId("argument");
    TSFieldId arguments = ST::fieldId("arguments");
    TSFieldId attribute = ST::fieldId("attribute");
    TSFieldId body = ST::fieldId("body");
    TSFieldId function = ST::fieldId("function");
    TSFieldId left = ST::fieldId("left");
    TSFieldId module_name = ST::fieldId("module_name");
    TSFieldId name = ST::fieldId("name");
    TSFieldId object = ST::fieldId("object");
    TSFieldId op = ST::fieldId("operator");
    TSFieldId parameters = ST::fieldId("parameters");
    TSFieldId right = ST::fieldId("right");
    TSFieldId value = ST::fieldId("value");
};
inline const FieldIds& F() {
    static const FieldIds ids;
    return ids;
}
inline TSNode field(TSNode n, TSFieldId id) {
    return ST::field(n, id);
}
// Grammar type of a node, "" for a null node: one ts_node_type() call for several tests.
inline std::string_view typeOf(TSNode n) {
    return ts_node_is_null(n) ? std::string_view() : ST::type(n);
}

class Collector {
public:
    Collector(const SyntaxTree& tree, const SemanticModel& model, FileResult& out)
        : t(tree), m(model), out(out) {}

    void run() {
        gather();
        readImports();
        readModuleConstants();
        readGeneratorNames();
        m_callTriggers.assign(m_calls.size(), false);
        for (size_t i = 0; i < m_calls.size(); ++i)
            onCall(i);
        for (size_t i = 0; i < m_binaryOps.size(); ++i)
            onBinary(i);
        for (size_t i = 0; i < m_assignments.size(); ++i)
            onAssignment(i);
        finishElementLoops();
        finishSizeHints();
        if (out.path.contains(QLatin1String("bench"), Qt::CaseInsensitive))
            out.readiness.append({QStringLiteral("benchmark"), SourceRange{out.path, 1, 1, 1, 1},
                                  QStringLiteral("benchmark module")});
    }

private:
    const SyntaxTree& t;
    const SemanticModel& m;
    FileResult& out;

    // The named children of `n` in order (ts_node_named_child() scans the children before
    // the one it returns, but on the short lists read here that is still cheaper than a
    // TSTreeCursor pass, whose every sibling step costs ~500 instructions in 0.20.7).
    static std::vector<TSNode> namedChildren(TSNode n) {
        std::vector<TSNode> kids;
        if (ts_node_is_null(n))
            return kids;
        const uint32_t k = ts_node_named_child_count(n);
        kids.reserve(k);
        for (uint32_t i = 0; i < k; ++i)
            kids.push_back(ts_node_named_child(n, i));
        return kids;
    }

    const std::vector<TSNode>& m_calls = m.calls();
    const std::vector<TSNode>& m_binaryOps = m.binaryOperators();
    const std::vector<TSNode>& m_assignments = m.assignments();
    const std::vector<TSNode>& m_imports = m.imports();
    const std::vector<TSNode>& m_functions = m.functionDefs();
    QHash<QString, QString> m_aliases; // local name → canonical dotted name (all imports)
    // The same local names as UTF-8 views: most names are not imports, and this answers
    // "not an import" without decoding the name.
    std::unordered_set<std::string_view> m_aliasKeys;
    QSet<QString> m_importedRoots; // "numpy", "sklearn", "collections", ...
    bool m_numpyFile = false, m_mlFile = false, m_dequeImported = false;
    QSet<QString> m_generators; // names bound to numpy.random generators
    Env m_moduleEnv;
    std::vector<Def> m_defs;
    // Function environments by function index, built on first use.
    std::vector<std::unique_ptr<Env>> m_baseEnv, m_fullEnv;
    // Calls of a bare identifier by that name (indices into m_calls), built on first use.
    std::unordered_map<std::string_view, std::vector<int>> m_callsByName;
    bool m_callsByNameBuilt = false;

    // ---- walking -------------------------------------------------------------------------

    // Where a node sits, computed once (ts_node_parent is O(depth) in tree-sitter, so parent
    // chains are never walked).
    struct Where {
        bool inLoop = false;  // a loop encloses it before the nearest function/class/lambda
        bool inWhile = false; // the same for a while loop
        int function = -1;    // nearest enclosing function_definition (index), -1 = module
        int scope = -1;       // index into m_scopes ("func", "Class.method"), -1 = module
        int forVars = -1;     // head of the for-loop variable chain in m_forVars, -1 = none
    };
    struct VarLink {
        TSNode name; // an identifier
        int prev = -1;
    };
    // A function or class scope; its dotted name is built when first asked for.
    struct Scope {
        TSNode def;
        int parent = -1;
        bool named = false;
        QString name;
    };
    std::vector<Where> m_callWhere, m_binaryWhere, m_assignmentWhere, m_importWhere;
    std::vector<Scope> m_scopes;
    std::vector<VarLink> m_forVars;

    // What an enclosing node does to the context of the nodes inside it.
    enum Kind : unsigned char {
        K_Other,
        K_FunctionDef,
        K_ClassDef,
        K_Lambda,
        K_For,
        K_While,
        K_Comprehension,
    };
    struct Item {
        TSNode node;
        uint32_t start, end;
        Kind kind;
        int index; // position in the model's list of that kind
    };
    static bool preorder(uint32_t as, uint32_t ae, uint32_t bs, uint32_t be) {
        return as != bs ? as < bs : ae > be;
    }
    struct Opener {
        uint32_t start, end;
        Where children; // the context of everything inside this opener
    };
    std::vector<Opener> m_openers; // in document (pre-)order

    // Works out where each node the collector looks at sits, from the semantic model's lists:
    // one sweep over the functions, classes, lambdas and loops (a stack of the open ones)
    // gives the context inside each of them; then one sweep per list of nodes (each in
    // document order) finds the innermost opener around each node. Same result as a walk over
    // the whole tree, without walking it again (a TSTreeCursor step costs hundreds of
    // instructions in tree-sitter 0.20).
    void gather();

    // Pops the openers that do not contain [s, e). Openers nest, so they form the top of the
    // stack.
    void leaveUntilInside(std::vector<size_t>& open, uint32_t s, uint32_t e) const;

    // The context of each node of a list in document order. A node is placed after the
    // openers that come before it in document order (a node that is itself an opener gets
    // the context outside it).
    std::vector<Where> placeAll(const std::vector<TSNode>& list) const;

    SourceRange rangeOf(TSNode n) const {
        return SourceRange{out.path, ST::line(n), ST::column(n), ST::endLine(n), ST::endColumn(n)};
    }

    static QString canonicalModule(QString name) {
        if (name == QLatin1String("cupynumeric") || name.startsWith(QLatin1String("cupynumeric.")))
            name.replace(0, 11, QStringLiteral("numpy"));
        return name;
    }

    // Canonical dotted name of an expression through any import of the file.
    QString resolve(TSNode expr) const;

    // Dotted name of a function or class scope ("Class.method"); "" at module level. Built
    // iteratively from the outermost unnamed ancestor (scopes can nest thousands deep).
    QString scopeName(int scope);

    void addEvidence(const QString& pattern, TSNode n, const Where& w, const QString& note,
                     int weight);

    // ---- imports ---------------------------------------------------------------------------

    void addAlias(std::string_view key, const QString& full) {
        m_aliases.insert(QString::fromUtf8(key.data(), qsizetype(key.size())), full);
        m_aliasKeys.insert(key);
    }

    void readImports();

    // ---- constant evaluation ---------------------------------------------------------------

    static std::optional<double> parseNumber(std::string_view text);

    // The names an expression is evaluated against: a known environment, or the full
    // environment of a function, built only when a name is actually looked up (most sizes
    // are literals or attributes, and most NumPy calls are not constructors).
    class Names {
    public:
        explicit Names(const Env& env) : m_env(&env) {}
        Names(Collector* owner, int fn) : m_owner(owner), m_fn(fn) {}
        const Value* find(std::string_view name) const {
            if (!m_env)
                m_env = &m_owner->functionEnv(m_fn, true);
            return m_env->find(name);
        }

    private:
        mutable const Env* m_env = nullptr;
        Collector* m_owner = nullptr;
        int m_fn = -1;
    };

    // Evaluates an integer-valued expression (or a shape tuple → product) against `names`.
    std::optional<Value> eval(TSNode n, const Names& names, int depth = 0,
                              bool shape = false) const;

    std::optional<Value> evalShape(TSNode n, const Names& names) const;

    // Which step of the evaluation is making definitions (see Def).
    struct Step {
        uint8_t env = 0;
        int fn = -1;
        int param = -1;
        int made = 0; // definitions made so far by this step
    };

    // Binds `name` from a definition node; literal-only values become their own origin.
    // Module constants are always their own origin (their name is what a reader knows).
    void define(Env& env, std::string_view name, TSNode defNode, Value v, bool moduleConstant,
                Step& step);

    // The `assignment` statements readAssignments() evaluates in `block`, in source order: not
    // inside a nested def, class or lambda, and not the inner part of a chained assignment.
    // Taken from the model's lists (no walk over the block).
    std::vector<TSNode> assignmentsOf(TSNode block) const;

    // Reads `NAME = expr` (and `A, B = 1, 2`) statements of a block in source order, without
    // entering function or class bodies.
    void readAssignments(TSNode block, Env& env, bool moduleLevel, Step& step);

    void readModuleConstants();

    // Parameters of a function: (name, default node or null) in order.
    std::vector<std::pair<std::string_view, TSNode>> parameters(int fn) const;

    // The environment of a function body: module constants, parameter defaults, same-file
    // call-site arguments (when `withCallSites`) and local assignments in source order.
    // Built once per function and kind.
    const Env& functionEnv(int fn, bool withCallSites);

    const std::vector<int>& callsNamed(std::string_view name);

    // The largest value passed for parameter `index`/`name` of `fn` at same-file call sites,
    // evaluated in each caller's own environment (without call sites: one level deep).
    std::optional<Value> callSiteValue(int fn, int index, std::string_view name);

    void readGeneratorNames();

    bool isGenerator(TSNode obj) const;

    // The arguments of a call: positionals (every named child that is not a keyword
    // argument) and keyword arguments by name. A list without '=' and without syntax errors
    // has no keyword argument: its named children are the positionals, read only when asked
    // for (each ts_node_named_child() call scans the children before the one it returns).
    struct Args {
        TSNode list{};
        bool plain = false; // no keyword arguments; `positional` and `keywords` unused
        uint32_t count = 0; // positionals
        std::vector<TSNode> positional;
        std::vector<std::pair<std::string_view, TSNode>> keywords; // name, value
        // By position or keyword (the last keyword of that name wins over any positional);
        // null when absent.
        TSNode get(int pos, const char* kw) const {
            if (plain)
                return pos >= 0 && uint32_t(pos) < count ? ts_node_named_child(list, uint32_t(pos))
                                                         : TSNode{};
            if (kw && *kw)
                for (auto it = keywords.rbegin(); it != keywords.rend(); ++it)
                    if (it->first == kw)
                        return it->second;
            return pos >= 0 && size_t(pos) < positional.size() ? positional[size_t(pos)] : TSNode{};
        }
    };
    Args argsOf(TSNode call) const;

    // Size of the array a constructor call builds, when it evaluates.
    std::optional<Value> constructedSize(TSNode call, const Where& w, const CanonInfo& info,
                                         bool generator, std::string_view method);

    // ---- the order of definitions ----------------------------------------------------------

    // describeOrigins() lists a size's definitions in a fixed order, which the report shows:
    // the order in which they are made when each function's environment is built at the
    // function's first NumPy call (needed or not), its callers' environments on the way.
    // Environments are built lazily instead (only when a size looks a name up), so definition
    // indices follow another order across environments; this replays the eager order
    // (cheaply: no evaluation, only which environment comes first) when definitions of two
    // environments meet in one size.
    std::vector<char> m_callTriggers; // per call: sizes are looked for (eager: env built here)
    size_t m_replayed = 0;            // calls replayed so far
    int m_tick = 1;                   // 0: module constants
    // Per function: the tick of each step of its environment (parameters, then the locals);
    // empty while not replayed.
    std::vector<std::vector<int>> m_fullSteps, m_baseSteps;

    void replayUntil(size_t lastCall);

    // The steps of functionEnv() in order: one tick per parameter and one for the locals;
    // the callers' environments that a parameter without default pulls in come in between.
    void replayEnv(int fn, bool withCallSites);

    // Sort key of a definition in the eager order: (tick of its step, rank in the step).
    std::pair<int, int> eagerOrder(const Def& d) const;

    QString describeOrigins(const QList<int>& origins, size_t call);

    bool sizeNamed(Def& d) {
        if (!d.sizeName)
            d.sizeName = isSizeName(d.name);
        return *d.sizeName;
    }

    // ---- per-node handlers ---------------------------------------------------------------

    // One call as onCall() sees it, handed to the size, pattern and touchpoint parts.
    struct CallSite {
        size_t index; // into m_calls
        TSNode call;
        const Where& w;
        TSNode f; // the callee expression
        const QString& canonical;
        const CanonInfo info;
        bool loop;
        std::string_view ftype;
        bool attribute;
        bool generator; // a draw method of a numpy.random generator object
        std::string_view method;
    };
    void onCall(size_t index);
    // Size hint of an array constructor call (Gate 2 and the inferred context).
    void sizeOfCall(const CallSite& c);
    // Whether a size at `n` can be evidence of the workload's size (RULES.md, the workload
    // model, items 5 and 6): not in a test module, on the compute path by the model's path
    // role (SemanticModel::onComputePath: not set-up, demo data, plotting, I/O, printing or an
    // error path), not in an example/demo folder.
    bool sizeOnComputePath(TSNode n, const Where& w);
    // Whether the file sits in an examples / demo folder (isDemoFolderName): demo material.
    bool inDemoFolder() const;
    // Whether the array a constructor call builds is made by the script's entry code and
    // handed on to the computation (SizeHint::entryStated): the call is the value of
    // `name = <call>` at module level, in the `__main__` block or in a function module level
    // calls, on the path as set-up or compute; a later call in the same scope hands `name` to
    // a function of this file or an imported one (`handedTo`: its canonical name); the entry
    // code reads no data (files, pandas, h5py) that could size the run instead; and no
    // parameter default behind the size is overridden by a module-level call. Empty optional
    // when not.
    std::optional<QString> handedOnByEntry(TSNode call, const Where& w, const Value& size);
    // The callee of `call` when it is a function of the project: "" for one defined in this
    // file, its canonical name when imported (Context checks its module); empty optional for
    // NumPy, a host library or a builtin.
    std::optional<QString> projectCallee(TSNode call) const;
    // Where the array bound to `name` at byte `after` (in the scope of `w`) goes: a later call
    // of that scope passing it to a function of the project (projectCallee()), or a subscript
    // of it in a loop of that scope (the script's own compute loop: ""); empty optional when
    // neither.
    std::optional<QString> handedByName(std::string_view name, const Where& w, uint32_t after);
    // Whether function `fn` (index) is a plain function that module-level code of this file
    // calls by name: the script's `main()`.
    bool calledFromModuleLevel(int fn);
    // Whether the entry code (module level and the functions it calls) reads data: a call
    // that is file I/O, pandas or h5py by its touchpoint, or `open(...)`. Worked out once.
    bool entryReadsData();
    std::optional<bool> m_entryReadsData;
    // Calls (indices into m_calls) by the bare names they pass as arguments, built on first use.
    std::unordered_map<std::string_view, std::vector<int>> m_callsPassing;
    bool m_callsPassingBuilt = false;
    // Elements of `np.meshgrid(x, y, ...)`: the product of its vectors' lengths, each a
    // constructor call or a name bound to one in the same function; nullopt unless all are
    // known.
    std::optional<Value> meshgridSize(TSNode call, const Where& w);
    // The length of the 1-d array `arg` (a constructor call, or a name assigned one in the
    // function of `w` before `before`), when it evaluates.
    std::optional<Value> vectorLength(TSNode arg, const Where& w, uint32_t before);
    // A parameter of a compute-path function of this file that a size-named module constant
    // sizes by name (`BLOCK_LEN` -> a parameter `block` used as an array): "parameter `block`
    // of `filter_block`", or "" when none.
    QString arrayNamedLike(const QString& constant);
    // Indices into m_assignments of the plain assignments to `name` (built on first use).
    const std::vector<int>& assignmentsNamed(std::string_view name);
    // Compute-pattern evidence of a call (Gate 4).
    void patternOfCall(const CallSite& c);
    // Host touchpoints (Gate 5) and readiness hints (Gate 6) of a call.
    void touchpointsOfCall(const CallSite& c);

    // The first positional argument of a call; null if none.
    static TSNode firstArgument(TSNode call);

    // A tuple or list display of number literals (nested ones too, `-1` included), depth-bounded.
    static bool numberDisplay(TSNode n);

    // Whether `arg` holds only a few Python numbers: a tuple/list display of number literals,
    // a name every binding of which in the enclosing function (its parameter default and its
    // plain assignments; module assignments at module level) is such a display, or a slice or
    // item of either. A name with no binding seen, or any other binding, is not.
    bool numbersOnly(TSNode arg, const Where& w);
    std::unordered_map<std::string_view, std::vector<int>> m_assignmentsByName;
    bool m_assignmentsByNameBuilt = false;

    QString methodPattern(std::string_view method) const;

    // `index`: position of the operator in the model's (the tree's) list of binary operators.
    void onBinary(size_t index);

    // Whether the walk in onBinary() can find two different slices of one array below `op`:
    // looks at every subscript inside its span (the model's list, no walk), a superset of the
    // ones the walk sees. Compared as UTF-8: bytes that differ may still decode alike, which
    // only lets the walk run; equal bytes always decode alike.
    bool maySlice(TSNode op) const;

    // `y[n] = ... y[n-1] ...` inside `for n in ...`: a sequential recurrence when each step is
    // scalar work; a step that works on a whole slab (`pos[t] = pos[t-1] + kick` over the rows
    // of a `(steps, walkers)` array) is a vectorized time step and says nothing here. A plain
    // running sum/product (`c[i] = c[i-1] + x[i]`) is a scan, which cumsum/cumprod express:
    // reduction. An element store without a recurrence marks an elementwise element loop.
    void onAssignment(size_t index);

    // The loop of this function around `n` whose header binds `var`, or nullptr.
    const LoopInfo* loopBinding(TSNode n, const QString& var) const;
    // Element loops with independent passes (`y[i] = 3 * x[i] + y[i]` over a data extent):
    // elementwise work written one element at a time, which vectorizes. Loop index → the first
    // element store found in it; loops with a recurrence are dropped at the end.
    std::unordered_map<int, size_t> m_elementStores;
    std::unordered_set<int> m_recurrentLoops;
    void noteElementStore(size_t index, TSNode left);
    // One "elementwise" evidence per outermost independent element loop (weight 2).
    void finishElementLoops();

    void finishSizeHints();
};
} // namespace cnready::evidence
