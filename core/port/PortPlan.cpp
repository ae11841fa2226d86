#include "port/PortPlan.h"

#include "analysis/FileAnalyzer.h"
#include "parse/SyntaxTree.h"
#include "port/ModuleVerdict.h"
#include "port/Rewrites.h"
#include "port/UnifiedDiff.h"
#include "semantic/ComputePath.h"
#include "semantic/SemanticModel.h"

#include <QFile>

#include <algorithm>

namespace cnready {

namespace {

bool portableCode(const QString& code) {
    return code == QLatin1String("R109") || code == QLatin1String("R110") ||
           code == QLatin1String("R202");
}

// A diagnostic that means the analysis did not read the file as Python reads it.
bool readProblem(const FileDiagnostic& d) {
    return d.kind != FileDiagnostic::Kind::Suppression;
}

// Whether the module calls an API the manifest marks not implemented: cuPyNumeric raises
// AttributeError for it, wherever the call sits.
bool callsMissingApi(const ProjectResult& project, const QString& path, const Manifest& manifest) {
    for (const ApiUse& u : project.apiUses) {
        if (u.range.path != path)
            continue;
        QString name = u.name;
        if (name.startsWith(QLatin1String("cupynumeric.")))
            name = QStringLiteral("numpy.") + name.mid(12);
        const ManifestEntry* e = manifest.entry(name);
        if (e && e->support == Support::Missing)
            return true;
    }
    return false;
}

// Whether the module names a NumPy attribute the manifest marks not implemented without
// calling it (`np.longdouble` as a dtype, `np.newaxis`-like constants): the analysis records
// calls only, but under cuPyNumeric such a name raises AttributeError just the same.
bool namesMissingAttribute(const SemanticModel& model, const Manifest& manifest) {
    for (const TSNode a : model.attributes()) {
        const TSNode parent = model.tree().parent(a);
        if (SyntaxTree::is(parent, "attribute") || SyntaxTree::is(parent, "call"))
            continue; // the outermost name only; calls are in the project's API uses
        QString name = model.canonicalName(a);
        if (name.startsWith(QLatin1String("cupynumeric.")))
            name = QStringLiteral("numpy.") + name.mid(12);
        if (!name.startsWith(QLatin1String("numpy.")))
            continue;
        const ManifestEntry* e = manifest.entry(name);
        if (e && e->support == Support::Missing)
            return true;
    }
    return false;
}

// Whether the module tests types against NumPy's own (`isinstance(x, np.ndarray)`,
// `np.ma.MaskedArray`, `type(a) is np.ndarray`): after the swap the name means cuPyNumeric's
// type, and arrays that host libraries hand back would fail the test, so the module would
// change what it does.
bool testsNumpyTypes(const SemanticModel& model) {
    for (const TSNode a : model.attributes()) {
        QString name = model.canonicalName(a);
        if (name.startsWith(QLatin1String("cupynumeric.")))
            continue; // already cuPyNumeric's type
        if (name != QLatin1String("numpy.ndarray") && name != QLatin1String("numpy.generic") &&
            !name.startsWith(QLatin1String("numpy.ma.")))
            continue;
        // An annotation (`def f(a: np.ndarray)`, `-> np.ndarray`) tests nothing at run time.
        bool annotation = false;
        for (TSNode p = model.tree().parent(a); !ts_node_is_null(p) && !annotation;
             p = model.tree().parent(p))
            annotation = SyntaxTree::is(p, "type");
        if (!annotation)
            return true;
    }
    return false;
}

FilePort planFile(const ProjectResult& project, const FileResult& file, const Manifest& manifest) {
    FilePort port;
    port.path = file.path;
    QList<Finding> candidates, counted;
    for (const Finding& f : project.findings)
        if (f.range.path == file.path) {
            counted << f;
            if (portableCode(f.code))
                candidates << f;
        }
    for (const Finding& f : project.offComputePath)
        if (f.range.path == file.path && portableCode(f.code))
            candidates << f;
    const bool swapCandidate = !file.isTest && file.imports.contains(QStringLiteral("numpy"));
    if (candidates.isEmpty() && !swapCandidate)
        return port;
    auto skip = [&](const QString& why) {
        // Only a file that had something to rewrite is worth a line.
        if (!candidates.isEmpty())
            port.skipped = why;
        return port;
    };
    if (isNotebookPath(file.path) || !file.notebook.isEmpty())
        return skip(QStringLiteral("notebooks are not rewritten (%1 site(s) to edit by hand)")
                        .arg(candidates.size()));
    if (wasSkipped(file) || std::any_of(project.diagnostics.cbegin(), project.diagnostics.cend(),
                                        [&](const FileDiagnostic& d) {
                                            return d.range.path == file.path && readProblem(d);
                                        }))
        return skip(QStringLiteral("the analysis could not read it cleanly (see the report)"));
    QFile in(project.root + QLatin1Char('/') + file.path);
    if (!in.open(QIODevice::ReadOnly))
        return skip(QStringLiteral("cannot read it: %1").arg(in.errorString()));
    const QByteArray bytes = in.readAll();
    if (firstInvalidUtf8(bytes) >= 0 || bytes.startsWith("\xEF\xBB\xBF"))
        return skip(QStringLiteral("it is not plain UTF-8 text"));
    const SyntaxTree tree(bytes);
    if (!tree.isValid() || tree.isCorrupt() || tree.hasErrors())
        return skip(QStringLiteral("it no longer parses cleanly"));
    const SemanticModel model(tree, file.moduleName,
                              file.path.endsWith(QLatin1String("__init__.py")));

    const QString alias = numpyAlias(model);
    QList<Finding> fixed;
    for (const Finding& f : candidates) {
        std::optional<Rewrite> r;
        if (f.code == QLatin1String("R110"))
            r = builtinReductionRewrite(model, f, alias);
        else if (f.code == QLatin1String("R109"))
            r = defaultOrderRewrite(model, f);
        else
            r = inPlaceUpdateRewrite(model, f);
        if (!r)
            continue;
        // One edit per place: two findings on one call never both rewrite it.
        const bool overlaps =
            std::any_of(port.rewrites.cbegin(), port.rewrites.cend(), [&](const Rewrite& o) {
                return r->startByte < o.endByte && o.startByte < r->endByte;
            });
        if (overlaps)
            continue;
        port.rewrites << *r;
        fixed << f;
        if (!port.codes.contains(f.code))
            port.codes << f.code;
    }
    QList<Finding> remaining;
    for (const Finding& f : counted)
        if (!fixed.contains(f))
            remaining << f;
    port.verdictAfter = moduleVerdict(project, file.path, remaining, manifest);
    // Only a module that does array work on the compute path gains from the swap: a plotting
    // module or an instrument driver with no such work would hand device arrays to host
    // libraries for nothing (a trial on scikit-rf swapped plotting.py and its VNA drivers).
    const bool computes =
        ComputePathEngine::moduleRoleOfName(file.moduleName) == PathRole::Compute &&
        std::any_of(counted.cbegin(), counted.cend(), [](const Finding& f) {
            return f.category == Category::Scales && f.pathRole == PathRole::Compute;
        });
    // A module already on cuPyNumeric (`import cupynumeric as np`) has no swap to make.
    const QList<Rewrite> swap = swapCandidate ? importSwapRewrites(model) : QList<Rewrite>();
    if (!swap.isEmpty()) {
        // Say why the swap is not made: a user reading the preview otherwise cannot tell a
        // module that needs more work from one the port overlooked.
        const QString after =
            port.rewrites.isEmpty() ? QString() : QStringLiteral(" after these fixes");
        if (port.verdictAfter != Verdict::Ready)
            port.importKept = QStringLiteral("the module's verdict is %1%2; the swap needs READY")
                                  .arg(verdictLabel(port.verdictAfter), after);
        else if (!computes)
            port.importKept = QStringLiteral("no whole-array work on the compute path (plotting, "
                                             "I/O or a driver): host NumPy serves it");
        else if (callsMissingApi(project, file.path, manifest))
            port.importKept = QStringLiteral("it calls an API the manifest marks not implemented "
                                             "in cuPyNumeric (see the report's API gaps)");
        else if (testsNumpyTypes(model))
            port.importKept = QStringLiteral("it names NumPy's own types (np.ndarray, np.ma): "
                                             "after the swap they mean cuPyNumeric's, and "
                                             "arrays from host libraries would no longer match");
        else if (namesMissingAttribute(model, manifest))
            port.importKept = QStringLiteral("it names a NumPy attribute cuPyNumeric does not "
                                             "have (see the report's API gaps)");
        else {
            port.importSwapped = true;
            port.rewrites << swap;
        }
    }
    std::sort(port.codes.begin(), port.codes.end());
    std::stable_sort(port.rewrites.begin(), port.rewrites.end(),
                     [](const Rewrite& a, const Rewrite& b) { return a.startByte < b.startByte; });
    port.diff = unifiedDiff(file.path, bytes, port.rewrites);
    return port;
}

QByteArray headline(const FilePort& f) {
    QByteArray line = "# cnready port: " + f.path.toUtf8();
    if (!f.skipped.isEmpty())
        return line + " skipped: " + f.skipped.toUtf8() + "\n";
    if (f.rewrites.isEmpty())
        return line + " keeps import numpy: " + f.importKept.toUtf8() + "\n";
    QStringList parts;
    if (!f.codes.isEmpty())
        parts << QStringLiteral("fixes %1").arg(f.codes.join(QStringLiteral(", ")));
    if (!f.importKept.isEmpty())
        parts << QStringLiteral("keeps import numpy: %1").arg(f.importKept);
    if (f.importSwapped)
        parts << QStringLiteral("import numpy -> cupynumeric (module %1%2)")
                     .arg(verdictLabel(f.verdictAfter),
                          f.codes.isEmpty() ? QString() : QStringLiteral(" after these fixes"));
    return line + ' ' + parts.join(QStringLiteral("; ")).toUtf8() + "\n";
}

} // namespace

PortPlan planPort(const ProjectResult& project, const Manifest& manifest, const QString& onlyPath) {
    PortPlan plan;
    for (const FileResult& f : project.files) {
        if (!onlyPath.isEmpty() && f.path != onlyPath)
            continue;
        FilePort p = planFile(project, f, manifest);
        if (!p.diff.isEmpty() || !p.skipped.isEmpty() || !p.importKept.isEmpty())
            plan.files << p;
    }
    std::sort(plan.files.begin(), plan.files.end(),
              [](const FilePort& a, const FilePort& b) { return a.path < b.path; });
    return plan;
}

QByteArray renderPortDiff(const PortPlan& plan) {
    QByteArray out;
    for (const FilePort& f : plan.files)
        out += headline(f) + f.diff;
    return out;
}

QByteArray renderPortList(const PortPlan& plan) {
    QByteArray out;
    for (const FilePort& f : plan.files) {
        if (!f.skipped.isEmpty()) {
            out += f.path.toUtf8() + ": skipped: " + f.skipped.toUtf8() + "\n";
            continue;
        }
        if (!f.importKept.isEmpty())
            out += f.path.toUtf8() + ": keeps import numpy: " + f.importKept.toUtf8() + "\n";
        for (const Rewrite& r : f.rewrites)
            out += QStringLiteral("%1:%2 %3 %4\n")
                       .arg(f.path)
                       .arg(r.line)
                       .arg(r.code.isEmpty() ? QStringLiteral("swap") : r.code, r.note)
                       .toUtf8();
    }
    return out;
}

} // namespace cnready
