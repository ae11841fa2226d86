// SemanticModel: the array module by name (RULES.md, the workload model item 1). Besides an
// import, the array module reaches code as a value: a parameter or attribute named `np`,
// `numpy`, `cnp` or `xp` that the code uses as a module (`def run(np, n): np.zeros(n)`,
// `np = harness.np`, `self.xp.sum(a)`), the namespace of an array-API helper
// (`xp = array_namespace(x)`, `xp, _ = get_namespace(x)`), or a module object passed to a
// function (`solve(numpy, ...)`, also from another file through the project's facts).
// A name also used as a number (`np = 4; np + 1`, `range(np)`) is never the module.

#include "semantic/ModelInternals.h"

#include "semantic/NumpyNames.h"

namespace cnready {

namespace {

// Names of numpy members that only a module has (the leaves `np.<leaf>` reads): functions
// the model knows, the submodules and the constants and types most code reads. Sorted views
// of one static table: a binary search per attribute, no string built.
bool numpyMember(std::string_view leaf) {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> v;
        for (const char* x :
             {"linalg",    "random",  "fft",      "ma",         "pi",      "e",       "inf",
              "nan",       "newaxis", "float64",  "float32",    "int64",   "int32",   "complex128",
              "complex64", "bool_",   "ndarray",  "dtype",      "finfo",   "iinfo",   "errstate",
              "int8",      "uint8",   "int16",    "uint16",     "uint32",  "uint64",  "float16",
              "intp",      "integer", "floating", "polynomial", "testing", "asarray", "array"})
            v.emplace_back(x);
        const QSet<QString> known = numpy::knownFunctionNames();
        for (const QString& k : known)
            if (!k.contains(QLatin1Char('.')))
                v.push_back(k.toStdString());
        std::sort(v.begin(), v.end());
        v.erase(std::unique(v.begin(), v.end()), v.end());
        return v;
    }();
    const auto it =
        std::lower_bound(names.begin(), names.end(), leaf,
                         [](const std::string& a, std::string_view b) { return a < b; });
    return it != names.end() && *it == leaf;
}

// The leaf of an attribute node's text (`self.xp` → "xp"), without building the field.
std::string_view attributeLeaf(std::string_view t) {
    while (!t.empty() && (t.back() == ' ' || t.back() == '\t' || t.back() == '\n' ||
                          t.back() == '\r' || t.back() == '\\'))
        t.remove_suffix(1);
    if (const size_t dot = t.find_last_of('.'); dot != std::string_view::npos)
        t.remove_prefix(dot + 1);
    while (!t.empty() && (t.front() == ' ' || t.front() == '\t'))
        t.remove_prefix(1);
    return t;
}

} // namespace

bool SemanticModel::isArrayModuleName(std::string_view name) {
    return name == "np" || name == "xp" || name == "cnp" || name == "numpy";
}

bool SemanticModel::isNamespaceHelper(std::string_view leaf) {
    return leaf == "array_namespace" || leaf == "get_namespace";
}

void SemanticModel::findArrayModuleNames() {
    // Per facts slot of a bare name: M_Module read as a module (`np.zeros`), M_Other used as
    // something else (a number, a sequence, a callable). Per candidate attribute name
    // (`X.np`): the same bits, for the whole file. Only a name with M_Module alone counts.
    enum : quint8 { M_Module = 1, M_Other = 2 };
    d->moduleUse.assign(d->facts.size(), 0);
    quint8 attr[4] = {0, 0, 0, 0};
    auto attrSlot = [](std::string_view n) {
        return n == "np" ? 0 : n == "xp" ? 1 : n == "cnp" ? 2 : n == "numpy" ? 3 : -1;
    };
    auto slotOf = [&](TSNode id) { return d->lookup(text(id), scopeIndexAt(startOf(id))); };
    Data::NameSet readAsModule; // names some attribute reads as a module
    // `x` (a bare name or `X.<candidate>`) used as the operand of something other than
    // attribute access.
    auto nonModule = [&](TSNode x) {
        x = unparen(x);
        if (is(x, Sym::identifier)) {
            if (Data::contains(readAsModule, text(x)))
                if (const int sl = slotOf(x); sl >= 0)
                    d->moduleUse[size_t(sl)] |= M_Other;
        } else if (is(x, Sym::attribute)) {
            if (const int s = attrSlot(text(field(x, F().attribute))); s >= 0)
                attr[s] |= M_Other;
        }
    };
    bool helper = false;
    for (TSNode a : m_attributes) {
        const std::string_view leaf = attributeLeaf(text(a));
        const TSNode obj = unparen(field(a, F().object));
        if (is(obj, Sym::identifier)) {
            const std::string_view o = text(obj);
            if (o == "self" || o == "cls" || !numpyMember(leaf))
                continue;
            if (const int sl = slotOf(obj); sl >= 0) {
                d->moduleUse[size_t(sl)] |= M_Module;
                d->moduleUsedAny = true;
                Data::insert(readAsModule, o);
            }
        } else if (is(obj, Sym::attribute)) {
            const std::string_view inner = text(field(obj, F().attribute));
            if (const int s = attrSlot(inner); s >= 0 && numpyMember(leaf))
                attr[s] |= M_Module;
        }
    }
    const bool anyAttr = attr[0] || attr[1] || attr[2] || attr[3];
    if (d->moduleUsedAny || anyAttr) {
        for (TSNode b : m_binaryOps) {
            nonModule(field(b, F().left));
            nonModule(field(b, F().right));
        }
        for (TSNode c : m_comparisons) {
            // `np is None` / `xp is not np` test a module object; other comparisons a value.
            bool identity = false;
            const uint32_t n = ts_node_child_count(c);
            for (uint32_t i = 0; i < n && !identity; ++i) {
                const Sym op = sym(ts_node_child(c, i));
                identity = op == Sym::op_is || op == Sym::op_is_not;
            }
            if (identity)
                continue;
            const uint32_t m = ts_node_named_child_count(c);
            for (uint32_t i = 0; i < m; ++i)
                nonModule(ts_node_named_child(c, i));
        }
        for (TSNode sub : m_subscripts)
            nonModule(field(sub, F().value));
        for (TSNode a : m_augmented)
            nonModule(field(a, F().left));
        // A candidate bound to a literal number, string or container is not the module.
        for (TSNode a : m_assignments) {
            const TSNode right = unparen(field(a, F().right));
            if (is(right, Sym::integer) || is(right, Sym::float_) || is(right, Sym::string) ||
                is(right, Sym::list) || is(right, Sym::tuple) || is(right, Sym::dictionary))
                nonModule(field(a, F().left));
        }
    }
    for (TSNode c : m_calls) {
        const TSNode fn = unparen(field(c, F().function));
        const std::string_view leaf = is(fn, Sym::identifier)  ? text(fn)
                                      : is(fn, Sym::attribute) ? text(field(fn, F().attribute))
                                                               : std::string_view{};
        if (isNamespaceHelper(leaf))
            helper = true;
        if (!d->moduleUsedAny && !anyAttr)
            continue;
        nonModule(fn); // `np(...)`: a callable
        // `range(np)`, `int(np)`: a number.
        if (is(fn, Sym::identifier) &&
            (leaf == "range" || leaf == "int" || leaf == "float" || leaf == "len" || leaf == "str"))
            nonModule(arg(c, 0));
    }
    bool byName = false;
    for (const Data::Binding& b : d->bindings)
        byName = byName || (b.slot >= 0 && d->moduleUse[size_t(b.slot)] == M_Module &&
                            isArrayModuleName(b.name) && b.kind != Data::BindKind::Import);
    for (int s = 0; s < 4; ++s) {
        static constexpr std::string_view names[] = {"np", "xp", "cnp", "numpy"};
        if (attr[s] == M_Module)
            d->moduleAttributes.push_back(names[s]);
    }
    std::sort(d->moduleAttributes.begin(), d->moduleAttributes.end());
    d->namespaceHelper = helper;
    // Rules ask importsNumpy() before looking at a file: code that reaches the array module
    // only as a value uses it all the same.
    // The project passes the module to a function of this file (ProjectFacts.h).
    if (d->facts_ && !d->facts_->moduleParameters.isEmpty())
        byName = true;
    if (byName || !d->moduleAttributes.empty() || helper)
        d->importedModules.insert(QStringLiteral("numpy"));
}

QString SemanticModel::moduleBinding(int bi, ValueKind computed, const QString& alias) const {
    const Data::Binding& b = d->bindings[size_t(bi)];
    static const QString kNumpy = QStringLiteral("numpy");
    if (!alias.isEmpty() && alias == kNumpy)
        return {};
    const TSNode v = unparen(b.value);
    // `xp = array_namespace(x)`, `xp, flag = get_namespace(x)`: the first value is the module.
    if ((b.kind == Data::BindKind::Assign || b.kind == Data::BindKind::Walrus) &&
        d->namespaceHelper && is(v, Sym::call) && b.position <= 0 && b.position != -2) {
        const TSNode fn = unparen(field(v, F().function));
        const std::string_view leaf = is(fn, Sym::identifier)  ? text(fn)
                                      : is(fn, Sym::attribute) ? text(field(fn, F().attribute))
                                                               : std::string_view{};
        if (isNamespaceHelper(leaf))
            return kNumpy;
    }
    if (computed != ValueKind::Unknown && computed != ValueKind::Object)
        return {};
    if (b.kind == Data::BindKind::Param) {
        if (b.splat || !ts_node_is_null(b.annotation))
            return {};
        const int fn = b.scope > 0 ? d->scopes[size_t(b.scope)].function : -1;
        // The module passed in by the project (another file's `solve(numpy, ...)`).
        if (d->facts_ && fn >= 0 && !d->facts_->moduleParameters.isEmpty() &&
            d->facts_->moduleParameters.contains(
                arrayParameterKey(m_functions[size_t(fn)].qualifiedName, m_tree.qtext(b.target))) &&
            onlyCalled(fn, true)) // handed over as a value in its own file: callers unseen
            return kNumpy;
        if (readOnlyAsModule(b.slot) && isArrayModuleName(b.name) &&
            (ts_node_is_null(b.value) || is(unparen(b.value), Sym::none)))
            return kNumpy;
        // Every call of this file passes the module (`solve(np, grid)`) to a parameter read
        // like one (`lib.zeros(n)`).
        if (fn >= 0 && computed == ValueKind::Unknown && readOnlyAsModule(b.slot) &&
            d->escapes.size() > size_t(fn) && d->escapes[size_t(fn)] != 1) {
            if (const std::vector<TSNode>* args = parameterArguments(bi, fn);
                args && !args->empty()) {
                for (const TSNode a : *args)
                    if (canonicalName(a) != kNumpy)
                        return {};
                return kNumpy;
            }
        }
        return {};
    }
    if (b.kind != Data::BindKind::Assign || !isArrayModuleName(b.name) || !readOnlyAsModule(b.slot))
        return {};
    // `np = harness.np` with `harness` imported: an attribute named like the module.
    if (!alias.isEmpty()) {
        const qsizetype dot = alias.lastIndexOf(QLatin1Char('.'));
        const QByteArray leaf = alias.mid(dot + 1).toUtf8();
        return dot > 0 && isArrayModuleName(std::string_view(leaf.constData(), size_t(leaf.size())))
                   ? kNumpy
                   : QString();
    }
    // `np = harness.np`, `args, np, timer = parse_args(p)`: a value of unknown kind.
    if (computed == ValueKind::Unknown)
        return (is(v, Sym::attribute) || is(v, Sym::call) || is(v, Sym::identifier) ||
                is(v, Sym::subscript))
                   ? kNumpy
                   : QString();
    return {};
}

bool SemanticModel::readOnlyAsModule(int slot) const {
    return slot >= 0 && size_t(slot) < d->moduleUse.size() && d->moduleUse[size_t(slot)] == 1;
}

bool SemanticModel::moduleAttribute(std::string_view name) const {
    return Data::contains(d->moduleAttributes, name);
}

} // namespace cnready
