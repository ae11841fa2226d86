// SemanticModel: the per-function summaries the project's facts are solved from
// (model/FunctionSummary.h, analysis/ProjectFacts.cpp): per function its parameters and how
// its own file uses them, what it returns, and what each call to a possible project function
// passes; plus the names the module re-exports by importing them.

#include "semantic/ModelInternals.h"

namespace cnready {

void SemanticModel::exportSummaries(FileResult& out,
                                    const std::vector<std::pair<TSNode, QString>>& calls) const {
    static const QString kNumpy = QStringLiteral("numpy");
    // One summary per function, in order, then one for module-level code.
    out.summaries.reserve(qsizetype(m_functions.size()) + 1);
    for (const FunctionRegion& f : m_functions)
        out.summaries.append(FunctionSummary{f.qualifiedName, {}, {}, {}});
    out.summaries.append(FunctionSummary{});
    // Parameters: per binding, its index among its function's summary parameters.
    std::vector<int> paramIndex(d->bindings.size(), -1);
    for (size_t bi = 0; bi < d->bindings.size(); ++bi) {
        const Data::Binding& b = d->bindings[bi];
        if (b.kind != Data::BindKind::Param || b.scope <= 0 || b.slot < 0)
            continue;
        const int fn = d->scopes[size_t(b.scope)].function;
        if (fn < 0)
            continue;
        SummaryParameter p;
        p.name = m_tree.qtext(b.target);
        p.position = qint16(b.argIndex);
        const Data::Facts& facts = d->facts[size_t(b.slot)];
        const ValueKind k = kindOfBits(facts.bits);
        if (b.splat)
            p.use = SummaryParameter::Use::Closed;
        else if (k == ValueKind::Array)
            p.use = SummaryParameter::Use::Array;
        else if (k == ValueKind::Object && facts.alias == kNumpy)
            p.use = SummaryParameter::Use::Module;
        else if (k == ValueKind::Unknown && openToProjectFact(int(bi)))
            p.use = SummaryParameter::Use::Open;
        QList<SummaryParameter>& list = out.summaries[fn].parameters;
        paramIndex[bi] = int(list.size());
        list.append(std::move(p));
    }
    // The parameter of function `fn` that the bare name `id` reads, when that parameter is the
    // name's only binding (a name rebound in the body may hold anything by then).
    auto parameterRead = [&](TSNode id, int fn) {
        if (!is(id, Sym::identifier) || fn < 0)
            return -1;
        const int slot = d->lookup(text(id), scopeIndexAt(startOf(id)));
        if (slot < 0 || d->facts[size_t(slot)].bindings != 1)
            return -1;
        const int bi = d->lastBinding[size_t(slot)];
        if (bi < 0 || d->bindings[size_t(bi)].kind != Data::BindKind::Param ||
            d->scopes[size_t(d->bindings[size_t(bi)].scope)].function != fn)
            return -1;
        return paramIndex[size_t(bi)];
    };
    // What a value is, as this file sees it (`fn`: the function it is read in, or -1).
    auto describe = [&](TSNode a, int fn) {
        SummaryValue v;
        const TSNode ua = unparen(a);
        if (canonicalName(ua) == kNumpy) {
            v.kind = SummaryValue::Kind::Module;
            return v;
        }
        const ValueKind k = valueKind(ua);
        if (k == ValueKind::Array) {
            // A name that is also a number in its scope is an array only flow-insensitively.
            if (!is(ua, Sym::identifier) ||
                !(lookupBits(text(ua), scopeIndexAt(startOf(ua))) & (B_Host | B_Device)))
                v.kind = SummaryValue::Kind::Array;
            return v;
        }
        if (k != ValueKind::Unknown) {
            v.kind = SummaryValue::Kind::Other;
            return v;
        }
        if (const int p = parameterRead(ua, fn); p >= 0) {
            v.kind = SummaryValue::Kind::Parameter;
            v.parameter = qint16(p);
        } else if (is(ua, Sym::call)) {
            const FunctionRegion* caller = fn >= 0 ? &m_functions[size_t(fn)] : nullptr;
            QString callee = projectCallee(ua, caller);
            if (!callee.isEmpty() && !callee.startsWith(QLatin1String("numpy."))) {
                v.kind = SummaryValue::Kind::CallResult;
                v.callee = std::move(callee);
            }
        }
        return v;
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
        if (!name.isEmpty() && !name.startsWith(QLatin1String("numpy.")) && name != kNumpy)
            out.passedFunctions.append(name);
    };
    for (const auto& [c, callee] : calls) {
        const int fn = functionIndexAt(startOf(c), endOf(c));
        SummaryCall sc;
        sc.callee = callee;
        const TSNode args = field(c, F().arguments);
        if (is(args, Sym::argument_list)) {
            const uint32_t n = ts_node_named_child_count(args);
            for (uint32_t j = 0; j < n; ++j) {
                const TSNode a = ts_node_named_child(args, j);
                const Sym t = sym(a);
                if (t == Sym::comment)
                    continue;
                if (t == Sym::list_splat || t == Sym::dictionary_splat) {
                    sc.splat = true;
                    continue;
                }
                if (t == Sym::keyword_argument) {
                    const TSNode v = field(a, F().value);
                    notePassed(v);
                    sc.keywords.append({m_tree.qtext(field(a, F().name)), describe(v, fn)});
                    continue;
                }
                notePassed(a);
                sc.positional.append(describe(a, fn));
            }
        }
        out.summaries[fn >= 0 ? fn : qsizetype(m_functions.size())].calls.append(std::move(sc));
    }
    // Returns: an array (with its shape when every return has one), or what every `return`
    // of the function yields when they all agree (a parameter, another call's result).
    std::vector<char> state(m_functions.size(), 0); // 0 none seen, 1 agreeing, 2 conflict
    std::vector<Shape> shapes(m_functions.size());
    for (const TSNode r : m_returns) {
        const int fn = functionIndexAt(startOf(r), endOf(r));
        // A nested function is called only where it is defined: no other file reads it.
        if (fn < 0 || state[size_t(fn)] == 2 || m_functions[size_t(fn)].parent >= 0)
            continue;
        const TSNode v = unparen(ts_node_named_child(r, 0));
        if (ts_node_is_null(v) || is(v, Sym::none)) {
            if (m_functions[size_t(fn)].returnsArray) { // sometimes None: no fact
                out.summaries[fn].returns = SummaryValue{};
                state[size_t(fn)] = 2;
            }
            continue;
        }
        SummaryValue& acc = out.summaries[fn].returns;
        if (m_functions[size_t(fn)].returnsArray) {
            // For other files only a function whose every return is a numeric array returns
            // one (`return np.asarray(names, dtype=object)`, a sparse matrix from another
            // branch, a None: no fact); its own file keeps its own view (returnsArray).
            if (valueKind(v) != ValueKind::Array || holdsNonNumeric(v)) {
                acc = SummaryValue{};
                state[size_t(fn)] = 2;
                continue;
            }
            acc.kind = SummaryValue::Kind::Array;
            const Shape s = shapeOf(v);
            shapes[size_t(fn)] = state[size_t(fn)] ? Shape::merge(shapes[size_t(fn)], s) : s;
            state[size_t(fn)] = 1;
            continue;
        }
        SummaryValue now = describe(v, fn);
        // `return 0.5 * field**2`: arithmetic of a parameter with numbers is an array when
        // the parameter is one.
        if (now.kind == SummaryValue::Kind::Unknown && is(v, Sym::binary_operator)) {
            TSNode l = unparen(field(v, F().left)), rt = unparen(field(v, F().right));
            if (is(l, Sym::binary_operator))
                l = unparen(field(l, F().left));
            if (is(rt, Sym::binary_operator))
                rt = unparen(field(rt, F().left));
            const bool ln = is(l, Sym::integer) || is(l, Sym::float_);
            const bool rn = is(rt, Sym::integer) || is(rt, Sym::float_);
            const int p = ln ? parameterRead(rt, fn) : rn ? parameterRead(l, fn) : -1;
            if (p >= 0) {
                now.kind = SummaryValue::Kind::Parameter;
                now.parameter = qint16(p);
            }
        }
        if (now.kind != SummaryValue::Kind::Parameter &&
            now.kind != SummaryValue::Kind::CallResult) {
            acc = SummaryValue{};
            state[size_t(fn)] = 2;
        } else if (state[size_t(fn)] == 0) {
            acc = std::move(now);
            state[size_t(fn)] = 1;
        } else if (!(acc == now)) {
            acc = SummaryValue{};
            state[size_t(fn)] = 2;
        }
    }
    for (size_t fn = 0; fn < m_functions.size(); ++fn) {
        SummaryValue& r = out.summaries[qsizetype(fn)].returns;
        if (r.kind != SummaryValue::Kind::Array || state[fn] != 1)
            continue;
        // Parameter references count the arguments a call writes: a method's `self` is not.
        const FunctionRegion& f = m_functions[fn];
        const int shift = !f.className.isEmpty() && !f.parameters.isEmpty() &&
                                  (f.parameters.first() == QLatin1String("self") ||
                                   f.parameters.first() == QLatin1String("cls"))
                              ? 1
                              : 0;
        Shape s = shapes[fn];
        if (s.known()) {
            for (Extent& e : s.axes)
                if (e.parameter >= 0 && (e.parameter -= qint8(shift)) < 0)
                    e.parameter = e.parameterAxis = -1;
            r.shape = s.toSummary();
        } else if (s.axes[0].parameter >= shift) {
            r.shape = QLatin1Char('=') + QString::number(s.axes[0].parameter - shift);
        }
    }
    // Names the module binds by importing them (`from .core import energy`): another module's
    // `from pkg import energy` reaches pkg.core.energy through them.
    for (size_t i = 0; i < m_importBindings.size(); ++i) {
        const ImportBinding& ib = m_importBindings[i];
        if (ib.star || ib.local.isEmpty() || ib.canonical.startsWith(QLatin1String("numpy")) ||
            !ib.canonical.contains(QLatin1Char('.')) || scopeIndexAt(startOf(ib.node)) != 0)
            continue;
        out.reexports.append(
            {m_module.isEmpty() ? ib.local : m_module + QLatin1Char('.') + ib.local, ib.canonical});
    }
}

} // namespace cnready
