// The semantic model: construction, the node lists, and the export to the file result
// (ModelInternals.h says where the rest of SemanticModel lives).

#include "semantic/ModelInternals.h"

#include "manifest/Manifest.h"
#include "semantic/ComputePath.h"
#include "semantic/LoopWork.h"
#include "semantic/NumpyNames.h"

namespace cnready {

SemanticModel::~SemanticModel() = default;

SemanticModel::SemanticModel(const SyntaxTree& tree, QString moduleName, bool isPackageInit,
                             const FileFacts* facts)
    : m_tree(tree), m_module(std::move(moduleName)), m_isInit(isPackageInit),
      d(std::make_unique<Data>()), m_calls(tree.nodes(SyntaxTree::NodeList::Call)),
      m_subscripts(tree.nodes(SyntaxTree::NodeList::Subscript)),
      m_attributes(tree.nodes(SyntaxTree::NodeList::Attribute)),
      m_assignments(tree.nodes(SyntaxTree::NodeList::Assignment)),
      m_augmented(tree.nodes(SyntaxTree::NodeList::Augmented)),
      m_comprehensions(tree.nodes(SyntaxTree::NodeList::Comprehension)),
      m_fors(tree.nodes(SyntaxTree::NodeList::For)),
      m_whiles(tree.nodes(SyntaxTree::NodeList::While)),
      m_ifs(tree.nodes(SyntaxTree::NodeList::If)),
      m_asserts(tree.nodes(SyntaxTree::NodeList::Assert)),
      m_ternaries(tree.nodes(SyntaxTree::NodeList::Ternary)),
      m_functionDefs(tree.nodes(SyntaxTree::NodeList::FunctionDef)),
      m_classDefs(tree.nodes(SyntaxTree::NodeList::ClassDef)),
      m_importNodes(tree.nodes(SyntaxTree::NodeList::Import)),
      m_decorators(tree.nodes(SyntaxTree::NodeList::Decorator)),
      m_binaryOps(tree.nodes(SyntaxTree::NodeList::BinaryOp)),
      m_comparisons(tree.nodes(SyntaxTree::NodeList::Comparison)),
      m_keywords(tree.nodes(SyntaxTree::NodeList::Keyword)),
      m_slices(tree.nodes(SyntaxTree::NodeList::Slice)),
      m_interpolations(tree.nodes(SyntaxTree::NodeList::Interpolation)),
      m_returns(tree.nodes(SyntaxTree::NodeList::Return)),
      m_lambdas(tree.nodes(SyntaxTree::NodeList::Lambda)) {
    if (facts && !facts->isEmpty())
        d->facts_ = facts;
    index();
    buildImports();
    buildScopes();
    buildLoops();
    buildHotness();
}

std::string_view SemanticModel::text(TSNode n) const {
    return m_tree.text(n);
}

// ---- Node lists -----------------------------------------------------------------------------

void SemanticModel::index() {
    // The lists themselves come from the tree's single walk (SyntaxTree::nodes); what is left
    // here is what the model derives from a few of them.
    d->namedExprs = &m_tree.nodes(SyntaxTree::NodeList::NamedExpr);
    d->withItems = &m_tree.nodes(SyntaxTree::NodeList::WithItem);
    for (TSNode n : m_tree.nodes(SyntaxTree::NodeList::ModuleIf)) {
        // `if __name__ == "__main__":` at module level: a boundary block.
        const TSNode cond = field(n, F().condition);
        if (is(cond, Sym::comparison_operator) &&
            text(cond).find("__name__") != std::string_view::npos &&
            text(cond).find("__main__") != std::string_view::npos)
            d->mainBlocks.push_back(n);
    }
}

std::span<const TSNode> SemanticModel::within(const std::vector<TSNode>& list, TSNode container) {
    if (ts_node_is_null(container))
        return {};
    return within(list, startOf(container), endOf(container));
}

std::span<const TSNode> SemanticModel::within(const std::vector<TSNode>& list, uint32_t start,
                                              uint32_t end) {
    auto lo = std::lower_bound(list.begin(), list.end(), start,
                               [](TSNode n, uint32_t b) { return startOf(n) < b; });
    auto hi =
        std::lower_bound(lo, list.end(), end, [](TSNode n, uint32_t b) { return startOf(n) < b; });
    t_workCounters.withinNodes += quint64(hi - lo);
    return std::span<const TSNode>(list.data() + (lo - list.begin()), size_t(hi - lo));
}

bool SemanticModel::isKnownNumpyFunction(const QString& name) {
    static const QSet<QString> names = [] {
        QSet<QString> s = numpy::knownFunctionNames();
        const Manifest m = Manifest::bundled();
        for (const ManifestEntry& e : m.entries())
            if (e.name.startsWith(QLatin1String("numpy.")) && e.name.count(QLatin1Char('.')) == 1)
                s.insert(e.name.mid(6));
        return s;
    }();
    return names.contains(name);
}

void SemanticModel::exportTo(FileResult& out) const {
    // Imports: canonical modules (with parents), sorted.
    QStringList mods(d->importedModules.begin(), d->importedModules.end());
    mods.sort();
    out.imports = mods;

    for (const FunctionRegion& f : m_functions)
        out.functions.append(
            FunctionInfo{f.qualifiedName,
                         SourceRange{out.path, SyntaxTree::line(f.node), SyntaxTree::column(f.node),
                                     SyntaxTree::endLine(f.node), SyntaxTree::endColumn(f.node)},
                         f.returnsArray});
    std::vector<std::pair<TSNode, QString>> projectCalls; // calls that may reach the project
    // A loop off the compute path (a plotting or I/O loop, a demo generator) does not make
    // what it calls hot. Test modules' loops make only test code hot (the project's merge
    // sees to that).
    const auto hotCaller = [this](TSNode c) {
        const PathRole r = pathRole(c);
        return r == PathRole::Compute || r == PathRole::Test;
    };
    for (TSNode c : m_calls) {
        const FunctionRegion* caller = enclosingFunctionRegion(c);
        QString callee = projectCallee(c, caller);
        // inManyPassLoop(c) once per call (isHot() would ask again, and for the same caller).
        int looped = -1;
        auto loopedNow = [&] {
            if (looped < 0)
                looped = inManyPassLoop(c) ? 1 : 0;
            return looped == 1;
        };
        if (!callee.isEmpty() && !callee.startsWith(QLatin1String("numpy."))) {
            out.calls.append(CallSite{caller ? caller->qualifiedName : QString(), callee,
                                      loopedNow() && hotCaller(c), SyntaxTree::line(c)});
            projectCalls.push_back({c, std::move(callee)});
        }
        // API uses: numpy module functions and ndarray methods.
        const QString api = callName(c);
        if (api.startsWith(QLatin1String("numpy."))) {
            ApiUse u;
            u.name = api;
            u.range = SourceRange{out.path, SyntaxTree::line(c), SyntaxTree::column(c),
                                  SyntaxTree::endLine(c), SyntaxTree::endColumn(c)};
            u.function = caller ? caller->name : QString();
            u.hot = loopedNow() || (caller && caller->locallyHot); // isHot(c)
            if (!u.hot && caller)
                u.requiresHotFunction = caller->qualifiedName;
            u.pathRole = pathRole(c);
            out.apiUses.append(u);
        }
    }
    exportSummaries(out, projectCalls);
}

QString SemanticModel::projectCallee(TSNode c, const FunctionRegion* caller) const {
    const TSNode fn = unparen(field(c, F().function));
    QString callee;
    if (is(fn, Sym::identifier) && !d->isDefName(text(fn))) {
        // Not the name of a local def or class: only an import alias can resolve it.
        callee = aliasOf(text(fn), scopeIndexAt(startOf(fn)));
    } else if (is(fn, Sym::identifier)) {
        const QString nm = m_tree.qtext(fn);
        const int scope = scopeIndexAt(startOf(fn));
        // Local def (nested first), else import alias.
        for (int f = caller ? caller->index : -1; f >= 0 && callee.isEmpty();
             f = m_functions[size_t(f)].parent) {
            const QString rel = m_functions[size_t(f)].name + QLatin1Char('.') + nm;
            if (d->localFunctionsByName.contains(rel))
                callee = m_functions[size_t(d->localFunctionsByName.value(rel))].qualifiedName;
        }
        if (callee.isEmpty() && d->localFunctionsByName.contains(nm))
            callee = m_functions[size_t(d->localFunctionsByName.value(nm))].qualifiedName;
        if (callee.isEmpty() && d->classesByName.contains(nm))
            callee = m_module + QLatin1Char('.') + nm + QStringLiteral(".__init__");
        if (callee.isEmpty())
            callee = aliasOf(text(fn), scope);
    } else if (is(fn, Sym::attribute)) {
        const TSNode obj = field(fn, F().object);
        if (is(obj, Sym::identifier) && (text(obj) == "self" || text(obj) == "cls") && caller &&
            !caller->className.isEmpty())
            callee = m_module + QLatin1Char('.') + caller->className + QLatin1Char('.') +
                     m_tree.qtext(field(fn, F().attribute));
        else
            callee = canonicalName(fn);
        // A method on an instance of a known class: `s = Solver(); s.step()`.
        if (callee.isEmpty())
            callee = callName(c);
    }
    return callee;
}

} // namespace cnready
