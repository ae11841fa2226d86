// SemanticModel: calls to the file's own functions, hot paths and regions.

#include "semantic/ModelInternals.h"

#include "semantic/LoopWork.h"
#include "semantic/NumpyNames.h"

#include <cctype>
#include <string>

namespace cnready {

// ---- Hot paths and regions ----------------------------------------------------------------

namespace {
// Resolution of a call to a function of this file or of the project.
} // namespace

int SemanticModel::localCallee(TSNode c, bool* bound) const {
    TSNode fn = unparen(field(c, F().function));
    // `ops["rfft"](x)` of a dispatch table bound once (`ops = {"rfft": _gpu_rfft, ...}`): the
    // call runs the function the key names.
    if (is(fn, Sym::subscript)) {
        const TSNode table = unparen(field(fn, F().value));
        const TSNode key = ts_node_child_by_field_name(fn, "subscript", 9);
        NameBinding b[2];
        if (!is(table, Sym::identifier) || !is(key, Sym::string) ||
            nameBindings(text(table), c, false, b, 2) != 1 ||
            b[0].kind != NameBinding::Kind::Assign ||
            SyntaxTree::type(unparen(b[0].value)) != "dictionary")
            return -1;
        const TSNode dict = unparen(b[0].value);
        TSNode named{};
        for (uint32_t i = 0; i < ts_node_named_child_count(dict); ++i) {
            const TSNode pair = ts_node_named_child(dict, i);
            if (SyntaxTree::type(pair) == "pair" &&
                text(ts_node_child_by_field_name(pair, "key", 3)) == text(key))
                named = unparen(ts_node_child_by_field_name(pair, "value", 5));
        }
        if (ts_node_is_null(named) || !is(named, Sym::identifier))
            return -1;
        fn = named;
    }
    int target = -1;
    bool viaInstance = false;
    // Every lookup below needs the callee's name to be the last component of a def or class
    // name of this file: most calls are dismissed before any string is built.
    if (is(fn, Sym::identifier) && d->isDefName(text(fn))) {
        const QString nm = m_tree.qtext(fn);
        // Nested function of an enclosing function, then module-level function, then class.
        const int caller = functionIndexAt(startOf(c), endOf(c));
        for (int f = caller; f >= 0 && target < 0; f = m_functions[size_t(f)].parent) {
            const auto it = d->localFunctionsByName.constFind(m_functions[size_t(f)].name +
                                                              QLatin1Char('.') + nm);
            if (it != d->localFunctionsByName.cend())
                target = *it;
        }
        if (target < 0)
            target = d->localFunctionsByName.value(nm, -1);
        if (target < 0 && d->classesByName.contains(nm)) {
            target = d->localFunctionsByName.value(nm + QStringLiteral(".__init__"), -1);
            viaInstance = true;
        }
    } else if (is(fn, Sym::attribute)) {
        const TSNode obj = field(fn, F().object);
        if (is(obj, Sym::identifier) && (text(obj) == "self" || text(obj) == "cls")) {
            const int caller = functionIndexAt(startOf(c), endOf(c));
            if (caller >= 0 && !m_functions[size_t(caller)].className.isEmpty() &&
                d->isDefName(text(field(fn, F().attribute))))
                target = d->localFunctionsByName.value(m_functions[size_t(caller)].className +
                                                           QLatin1Char('.') +
                                                           m_tree.qtext(field(fn, F().attribute)),
                                                       -1);
            viaInstance = true;
        }
    }
    if (bound)
        *bound = viaInstance;
    return target;
}

const std::vector<int>& SemanticModel::callsTo(int function) const {
    static const std::vector<int> none;
    if (!d->callsByCalleeBuilt) {
        d->callsByCalleeBuilt = true;
        d->callsByCallee.assign(m_functions.size(), {});
        const bool known = d->callTargets.size() == m_calls.size();
        for (size_t i = 0; i < m_calls.size(); ++i) {
            const int target = known ? d->callTargets[i] : localCallee(m_calls[i], nullptr);
            if (target >= 0 && size_t(target) < d->callsByCallee.size())
                d->callsByCallee[size_t(target)].push_back(int(i));
        }
    }
    return function >= 0 && size_t(function) < d->callsByCallee.size()
               ? d->callsByCallee[size_t(function)]
               : none;
}

void SemanticModel::buildHotness() {
    // Local call graph.
    std::vector<std::vector<int>> callees(m_functions.size());
    std::vector<int> work;
    // collectParameterHints() resolved every call already when it ran.
    const bool known = d->callTargets.size() == m_calls.size();
    for (size_t i = 0; i < m_calls.size(); ++i) {
        const TSNode c = m_calls[i];
        const int target = known ? d->callTargets[i] : localCallee(c, nullptr);
        if (target < 0)
            continue;
        const int caller = functionIndexAt(startOf(c), endOf(c));
        if (inManyPassLoop(c))
            work.push_back(target);
        else if (caller >= 0)
            callees[size_t(caller)].push_back(target);
    }
    while (!work.empty()) {
        const int f = work.back();
        work.pop_back();
        if (m_functions[size_t(f)].locallyHot)
            continue;
        m_functions[size_t(f)].locallyHot = true;
        for (int g : callees[size_t(f)])
            work.push_back(g);
    }
}

const FunctionRegion* SemanticModel::enclosingFunctionRegion(TSNode n) const {
    const int f = functionIndexAt(startOf(n), endOf(n));
    return f >= 0 ? &m_functions[size_t(f)] : nullptr;
}

QString SemanticModel::enclosingFunction(TSNode n) const {
    const FunctionRegion* f = enclosingFunctionRegion(n);
    return f ? f->name : QString();
}

QString SemanticModel::enclosingClass(TSNode n) const {
    int s = scopeIndexAt(startOf(n));
    while (s > 0 && d->scopes[size_t(s)].cls < 0)
        s = d->scopes[size_t(s)].structuralParent;
    return s > 0 ? m_classes[size_t(d->scopes[size_t(s)].cls)].name : QString();
}

namespace {
// Names of collections whose items are the data themselves or the steps of a computation
// (`for p in points`, `for t in times`, `for chunk in blocks`): a loop over one of them runs
// once per datum or step even when nothing sizes the collection.
bool namesDataOrSteps(std::string_view leaf) {
    if (leaf.size() <= 2)
        return true; // `x`, `X`, `xs`, `ts`: too short to say it is not the data
    static const char* const words[] = {
        "point",  "sample", "row",   "pixel",   "voxel",  "event", "particle", "atom",
        "star",   "record", "elem",  "cell",    "node",   "edge",  "vert",     "face",
        "triang", "frame",  "time",  "step",    "epoch",  "iter",  "batch",    "chunk",
        "block",  "tile",   "obs",   "segment", "window", "coord", "position", "value",
        "data",   "item",   "entr",  "line",    "word",   "token", "seq",      "read",
        "sweep",  "pair",   "index", "indic",   "idx",    "ids",   "member",   "neighbo",
        "vector", "array",  "eval",  "part",    "piece",  "file",  "path"};
    std::string lower(leaf);
    for (char& ch : lower)
        ch = char(std::tolower(static_cast<unsigned char>(ch)));
    for (const char* w : words)
        if (lower.find(w) != std::string::npos)
            return true;
    return false;
}

// overConfiguredItems() without its per-loop cache.
bool configuredItemsLoop(const SemanticModel& m, const LoopInfo& L) {
    TSNode it = unparen(L.iterable);
    if (L.source == LoopSource::Collection && is(it, Sym::call)) {
        // `zip(thrus, ideals)`, `enumerate(standards)`, `d.items()`: the first collection named.
        const TSNode fn = unparen(field(it, F().function));
        if (is(fn, Sym::attribute))
            it = unparen(field(fn, F().object));
        else if (SemanticModel::positionalCount(it) > 0)
            it = unparen(SemanticModel::argument(it, 0));
    } else if (L.source != LoopSource::Unknown && L.source != LoopSource::Collection) {
        return false;
    }
    if (is(it, Sym::attribute))
        it = field(it, F().attribute);
    if (!is(it, Sym::identifier) || namesDataOrSteps(m.text(it)))
        return false;
    // `for i in picks: y[i] = ...`: the items index arrays, so they are positions in the data.
    for (const TSNode s : SemanticModel::within(m.subscripts(), L.hotStart, L.hotEnd)) {
        const TSNode value = field(s, F().value);
        for (uint32_t k = 0; k < ts_node_named_child_count(s); ++k) {
            const TSNode index = ts_node_named_child(s, k);
            if (!ts_node_eq(index, value) && m.usesLoopVariable(index, L))
                return false;
        }
    }
    return true;
}
} // namespace

bool SemanticModel::overConfiguredItems(const LoopInfo& L) const {
    if (L.kind != LoopKind::For || tripClass(L) != TripClass::Unknown)
        return false;
    if (d->configuredItems.size() != m_loops.size())
        d->configuredItems.assign(m_loops.size(), -1);
    qint8& known = d->configuredItems[size_t(L.index)];
    if (known < 0)
        known = configuredItemsLoop(*this, L) ? 1 : 0;
    return known == 1;
}

bool SemanticModel::fewPasses(const LoopInfo& L) const {
    // A literal count above the handful of SmallLiteralRange is how scripts write an iteration
    // budget (`for it in range(100)`): those passes are steps, whatever the trip class says
    // about the size of what they index.
    if (L.source == LoopSource::SmallLiteralRange)
        return true;
    if (overConfiguredItems(L))
        return true;
    return tripClass(L) == TripClass::Small && !(L.literalCount > kFewPassLiteral);
}

bool SemanticModel::inManyPassLoop(TSNode n) const {
    for (const LoopInfo* L = enclosingLoop(n); L;
         L = L->parent >= 0 ? &m_loops[size_t(L->parent)] : nullptr)
        if (!fewPasses(*L))
            return true;
    return false;
}

bool SemanticModel::isHot(TSNode n) const {
    // A loop over a handful of items (`for axis in range(3)`, six flags, the model's few
    // lags) runs its body a few times: that is no hot path of its own (RULES.md, the
    // workload model items 4-5); an outer loop or a hot function still makes it one.
    if (inManyPassLoop(n))
        return true;
    const FunctionRegion* f = enclosingFunctionRegion(n);
    return f && f->locallyHot;
}

bool SemanticModel::atBoundary(TSNode n) const {
    return !inLoop(n) && enclosingFunctionRegion(n) == nullptr;
}

QString SemanticModel::hotCondition(TSNode n) const {
    if (isHot(n))
        return {};
    const FunctionRegion* f = enclosingFunctionRegion(n);
    return f ? f->qualifiedName : QString();
}

} // namespace cnready
