// SemanticModel: imports, scopes and bindings, and name / call-name resolution.

#include "semantic/ModelInternals.h"

#include "semantic/NumpyNames.h"

namespace cnready {

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
    // Exact sizes: grown by doubling, the lists kept up to half of them unused for the
    // model's lifetime (the functions ~1.5 MB on a generated 100,000-line module).
    m_functions.reserve(m_functionDefs.size());
    m_classes.reserve(m_classDefs.size());
    d->scopes.reserve(defs.size() + 1);
    d->scopeOrder.reserve(defs.size());
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

// ---- Hooks for the shape engine (semantic/Shapes.cpp) --------------------------------------

int SemanticModel::inheritedAttributeSlot(int cls, std::string_view name, int depth) const {
    if (depth >= 4 || cls < 0 || size_t(cls) >= m_classes.size())
        return -1; // a deeper hierarchy (or a cycle through re-bound names) decides nothing
    const TSNode bases =
        SyntaxTree::field(m_classes[size_t(cls)].node, SyntaxTree::fieldId("superclasses"));
    if (ts_node_is_null(bases))
        return -1;
    for (uint32_t i = 0; i < ts_node_named_child_count(bases); ++i) {
        const TSNode b = ts_node_named_child(bases, i);
        if (sym(b) != Sym::identifier)
            continue; // `metaclass=...`, `mod.Base` (another module's class) and the like
        const auto it = d->classesByName.constFind(
            QString::fromUtf8(text(b).data(), qsizetype(text(b).size())));
        if (it == d->classesByName.cend() || *it == cls)
            continue;
        int slot = d->slotTable.find(-1 - *it, name, SlotTable::hash(name));
        if (slot < 0)
            slot = inheritedAttributeSlot(*it, name, depth + 1);
        if (slot >= 0)
            return slot;
    }
    return -1;
}

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
        // An attribute the class never binds may come from a base class of this file
        // (`class Data1D(plottable_1D)`, whose `__init__` sets `self.x = np.asarray(x)`).
        if (slot < 0)
            slot = inheritedAttributeSlot(*it, name, 0);
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
    QString base = aliasOf(text(cur), scopeIndexAt(startOf(cur)));
    if (base.isEmpty()) {
        // `self.xp.zeros(n)`, `harness.np.sum(a)`: an attribute named like the array module
        // that the file reads only as one (ArrayModule.cpp); the chain goes on from it.
        if (depth < 2 || d->moduleAttributes.empty())
            return {};
        const TSNode inner = depth - 1 < int(near.size()) ? near[size_t(depth - 1)]
                                                          : far[size_t(depth - 1) - near.size()];
        if (!moduleAttribute(text(field(inner, F().attribute))))
            return {};
        base = QStringLiteral("numpy");
        --depth; // the attribute named like the module is the base itself
    }
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

} // namespace cnready
