// SemanticModel: the kind of an unannotated parameter, from its own function's evidence and
// from the project's call sites (parameter facts).

#include "semantic/ModelInternals.h"

#include "semantic/Docstrings.h"
#include "semantic/NumpyNames.h"

namespace cnready {

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
        if (is(v, Sym::subscript)) // a dispatch table (localCallee)
            return is(unparen(field(v, F().value)), Sym::identifier);
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

bool SemanticModel::documentedAsArray(int bi) const {
    const Data::Binding& b = d->bindings[size_t(bi)];
    const int fn = d->scopes[size_t(b.scope)].function;
    if (fn < 0)
        return false;
    if (d->docRead.size() != m_functions.size()) {
        d->docRead.assign(m_functions.size(), 0);
        d->docArrays.assign(m_functions.size(), {});
    }
    if (!d->docRead[size_t(fn)]) {
        d->docRead[size_t(fn)] = 1;
        const TSNode body = m_functions[size_t(fn)].body;
        const TSNode first = ts_node_is_null(body) ? TSNode{} : ts_node_named_child(body, 0);
        if (!ts_node_is_null(first) && is(first, Sym::expression_statement)) {
            const TSNode str = ts_node_named_child(first, 0);
            if (!ts_node_is_null(str) && is(str, Sym::string))
                d->docArrays[size_t(fn)] = documentedArrayParameters(text(str));
        }
    }
    const std::vector<std::string_view>& names = d->docArrays[size_t(fn)];
    const std::string_view nm = text(b.target);
    return std::find(names.begin(), names.end(), nm) != names.end();
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
    // Documented as one: `d : ndarray` in the docstring's Parameters section.
    if (documentedAsArray(bi))
        return ValueKind::Array;
    // The project's call sites in other files pass arrays for it (ProjectAnalyzer).
    if (d->facts_ && openToProjectFact(bi)) {
        const int owner = d->scopes[size_t(b.scope)].function;
        if (d->facts_->arrayParameters.contains(arrayParameterKey(
                m_functions[size_t(owner)].qualifiedName, m_tree.qtext(b.target)))) {
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

} // namespace cnready
