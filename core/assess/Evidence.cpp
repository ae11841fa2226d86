#include "assess/Evidence.h"

#include "assess/evidence/Collector.h"

#include <algorithm>

namespace cnready {

namespace evidence {

void Collector::gather() {
    std::vector<Item> items;
    auto addOpeners = [&](const std::vector<TSNode>& list, Kind kind) {
        for (size_t i = 0; i < list.size(); ++i)
            items.push_back(
                {list[i], ts_node_start_byte(list[i]), ts_node_end_byte(list[i]), kind, int(i)});
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

void Collector::leaveUntilInside(std::vector<size_t>& open, uint32_t s, uint32_t e) const {
    while (!open.empty()) {
        const Opener& o = m_openers[open.back()];
        if (o.start <= s && e <= o.end && s < o.end)
            break;
        open.pop_back();
    }
}

std::vector<Collector::Where> Collector::placeAll(const std::vector<TSNode>& list) const {
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

QString Collector::resolve(TSNode expr) const {
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

QString Collector::scopeName(int scope) {
    if (scope < 0)
        return {};
    if (!m_scopes[size_t(scope)].named) {
        std::vector<int> chain;
        for (int s = scope; s >= 0 && !m_scopes[size_t(s)].named; s = m_scopes[size_t(s)].parent)
            chain.push_back(s);
        for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
            Scope& sc = m_scopes[size_t(*it)];
            const QString name = t.qtext(field(sc.def, F().name));
            sc.name =
                sc.parent < 0 ? name : m_scopes[size_t(sc.parent)].name + QLatin1Char('.') + name;
            sc.named = true;
        }
    }
    return m_scopes[size_t(scope)].name;
}

void Collector::readImports() {
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
                    const QString full = module + QLatin1Char('.') + t.qtext(field(c, F().name));
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
                addEvidence(pattern, imp, m_importWhere[i], QStringLiteral("import %1").arg(full),
                            1);
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

void Collector::readGeneratorNames() {
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

bool Collector::isGenerator(TSNode obj) const {
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

Collector::Args Collector::argsOf(TSNode call) const {
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

void Collector::onCall(size_t index) {
    const TSNode call = m_calls[index];
    const Where& w = m_callWhere[index];
    const TSNode f = field(call, F().function);
    const QString canonical = resolve(f);
    const CanonInfo info = canonInfo(canonical);
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
    const CallSite c{index, call, w, f, canonical, info, loop, ftype, attribute, generator, method};
    sizeOfCall(c);
    patternOfCall(c);
    touchpointsOfCall(c);
}

} // namespace evidence

void collectEvidence(const SyntaxTree& tree, const SemanticModel& model, FileResult& out) {
    evidence::Collector(tree, model, out).run();
}

} // namespace cnready
