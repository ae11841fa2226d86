#include "assess/Evidence.h"

#include "parse/SyntaxTree.h"
#include "semantic/LoopWork.h"
#include "semantic/NumpyNames.h"
#include "semantic/SemanticModel.h"

#include <QHash>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace cnready {

namespace {

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

// Array constructors and their size argument (NumPy signatures).
const QHash<QString, DrawSpec>& constructorSpecs() {
    static const QHash<QString, DrawSpec> specs = {
        {QStringLiteral("numpy.zeros"), {0, "shape"}},
        {QStringLiteral("numpy.ones"), {0, "shape"}},
        {QStringLiteral("numpy.empty"), {0, "shape"}},
        {QStringLiteral("numpy.full"), {0, "shape"}},
        {QStringLiteral("numpy.ndarray"), {0, "shape"}},
        {QStringLiteral("numpy.random.rand"), {-1, ""}},
        {QStringLiteral("numpy.random.randn"), {-1, ""}},
        {QStringLiteral("numpy.random.random"), {0, "size"}},
        {QStringLiteral("numpy.random.random_sample"), {0, "size"}},
        {QStringLiteral("numpy.random.standard_normal"), {0, "size"}},
        {QStringLiteral("numpy.random.uniform"), {2, "size"}},
        {QStringLiteral("numpy.random.normal"), {2, "size"}},
        {QStringLiteral("numpy.random.randint"), {2, "size"}},
        {QStringLiteral("numpy.random.exponential"), {1, "size"}},
        {QStringLiteral("numpy.random.poisson"), {1, "size"}},
        {QStringLiteral("numpy.random.binomial"), {2, "size"}},
    };
    return specs;
}

// Draw methods of a numpy.random.Generator / RandomState object.
const QHash<QString, DrawSpec>& generatorSpecs() {
    static const QHash<QString, DrawSpec> specs = {
        {QStringLiteral("random"), {0, "size"}},
        {QStringLiteral("standard_normal"), {0, "size"}},
        {QStringLiteral("normal"), {2, "size"}},
        {QStringLiteral("uniform"), {2, "size"}},
        {QStringLiteral("integers"), {2, "size"}},
        {QStringLiteral("randint"), {2, "size"}},
        {QStringLiteral("exponential"), {1, "size"}},
        {QStringLiteral("poisson"), {1, "size"}},
        {QStringLiteral("binomial"), {2, "size"}},
        {QStringLiteral("rand"), {-1, ""}},
        {QStringLiteral("randn"), {-1, ""}},
    };
    return specs;
}

// Whether a dotted name is `module` itself or lies below it ("scipy.sparse.linalg" is under
// "scipy.sparse"; "scipyx" is not under "scipy"). No allocation: this runs for every call.
bool isUnderModule(const QString& name, QLatin1String module) {
    return name.startsWith(module) &&
           (name.size() == module.size() || name.at(module.size()) == QLatin1Char('.'));
}

// NumPy calls that hint at a compute pattern.
QString numpyPattern(const QString& canonical) {
    static const QSet<QString> gemm = {QStringLiteral("matmul"),
                                       QStringLiteral("dot"),
                                       QStringLiteral("einsum"),
                                       QStringLiteral("tensordot"),
                                       QStringLiteral("inner"),
                                       QStringLiteral("outer"),
                                       QStringLiteral("vdot"),
                                       QStringLiteral("kron"),
                                       QStringLiteral("linalg.solve"),
                                       QStringLiteral("linalg.inv"),
                                       QStringLiteral("linalg.cholesky"),
                                       QStringLiteral("linalg.qr"),
                                       QStringLiteral("linalg.svd"),
                                       QStringLiteral("linalg.eig"),
                                       QStringLiteral("linalg.eigh"),
                                       QStringLiteral("linalg.lstsq"),
                                       QStringLiteral("linalg.pinv"),
                                       QStringLiteral("linalg.matrix_power"),
                                       QStringLiteral("linalg.multi_dot")};
    static const QSet<QString> reduction = {
        QStringLiteral("sum"),       QStringLiteral("mean"),    QStringLiteral("max"),
        QStringLiteral("min"),       QStringLiteral("prod"),    QStringLiteral("var"),
        QStringLiteral("std"),       QStringLiteral("amax"),    QStringLiteral("amin"),
        QStringLiteral("average"),   QStringLiteral("nansum"),  QStringLiteral("nanmean"),
        QStringLiteral("nanmax"),    QStringLiteral("nanmin"),  QStringLiteral("count_nonzero"),
        QStringLiteral("argmax"),    QStringLiteral("argmin"),  QStringLiteral("linalg.norm"),
        QStringLiteral("histogram"), QStringLiteral("bincount")};
    static const QSet<QString> elementwise = {
        QStringLiteral("sqrt"),    QStringLiteral("exp"),      QStringLiteral("log"),
        QStringLiteral("log1p"),   QStringLiteral("expm1"),    QStringLiteral("sin"),
        QStringLiteral("cos"),     QStringLiteral("tan"),      QStringLiteral("tanh"),
        QStringLiteral("sinh"),    QStringLiteral("cosh"),     QStringLiteral("arctan"),
        QStringLiteral("arctan2"), QStringLiteral("abs"),      QStringLiteral("absolute"),
        QStringLiteral("where"),   QStringLiteral("clip"),     QStringLiteral("maximum"),
        QStringLiteral("minimum"), QStringLiteral("power"),    QStringLiteral("multiply"),
        QStringLiteral("add"),     QStringLiteral("subtract"), QStringLiteral("divide"),
        QStringLiteral("hypot"),   QStringLiteral("floor"),    QStringLiteral("ceil"),
        QStringLiteral("square"),  QStringLiteral("sign"),     QStringLiteral("rint"),
        QStringLiteral("log10"),   QStringLiteral("log2"),     QStringLiteral("select")};
    static const QSet<QString> draws = {
        QStringLiteral("rand"),          QStringLiteral("randn"),
        QStringLiteral("random"),        QStringLiteral("normal"),
        QStringLiteral("uniform"),       QStringLiteral("standard_normal"),
        QStringLiteral("exponential"),   QStringLiteral("poisson"),
        QStringLiteral("binomial"),      QStringLiteral("randint"),
        QStringLiteral("random_sample"), QStringLiteral("choice"),
        QStringLiteral("gamma"),         QStringLiteral("lognormal")};
    if (!canonical.startsWith(QLatin1String("numpy.")))
        return {};
    const QString tail = canonical.mid(6);
    if (tail.startsWith(QLatin1String("fft.")))
        return QStringLiteral("fft");
    if (tail.startsWith(QLatin1String("random.")))
        return draws.contains(tail.mid(7)) ? QStringLiteral("monte-carlo") : QString();
    if (tail == QLatin1String("roll"))
        return QStringLiteral("stencil");
    if (gemm.contains(tail))
        return QStringLiteral("gemm");
    if (reduction.contains(tail))
        return QStringLiteral("reduction");
    if (elementwise.contains(tail))
        return QStringLiteral("elementwise");
    return {};
}

// Imported modules (or "module.name" of a from-import) that hint at a pattern. Returns the
// pattern and whether it is a module whose calls should also count.
QString modulePattern(const QString& full) {
    auto under = [&](const char* prefix) { return isUnderModule(full, QLatin1String(prefix)); };
    if (under("scipy.sparse"))
        return QStringLiteral("sparse");
    if (under("scipy.fft") || under("scipy.fftpack"))
        return QStringLiteral("fft");
    if (under("scipy"))
        return QStringLiteral("scipy-mixed");
    if (under("networkx") || under("igraph") || under("graph_tool"))
        return QStringLiteral("graph");
    if (under("torch") || under("tensorflow") || under("jax") || under("keras") || under("flax") ||
        under("optax"))
        return QStringLiteral("ml");
    if (under("nltk") || under("spacy") || under("transformers") || under("tokenizers") ||
        under("gensim") || under("sentencepiece") || under("sklearn.feature_extraction.text"))
        return QStringLiteral("string");
    if (under("sklearn")) {
        static const QStringList estimators = {QStringLiteral("linear_model"),
                                               QStringLiteral("ensemble"),
                                               QStringLiteral("svm"),
                                               QStringLiteral("neighbors"),
                                               QStringLiteral("tree"),
                                               QStringLiteral("neural_network"),
                                               QStringLiteral("naive_bayes"),
                                               QStringLiteral("cluster"),
                                               QStringLiteral("gaussian_process"),
                                               QStringLiteral("discriminant_analysis"),
                                               QStringLiteral("kernel_ridge"),
                                               QStringLiteral("mixture"),
                                               QStringLiteral("semi_supervised")};
        const QString sub = full.section(QLatin1Char('.'), 1, 1);
        return estimators.contains(sub) ? QStringLiteral("ml") : QStringLiteral("scipy-mixed");
    }
    return {};
}

// Host touchpoint kind of a canonical call (Gate 5), or "".
QString touchpointKind(const QString& c) {
    auto under = [&](const char* prefix) { return isUnderModule(c, QLatin1String(prefix)); };
    if (under("pandas"))
        return QStringLiteral("pandas");
    if (under("h5py"))
        return QStringLiteral("h5py");
    if (under("netCDF4") || under("xarray") || under("zarr") || under("pyarrow") ||
        under("pickle") || under("json") || under("csv"))
        return QStringLiteral("io");
    static const QSet<QString> numpyIo = {
        QStringLiteral("numpy.load"),       QStringLiteral("numpy.save"),
        QStringLiteral("numpy.savez"),      QStringLiteral("numpy.savez_compressed"),
        QStringLiteral("numpy.loadtxt"),    QStringLiteral("numpy.savetxt"),
        QStringLiteral("numpy.genfromtxt"), QStringLiteral("numpy.fromfile"),
        QStringLiteral("numpy.memmap")};
    if (numpyIo.contains(c))
        return QStringLiteral("io");
    if (under("scipy"))
        return QStringLiteral("scipy");
    if (under("sklearn"))
        return QStringLiteral("sklearn");
    if (under("matplotlib") || under("seaborn") || under("plotly"))
        return QStringLiteral("plotting");
    if (under("cv2") || under("PIL") || under("skimage"))
        return QStringLiteral("external");
    return {};
}

// Names that state a data size: N, NX, SIZE, N_SAMPLES, FRAME_LEN, GRID, ...
// One of the words below (any case) that starts the name or follows a '_', and ends it or is
// followed by '_' or a digit.
bool isSizeNameAscii(const QString& name) {
    static constexpr std::string_view words[] = {
        "N",       "NX",       "NY",        "NZ",    "SIZE",   "LEN",     "LENGTH",   "SAMPLE",
        "SAMPLES", "POINT",    "POINTS",    "GRID",  "DIM",    "ELEMENT", "ELEMENTS", "COUNT",
        "FRAME",   "FRAMES",   "CELL",      "CELLS", "ROWS",   "COLS",    "WIDTH",    "HEIGHT",
        "BATCH",   "PARTICLE", "PARTICLES", "NODES", "BODIES", "STEPS"};
    const qsizetype n = name.size();
    for (qsizetype p = 0; p < n; ++p) {
        if (p > 0 && name[p - 1] != QLatin1Char('_'))
            continue;
        for (const std::string_view w : words) {
            const qsizetype end = p + qsizetype(w.size());
            if (end > n)
                continue;
            bool same = true;
            for (size_t i = 0; i < w.size() && same; ++i) {
                const char16_t c = name[p + qsizetype(i)].unicode();
                same = (c >= u'a' && c <= u'z' ? char16_t(c - 32) : c) == char16_t(w[i]);
            }
            // '$' also matches before a final line feed.
            if (same && (end == n || name[end] == QLatin1Char('_') ||
                         (name[end] >= QLatin1Char('0') && name[end] <= QLatin1Char('9')) ||
                         (end == n - 1 && name[end] == QLatin1Char('\n'))))
                return true;
        }
    }
    return false;
}

bool isSizeName(const QString& name) {
    // Without non-ASCII characters the regular expression below and the word test above agree
    // (case-insensitive matching only folds non-ASCII letters such as U+017F onto ASCII).
    bool ascii = true;
    for (const QChar c : name)
        ascii = ascii && c.unicode() < 128;
    if (ascii)
        return isSizeNameAscii(name);
    static const QRegularExpression sizeName(
        QStringLiteral("(^|_)(N|NX|NY|NZ|SIZE|LEN|LENGTH|SAMPLES?|POINTS?|GRID|DIM|ELEMENTS?|"
                       "COUNT|FRAMES?|CELLS?|ROWS|COLS|WIDTH|HEIGHT|BATCH|PARTICLES?|"
                       "NODES|BODIES|STEPS)(_|[0-9]|$)"),
        QRegularExpression::CaseInsensitiveOption);
    return sizeName.match(name).hasMatch();
}

bool isIdentChar(QChar c) {
    return c.isLetterOrNumber() || c == QLatin1Char('_');
}

// Positions where `word` occurs in `text` as a whole identifier.
QList<qsizetype> wordPositions(const QString& text, const QString& word) {
    QList<qsizetype> at;
    for (qsizetype i = text.indexOf(word); i >= 0; i = text.indexOf(word, i + 1)) {
        const qsizetype end = i + word.size();
        if ((i == 0 || !isIdentChar(text[i - 1])) &&
            (end >= text.size() || !isIdentChar(text[end])))
            at << i;
    }
    return at;
}

bool containsWord(const QString& text, const QString& word) {
    return !wordPositions(text, word).isEmpty();
}

// `text` contains `word - <digits>` (e.g. "[n - 1]"), the index of an earlier element.
bool hasBackOffset(const QString& text, const QString& word) {
    for (qsizetype i : wordPositions(text, word)) {
        qsizetype j = i + word.size();
        while (j < text.size() && text[j].isSpace())
            ++j;
        if (j >= text.size() || text[j] != QLatin1Char('-'))
            continue;
        ++j;
        while (j < text.size() && text[j].isSpace())
            ++j;
        const qsizetype digits = j;
        while (j < text.size() && text[j].isDigit())
            ++j;
        if (j > digits && (j >= text.size() || !isIdentChar(text[j])))
            return true;
    }
    return false;
}

// Receivers whose method calls are log calls (`logger.info(...)`).
bool isLoggerName(std::string_view s) {
    return s == "log" || s == "logger" || s == "LOGGER" || s == "LOG" || s == "_log" ||
           s == "_logger";
}

// Draw methods of a generator object (generatorSpecs()) by the method's UTF-8 name; null if
// none. Looked up without building a QString for every method call.
const DrawSpec* generatorSpec(std::string_view method) {
    if (method.empty() || method.size() > 20)
        return nullptr;
    const auto it =
        generatorSpecs().constFind(QString::fromLatin1(method.data(), qsizetype(method.size())));
    return it == generatorSpecs().cend() ? nullptr : &*it;
}

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

CanonInfo classify(const QString& canonical) {
    CanonInfo c;
    if (numpy::throughModuleMetadata(canonical))
        return c;
    c.numpy = canonical.startsWith(QLatin1String("numpy."));
    if (c.numpy) {
        const QString tail = canonical.mid(6);
        if (tail == QLatin1String("linspace"))
            c.size = CanonInfo::Linspace;
        else if (tail == QLatin1String("arange"))
            c.size = CanonInfo::Arange;
        else if (tail == QLatin1String("eye"))
            c.size = CanonInfo::Eye;
        else if (tail == QLatin1String("identity"))
            c.size = CanonInfo::Identity;
        else if (const auto it = constructorSpecs().constFind(canonical);
                 it != constructorSpecs().cend()) {
            c.size = CanonInfo::Spec;
            c.spec = &*it;
        }
    }
    c.pattern = numpyPattern(canonical);
    if (c.pattern.isEmpty() && !canonical.isEmpty() && !c.numpy)
        c.pattern = modulePattern(canonical);
    c.re = canonical.startsWith(QLatin1String("re."));
    c.heappop = canonical == QLatin1String("heapq.heappop");
    c.touchpoint = touchpointKind(canonical);
    c.logging = canonical.startsWith(QLatin1String("logging."));
    c.goldenTest = canonical.startsWith(QLatin1String("numpy.testing.")) ||
                   canonical == QLatin1String("numpy.allclose") ||
                   canonical == QLatin1String("numpy.isclose") ||
                   canonical == QLatin1String("numpy.array_equal") ||
                   canonical == QLatin1String("pytest.approx");
    c.benchmark = canonical == QLatin1String("time.perf_counter") ||
                  canonical.startsWith(QLatin1String("timeit.")) ||
                  canonical == QLatin1String("legate.timing.time");
    return c;
}

// classify() memoised per thread: a project calls the same few hundred names everywhere. The
// answer depends on the name only, so sharing it across files cannot change any result; the
// table is dropped when it grows large (a corpus of generated names).
const CanonInfo& canonInfo(const QString& canonical) {
    thread_local QHash<QString, CanonInfo> memo;
    if (const auto it = memo.constFind(canonical); it != memo.cend())
        return *it;
    if (memo.size() >= 8192)
        memo.clear();
    return *memo.insert(canonical, classify(canonical));
}

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
const FieldIds& F() {
    static const FieldIds ids;
    return ids;
}
TSNode field(TSNode n, TSFieldId id) {
    return ST::field(n, id);
}
// Grammar type of a node, "" for a null node: one ts_node_type() call for several tests.
std::string_view typeOf(TSNode n) {
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
    void gather() {
        std::vector<Item> items;
        auto addOpeners = [&](const std::vector<TSNode>& list, Kind kind) {
            for (size_t i = 0; i < list.size(); ++i)
                items.push_back({list[i], ts_node_start_byte(list[i]), ts_node_end_byte(list[i]),
                                 kind, int(i)});
        };
        addOpeners(m.functionDefs(), K_FunctionDef);
        addOpeners(m.classDefs(), K_ClassDef);
        addOpeners(m.lambdas(), K_Lambda);
        addOpeners(m.forStatements(), K_For);
        addOpeners(m.whiles(), K_While);
        addOpeners(m.comprehensions(), K_Comprehension);
        std::sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
            return preorder(a.start, a.end, b.start, b.end);
        });
        m_openers.reserve(items.size());
        std::vector<size_t> open;
        for (const Item& o : items) {
            leaveUntilInside(open, o.start, o.end);
            Where child = open.empty() ? Where{} : m_openers[open.back()].children;
            if (o.kind == K_FunctionDef || o.kind == K_ClassDef) {
                child.inLoop = child.inWhile = false;
                m_scopes.push_back(Scope{o.node, child.scope, false, QString()});
                child.scope = int(m_scopes.size()) - 1;
                if (o.kind == K_FunctionDef) {
                    child.function = o.index;
                    child.forVars = -1;
                }
            } else if (o.kind == K_Lambda) {
                child.inLoop = child.inWhile = false;
            } else {
                child.inLoop = true;
                if (o.kind == K_While)
                    child.inWhile = true;
                if (o.kind == K_For) {
                    const TSNode l = field(o.node, F().left);
                    if (ST::is(l, "identifier")) {
                        m_forVars.push_back(VarLink{l, child.forVars});
                        child.forVars = int(m_forVars.size()) - 1;
                    }
                }
            }
            open.push_back(m_openers.size());
            m_openers.push_back({o.start, o.end, child});
        }
        m_callWhere = placeAll(m_calls);
        m_binaryWhere = placeAll(m_binaryOps);
        m_assignmentWhere = placeAll(m_assignments);
        m_importWhere = placeAll(m_imports);
    }

    // Pops the openers that do not contain [s, e). Openers nest, so they form the top of the
    // stack.
    void leaveUntilInside(std::vector<size_t>& open, uint32_t s, uint32_t e) const {
        while (!open.empty()) {
            const Opener& o = m_openers[open.back()];
            if (o.start <= s && e <= o.end && s < o.end)
                break;
            open.pop_back();
        }
    }

    // The context of each node of a list in document order. A node is placed after the
    // openers that come before it in document order (a node that is itself an opener gets
    // the context outside it).
    std::vector<Where> placeAll(const std::vector<TSNode>& list) const {
        std::vector<Where> where(list.size());
        std::vector<size_t> open;
        size_t next = 0;
        for (size_t i = 0; i < list.size(); ++i) {
            // The node's end is only needed against an opener that starts at the same byte.
            const uint32_t s = ts_node_start_byte(list[i]);
            uint32_t e = 0;
            for (; next < m_openers.size(); ++next) {
                const Opener& o = m_openers[next];
                if (o.start == s && e == 0)
                    e = ts_node_end_byte(list[i]);
                if (!(o.start < s || (o.start == s && o.end > e)))
                    break;
                leaveUntilInside(open, o.start, o.end);
                open.push_back(next);
            }
            // Spans nest, and an opener on the stack came before the node: it contains the
            // node iff the node starts inside it.
            while (!open.empty() &&
                   !(m_openers[open.back()].start <= s && s < m_openers[open.back()].end))
                open.pop_back();
            if (!open.empty())
                where[i] = m_openers[open.back()].children;
        }
        return where;
    }

    SourceRange rangeOf(TSNode n) const {
        return SourceRange{out.path, ST::line(n), ST::column(n), ST::endLine(n), ST::endColumn(n)};
    }

    static QString canonicalModule(QString name) {
        if (name == QLatin1String("cupynumeric") || name.startsWith(QLatin1String("cupynumeric.")))
            name.replace(0, 11, QStringLiteral("numpy"));
        return name;
    }

    // Canonical dotted name of an expression through any import of the file.
    QString resolve(TSNode expr) const {
        const QString viaModel = m.canonicalName(expr);
        if (!viaModel.isEmpty())
            return viaModel;
        TSNode n = expr;
        int depth = 0;
        auto type = typeOf(n);
        for (; depth < 64 && type == "attribute"; ++depth) {
            n = field(n, F().object);
            type = typeOf(n);
        }
        if (type != "identifier" || !m_aliasKeys.contains(t.text(n)))
            return {};
        const QString base = m_aliases.value(t.qtext(n));
        if (base.isEmpty())
            return {};
        QStringList parts;
        n = expr;
        for (int i = 0; i < depth; ++i) {
            parts.prepend(t.qtext(field(n, F().attribute)));
            n = field(n, F().object);
        }
        parts.prepend(base);
        return parts.join(QLatin1Char('.'));
    }

    // Dotted name of a function or class scope ("Class.method"); "" at module level. Built
    // iteratively from the outermost unnamed ancestor (scopes can nest thousands deep).
    QString scopeName(int scope) {
        if (scope < 0)
            return {};
        if (!m_scopes[size_t(scope)].named) {
            std::vector<int> chain;
            for (int s = scope; s >= 0 && !m_scopes[size_t(s)].named;
                 s = m_scopes[size_t(s)].parent)
                chain.push_back(s);
            for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
                Scope& sc = m_scopes[size_t(*it)];
                const QString name = t.qtext(field(sc.def, F().name));
                sc.name = sc.parent < 0
                              ? name
                              : m_scopes[size_t(sc.parent)].name + QLatin1Char('.') + name;
                sc.named = true;
            }
        }
        return m_scopes[size_t(scope)].name;
    }

    void addEvidence(const QString& pattern, TSNode n, const Where& w, const QString& note,
                     int weight) {
        out.patternEvidence.append(
            PatternEvidence{pattern, rangeOf(n), note, w.inLoop, weight, scopeName(w.scope)});
    }

    // ---- imports ---------------------------------------------------------------------------

    void addAlias(std::string_view key, const QString& full) {
        m_aliases.insert(QString::fromUtf8(key.data(), qsizetype(key.size())), full);
        m_aliasKeys.insert(key);
    }

    void readImports() {
        for (size_t i = 0; i < m_imports.size(); ++i) {
            const TSNode imp = m_imports[i];
            QStringList fulls; // what the statement brings in
            const std::vector<TSNode> kids = namedChildren(imp);
            if (ST::is(imp, "import_statement")) {
                for (const TSNode c : kids) {
                    if (ST::is(c, "aliased_import")) {
                        const QString full = canonicalModule(t.qtext(field(c, F().name)));
                        const TSNode alias = field(c, F().alias);
                        addAlias(t.text(alias), full);
                        fulls << full;
                    } else if (ST::is(c, "dotted_name")) {
                        const QString full = canonicalModule(t.qtext(c));
                        const QString head = full.section(QLatin1Char('.'), 0, 0);
                        // The first segment of the written name ('.' is one byte in UTF-8).
                        std::string_view first = t.text(c);
                        first = first.substr(0, first.find('.'));
                        addAlias(first, head);
                        fulls << full;
                    }
                }
            } else {
                const TSNode modNode = field(imp, F().module_name);
                const QString module = canonicalModule(t.qtext(modNode));
                bool any = false;
                for (const TSNode c : kids) {
                    if (ts_node_eq(c, modNode))
                        continue;
                    if (ST::is(c, "aliased_import")) {
                        const QString full =
                            module + QLatin1Char('.') + t.qtext(field(c, F().name));
                        const TSNode alias = field(c, F().alias);
                        addAlias(t.text(alias), full);
                        fulls << full;
                        any = true;
                    } else if (ST::is(c, "dotted_name")) {
                        const QString full = module + QLatin1Char('.') + t.qtext(c);
                        addAlias(t.text(c), full);
                        fulls << full;
                        any = true;
                    }
                }
                if (!any)
                    fulls << module;
            }
            for (const QString& full : fulls) {
                m_importedRoots.insert(full.section(QLatin1Char('.'), 0, 0));
                const QString pattern = modulePattern(full);
                if (!pattern.isEmpty() && !out.isTest)
                    addEvidence(pattern, imp, m_importWhere[i],
                                QStringLiteral("import %1").arg(full), 1);
                if (full == QLatin1String("legate") || full.startsWith(QLatin1String("legate.")))
                    out.readiness.append({QStringLiteral("legate"), rangeOf(imp),
                                          QStringLiteral("imports %1").arg(full)});
            }
        }
        m_numpyFile = m_importedRoots.contains(QStringLiteral("numpy"));
        m_mlFile = m_importedRoots.contains(QStringLiteral("sklearn")) ||
                   m_importedRoots.contains(QStringLiteral("torch")) ||
                   m_importedRoots.contains(QStringLiteral("tensorflow")) ||
                   m_importedRoots.contains(QStringLiteral("keras"));
        m_dequeImported =
            m_aliases.value(QStringLiteral("deque")) == QLatin1String("collections.deque") ||
            m_importedRoots.contains(QStringLiteral("collections"));
    }

    // ---- constant evaluation ---------------------------------------------------------------

    static std::optional<double> parseNumber(std::string_view text) {
        // Plain decimal integers, the usual size literal: exact below 2^53 (15 digits), the
        // value toDouble() gives too.
        uint64_t plain = 0;
        int digits = 0;
        for (const char c : text) {
            if (c == '_')
                continue;
            if (c < '0' || c > '9' || ++digits > 15) {
                digits = 0;
                break;
            }
            plain = plain * 10 + uint64_t(c - '0');
        }
        if (digits > 0)
            return double(plain);
        QString s = QString::fromUtf8(text.data(), qsizetype(text.size()));
        s.remove(QLatin1Char('_'));
        bool ok = false;
        double v = 0;
        if (s.startsWith(QLatin1String("0x"), Qt::CaseInsensitive))
            v = double(s.mid(2).toLongLong(&ok, 16));
        else if (s.startsWith(QLatin1String("0o"), Qt::CaseInsensitive))
            v = double(s.mid(2).toLongLong(&ok, 8));
        else if (s.startsWith(QLatin1String("0b"), Qt::CaseInsensitive))
            v = double(s.mid(2).toLongLong(&ok, 2));
        else
            v = s.toDouble(&ok);
        if (!ok || !std::isfinite(v))
            return std::nullopt;
        return v;
    }

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
                              bool shape = false) const {
        if (ts_node_is_null(n) || depth > kMaxEvalDepth)
            return std::nullopt;
        const auto ty = ST::type(n);
        std::optional<Value> r;
        if (ty == "integer" || ty == "float") {
            if (auto v = parseNumber(t.text(n)))
                r = Value{*v, {}};
        } else if (ty == "identifier") {
            if (const Value* v = names.find(t.text(n)))
                r = *v;
        } else if (ty == "parenthesized_expression") {
            if (ts_node_named_child_count(n) == 1)
                r = eval(ts_node_named_child(n, 0), names, depth + 1, shape);
            else
                return std::nullopt;
        } else if (ty == "unary_operator") {
            const std::string_view op = t.text(field(n, F().op));
            auto a = eval(field(n, F().argument), names, depth + 1);
            if (a && op == "-")
                r = Value{-a->v, a->origins};
            else if (a && op == "+")
                r = a;
        } else if (ty == "binary_operator") {
            const std::string_view op = t.text(field(n, F().op));
            auto a = eval(field(n, F().left), names, depth + 1);
            auto b = a ? eval(field(n, F().right), names, depth + 1) : std::nullopt;
            if (!a || !b)
                return std::nullopt;
            double v = 0;
            if (op == "+")
                v = a->v + b->v;
            else if (op == "-")
                v = a->v - b->v;
            else if (op == "*")
                v = a->v * b->v;
            else if (op == "//" && b->v != 0)
                v = std::floor(a->v / b->v);
            else if (op == "/" && b->v != 0)
                v = a->v / b->v;
            else if (op == "**" && b->v >= 0 && b->v <= 64)
                v = std::pow(a->v, b->v);
            else if (op == "<<" && b->v >= 0 && b->v <= 62)
                v = a->v * std::pow(2.0, b->v);
            else
                return std::nullopt;
            r = Value{v, a->origins + b->origins};
        } else if (ty == "call") {
            const TSNode f = field(n, F().function);
            const TSNode args = field(n, F().arguments);
            if (ST::is(f, "identifier") && (t.text(f) == "int" || t.text(f) == "round") &&
                ts_node_named_child_count(args) == 1)
                r = eval(ts_node_named_child(args, 0), names, depth + 1);
        } else if (shape && (ty == "tuple" || ty == "list" || ty == "expression_list")) {
            Value prod{1, {}};
            const uint32_t k = ts_node_named_child_count(n);
            if (k == 0)
                return std::nullopt;
            for (uint32_t i = 0; i < k; ++i) {
                auto e = eval(ts_node_named_child(n, i), names, depth + 1);
                if (!e)
                    return std::nullopt;
                prod.v *= e->v;
                prod.origins += e->origins;
            }
            r = prod;
        }
        if (!r || std::fabs(r->v) > kMaxElements)
            return std::nullopt;
        return r;
    }

    std::optional<Value> evalShape(TSNode n, const Names& names) const {
        return eval(n, names, 0, true);
    }

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
                Step& step) {
        if (v.origins.isEmpty() || moduleConstant) {
            Def d;
            d.name = QString::fromUtf8(name.data(), qsizetype(name.size()));
            d.text = t.firstLine(defNode);
            d.range = rangeOf(defNode);
            d.value = v.v;
            d.moduleConstant = moduleConstant;
            const auto type = ST::type(defNode);
            d.parameterDefault = type == "default_parameter" || type == "typed_default_parameter";
            d.env = step.env;
            d.fn = step.fn;
            d.param = step.param;
            d.sub = step.made++;
            m_defs.push_back(d);
            v.origins = {int(m_defs.size()) - 1};
        }
        env.insert(name, v);
    }

    // The `assignment` statements readAssignments() evaluates in `block`, in source order: not
    // inside a nested def, class or lambda, and not the inner part of a chained assignment.
    // Taken from the model's lists (no walk over the block).
    std::vector<TSNode> assignmentsOf(TSNode block) const {
        std::vector<std::pair<uint32_t, uint32_t>> nested; // byte spans of nested scopes
        for (const auto* list : {&m.functionDefs(), &m.classDefs(), &m.lambdas()})
            for (TSNode d : SemanticModel::within(*list, block))
                if (!ts_node_eq(d, block))
                    nested.emplace_back(ts_node_start_byte(d), ts_node_end_byte(d));
        std::sort(nested.begin(), nested.end());
        std::vector<TSNode> ordered;
        size_t next = 0;
        uint32_t nestedEnd = 0, lastEnd = 0;
        for (TSNode a : SemanticModel::within(m.assignments(), block)) {
            const uint32_t start = ts_node_start_byte(a);
            // Spans nest, so `start` lies in a nested scope iff one that began before it ends
            // after it.
            for (; next < nested.size() && nested[next].first <= start; ++next)
                nestedEnd = std::max(nestedEnd, nested[next].second);
            if (start < nestedEnd || start < lastEnd || !ST::is(a, "assignment"))
                continue;
            ordered.push_back(a);
            lastEnd = ts_node_end_byte(a);
        }
        return ordered;
    }

    // Reads `NAME = expr` (and `A, B = 1, 2`) statements of a block in source order, without
    // entering function or class bodies.
    void readAssignments(TSNode block, Env& env, bool moduleLevel, Step& step) {
        const std::vector<TSNode> ordered = assignmentsOf(block);
        const Names names(env);
        for (TSNode a : ordered) {
            const TSNode left = field(a, F().left);
            const TSNode right = field(a, F().right);
            if (ST::is(left, "identifier")) {
                const std::string_view name = t.text(left);
                if (auto v = evalShape(right, names))
                    define(env, name, a, *v, moduleLevel, step);
                else
                    env.remove(name);
            } else if ((ST::is(left, "pattern_list") || ST::is(left, "tuple_pattern")) &&
                       (ST::is(right, "expression_list") || ST::is(right, "tuple"))) {
                if (ts_node_named_child_count(left) != ts_node_named_child_count(right))
                    continue;
                const std::vector<TSNode> ls = namedChildren(left);
                const std::vector<TSNode> rs = namedChildren(right);
                for (size_t i = 0; i < ls.size() && i < rs.size(); ++i) {
                    const TSNode l = ls[i];
                    if (!ST::is(l, "identifier"))
                        continue;
                    if (auto v = eval(rs[i], names))
                        define(env, t.text(l), a, *v, moduleLevel, step);
                    else
                        env.remove(t.text(l));
                }
            }
        }
    }

    void readModuleConstants() {
        Step step;
        readAssignments(t.root(), m_moduleEnv, true, step);
    }

    // Parameters of a function: (name, default node or null) in order.
    std::vector<std::pair<std::string_view, TSNode>> parameters(int fn) const {
        std::vector<std::pair<std::string_view, TSNode>> ps;
        const TSNode params = field(m_functions[size_t(fn)], F().parameters);
        for (const TSNode p : namedChildren(params)) {
            const auto ty = ST::type(p);
            if (ty == "identifier")
                ps.emplace_back(t.text(p), TSNode{});
            else if (ty == "typed_parameter" && ts_node_named_child_count(p) > 0 &&
                     ST::is(ts_node_named_child(p, 0), "identifier"))
                ps.emplace_back(t.text(ts_node_named_child(p, 0)), TSNode{});
            else if (ty == "default_parameter" || ty == "typed_default_parameter")
                ps.emplace_back(t.text(field(p, F().name)), p);
        }
        return ps;
    }

    // The environment of a function body: module constants, parameter defaults, same-file
    // call-site arguments (when `withCallSites`) and local assignments in source order.
    // Built once per function and kind.
    const Env& functionEnv(int fn, bool withCallSites) {
        auto& cache = withCallSites ? m_fullEnv : m_baseEnv;
        if (cache.empty())
            cache.resize(m_functions.size());
        if (cache[size_t(fn)])
            return *cache[size_t(fn)];
        auto built = std::make_unique<Env>(&m_moduleEnv);
        Env& env = *built;
        const uint8_t kind = withCallSites ? 1 : 2;
        const auto params = parameters(fn);
        const Names moduleNames(m_moduleEnv);
        for (size_t i = 0; i < params.size(); ++i) {
            const auto& [name, def] = params[i];
            env.remove(name);
            if (!ts_node_is_null(def)) {
                if (auto v = evalShape(field(def, F().value), moduleNames)) {
                    Step step{kind, fn, int(i), 0};
                    define(env, name, def, *v, false, step);
                }
            } else if (withCallSites) {
                if (auto v = callSiteValue(fn, int(i), name))
                    env.insert(name, *v);
            }
        }
        Step locals{kind, fn, -1, 0};
        readAssignments(field(m_functions[size_t(fn)], F().body), env, false, locals);
        cache[size_t(fn)] = std::move(built);
        return env;
    }

    const std::vector<int>& callsNamed(std::string_view name) {
        if (!m_callsByNameBuilt) {
            m_callsByNameBuilt = true;
            for (size_t i = 0; i < m_calls.size(); ++i) {
                const TSNode f = field(m_calls[i], F().function);
                if (ST::is(f, "identifier"))
                    m_callsByName[t.text(f)].push_back(int(i));
            }
        }
        static const std::vector<int> none;
        const auto it = m_callsByName.find(name);
        return it == m_callsByName.end() ? none : it->second;
    }

    // The largest value passed for parameter `index`/`name` of `fn` at same-file call sites,
    // evaluated in each caller's own environment (without call sites: one level deep).
    std::optional<Value> callSiteValue(int fn, int index, std::string_view name) {
        std::optional<Value> best;
        const std::vector<int>& calls =
            callsNamed(t.text(field(m_functions[size_t(fn)], F().name)));
        for (int c : calls) {
            const TSNode call = m_calls[size_t(c)];
            const int caller = m_callWhere[size_t(c)].function;
            if (caller == fn)
                continue; // recursion
            const Env& env = caller < 0 ? m_moduleEnv : functionEnv(caller, false);
            TSNode arg{};
            int pos = 0;
            for (const TSNode a : namedChildren(field(call, F().arguments))) {
                if (ST::is(a, "keyword_argument")) {
                    if (t.text(field(a, F().name)) == name)
                        arg = field(a, F().value);
                } else if (!ST::is(a, "list_splat") && !ST::is(a, "dictionary_splat")) {
                    if (pos == index)
                        arg = a;
                    ++pos;
                }
            }
            if (ts_node_is_null(arg))
                continue;
            if (auto v = evalShape(arg, Names(env)))
                if (!best || v->v > best->v)
                    best = v;
        }
        return best;
    }

    void readGeneratorNames() {
        for (TSNode a : m_assignments) {
            const TSNode right = field(a, F().right);
            if (!ST::is(right, "call"))
                continue;
            const QString c = resolve(field(right, F().function));
            if (c == QLatin1String("numpy.random.default_rng") ||
                c == QLatin1String("numpy.random.Generator") ||
                c == QLatin1String("numpy.random.RandomState"))
                m_generators.insert(t.qtext(field(a, F().left)));
        }
    }

    bool isGenerator(TSNode obj) const {
        if (ST::is(obj, "call")) {
            const QString c = resolve(field(obj, F().function));
            return c == QLatin1String("numpy.random.default_rng") ||
                   c == QLatin1String("numpy.random.RandomState");
        }
        if (m_generators.isEmpty())
            return false;
        const auto type = typeOf(obj);
        return (type == "identifier" || type == "attribute") && m_generators.contains(t.qtext(obj));
    }

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
    Args argsOf(TSNode call) const {
        Args a;
        a.list = field(call, F().arguments);
        if (ts_node_is_null(a.list))
            return a;
        const uint32_t k = ts_node_named_child_count(a.list);
        if (!ts_node_has_error(a.list) && t.text(a.list).find('=') == std::string_view::npos) {
            a.plain = true;
            a.count = k;
            return a;
        }
        a.positional.reserve(k);
        for (uint32_t i = 0; i < k; ++i) {
            const TSNode c = ts_node_named_child(a.list, i);
            if (ST::is(c, "keyword_argument"))
                a.keywords.emplace_back(t.text(field(c, F().name)), field(c, F().value));
            else
                a.positional.push_back(c);
        }
        a.count = uint32_t(a.positional.size());
        return a;
    }

    // Size of the array a constructor call builds, when it evaluates.
    std::optional<Value> constructedSize(TSNode call, const Where& w, const CanonInfo& info,
                                         bool generator, std::string_view method) {
        const DrawSpec* spec = nullptr;
        CanonInfo::Size size = CanonInfo::NoSize;
        if (generator) {
            spec = generatorSpec(method);
            size = spec ? CanonInfo::Spec : CanonInfo::NoSize;
        } else {
            size = info.size;
            spec = info.spec;
        }
        if (size == CanonInfo::NoSize)
            return std::nullopt;
        const Names names = w.function < 0 ? Names(m_moduleEnv) : Names(this, w.function);
        const Args args = argsOf(call);
        const int positional = int(args.count);
        if (size == CanonInfo::Linspace) {
            const TSNode num = args.get(2, "num");
            return ts_node_is_null(num) ? std::nullopt : eval(num, names);
        }
        if (size == CanonInfo::Arange) {
            auto a0 = eval(args.get(0, "start"), names);
            if (positional <= 1)
                return a0;
            auto a1 = eval(args.get(1, "stop"), names);
            if (!a0 || !a1)
                return std::nullopt;
            double step = 1;
            QList<int> origins = a0->origins + a1->origins;
            if (positional >= 3) {
                auto s = eval(args.get(2, "step"), names);
                if (!s || s->v == 0)
                    return std::nullopt;
                step = s->v;
                origins += s->origins;
            }
            return Value{std::ceil((a1->v - a0->v) / step), origins};
        }
        if (size == CanonInfo::Eye || size == CanonInfo::Identity) {
            auto n = eval(args.get(0, "N"), names);
            if (!n)
                return std::nullopt;
            auto mm = size == CanonInfo::Eye ? eval(args.get(1, "M"), names) : std::nullopt;
            return mm ? Value{n->v * mm->v, n->origins + mm->origins}
                      : Value{n->v * n->v, n->origins};
        }
        if (spec->sizePos < 0) {
            if (positional == 0)
                return std::nullopt;
            Value prod{1, {}};
            for (int i = 0; i < positional; ++i) {
                auto e = eval(args.get(i, nullptr), names);
                if (!e)
                    return std::nullopt;
                prod.v *= e->v;
                prod.origins += e->origins;
            }
            return prod;
        }
        const TSNode sizeArg = args.get(spec->sizePos, spec->sizeKw);
        return ts_node_is_null(sizeArg) ? std::nullopt : evalShape(sizeArg, names);
    }

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

    void replayUntil(size_t lastCall) {
        if (m_fullSteps.empty()) {
            m_fullSteps.resize(m_functions.size());
            m_baseSteps.resize(m_functions.size());
        }
        for (; m_replayed <= lastCall && m_replayed < m_calls.size(); ++m_replayed) {
            const int fn = m_callWhere[m_replayed].function;
            if (m_callTriggers[m_replayed] && fn >= 0 && m_fullSteps[size_t(fn)].empty())
                replayEnv(fn, true);
        }
    }

    // The steps of functionEnv() in order: one tick per parameter and one for the locals;
    // the callers' environments that a parameter without default pulls in come in between.
    void replayEnv(int fn, bool withCallSites) {
        const auto params = parameters(fn);
        std::vector<int> steps(params.size() + 1);
        for (size_t i = 0; i < params.size(); ++i) {
            steps[i] = m_tick++;
            if (withCallSites && ts_node_is_null(params[i].second))
                for (int c : callsNamed(t.text(field(m_functions[size_t(fn)], F().name)))) {
                    const int caller = m_callWhere[size_t(c)].function;
                    if (caller != fn && caller >= 0 && m_baseSteps[size_t(caller)].empty())
                        replayEnv(caller, false);
                }
        }
        steps.back() = m_tick++;
        (withCallSites ? m_fullSteps : m_baseSteps)[size_t(fn)] = std::move(steps);
    }

    // Sort key of a definition in the eager order: (tick of its step, rank in the step).
    std::pair<int, int> eagerOrder(const Def& d) const {
        if (d.env == 0)
            return {0, d.sub};
        const std::vector<int>& steps = (d.env == 1 ? m_fullSteps : m_baseSteps)[size_t(d.fn)];
        if (steps.empty()) // cannot happen: a lazily built environment is built eagerly too
            return {INT_MAX, d.sub};
        return {steps[d.param < 0 ? steps.size() - 1 : size_t(d.param)], d.sub};
    }

    QString describeOrigins(const QList<int>& origins, size_t call) {
        QStringList parts;
        QList<int> sorted = origins;
        std::sort(sorted.begin(), sorted.end());
        sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
        // Module constants come first and the definitions of one step keep their order either
        // way; only definitions of different environment steps need the replayed order.
        bool mixed = false;
        for (qsizetype i = 1; i < sorted.size() && !mixed; ++i) {
            const Def& a = m_defs[size_t(sorted[i - 1])];
            const Def& b = m_defs[size_t(sorted[i])];
            mixed = a.env != 0 && (a.env != b.env || a.fn != b.fn || a.param != b.param);
        }
        if (mixed) {
            replayUntil(call);
            std::stable_sort(sorted.begin(), sorted.end(), [&](int a, int b) {
                return eagerOrder(m_defs[size_t(a)]) < eagerOrder(m_defs[size_t(b)]);
            });
        }
        for (int o : sorted) {
            Def& d = m_defs[size_t(o)];
            d.fed = true;
            parts << QStringLiteral("%1 (line %2)").arg(d.text).arg(d.range.line);
        }
        return parts.join(QStringLiteral("; "));
    }

    bool sizeNamed(Def& d) {
        if (!d.sizeName)
            d.sizeName = isSizeName(d.name);
        return *d.sizeName;
    }

    // ---- per-node handlers ---------------------------------------------------------------

    void onCall(size_t index) {
        const TSNode call = m_calls[index];
        const Where& w = m_callWhere[index];
        const TSNode f = field(call, F().function);
        const QString canonical = resolve(f);
        const CanonInfo& info = canonInfo(canonical);
        const bool loop = w.inLoop;
        const auto ftype = typeOf(f);
        const bool attribute = ftype == "attribute";

        // Array sizes.
        bool generator = false;
        std::string_view method;
        if (attribute) {
            method = t.text(field(f, F().attribute));
            generator = canonical.isEmpty() && isGenerator(field(f, F().object));
        }
        m_callTriggers[index] = !out.isTest && (generator || info.numpy);
        if (m_callTriggers[index]) {
            if (auto size = constructedSize(call, w, info, generator, method);
                size && size->v >= 1) {
                QString expr = t.firstLine(call);
                if (expr.size() > 100)
                    expr = expr.left(97) + QStringLiteral("...");
                const QString from = describeOrigins(size->origins, index);
                if (!from.isEmpty())
                    expr += QStringLiteral(" with ") + from;
                SizeHint h{qint64(std::llround(size->v)), expr, rangeOf(call), true};
                h.literal = size->origins.isEmpty();
                for (int o : size->origins)
                    h.sizeNamed = h.sizeNamed || (!m_defs[size_t(o)].parameterDefault &&
                                                  sizeNamed(m_defs[size_t(o)]));
                out.sizeHints.append(h);
            }
        }

        // Compute-pattern evidence (tests do not set the pattern of the project).
        if (!out.isTest) {
            QString pattern = info.pattern;
            if (pattern.isEmpty() && generator && generatorSpec(method))
                pattern = QStringLiteral("monte-carlo");
            if (pattern.isEmpty() && canonical.isEmpty() && attribute)
                pattern = methodPattern(method);
            if (pattern.isEmpty() && attribute && info.re && loop)
                pattern = QStringLiteral("string");
            // `numpy.sum(bitspersample)` with `bitspersample=(5, 6, 5)`: NumPy called on a few
            // Python numbers is no array work, whatever the function's pattern.
            if (info.numpy && !pattern.isEmpty() && numbersOnly(firstArgument(call), w))
                pattern.clear();
            if (!pattern.isEmpty())
                addEvidence(pattern, call, w,
                            canonical.isEmpty() ? QStringLiteral(".%1()").arg(QString::fromUtf8(
                                                      method.data(), qsizetype(method.size())))
                                                : canonical,
                            2);
            // Frontier loops of graph searches.
            if (method == "popleft" && w.inWhile && m_dequeImported)
                addEvidence(QStringLiteral("graph"), call, w,
                            QStringLiteral("BFS frontier: deque.popleft() in a while loop"), 6);
            if (info.heappop && w.inWhile)
                addEvidence(
                    QStringLiteral("graph"), call, w,
                    QStringLiteral("priority-queue frontier: heapq.heappop() in a while loop"), 4);
        }

        // Host touchpoints (Gate 5).
        if (!out.isTest) {
            QString kind = info.touchpoint;
            QString note = canonical;
            if (kind.isEmpty() && ftype == "identifier") {
                const std::string_view name = t.text(f);
                if (name == "open" && !m_aliases.contains(QStringLiteral("open"))) {
                    kind = QStringLiteral("io");
                    note = QStringLiteral("open()");
                } else if (name == "print" && loop) {
                    kind = QStringLiteral("logging");
                    note = QStringLiteral("print() in a loop");
                }
            }
            if (kind.isEmpty() && loop &&
                (info.logging || (attribute && isLoggerName(t.text(field(f, F().object)))))) {
                kind = QStringLiteral("logging");
                note = QStringLiteral("%1 in a loop").arg(t.qtext(f));
            }
            if (!kind.isEmpty())
                out.touchpoints.append(
                    HostTouchpoint{kind, rangeOf(call), note, scopeName(w.scope), loop});
        }

        // Operational readiness (Gate 6).
        if (out.isTest && info.goldenTest)
            out.readiness.append({QStringLiteral("golden-test"), rangeOf(call), canonical});
        if (info.benchmark)
            out.readiness.append({QStringLiteral("benchmark"), rangeOf(call), canonical});
    }

    // The first positional argument of a call; null if none.
    static TSNode firstArgument(TSNode call) {
        const TSNode args = field(call, F().arguments);
        if (ts_node_is_null(args) || ts_node_named_child_count(args) == 0)
            return TSNode{};
        const TSNode a = ts_node_named_child(args, 0);
        const auto ty = typeOf(a);
        return ty == "keyword_argument" || ty == "list_splat" || ty == "dictionary_splat" ? TSNode{}
                                                                                          : a;
    }

    // A tuple or list display of number literals (nested ones too, `-1` included), depth-bounded.
    static bool numberDisplay(TSNode n) {
        const auto ty = typeOf(n);
        if (ty != "tuple" && ty != "list")
            return false;
        std::vector<std::pair<TSNode, int>> stack{{n, 0}};
        int seen = 0;
        while (!stack.empty()) {
            const auto [x, depth] = stack.back();
            stack.pop_back();
            if (++seen > 256 || depth > 8)
                return false;
            for (uint32_t i = 0, k = ts_node_named_child_count(x); i < k; ++i) {
                TSNode c = ts_node_named_child(x, i);
                if (ST::is(c, "unary_operator"))
                    c = field(c, F().argument);
                const auto ct = typeOf(c);
                if (ct == "tuple" || ct == "list")
                    stack.emplace_back(c, depth + 1);
                else if (ct != "integer" && ct != "float")
                    return false;
            }
        }
        return true;
    }

    // Whether `arg` holds only a few Python numbers: a tuple/list display of number literals,
    // a name every binding of which in the enclosing function (its parameter default and its
    // plain assignments; module assignments at module level) is such a display, or a slice or
    // item of either. A name with no binding seen, or any other binding, is not.
    bool numbersOnly(TSNode arg, const Where& w) {
        if (ts_node_is_null(arg))
            return false;
        if (ST::is(arg, "subscript"))
            arg = field(arg, F().value);
        if (numberDisplay(arg))
            return true;
        if (!ST::is(arg, "identifier"))
            return false;
        const std::string_view name = t.text(arg);
        bool bound = false;
        if (w.function >= 0)
            for (const auto& [p, def] : parameters(w.function))
                if (p == name) {
                    if (ts_node_is_null(def) || !numberDisplay(field(def, F().value)))
                        return false;
                    bound = true;
                }
        if (!m_assignmentsByNameBuilt) {
            m_assignmentsByNameBuilt = true;
            for (size_t i = 0; i < m_assignments.size(); ++i) {
                const TSNode l = field(m_assignments[i], F().left);
                if (ST::is(l, "identifier"))
                    m_assignmentsByName[t.text(l)].push_back(int(i));
            }
        }
        if (const auto it = m_assignmentsByName.find(name); it != m_assignmentsByName.end())
            for (int i : it->second) {
                if (m_assignmentWhere[size_t(i)].function != w.function)
                    continue;
                const TSNode a = m_assignments[size_t(i)];
                if (!ST::is(a, "assignment") || !numberDisplay(field(a, F().right)))
                    return false;
                bound = true;
            }
        return bound;
    }
    std::unordered_map<std::string_view, std::vector<int>> m_assignmentsByName;
    bool m_assignmentsByNameBuilt = false;

    QString methodPattern(std::string_view method) const {
        if (m_numpyFile &&
            (method == "sum" || method == "mean" || method == "max" || method == "min" ||
             method == "prod" || method == "var" || method == "std"))
            return QStringLiteral("reduction");
        if (m_numpyFile && method == "dot")
            return QStringLiteral("gemm");
        if (m_mlFile &&
            (method == "fit" || method == "predict" || method == "fit_transform" ||
             method == "predict_proba" || method == "partial_fit" || method == "fit_predict"))
            return QStringLiteral("ml");
        if (m_mlFile && (method == "backward" || method == "zero_grad"))
            return QStringLiteral("ml");
        return {};
    }

    // `index`: position of the operator in the model's (the tree's) list of binary operators.
    void onBinary(size_t index) {
        if (out.isTest)
            return;
        const TSNode op = m_binaryOps[index];
        const Where& w = m_binaryWhere[index];
        if (t.text(field(op, F().op)) == "@") {
            addEvidence(QStringLiteral("gemm"), op, w, QStringLiteral("@ operator"), 2);
            return;
        }
        // Stencils: only the outermost arithmetic expression is examined. The parent's type
        // comes from the tree's walk (ts_node_parent() costs O(depth) per call: quadratic on
        // a sum of thousands of terms).
        const auto parent = t.parentType(SyntaxTree::NodeList::BinaryOp, index);
        if (parent == "binary_operator" || parent == "parenthesized_expression" ||
            parent == "unary_operator")
            return;
        if (!maySlice(op))
            return;
        QHash<QString, QSet<QString>> slicesByBase;
        std::vector<TSNode> stack{op};
        int visited = 0;
        while (!stack.empty() && visited < 4096) {
            const TSNode n = stack.back();
            stack.pop_back();
            ++visited;
            if (ST::is(n, "subscript")) {
                const TSNode base = field(n, F().value);
                const QString text = t.qtext(n);
                if (ST::is(base, "identifier") && text.contains(QLatin1Char(':')))
                    slicesByBase[t.qtext(base)].insert(text.mid(t.qtext(base).size()));
                continue;
            }
            const uint32_t k = ts_node_named_child_count(n);
            for (uint32_t i = 0; i < k; ++i)
                stack.push_back(ts_node_named_child(n, i));
        }
        QStringList bases;
        for (auto it = slicesByBase.cbegin(); it != slicesByBase.cend(); ++it)
            if (it.value().size() >= 2)
                bases << it.key();
        if (bases.isEmpty())
            return;
        bases.sort();
        addEvidence(QStringLiteral("stencil"), op, w,
                    QStringLiteral("shifted slices of %1").arg(bases.join(QStringLiteral(", "))),
                    3);
    }

    // Whether the walk in onBinary() can find two different slices of one array below `op`:
    // looks at every subscript inside its span (the model's list, no walk), a superset of the
    // ones the walk sees. Compared as UTF-8: bytes that differ may still decode alike, which
    // only lets the walk run; equal bytes always decode alike.
    bool maySlice(TSNode op) const {
        std::vector<std::pair<std::string_view, std::string_view>> slices; // base, rest
        const auto subscripts = SemanticModel::within(m.subscripts(), op);
        if (subscripts.size() > 4096)
            return true; // as many as the walk may visit: let it decide
        for (TSNode s : subscripts) {
            const std::string_view text = t.text(s);
            if (text.find(':') == std::string_view::npos)
                continue;
            const TSNode base = field(s, F().value);
            if (!ST::is(base, "identifier"))
                continue;
            const std::string_view name = t.text(base);
            if (text.size() < name.size())
                continue;
            slices.emplace_back(name, text.substr(name.size()));
        }
        if (slices.size() < 2)
            return false;
        std::sort(slices.begin(), slices.end());
        for (size_t i = 1; i < slices.size(); ++i)
            if (slices[i].first == slices[i - 1].first && slices[i].second != slices[i - 1].second)
                return true;
        return false;
    }

    // The loop of this function around `n` whose header binds `var`, or nullptr.
    const LoopInfo* loopBinding(TSNode n, const QString& var) const {
        for (const LoopInfo* L = m.enclosingLoop(n); L;
             L = L->parent >= 0 ? &m.loops()[size_t(L->parent)] : nullptr)
            if (L->variables.contains(var))
                return L;
        return nullptr;
    }

    // Element loops with independent passes (`y[i] = 3 * x[i] + y[i]` over a data extent):
    // elementwise work written one element at a time, which vectorizes. Loop index → the first
    // element store found in it; loops with a recurrence are dropped at the end.
    std::unordered_map<int, size_t> m_elementStores;
    std::unordered_set<int> m_recurrentLoops;

    void noteElementStore(size_t index, TSNode left) {
        const TSNode a = m_assignments[index];
        for (const LoopInfo* L = m.enclosingLoop(a); L;
             L = L->parent >= 0 ? &m.loops()[size_t(L->parent)] : nullptr) {
            if (!m.isElementAccess(left, *L))
                continue;
            const LoopWork& work = m.loopWork(*L);
            if (work.work == PassWork::Scalar && work.trip != TripClass::Small)
                m_elementStores.try_emplace(L->index, index);
        }
    }

    void finishElementLoops() {
        std::vector<std::pair<int, size_t>> loops(m_elementStores.begin(), m_elementStores.end());
        std::sort(loops.begin(), loops.end());
        for (const auto& [loop, index] : loops) {
            if (m_recurrentLoops.count(loop))
                continue;
            const LoopInfo& L = m.loops()[size_t(loop)];
            // Report the outermost loop of a nest only.
            bool outer = true;
            for (int p = L.parent; p >= 0 && outer; p = m.loops()[size_t(p)].parent)
                outer = !m_elementStores.count(p) || m_recurrentLoops.count(p);
            if (!outer)
                continue;
            addEvidence(QStringLiteral("elementwise"), m_assignments[index],
                        m_assignmentWhere[index],
                        QStringLiteral("element loop over %1 with independent passes")
                            .arg(t.qtext(L.iterable).left(48)),
                        2);
        }
    }

    // `y[n] = ... y[n-1] ...` inside `for n in ...`: a sequential recurrence when each step is
    // scalar work; a step that works on a whole slab (`pos[t] = pos[t-1] + kick` over the rows of
    // a `(steps, walkers)` array) is a vectorized time step and says nothing here. A plain
    // running sum/product (`c[i] = c[i-1] + x[i]`) is a scan, which cumsum/cumprod express:
    // reduction. An element store without a recurrence marks an elementwise element loop.
    void onAssignment(size_t index) {
        if (out.isTest)
            return;
        const TSNode a = m_assignments[index];
        const Where& w = m_assignmentWhere[index];
        if (w.forVars < 0)
            return;
        const TSNode left = field(a, F().left);
        const TSNode right = field(a, F().right);
        if (!ST::is(left, "subscript") || ts_node_is_null(right))
            return;
        const TSNode base = field(left, F().value);
        if (!ST::is(base, "identifier"))
            return;
        noteElementStore(index, left);
        // The earlier element is a subscript of the same name inside the right side.
        if (t.text(right).find(t.text(base)) == std::string_view::npos)
            return;
        const QString baseName = t.qtext(base);
        QStringList vars;
        for (int v = w.forVars; v >= 0 && vars.size() < 64; v = m_forVars[size_t(v)].prev)
            vars << t.qtext(m_forVars[size_t(v)].name);
        if (vars.isEmpty())
            return;
        const QString leftIndex = t.qtext(left).mid(baseName.size());
        for (const QString& v : vars) {
            if (!containsWord(leftIndex, v))
                continue;
            // Find y[... v - k ...] on the right.
            std::vector<TSNode> stack{right};
            TSNode hit{};
            int visited = 0;
            while (!stack.empty() && visited < 4096 && ts_node_is_null(hit)) {
                const TSNode n = stack.back();
                stack.pop_back();
                ++visited;
                if (ST::is(n, "subscript") && t.qtext(field(n, F().value)) == baseName &&
                    hasBackOffset(t.qtext(n).mid(baseName.size()), v)) {
                    hit = n;
                    break;
                }
                const uint32_t k = ts_node_named_child_count(n);
                for (uint32_t i = 0; i < k; ++i)
                    stack.push_back(ts_node_named_child(n, i));
            }
            if (ts_node_is_null(hit))
                continue;
            const bool scan =
                ST::is(right, "binary_operator") &&
                (t.text(field(right, F().op)) == "+" || t.text(field(right, F().op)) == "*") &&
                (ts_node_eq(field(right, F().left), hit) ||
                 ts_node_eq(field(right, F().right), hit)) &&
                ST::is(a, "assignment");
            const LoopInfo* L = loopBinding(a, v);
            if (L)
                m_recurrentLoops.insert(L->index);
            if (scan)
                addEvidence(QStringLiteral("reduction"), a, w,
                            QStringLiteral("running scan of %1 (cumsum/cumprod)").arg(baseName), 2);
            else if (!L || m.loopWork(*L).work != PassWork::Slab)
                addEvidence(
                    QStringLiteral("sequential"), a, w,
                    QStringLiteral("%1[%2] computed from %3").arg(baseName, v, t.qtext(hit)), 6);
            return;
        }
    }

    void finishSizeHints() {
        if (out.isTest)
            return;
        for (Def& d : m_defs) {
            if (!d.moduleConstant || d.fed || d.value < 1024 || !sizeNamed(d))
                continue;
            SizeHint h{qint64(std::llround(d.value)), d.text, d.range, false};
            h.sizeNamed = true;
            out.sizeHints.append(h);
        }
    }
};

} // namespace

void collectEvidence(const SyntaxTree& tree, const SemanticModel& model, FileResult& out) {
    Collector(tree, model, out).run();
}

} // namespace cnready
