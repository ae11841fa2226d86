#include "rules/R301_scipy.h"

#include "parse/SyntaxTree.h"
#include "rules/RuleSupport.h"
#include "semantic/NumpyNames.h"
#include "semantic/SemanticModel.h"

#include <map>

namespace cnready {

using namespace rules;

const RuleInfo& R301Scipy::info() const {
    static const RuleInfo i{
        QStringLiteral("R301"),
        Category::Info,
        QStringLiteral("scipy-needs-host-arrays"),
        QStringLiteral("SciPy works on host arrays"),
        QStringLiteral("RR-host-fallback"),
        QStringLiteral("Notes every function that calls into `scipy.*` (one note per function, "
                       "listing the SciPy calls) and says whether a call sits on a hot path "
                       "(inside a loop, or in a function called from one) or runs once at a "
                       "boundary. A file that imports SciPy without calling it gets one note at "
                       "the import."),
        QStringLiteral("SciPy only understands host NumPy arrays: a distributed array handed to "
                       "it is gathered and copied to the host first, and the result comes back "
                       "the same way. Once at the start or end of a program this is cheap; on "
                       "every iteration it serialises the run. `scipy.sparse`, "
                       "`scipy.optimize` and `scipy.spatial` rarely have a drop-in on the "
                       "device."),
        QStringLiteral("for k in range(steps):\n"
                       "    field = scipy.ndimage.uniform_filter(field, size=3)"),
        QStringLiteral("host = numpy.asarray(field)           # one copy out\n"
                       "for k in range(steps):\n"
                       "    host = scipy.ndimage.uniform_filter(host, size=3)\n"
                       "field = cupynumeric.asarray(host)    # one copy back"),
        false};
    return i;
}

void R301Scipy::check(const RuleContext& ctx, FindingSink& out) const {
    const SemanticModel& m = ctx.model;
    if (!m.importsModule(QStringLiteral("scipy")))
        return;
    struct Group {
        TSNode first{}, last{};
        QStringList names;
        bool hot = false;
        QString where;
    };
    std::map<int, Group> groups; // function index + 1 (0 = module level)
    for (TSNode call : m.calls()) {
        const QString name = m.callName(call);
        if (!name.startsWith(QLatin1String("scipy.")) || numpy::throughModuleMetadata(name))
            continue; // `scipy.__version__.split('.')`: a version check, no SciPy work
        const FunctionRegion* fn = m.enclosingFunctionRegion(call);
        Group& g = groups[fn ? fn->index + 1 : 0];
        if (ts_node_is_null(g.first)) {
            g.first = call;
            g.where =
                fn ? QStringLiteral("in `%1`").arg(fn->name) : QStringLiteral("at module level");
        }
        g.last = call;
        g.hot = g.hot || m.isHot(call);
        if (!g.names.contains(name))
            g.names << name;
    }
    if (groups.empty()) {
        for (TSNode imp : m.imports())
            if (m.text(imp).find("scipy") != std::string_view::npos) {
                out.report(imp, QStringLiteral("SciPy is imported but not called in this file; "
                                               "where it is used it needs host arrays"));
                return;
            }
        return;
    }
    for (const auto& [key, g] : groups) {
        const QString list = quoteList(g.names, 3);
        QString msg;
        if (g.hot)
            msg = QStringLiteral("%1 %2 on a hot path: each call copies its arrays to the host "
                                 "and back; batch the SciPy work at a boundary")
                      .arg(list, g.where);
        else if (key == 0)
            msg = QStringLiteral("%1 at module level runs once at the boundary: one host copy, "
                                 "acceptable")
                      .arg(list);
        else
            msg = QStringLiteral("%1 %2 runs outside loops here (a boundary unless the function "
                                 "itself is called in a loop): needs host arrays")
                      .arg(list, g.where);
        out.reportSpan(g.first, g.last, msg);
    }
}

} // namespace cnready
