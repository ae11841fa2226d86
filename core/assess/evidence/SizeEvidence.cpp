#include "assess/evidence/Collector.h"
#include "model/PathRole.h"

#include <QRegularExpression>
#include <QStringList>

#include <cmath>

namespace cnready::evidence {

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

std::optional<double> Collector::parseNumber(std::string_view text) {
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

std::optional<Value> Collector::eval(TSNode n, const Names& names, int depth, bool shape) const {
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

std::optional<Value> Collector::evalShape(TSNode n, const Names& names) const {
    return eval(n, names, 0, true);
}

void Collector::define(Env& env, std::string_view name, TSNode defNode, Value v,
                       bool moduleConstant, Step& step) {
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

std::vector<TSNode> Collector::assignmentsOf(TSNode block) const {
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

void Collector::readAssignments(TSNode block, Env& env, bool moduleLevel, Step& step) {
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

void Collector::readModuleConstants() {
    Step step;
    readAssignments(t.root(), m_moduleEnv, true, step);
}

std::vector<std::pair<std::string_view, TSNode>> Collector::parameters(int fn) const {
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

const Env& Collector::functionEnv(int fn, bool withCallSites) {
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

const std::vector<int>& Collector::callsNamed(std::string_view name) {
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

std::optional<Value> Collector::callSiteValue(int fn, int index, std::string_view name) {
    std::optional<Value> best;
    const std::vector<int>& calls = callsNamed(t.text(field(m_functions[size_t(fn)], F().name)));
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

std::optional<Value> Collector::constructedSize(TSNode call, const Where& w, const CanonInfo& info,
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
        return mm ? Value{n->v * mm->v, n->origins + mm->origins} : Value{n->v * n->v, n->origins};
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

void Collector::replayUntil(size_t lastCall) {
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

void Collector::replayEnv(int fn, bool withCallSites) {
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

std::pair<int, int> Collector::eagerOrder(const Def& d) const {
    if (d.env == 0)
        return {0, d.sub};
    const std::vector<int>& steps = (d.env == 1 ? m_fullSteps : m_baseSteps)[size_t(d.fn)];
    if (steps.empty()) // cannot happen: a lazily built environment is built eagerly too
        return {INT_MAX, d.sub};
    return {steps[d.param < 0 ? steps.size() - 1 : size_t(d.param)], d.sub};
}

QString Collector::describeOrigins(const QList<int>& origins, size_t call) {
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

void Collector::finishSizeHints() {
    if (out.isTest)
        return;
    // A size-named constant that sizes no compute-path array in its file is evidence only
    // when it names one of this file's data-array parameters (`BLOCK_LEN` and `block`); a
    // constant read nowhere (or only as a step count, a scale, a demo's size) gives none.
    for (Def& d : m_defs) {
        if (!d.moduleConstant || d.fed || d.value < 1024 || !sizeNamed(d))
            continue;
        const QString link = arrayNamedLike(d.name);
        if (link.isEmpty())
            continue;
        SizeHint h{qint64(std::llround(d.value)),
                   QStringLiteral("%1, which sizes %2").arg(d.text, link), d.range, true};
        h.sizeNamed = true;
        out.sizeHints.append(h);
    }
}

namespace {

// The array word a size-named constant is about: `BLOCK_LEN` -> "block", `N_SAMPLES` ->
// "samples", `FRAME_SIZE` -> "frame"; "" when nothing is left (`N`, `NX`, `SIZE`).
QString sizeStem(const QString& constant) {
    static const QStringList lead = {QStringLiteral("n"), QStringLiteral("num"),
                                     QStringLiteral("nr"), QStringLiteral("nb")};
    static const QStringList trail = {QStringLiteral("n"),      QStringLiteral("len"),
                                      QStringLiteral("length"), QStringLiteral("size"),
                                      QStringLiteral("count"),  QStringLiteral("dim")};
    QStringList parts = constant.toLower().split(QLatin1Char('_'), Qt::SkipEmptyParts);
    while (!parts.isEmpty() && lead.contains(parts.first()))
        parts.removeFirst();
    while (!parts.isEmpty() && trail.contains(parts.last()))
        parts.removeLast();
    return parts.join(QLatin1Char('_'));
}

} // namespace

bool Collector::sizeOnComputePath(TSNode n, const Where&) {
    // The model's path role decides (RULES.md, the workload model items 5 and 6): sizes in
    // demo generators, plotting, I/O, printing, error paths, set-up and tests describe no
    // workload. A file kept in an examples / demo folder is demo material as a whole.
    return !out.isTest && m.onComputePath(n) && !inDemoFolder();
}

bool Collector::inDemoFolder() const {
    for (const QString& dir : out.path.split(QLatin1Char('/')))
        if (isDemoFolderName(dir))
            return true;
    return false;
}

bool Collector::calledFromModuleLevel(int fn) {
    for (int c : callsNamed(t.text(field(m_functions[size_t(fn)], F().name))))
        if (m_callWhere[size_t(c)].function < 0)
            return true;
    return false;
}

bool Collector::entryReadsData() {
    if (m_entryReadsData)
        return *m_entryReadsData;
    std::vector<signed char> entryFn(m_functions.size(), -1);
    bool reads = false;
    for (size_t i = 0; i < m_calls.size() && !reads; ++i) {
        const int fn = m_callWhere[i].function;
        if (fn >= 0) {
            signed char& e = entryFn[size_t(fn)];
            if (e < 0)
                e = calledFromModuleLevel(fn) ? 1 : 0;
            if (!e)
                continue;
        }
        const TSNode f = field(m_calls[i], F().function);
        const TSNode leafNode = ST::is(f, "attribute") ? field(f, F().attribute) : f;
        const std::string_view leaf = t.text(leafNode);
        const QString kind = canonInfo(resolve(f)).touchpoint;
        reads = kind == QLatin1String("io") || kind == QLatin1String("pandas") ||
                kind == QLatin1String("h5py") || kind == QLatin1String("external") ||
                leaf == "open" || leaf.substr(0, 4) == "load" || leaf.substr(0, 4) == "read" ||
                leaf == "imread" || leaf == "fromfile";
    }
    m_entryReadsData = reads;
    return reads;
}

std::optional<QString> Collector::projectCallee(TSNode call) const {
    const TSNode f = field(call, F().function);
    if (ST::is(f, "identifier"))
        for (const TSNode def : m_functions)
            if (t.text(field(def, F().name)) == t.text(f))
                return QString();
    // An imported function: Context keeps the hint only if its module is the project's.
    const QString canonical = resolve(f);
    const CanonInfo info = canonInfo(canonical);
    if (!info.numpy && info.touchpoint.isEmpty() && canonical.contains(QLatin1Char('.')))
        return canonical;
    return std::nullopt;
}

std::optional<QString> Collector::handedOnByEntry(TSNode call, const Where& w, const Value& size) {
    if (out.isTest || (w.function >= 0 && !calledFromModuleLevel(w.function)))
        return std::nullopt;
    const PathRole role = m.pathRole(call);
    if ((role != PathRole::Setup && role != PathRole::Compute) || inDemoFolder())
        return std::nullopt;
    // A default the module level overrides (`run(n=10**7)`) is not the size it runs at.
    for (int o : size.origins) {
        const Def& d = m_defs[size_t(o)];
        if (!d.parameterDefault || d.fn < 0)
            continue;
        for (int c : callsNamed(t.text(field(m_functions[size_t(d.fn)], F().name)))) {
            if (m_callWhere[size_t(c)].function == d.fn)
                continue;
            const Args args = argsOf(m_calls[size_t(c)]);
            const QByteArray param = d.name.toUtf8();
            if (!ts_node_is_null(args.get(d.param, param.constData())))
                return std::nullopt;
        }
    }
    std::optional<QString> handed;
    TSNode parent = ts_node_parent(call);
    if (ST::is(parent, "keyword_argument"))
        parent = ts_node_parent(parent);
    if (ST::is(parent, "argument_list")) {
        // Built right in the call: `f(np.ones(2000))`.
        handed = projectCallee(ts_node_parent(parent));
    } else if (ST::is(parent, "assignment") && ts_node_eq(field(parent, F().right), call) &&
               ST::is(field(parent, F().left), "identifier")) {
        handed = handedByName(t.text(field(parent, F().left)), w, ts_node_end_byte(parent));
    }
    if (!handed || entryReadsData())
        return std::nullopt;
    return handed;
}

std::optional<QString> Collector::handedByName(std::string_view name, const Where& w,
                                               uint32_t after) {
    if (!m_callsPassingBuilt) {
        m_callsPassingBuilt = true;
        for (size_t i = 0; i < m_calls.size(); ++i)
            for (const TSNode a : namedChildren(field(m_calls[i], F().arguments))) {
                const TSNode v = ST::is(a, "keyword_argument") ? field(a, F().value) : a;
                if (ST::is(v, "identifier"))
                    m_callsPassing[t.text(v)].push_back(int(i));
            }
    }
    if (const auto passing = m_callsPassing.find(name); passing != m_callsPassing.end())
        for (const int i : passing->second)
            if (m_callWhere[size_t(i)].function == w.function &&
                ts_node_start_byte(m_calls[size_t(i)]) >= after)
                if (auto callee = projectCallee(m_calls[size_t(i)]))
                    return callee;
    // Or the entry's own loop works on it (`for i in range(len(x)): x[i] = ...` at module level).
    const TSNode scope = w.function >= 0 ? m_functions[size_t(w.function)] : TSNode{};
    const uint32_t end = w.function >= 0 ? ts_node_end_byte(scope) : ts_node_end_byte(t.root());
    for (const TSNode sub : SemanticModel::within(m.subscripts(), after, end)) {
        const TSNode base = field(sub, F().value);
        if (!ST::is(base, "identifier") || t.text(base) != name || !m.inLoop(sub))
            continue;
        const FunctionRegion* in = m.enclosingFunctionRegion(sub);
        if (w.function < 0 ? in == nullptr : (in && ts_node_eq(in->node, scope)))
            return QString();
    }
    return std::nullopt;
}

const std::vector<int>& Collector::assignmentsNamed(std::string_view name) {
    if (!m_assignmentsByNameBuilt) {
        m_assignmentsByNameBuilt = true;
        for (size_t i = 0; i < m_assignments.size(); ++i) {
            const TSNode l = field(m_assignments[i], F().left);
            if (ST::is(l, "identifier"))
                m_assignmentsByName[t.text(l)].push_back(int(i));
        }
    }
    static const std::vector<int> none;
    const auto it = m_assignmentsByName.find(name);
    return it == m_assignmentsByName.end() ? none : it->second;
}

std::optional<Value> Collector::vectorLength(TSNode arg, const Where& w, uint32_t before) {
    if (ST::is(arg, "identifier")) {
        // The last plain assignment of the name in the same function before the call.
        TSNode rhs{};
        for (int i : assignmentsNamed(t.text(arg))) {
            const TSNode a = m_assignments[size_t(i)];
            if (m_assignmentWhere[size_t(i)].function != w.function ||
                ts_node_start_byte(a) >= before || !ST::is(a, "assignment"))
                continue;
            rhs = field(a, F().right);
        }
        arg = rhs;
    }
    if (ts_node_is_null(arg) || !ST::is(arg, "call"))
        return std::nullopt;
    const TSNode f = field(arg, F().function);
    const CanonInfo info = canonInfo(resolve(f));
    if (!info.numpy || info.size == CanonInfo::NoSize || info.size == CanonInfo::Eye ||
        info.size == CanonInfo::Identity)
        return std::nullopt;
    return constructedSize(arg, w, info, false, {});
}

std::optional<Value> Collector::meshgridSize(TSNode call, const Where& w) {
    const Args args = argsOf(call);
    if (args.count < 2)
        return std::nullopt;
    Value prod{1, {}};
    for (uint32_t i = 0; i < args.count; ++i) {
        const auto n = vectorLength(args.get(int(i), nullptr), w, ts_node_start_byte(call));
        if (!n)
            return std::nullopt;
        prod.v *= n->v;
        prod.origins += n->origins;
    }
    return prod;
}

QString Collector::arrayNamedLike(const QString& constant) {
    const QString stem = sizeStem(constant);
    if (stem.isEmpty())
        return {};
    for (size_t fn = 0; fn < m_functions.size(); ++fn) {
        for (const auto& [p, def] : parameters(int(fn))) {
            const QString param = QString::fromUtf8(p.data(), qsizetype(p.size())).toLower();
            if (param != stem && param != stem + QLatin1Char('s') &&
                param + QLatin1Char('s') != stem)
                continue;
            // Used as an array in that function: handed to NumPy, or a receiver of a method
            // call (`block.mean()`), on the compute path.
            for (size_t i = 0; i < m_calls.size(); ++i) {
                const Where& w = m_callWhere[i];
                if (w.function != int(fn))
                    continue;
                const TSNode f = field(m_calls[i], F().function);
                const TSNode first = firstArgument(m_calls[i]);
                const bool handed = ST::is(first, "identifier") && t.text(first) == p &&
                                    canonInfo(resolve(f)).numpy;
                const bool receiver = ST::is(f, "attribute") &&
                                      ST::is(field(f, F().object), "identifier") &&
                                      t.text(field(f, F().object)) == p;
                if ((handed || receiver) && sizeOnComputePath(m_calls[i], w))
                    return QStringLiteral("parameter `%1` of `%2`")
                        .arg(QString::fromUtf8(p.data(), qsizetype(p.size())), scopeName(w.scope));
            }
        }
    }
    return {};
}

void Collector::sizeOfCall(const CallSite& c) {
    const TSNode call = c.call;
    const Where& w = c.w;
    const CanonInfo& info = c.info;
    const bool generator = c.generator;
    const std::string_view method = c.method;
    const size_t index = c.index;
    m_callTriggers[index] = !out.isTest && (generator || info.numpy);
    if (m_callTriggers[index]) {
        std::optional<Value> size = c.canonical == QLatin1String("numpy.meshgrid")
                                        ? meshgridSize(call, w)
                                        : constructedSize(call, w, info, generator, method);
        // Only data arrays on the compute path say how big the workload is; the definitions
        // behind an off-path size stay unfed (a demo's N_POINTS sizes nothing).
        // An array the script's entry code builds and hands on states the size it runs at,
        // though it sits in set-up code (RULES.md, the workload model item 6).
        std::optional<QString> handed;
        const bool onPath = size && size->v >= 1 && sizeOnComputePath(call, w);
        if (size && size->v >= 1)
            handed = handedOnByEntry(call, w, *size);
        if (onPath || handed) {
            QString expr = t.firstLine(call);
            if (expr.size() > 100)
                expr = expr.left(97) + QStringLiteral("...");
            const QString from = describeOrigins(size->origins, index);
            if (!from.isEmpty())
                expr += QStringLiteral(" with ") + from;
            SizeHint h{qint64(std::llround(size->v)), expr, rangeOf(call), true};
            h.literal = size->origins.isEmpty();
            h.entryStated = handed.has_value();
            if (handed)
                h.handedTo = *handed;
            for (int o : size->origins)
                h.sizeNamed = h.sizeNamed ||
                              (!m_defs[size_t(o)].parameterDefault && sizeNamed(m_defs[size_t(o)]));
            out.sizeHints.append(h);
        }
    }
}

} // namespace cnready::evidence
