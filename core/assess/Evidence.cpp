#include "assess/Evidence.h"

#include "parse/SyntaxTree.h"
#include "semantic/SemanticModel.h"

#include <QHash>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <optional>
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
// constants ~ 164 MB on a 3 MB file).
class Env {
public:
    Env() = default;
    explicit Env(const Env* base) : m_base(base) {}
    const Value* find(const QString& name) const {
        if (const auto it = m_local.constFind(name); it != m_local.cend())
            return it->has_value() ? &**it : nullptr;
        return m_base ? m_base->find(name) : nullptr;
    }
    void insert(const QString& name, const Value& v) { m_local.insert(name, v); }
    void remove(const QString& name) {
        if (m_base && m_base->find(name))
            m_local.insert(name, std::nullopt); // shadows the module's value
        else
            m_local.remove(name);
    }

private:
    const Env* m_base = nullptr;
    QHash<QString, std::optional<Value>> m_local; // nullopt: bound here to something unknown
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
bool isSizeName(const QString& name) {
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

const QSet<QString>& loggerNames() {
    static const QSet<QString> names = {QStringLiteral("log"),    QStringLiteral("logger"),
                                        QStringLiteral("LOGGER"), QStringLiteral("LOG"),
                                        QStringLiteral("_log"),   QStringLiteral("_logger")};
    return names;
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
        for (TSNode call : m_calls)
            onCall(call);
        for (size_t i = 0; i < m_binaryOps.size(); ++i)
            onBinary(m_binaryOps[i], i);
        for (TSNode a : m_assignments)
            onAssignment(a);
        finishSizeHints();
        if (out.path.contains(QLatin1String("bench"), Qt::CaseInsensitive))
            out.readiness.append({QStringLiteral("benchmark"), SourceRange{out.path, 1, 1, 1, 1},
                                  QStringLiteral("benchmark module")});
    }

private:
    const SyntaxTree& t;
    const SemanticModel& m;
    FileResult& out;

    std::vector<TSNode> m_calls, m_binaryOps, m_assignments, m_imports, m_functions;
    QHash<QString, QString> m_aliases; // local name → canonical dotted name (all imports)
    QSet<QString> m_importedRoots;     // "numpy", "sklearn", "collections", ...
    QSet<QString> m_generators;        // names bound to numpy.random generators
    Env m_moduleEnv;
    std::vector<Def> m_defs;
    QHash<uint32_t, Env> m_baseEnv, m_fullEnv; // by function start byte
    QHash<QString, std::vector<TSNode>> m_functionsByName;
    QHash<QString, std::vector<TSNode>> m_callsByName; // calls of a bare identifier

    // ---- walking -------------------------------------------------------------------------

    // Where a node sits, computed once during the walk (ts_node_parent is O(depth) in
    // tree-sitter, so parent chains are never walked afterwards).
    struct Where {
        bool inLoop = false;  // a loop encloses it before the nearest function/class/lambda
        bool inWhile = false; // the same for a while loop
        TSNode function{};    // nearest enclosing function_definition (null at module level)
        int scope = -1;       // index into m_scopeNames ("func", "Class.method"), -1 = module
        int forVars = -1;     // head of the for-loop variable chain in m_forVars, -1 = none
    };
    struct VarLink {
        QString name;
        int prev = -1;
    };
    QHash<const void*, Where> m_where;
    QStringList m_scopeNames;
    std::vector<VarLink> m_forVars;

    Where where(TSNode n) const { return m_where.value(n.id); }

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

    // Collects the nodes the collector looks at from the semantic model's lists and works out
    // where each one sits by one sweep over them in document order, against the model's lists
    // of functions, classes, lambdas and loops (a stack of the open ones). Same result as a
    // walk over the whole tree, without walking it again (a TSTreeCursor step costs hundreds
    // of instructions in tree-sitter 0.20).
    void gather() {
        m_calls = m.calls();
        m_binaryOps = m.binaryOperators();
        m_assignments = m.assignments();
        m_imports = m.imports();
        m_functions = m.functionDefs();
        for (TSNode call : m_calls) {
            const TSNode f = ST::field(call, "function");
            if (ST::is(f, "identifier"))
                m_callsByName[t.qtext(f)].push_back(call);
        }
        for (TSNode fn : m_functions)
            m_functionsByName[t.qtext(ST::field(fn, "name"))].push_back(fn);

        struct Item {
            TSNode node;
            uint32_t start, end;
            Kind kind; // K_Other for a target
        };
        auto preorder = [](const Item& a, const Item& b) {
            return a.start != b.start ? a.start < b.start : a.end > b.end;
        };
        std::vector<Item> openers;
        auto addOpeners = [&](const std::vector<TSNode>& list, Kind kind) {
            for (TSNode n : list)
                openers.push_back({n, ts_node_start_byte(n), ts_node_end_byte(n), kind});
        };
        addOpeners(m.functionDefs(), K_FunctionDef);
        addOpeners(m.classDefs(), K_ClassDef);
        addOpeners(m.lambdas(), K_Lambda);
        addOpeners(m.forStatements(), K_For);
        addOpeners(m.whiles(), K_While);
        addOpeners(m.comprehensions(), K_Comprehension);
        std::sort(openers.begin(), openers.end(), preorder);
        std::vector<Item> targets;
        for (const auto* list : {&m_calls, &m_binaryOps, &m_assignments, &m_imports, &m_functions})
            for (TSNode n : *list)
                targets.push_back({n, ts_node_start_byte(n), ts_node_end_byte(n), K_Other});
        std::sort(targets.begin(), targets.end(), preorder);

        struct Open {
            uint32_t start, end;
            Where children; // the context of everything inside this opener
        };
        std::vector<Open> open;
        auto leaveUntilInside = [&](uint32_t s, uint32_t e) {
            while (!open.empty() &&
                   !(open.back().start <= s && e <= open.back().end && s < open.back().end))
                open.pop_back();
        };
        size_t next = 0;
        for (const Item& target : targets) {
            // Openers that come before the target in document order (a node itself is a target
            // first: its own kind only applies to what is inside it).
            while (next < openers.size() && preorder(openers[next], target)) {
                const Item& o = openers[next++];
                leaveUntilInside(o.start, o.end);
                Where child = open.empty() ? Where{} : open.back().children;
                if (o.kind == K_FunctionDef || o.kind == K_ClassDef) {
                    child.inLoop = child.inWhile = false;
                    const QString name = t.qtext(ST::field(o.node, "name"));
                    m_scopeNames << (child.scope < 0
                                         ? name
                                         : m_scopeNames[child.scope] + QLatin1Char('.') + name);
                    child.scope = int(m_scopeNames.size()) - 1;
                    if (o.kind == K_FunctionDef) {
                        child.function = o.node;
                        child.forVars = -1;
                    }
                } else if (o.kind == K_Lambda) {
                    child.inLoop = child.inWhile = false;
                } else {
                    child.inLoop = true;
                    if (o.kind == K_While)
                        child.inWhile = true;
                    if (o.kind == K_For) {
                        const TSNode l = ST::field(o.node, "left");
                        if (ST::is(l, "identifier")) {
                            m_forVars.push_back(VarLink{t.qtext(l), child.forVars});
                            child.forVars = int(m_forVars.size()) - 1;
                        }
                    }
                }
                open.push_back({o.start, o.end, child});
            }
            leaveUntilInside(target.start, target.end);
            m_where.insert(target.node.id, open.empty() ? Where{} : open.back().children);
        }
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
        QStringList parts;
        TSNode n = expr;
        for (int guard = 0; guard < 64 && ST::is(n, "attribute"); ++guard) {
            parts.prepend(t.qtext(ST::field(n, "attribute")));
            n = ST::field(n, "object");
        }
        if (!ST::is(n, "identifier"))
            return {};
        const QString base = m_aliases.value(t.qtext(n));
        if (base.isEmpty())
            return {};
        parts.prepend(base);
        return parts.join(QLatin1Char('.'));
    }

    bool inLoop(TSNode n) const { return where(n).inLoop; }
    bool inWhileLoop(TSNode n) const { return where(n).inWhile; }
    TSNode enclosingFunctionNode(TSNode n) const { return where(n).function; }
    QString scopeName(TSNode n) const {
        const int i = where(n).scope;
        return i < 0 ? QString() : m_scopeNames[i];
    }

    void addEvidence(const QString& pattern, TSNode n, const QString& note, int weight) {
        out.patternEvidence.append(
            PatternEvidence{pattern, rangeOf(n), note, inLoop(n), weight, scopeName(n)});
    }

    // ---- imports ---------------------------------------------------------------------------

    void readImports() {
        for (TSNode imp : m_imports) {
            QStringList fulls; // what the statement brings in
            const uint32_t k = ts_node_named_child_count(imp);
            if (ST::is(imp, "import_statement")) {
                for (uint32_t j = 0; j < k; ++j) {
                    const TSNode c = ts_node_named_child(imp, j);
                    if (ST::is(c, "aliased_import")) {
                        const QString full = canonicalModule(t.qtext(ST::field(c, "name")));
                        m_aliases.insert(t.qtext(ST::field(c, "alias")), full);
                        fulls << full;
                    } else if (ST::is(c, "dotted_name")) {
                        const QString full = canonicalModule(t.qtext(c));
                        const QString head = full.section(QLatin1Char('.'), 0, 0);
                        m_aliases.insert(t.qtext(c).section(QLatin1Char('.'), 0, 0), head);
                        fulls << full;
                    }
                }
            } else {
                const TSNode modNode = ST::field(imp, "module_name");
                const QString module = canonicalModule(t.qtext(modNode));
                bool any = false;
                for (uint32_t j = 0; j < k; ++j) {
                    const TSNode c = ts_node_named_child(imp, j);
                    if (ts_node_eq(c, modNode))
                        continue;
                    if (ST::is(c, "aliased_import")) {
                        const QString full =
                            module + QLatin1Char('.') + t.qtext(ST::field(c, "name"));
                        m_aliases.insert(t.qtext(ST::field(c, "alias")), full);
                        fulls << full;
                        any = true;
                    } else if (ST::is(c, "dotted_name")) {
                        const QString full = module + QLatin1Char('.') + t.qtext(c);
                        m_aliases.insert(t.qtext(c), full);
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
                    addEvidence(pattern, imp, QStringLiteral("import %1").arg(full), 1);
                if (full == QLatin1String("legate") || full.startsWith(QLatin1String("legate.")))
                    out.readiness.append({QStringLiteral("legate"), rangeOf(imp),
                                          QStringLiteral("imports %1").arg(full)});
            }
        }
    }

    // ---- constant evaluation ---------------------------------------------------------------

    static std::optional<double> parseNumber(QString s) {
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

    // Evaluates an integer-valued expression (or a shape tuple → product) in `env`.
    std::optional<Value> eval(TSNode n, const Env& env, int depth = 0, bool shape = false) const {
        if (ts_node_is_null(n) || depth > kMaxEvalDepth)
            return std::nullopt;
        const auto ty = ST::type(n);
        std::optional<Value> r;
        if (ty == "integer" || ty == "float") {
            if (auto v = parseNumber(t.qtext(n)))
                r = Value{*v, {}};
        } else if (ty == "identifier") {
            if (const Value* v = env.find(t.qtext(n)))
                r = *v;
        } else if (ty == "parenthesized_expression") {
            if (ts_node_named_child_count(n) == 1)
                r = eval(ts_node_named_child(n, 0), env, depth + 1, shape);
            else
                return std::nullopt;
        } else if (ty == "unary_operator") {
            const QString op = t.qtext(ST::field(n, "operator"));
            auto a = eval(ST::field(n, "argument"), env, depth + 1);
            if (a && op == QLatin1String("-"))
                r = Value{-a->v, a->origins};
            else if (a && op == QLatin1String("+"))
                r = a;
        } else if (ty == "binary_operator") {
            const QString op = t.qtext(ST::field(n, "operator"));
            auto a = eval(ST::field(n, "left"), env, depth + 1);
            auto b = a ? eval(ST::field(n, "right"), env, depth + 1) : std::nullopt;
            if (!a || !b)
                return std::nullopt;
            double v = 0;
            if (op == QLatin1String("+"))
                v = a->v + b->v;
            else if (op == QLatin1String("-"))
                v = a->v - b->v;
            else if (op == QLatin1String("*"))
                v = a->v * b->v;
            else if (op == QLatin1String("//") && b->v != 0)
                v = std::floor(a->v / b->v);
            else if (op == QLatin1String("/") && b->v != 0)
                v = a->v / b->v;
            else if (op == QLatin1String("**") && b->v >= 0 && b->v <= 64)
                v = std::pow(a->v, b->v);
            else if (op == QLatin1String("<<") && b->v >= 0 && b->v <= 62)
                v = a->v * std::pow(2.0, b->v);
            else
                return std::nullopt;
            r = Value{v, a->origins + b->origins};
        } else if (ty == "call") {
            const TSNode f = ST::field(n, "function");
            const TSNode args = ST::field(n, "arguments");
            if (ST::is(f, "identifier") &&
                (t.qtext(f) == QLatin1String("int") || t.qtext(f) == QLatin1String("round")) &&
                ts_node_named_child_count(args) == 1)
                r = eval(ts_node_named_child(args, 0), env, depth + 1);
        } else if (shape && (ty == "tuple" || ty == "list" || ty == "expression_list")) {
            Value prod{1, {}};
            const uint32_t k = ts_node_named_child_count(n);
            if (k == 0)
                return std::nullopt;
            for (uint32_t i = 0; i < k; ++i) {
                auto e = eval(ts_node_named_child(n, i), env, depth + 1);
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

    std::optional<Value> evalShape(TSNode n, const Env& env) const { return eval(n, env, 0, true); }

    // Binds `name` from a definition node; literal-only values become their own origin.
    // Module constants are always their own origin (their name is what a reader knows).
    void define(Env& env, const QString& name, TSNode defNode, Value v, bool moduleConstant) {
        if (v.origins.isEmpty() || moduleConstant) {
            Def d;
            d.name = name;
            d.text = t.firstLine(defNode);
            d.range = rangeOf(defNode);
            d.value = v.v;
            d.moduleConstant = moduleConstant;
            const auto type = ST::type(defNode);
            d.parameterDefault = type == "default_parameter" || type == "typed_default_parameter";
            m_defs.push_back(d);
            v.origins = {int(m_defs.size()) - 1};
        }
        env.insert(name, v);
    }

    // Reads `NAME = expr` (and `A, B = 1, 2`) statements of a block in source order, without
    // entering function or class bodies.
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

    void readAssignments(TSNode block, Env& env, bool moduleLevel) {
        const std::vector<TSNode> ordered = assignmentsOf(block);
        for (TSNode a : ordered) {
            const TSNode left = ST::field(a, "left");
            const TSNode right = ST::field(a, "right");
            if (ST::is(left, "identifier")) {
                const QString name = t.qtext(left);
                if (auto v = evalShape(right, env))
                    define(env, name, a, *v, moduleLevel);
                else
                    env.remove(name);
            } else if ((ST::is(left, "pattern_list") || ST::is(left, "tuple_pattern")) &&
                       (ST::is(right, "expression_list") || ST::is(right, "tuple"))) {
                const uint32_t k = ts_node_named_child_count(left);
                if (k != ts_node_named_child_count(right))
                    continue;
                for (uint32_t i = 0; i < k; ++i) {
                    const TSNode l = ts_node_named_child(left, i);
                    if (!ST::is(l, "identifier"))
                        continue;
                    if (auto v = eval(ts_node_named_child(right, i), env))
                        define(env, t.qtext(l), a, *v, moduleLevel);
                    else
                        env.remove(t.qtext(l));
                }
            }
        }
    }

    void readModuleConstants() { readAssignments(t.root(), m_moduleEnv, true); }

    // Parameters of a function: (name, default node or null) in order.
    QList<QPair<QString, TSNode>> parameters(TSNode fn) const {
        QList<QPair<QString, TSNode>> ps;
        const TSNode params = ST::field(fn, "parameters");
        const uint32_t k = ts_node_named_child_count(params);
        for (uint32_t i = 0; i < k; ++i) {
            const TSNode p = ts_node_named_child(params, i);
            const auto ty = ST::type(p);
            if (ty == "identifier")
                ps.append({t.qtext(p), TSNode{}});
            else if (ty == "typed_parameter" && ts_node_named_child_count(p) > 0 &&
                     ST::is(ts_node_named_child(p, 0), "identifier"))
                ps.append({t.qtext(ts_node_named_child(p, 0)), TSNode{}});
            else if (ty == "default_parameter" || ty == "typed_default_parameter")
                ps.append({t.qtext(ST::field(p, "name")), p});
        }
        return ps;
    }

    // The environment of a function body: module constants, parameter defaults, same-file
    // call-site arguments (when `withCallSites`) and local assignments in source order.
    const Env& functionEnv(TSNode fn, bool withCallSites) {
        const uint32_t key = ts_node_start_byte(fn);
        QHash<uint32_t, Env>& cache = withCallSites ? m_fullEnv : m_baseEnv;
        const auto it = cache.constFind(key);
        if (it != cache.cend())
            return *it;
        Env env(&m_moduleEnv);
        const auto params = parameters(fn);
        for (qsizetype i = 0; i < params.size(); ++i) {
            const auto& [name, def] = params[i];
            env.remove(name);
            if (!ts_node_is_null(def)) {
                if (auto v = evalShape(ST::field(def, "value"), m_moduleEnv))
                    define(env, name, def, *v, false);
            } else if (withCallSites) {
                if (auto v = callSiteValue(fn, int(i), name))
                    env.insert(name, *v);
            }
        }
        readAssignments(ST::field(fn, "body"), env, false);
        return *cache.insert(key, env);
    }

    // The largest value passed for parameter `index`/`name` of `fn` at same-file call sites,
    // evaluated in each caller's own environment (without call sites: one level deep).
    std::optional<Value> callSiteValue(TSNode fn, int index, const QString& name) {
        std::optional<Value> best;
        const QString fname = t.qtext(ST::field(fn, "name"));
        const auto calls = m_callsByName.value(fname);
        for (TSNode call : calls) {
            const TSNode caller = enclosingFunctionNode(call);
            if (!ts_node_is_null(caller) && ts_node_eq(caller, fn))
                continue; // recursion
            const Env& env = ts_node_is_null(caller) ? m_moduleEnv : functionEnv(caller, false);
            const TSNode args = ST::field(call, "arguments");
            const uint32_t k = ts_node_named_child_count(args);
            TSNode arg{};
            int pos = 0;
            for (uint32_t i = 0; i < k; ++i) {
                const TSNode a = ts_node_named_child(args, i);
                if (ST::is(a, "keyword_argument")) {
                    if (t.qtext(ST::field(a, "name")) == name)
                        arg = ST::field(a, "value");
                } else if (!ST::is(a, "list_splat") && !ST::is(a, "dictionary_splat")) {
                    if (pos == index)
                        arg = a;
                    ++pos;
                }
            }
            if (ts_node_is_null(arg))
                continue;
            if (auto v = evalShape(arg, env))
                if (!best || v->v > best->v)
                    best = v;
        }
        return best;
    }

    const Env& envAt(TSNode n) {
        const TSNode fn = enclosingFunctionNode(n);
        return ts_node_is_null(fn) ? m_moduleEnv : functionEnv(fn, true);
    }

    void readGeneratorNames() {
        for (TSNode a : m_assignments) {
            const TSNode left = ST::field(a, "left");
            const TSNode right = ST::field(a, "right");
            if (!ST::is(right, "call"))
                continue;
            const QString c = resolve(ST::field(right, "function"));
            if (c == QLatin1String("numpy.random.default_rng") ||
                c == QLatin1String("numpy.random.Generator") ||
                c == QLatin1String("numpy.random.RandomState"))
                m_generators.insert(t.qtext(left));
        }
    }

    bool isGenerator(TSNode obj) const {
        if (ST::is(obj, "call")) {
            const QString c = resolve(ST::field(obj, "function"));
            return c == QLatin1String("numpy.random.default_rng") ||
                   c == QLatin1String("numpy.random.RandomState");
        }
        return (ST::is(obj, "identifier") || ST::is(obj, "attribute")) &&
               m_generators.contains(t.qtext(obj));
    }

    // Argument of a call by position or keyword; null when absent.
    TSNode argument(TSNode call, int pos, const char* kw, int* positionalCount = nullptr) const {
        const TSNode args = ST::field(call, "arguments");
        const uint32_t k = ts_node_named_child_count(args);
        TSNode found{};
        int p = 0;
        for (uint32_t i = 0; i < k; ++i) {
            const TSNode a = ts_node_named_child(args, i);
            if (ST::is(a, "keyword_argument")) {
                if (kw && *kw && t.qtext(ST::field(a, "name")) == QLatin1String(kw))
                    found = ST::field(a, "value");
            } else {
                if (p == pos && ts_node_is_null(found))
                    found = a;
                ++p;
            }
        }
        if (positionalCount)
            *positionalCount = p;
        return found;
    }

    // Size of the array a constructor call builds, when it evaluates.
    std::optional<Value> constructedSize(TSNode call, const QString& canonical, bool generator,
                                         const QString& method) {
        const Env& env = envAt(call);
        int positional = 0;
        argument(call, -1, nullptr, &positional);
        const QString tail = canonical.mid(6);
        if (!generator && tail == QLatin1String("linspace")) {
            const TSNode num = argument(call, 2, "num");
            return ts_node_is_null(num) ? std::nullopt : eval(num, env);
        }
        if (!generator && tail == QLatin1String("arange")) {
            auto a0 = eval(argument(call, 0, "start"), env);
            if (positional <= 1)
                return a0;
            auto a1 = eval(argument(call, 1, "stop"), env);
            if (!a0 || !a1)
                return std::nullopt;
            double step = 1;
            QList<int> origins = a0->origins + a1->origins;
            if (positional >= 3) {
                auto s = eval(argument(call, 2, "step"), env);
                if (!s || s->v == 0)
                    return std::nullopt;
                step = s->v;
                origins += s->origins;
            }
            return Value{std::ceil((a1->v - a0->v) / step), origins};
        }
        if (!generator && (tail == QLatin1String("eye") || tail == QLatin1String("identity"))) {
            auto n = eval(argument(call, 0, "N"), env);
            if (!n)
                return std::nullopt;
            auto mm =
                tail == QLatin1String("eye") ? eval(argument(call, 1, "M"), env) : std::nullopt;
            return mm ? Value{n->v * mm->v, n->origins + mm->origins}
                      : Value{n->v * n->v, n->origins};
        }
        const DrawSpec* spec = nullptr;
        if (generator) {
            const auto it = generatorSpecs().constFind(method);
            spec = it == generatorSpecs().cend() ? nullptr : &*it;
        } else {
            const auto it = constructorSpecs().constFind(canonical);
            spec = it == constructorSpecs().cend() ? nullptr : &*it;
        }
        if (!spec)
            return std::nullopt;
        if (spec->sizePos < 0) {
            if (positional == 0)
                return std::nullopt;
            Value prod{1, {}};
            for (int i = 0; i < positional; ++i) {
                auto e = eval(argument(call, i, nullptr), env);
                if (!e)
                    return std::nullopt;
                prod.v *= e->v;
                prod.origins += e->origins;
            }
            return prod;
        }
        const TSNode size = argument(call, spec->sizePos, spec->sizeKw);
        return ts_node_is_null(size) ? std::nullopt : evalShape(size, env);
    }

    QString describeOrigins(const QList<int>& origins) {
        QStringList parts;
        QList<int> sorted = origins;
        std::sort(sorted.begin(), sorted.end());
        sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
        for (int o : sorted) {
            Def& d = m_defs[size_t(o)];
            d.fed = true;
            parts << QStringLiteral("%1 (line %2)").arg(d.text).arg(d.range.line);
        }
        return parts.join(QStringLiteral("; "));
    }

    // ---- per-node handlers ---------------------------------------------------------------

    void onCall(TSNode call) {
        const TSNode f = ST::field(call, "function");
        const QString canonical = resolve(f);
        const bool loop = inLoop(call);
        const QString fn = scopeName(call);

        // Array sizes.
        bool generator = false;
        QString method;
        if (ST::is(f, "attribute")) {
            method = t.qtext(ST::field(f, "attribute"));
            generator = canonical.isEmpty() && isGenerator(ST::field(f, "object"));
        }
        if (!out.isTest && (generator || canonical.startsWith(QLatin1String("numpy.")))) {
            if (auto size = constructedSize(call, canonical, generator, method);
                size && size->v >= 1) {
                QString expr = t.firstLine(call);
                if (expr.size() > 100)
                    expr = expr.left(97) + QStringLiteral("...");
                const QString from = describeOrigins(size->origins);
                if (!from.isEmpty())
                    expr += QStringLiteral(" with ") + from;
                SizeHint h{qint64(std::llround(size->v)), expr, rangeOf(call), true};
                h.literal = size->origins.isEmpty();
                for (int o : size->origins)
                    h.sizeNamed = h.sizeNamed || (!m_defs[size_t(o)].parameterDefault &&
                                                  isSizeName(m_defs[size_t(o)].name));
                out.sizeHints.append(h);
            }
        }

        // Compute-pattern evidence (tests do not set the pattern of the project).
        if (!out.isTest) {
            QString pattern = numpyPattern(canonical);
            if (pattern.isEmpty() && !canonical.isEmpty() &&
                !canonical.startsWith(QLatin1String("numpy.")))
                pattern = modulePattern(canonical);
            if (pattern.isEmpty() && generator && generatorSpecs().contains(method))
                pattern = QStringLiteral("monte-carlo");
            if (pattern.isEmpty() && canonical.isEmpty() && ST::is(f, "attribute"))
                pattern = methodPattern(method);
            if (pattern.isEmpty() && ST::is(f, "attribute") &&
                canonical.startsWith(QLatin1String("re.")) && loop)
                pattern = QStringLiteral("string");
            if (!pattern.isEmpty())
                addEvidence(pattern, call,
                            canonical.isEmpty() ? QStringLiteral(".%1()").arg(method) : canonical,
                            2);
            // Frontier loops of graph searches.
            if (method == QLatin1String("popleft") && inWhileLoop(call) &&
                (m_aliases.value(QStringLiteral("deque")) == QLatin1String("collections.deque") ||
                 m_importedRoots.contains(QStringLiteral("collections"))))
                addEvidence(QStringLiteral("graph"), call,
                            QStringLiteral("BFS frontier: deque.popleft() in a while loop"), 6);
            if (canonical == QLatin1String("heapq.heappop") && inWhileLoop(call))
                addEvidence(
                    QStringLiteral("graph"), call,
                    QStringLiteral("priority-queue frontier: heapq.heappop() in a while loop"), 4);
        }

        // Host touchpoints (Gate 5).
        QString kind = touchpointKind(canonical);
        QString note = canonical;
        if (kind.isEmpty() && ST::is(f, "identifier")) {
            const QString name = t.qtext(f);
            if (name == QLatin1String("open") && !m_aliases.contains(name)) {
                kind = QStringLiteral("io");
                note = QStringLiteral("open()");
            } else if (name == QLatin1String("print") && loop) {
                kind = QStringLiteral("logging");
                note = QStringLiteral("print() in a loop");
            }
        }
        if (kind.isEmpty() && loop &&
            (canonical.startsWith(QLatin1String("logging.")) ||
             (ST::is(f, "attribute") && loggerNames().contains(t.qtext(ST::field(f, "object")))))) {
            kind = QStringLiteral("logging");
            note = QStringLiteral("%1 in a loop").arg(t.qtext(f));
        }
        if (!kind.isEmpty() && !out.isTest)
            out.touchpoints.append(HostTouchpoint{kind, rangeOf(call), note, fn, loop});

        // Operational readiness (Gate 6).
        if (out.isTest && (canonical.startsWith(QLatin1String("numpy.testing.")) ||
                           canonical == QLatin1String("numpy.allclose") ||
                           canonical == QLatin1String("numpy.isclose") ||
                           canonical == QLatin1String("numpy.array_equal") ||
                           canonical == QLatin1String("pytest.approx")))
            out.readiness.append({QStringLiteral("golden-test"), rangeOf(call), canonical});
        if (canonical == QLatin1String("time.perf_counter") ||
            canonical.startsWith(QLatin1String("timeit.")) ||
            canonical == QLatin1String("legate.timing.time"))
            out.readiness.append({QStringLiteral("benchmark"), rangeOf(call), canonical});
    }

    QString methodPattern(const QString& method) const {
        const bool numpyFile = m_importedRoots.contains(QStringLiteral("numpy"));
        static const QSet<QString> reductions = {QStringLiteral("sum"),  QStringLiteral("mean"),
                                                 QStringLiteral("max"),  QStringLiteral("min"),
                                                 QStringLiteral("prod"), QStringLiteral("var"),
                                                 QStringLiteral("std")};
        if (numpyFile && reductions.contains(method))
            return QStringLiteral("reduction");
        if (numpyFile && method == QLatin1String("dot"))
            return QStringLiteral("gemm");
        static const QSet<QString> estimator = {
            QStringLiteral("fit"),           QStringLiteral("predict"),
            QStringLiteral("fit_transform"), QStringLiteral("predict_proba"),
            QStringLiteral("partial_fit"),   QStringLiteral("fit_predict")};
        const bool mlFile = m_importedRoots.contains(QStringLiteral("sklearn")) ||
                            m_importedRoots.contains(QStringLiteral("torch")) ||
                            m_importedRoots.contains(QStringLiteral("tensorflow")) ||
                            m_importedRoots.contains(QStringLiteral("keras"));
        if (mlFile && estimator.contains(method))
            return QStringLiteral("ml");
        if (mlFile && (method == QLatin1String("backward") || method == QLatin1String("zero_grad")))
            return QStringLiteral("ml");
        return {};
    }

    // `index`: position of `op` in the model's (the tree's) list of binary operators.
    void onBinary(TSNode op, size_t index) {
        if (out.isTest)
            return;
        const QString o = t.qtext(ST::field(op, "operator"));
        if (o == QLatin1String("@")) {
            addEvidence(QStringLiteral("gemm"), op, QStringLiteral("@ operator"), 2);
            return;
        }
        // Stencils: only the outermost arithmetic expression is examined. The parent's type
        // comes from the tree's walk (ts_node_parent() costs O(depth) per call: quadratic on
        // a sum of thousands of terms).
        const auto parent = t.parentType(SyntaxTree::NodeList::BinaryOp, index);
        if (parent == "binary_operator" || parent == "parenthesized_expression" ||
            parent == "unary_operator")
            return;
        QHash<QString, QSet<QString>> slicesByBase;
        std::vector<TSNode> stack{op};
        int visited = 0;
        while (!stack.empty() && visited < 4096) {
            const TSNode n = stack.back();
            stack.pop_back();
            ++visited;
            if (ST::is(n, "subscript")) {
                const TSNode base = ST::field(n, "value");
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
        addEvidence(QStringLiteral("stencil"), op,
                    QStringLiteral("shifted slices of %1").arg(bases.join(QStringLiteral(", "))),
                    3);
    }

    // `y[n] = ... y[n-1] ...` inside `for n in ...`: a sequential recurrence. A plain running
    // sum/product (`c[i] = c[i-1] + x[i]`) is a scan, which cumsum/cumprod express: reduction.
    void onAssignment(TSNode a) {
        if (out.isTest)
            return;
        const TSNode left = ST::field(a, "left");
        const TSNode right = ST::field(a, "right");
        if (!ST::is(left, "subscript") || ts_node_is_null(right))
            return;
        const TSNode base = ST::field(left, "value");
        if (!ST::is(base, "identifier"))
            return;
        const QString baseName = t.qtext(base);
        QStringList vars;
        for (int v = where(a).forVars; v >= 0 && vars.size() < 64; v = m_forVars[size_t(v)].prev)
            vars << m_forVars[size_t(v)].name;
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
                if (ST::is(n, "subscript") && t.qtext(ST::field(n, "value")) == baseName &&
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
            const bool scan = ST::is(right, "binary_operator") &&
                              (t.qtext(ST::field(right, "operator")) == QLatin1String("+") ||
                               t.qtext(ST::field(right, "operator")) == QLatin1String("*")) &&
                              (ts_node_eq(ST::field(right, "left"), hit) ||
                               ts_node_eq(ST::field(right, "right"), hit)) &&
                              ST::is(a, "assignment");
            if (scan)
                addEvidence(QStringLiteral("reduction"), a,
                            QStringLiteral("running scan of %1 (cumsum/cumprod)").arg(baseName), 2);
            else
                addEvidence(
                    QStringLiteral("sequential"), a,
                    QStringLiteral("%1[%2] computed from %3").arg(baseName, v, t.qtext(hit)), 6);
            return;
        }
    }

    void finishSizeHints() {
        if (out.isTest)
            return;
        for (const Def& d : m_defs) {
            if (!d.moduleConstant || d.fed || d.value < 1024 || !isSizeName(d.name))
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
