#include "report/Report.h"

#include <QIODevice>

#include "doctor/DoctorSummary.h"
#include "doctor/HandOff.h"
#include "rules/Recipes.h"
#include "rules/RuleRegistry.h"

#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QMap>
#include <QSaveFile>
#include <QSet>

#include <algorithm>
#include <vector>

namespace cnready {

QString projectDisplayName(const ProjectResult& project) {
    QString root = project.root;
    while (root.size() > 1 && root.endsWith(QLatin1Char('/')))
        root.chop(1);
    const QString name = root.section(QLatin1Char('/'), -1);
    return name.isEmpty() ? QStringLiteral("project") : name;
}

QSet<QString> testModulePaths(const ProjectResult& project) {
    QSet<QString> paths;
    for (const FileResult& f : project.files)
        if (f.isTest)
            paths.insert(f.path);
    return paths;
}

QString reportName(const ReportInput& in) {
    return in.name.isEmpty() ? projectDisplayName(in.project) : in.name;
}

QString doctorCommand(const QString& entryScript) {
    return doctorLegateCommand(entryScript);
}

QString recipeFor(const Finding& f) {
    if (f.recipeVariant != 0)
        if (QString site = siteRecipe(f.code, f.recipeVariant); !site.isEmpty())
            return site;
    return recipeForCode(f.code);
}

QString recipeForCode(const QString& code) {
    if (const Rule* r = RuleRegistry::instance().find(code))
        if (!r->info().recipe.isEmpty())
            return r->info().recipe;
    for (const Recipe& r : allRecipes())
        if (r.addresses.contains(code))
            return r.anchor;
    return {};
}

QByteArray renderReport(const ReportInput& in, ReportFormat format) {
    switch (format) {
    case ReportFormat::Json:
        return renderJson(in);
    case ReportFormat::Sarif:
        return renderSarif(in);
    case ReportFormat::Markdown:
        break;
    }
    return renderMarkdown(in);
}

bool writeReport(const ReportInput& in, ReportFormat format, QIODevice& device) {
    if (format == ReportFormat::Markdown)
        return writeMarkdown(in, device);
    const QByteArray bytes = renderReport(in, format);
    return device.write(bytes) == bytes.size();
}

bool saveReport(const ReportInput& in, ReportFormat format, const QString& path, QString* error) {
    auto fail = [error](const QString& why) {
        if (error)
            *error = why;
        return false;
    };
    const QFileInfo info(path); // follows symbolic links, like the writes below
    if (info.isDir())
        return fail(QStringLiteral("is a folder"));
    if (info.exists() && !info.isFile()) {
        // QSaveFile would write a temporary file beside it and rename that over the FIFO or
        // device (as root even over /dev/null): write into it instead.
        QFile device(path);
        if (!device.open(QIODevice::WriteOnly | QIODevice::Unbuffered) ||
            !writeReport(in, format, device))
            return fail(device.errorString());
        device.close();
        if (device.error() != QFileDevice::NoError)
            return fail(device.errorString());
        return true;
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || !writeReport(in, format, file) || !file.commit())
        return fail(file.errorString());
    return true;
}

namespace {

QString sites(const QList<SourceRange>& locs, int max = 6) {
    QStringList parts;
    for (qsizetype i = 0; i < locs.size() && i < max; ++i)
        parts << QStringLiteral("`%1`").arg(locs[i].toString());
    if (locs.size() > max)
        parts << QStringLiteral("and %1 more").arg(locs.size() - max);
    return parts.join(QStringLiteral(", "));
}

QString alternativeFor(const QString& pattern) {
    if (pattern == QLatin1String("sparse"))
        return QStringLiteral("keep the sparse algebra on SciPy, or look at legate.sparse or "
                              "cupyx.scipy.sparse if they cover the operations used");
    if (pattern == QLatin1String("graph"))
        return QStringLiteral("use a graph library built for GPUs (for example RAPIDS cuGraph) "
                              "or keep the search on the CPU");
    if (pattern == QLatin1String("ml"))
        return QStringLiteral("use the ML framework's own GPU path (PyTorch, JAX, RAPIDS cuML "
                              "for scikit-learn estimators)");
    if (pattern == QLatin1String("string"))
        return QStringLiteral("keep text processing on the CPU; only a dense numeric stage "
                              "after it could be a candidate");
    if (pattern == QLatin1String("sequential"))
        return QStringLiteral("restructure the recurrence (a parallel scan, a block-wise "
                              "formulation, or many independent series processed together) "
                              "or compile the loop with Numba");
    return QStringLiteral("use a runtime suited to this kind of work");
}

// What an imported Doctor report says, with the run-time only sites as its locations.
NextStep doctorReportStep(const ReportInput& in) {
    const DoctorResult& d = *in.doctor;
    QList<SourceRange> where;
    for (const DoctorSite& s : d.runtimeOnly())
        where << SourceRange{s.path, s.statementLine, 1, s.statementEndLine, 1};
    return NextStep{
        QStringLiteral("doctor-report"), doctorSummaryText(d, in.assessment.findings), {}, where};
}

} // namespace

QList<cost::SiteCost> siteCosts(const ReportInput& in) {
    return cost::estimateSites(in.assessment.findings, cost::inputsFor(in.assessment.context),
                               testModulePaths(in.project));
}

QList<cost::SiteCost> siteCosts(const ReportInput& in, qsizetype limit, qsizetype* total) {
    return cost::estimateSites(in.assessment.findings, cost::inputsFor(in.assessment.context),
                               testModulePaths(in.project), limit, total);
}

QList<NextStep> recommendedSteps(const ReportInput& in) {
    const Assessment& a = in.assessment;
    const Context& c = a.context;
    QList<NextStep> steps;

    if (a.decidingRule == 2) {
        steps << NextStep{QStringLiteral("alternative"),
                          QStringLiteral("Do not port this workload to cuPyNumeric: the dominant "
                                         "pattern is %1. Instead, %2.")
                              .arg(c.pattern, alternativeFor(c.pattern)),
                          {},
                          {}};
        QList<SourceRange> ev;
        for (const PatternEvidence& e : c.patternEvidence)
            ev << e.range;
        if (!ev.isEmpty())
            steps.last().locations = ev;
        steps << NextStep{QStringLiteral("reassess"),
                          QStringLiteral("If one module is purely dense array math, assess it on "
                                         "its own (`cnready assess that/module.py`); it may be a "
                                         "candidate even though the whole is not."),
                          {},
                          {}};
        steps << NextStep{QStringLiteral("doctor"),
                          QStringLiteral("No cuPyNumeric Doctor run: Doctor inspects a running "
                                         "cuPyNumeric program, and this workload should not "
                                         "become one."),
                          {},
                          {}};
        return steps;
    }
    if (a.decidingRule == 1) {
        steps << NextStep{
            QStringLiteral("hardware"),
            QStringLiteral("Secure supported hardware before any porting work: %1. On a Volta-or-"
                           "newer GPU with CUDA 12.x/13.x on Linux or WSL2 this code would get "
                           "**%2**; the steps below apply there.")
                .arg(a.gates.value(0).reason, verdictLabel(a.verdictOnVolta.value_or(a.verdict))),
            {},
            {}};
        if (a.verdictOnVolta == Verdict::NotRecommended)
            return steps;
    }
    if (a.decidingRule == 3) {
        const qint64 per = std::max<qint64>(1, c.perGpuElements);
        const qint64 batch = (1'048'576 + per - 1) / per;
        steps << NextStep{
            QStringLiteral("batching"),
            QStringLiteral("Batch the small arrays before porting: stack %1 arrays of %2 elements "
                           "into one (%1, %4) array (about %3 elements) and express the per-array "
                           "work along axis 1; then re-assess with `--elements %5`. If no "
                           "batching is possible, stay with NumPy and a finer-grained tool "
                           "(Numba, Cython).")
                .arg(batch)
                .arg(formatCount(per))
                .arg(formatCount(batch * per))
                .arg(per)
                .arg(batch * per),
            {},
            {}};
        if (!c.sizeEvidence.isEmpty())
            steps.last().text += QStringLiteral(" Size seen at %1.").arg(c.sizeEvidence);
    }

    // Recipes in priority order, for the workload's sites: test modules keep host NumPy as
    // their reference and the verdict leaves them out, so they are counted apart.
    const QSet<QString> testPaths = testModulePaths(in.project);
    QMap<QString, QList<SourceRange>> byRecipe;
    qsizetype testSites = 0;
    for (const Finding& f : a.findings) {
        if (f.category != Category::Blocks && f.category != Category::Refactor)
            continue;
        if (testPaths.contains(f.range.path)) {
            ++testSites;
            continue;
        }
        const QString anchor = recipeFor(f);
        byRecipe[anchor.isEmpty() ? QStringLiteral("?") + f.code : anchor] << f.range;
    }
    // One site, one fix: a finding inside the lines of another site of the same recipe (R110's
    // `max(row)` in the loop R103 reports) is fixed with it and not listed again. One sweep per
    // recipe over the ranges sorted by file, first line, and last line from the widest: a range
    // lies inside another when an earlier, different range of its file reaches as far (a pairwise
    // test was quadratic: 20,000 findings of one recipe took minutes).
    for (QList<SourceRange>& ranges : byRecipe) {
        const auto endOf = [](const SourceRange& x) { return std::max(x.line, x.endLine); };
        std::vector<qsizetype> order(size_t(ranges.size()));
        for (qsizetype i = 0; i < ranges.size(); ++i)
            order[size_t(i)] = i;
        std::sort(order.begin(), order.end(), [&](qsizetype x, qsizetype y) {
            const SourceRange& a = ranges[x];
            const SourceRange& b = ranges[y];
            if (a.path != b.path)
                return a.path < b.path;
            if (a.line != b.line)
                return a.line < b.line;
            return endOf(a) > endOf(b);
        });
        std::vector<bool> inside(order.size(), false);
        int reach = -1; // widest end among the earlier, different ranges of this file
        const SourceRange* prev = nullptr;
        for (const qsizetype i : order) {
            const SourceRange& r = ranges[i];
            if (!prev || prev->path != r.path)
                reach = -1;
            else if (prev->line != r.line || endOf(*prev) != endOf(r))
                reach = std::max(reach, endOf(*prev)); // a copy of r does not contain it
            inside[size_t(i)] = reach >= endOf(r);
            prev = &r;
        }
        QList<SourceRange> kept;
        for (qsizetype i = 0; i < ranges.size(); ++i)
            if (!inside[size_t(i)])
                kept << ranges[i];
        ranges = kept;
    }
    // Each recipe's cost: the largest rank among its sites (-1 when none is known), the order
    // of the "Where the time would go" table (cost::SiteCost::rankSeconds): the bound per
    // step, except that a bound per pass of an element loop over data of unknown trip count ranks
    // as 65,536 passes, so an element loop is not placed under a one-call row. A bound per run of a
    // site that runs every k-th step, k unknown, says nothing of the step: no rank.
    QHash<SourceRange, double> costBySite;
    for (const cost::SiteBound& b :
         cost::estimateSiteBounds(a.findings, cost::inputsFor(c), testModulePaths(in.project)))
        if (b.sizeKnown && b.ranked)
            costBySite.insert(b.site, b.rankSeconds);
    QHash<QString, double> costByRecipe;
    for (const Finding& f : a.findings) {
        if (f.category != Category::Blocks && f.category != Category::Refactor)
            continue;
        const QString anchor = recipeFor(f);
        const QString key = anchor.isEmpty() ? QStringLiteral("?") + f.code : anchor;
        const double c = costBySite.value(findingSite(f), -1);
        costByRecipe[key] = std::max(costByRecipe.value(key, -1), c);
    }
    // Ordered by cost: the recipes with a bound first, largest first, recipe priority breaking
    // ties; then the recipes with no bound (every site of unknown size, or not costed), in
    // priority order. A recipe without a figure cannot be placed among figures: its priority
    // slot would claim an order the model does not know, and an uncalled or unsized site would
    // sit above milliseconds per step.
    QList<Recipe> ordered;
    QList<Recipe> unranked;
    for (const Recipe& r : allRecipes())
        (costByRecipe.value(r.anchor, -1) >= 0 ? ordered : unranked) << r;
    std::stable_sort(ordered.begin(), ordered.end(), [&](const Recipe& x, const Recipe& y) {
        return costByRecipe.value(x.anchor) > costByRecipe.value(y.anchor);
    });
    ordered << unranked;
    for (const Recipe& r : ordered) {
        const auto it = byRecipe.constFind(r.anchor);
        if (it == byRecipe.cend())
            continue;
        steps << NextStep{QStringLiteral("recipe"),
                          QStringLiteral("Apply **%1** (%2) at %3 site%4: %5. %6")
                              .arg(r.anchor, r.title)
                              .arg(it->size())
                              .arg(it->size() == 1 ? QString() : QStringLiteral("s"))
                              .arg(sites(*it), r.summary),
                          r.anchor, *it};
        byRecipe.remove(r.anchor);
    }
    for (auto it = byRecipe.cbegin(); it != byRecipe.cend(); ++it)
        steps << NextStep{QStringLiteral("recipe"),
                          QStringLiteral("Remove the %1 findings at %2 (no recipe registered "
                                         "for this code yet).")
                              .arg(it.key().mid(1), sites(it.value())),
                          {},
                          it.value()};
    if (testSites > 0)
        steps << NextStep{QStringLiteral("tests"),
                          QStringLiteral("Test modules hold %1 more BLOCKS/REFACTOR site%2. Port "
                                         "them after the workload, keeping their NumPy results "
                                         "as the reference the ported code is checked against.")
                              .arg(testSites)
                              .arg(testSites == 1 ? QString() : QStringLiteral("s")),
                          {},
                          {}};

    for (const ApiGap& g : a.apiGaps) {
        if (!g.rewrite.isEmpty() && g.support == Support::Missing)
            steps << NextStep{QStringLiteral("api-rewrite"),
                              QStringLiteral("Replace `%1` (not implemented in cuPyNumeric) with "
                                             "`%2` at %3.")
                                  .arg(g.name, g.rewrite, sites(g.locations)),
                              {},
                              g.locations};
        else if (g.material && g.support == Support::Missing)
            steps << NextStep{QStringLiteral("api-rewrite"),
                              QStringLiteral("Replace `%1` on the compute path (cuPyNumeric 26.06+ "
                                             "raises AttributeError for it, loop or not), or "
                                             "call host NumPy explicitly on host data there: %2.")
                                  .arg(g.name, sites(g.locations)),
                              {},
                              g.locations};
        else if (g.material)
            steps << NextStep{QStringLiteral("api-rewrite"),
                              QStringLiteral("Move `%1` off the hot path (call it once at the "
                                             "boundary on host data) or replace it: %2.")
                                  .arg(g.name, sites(g.locations)),
                              {},
                              g.locations};
    }
    if (a.codeVerdict != Verdict::Ready) {
        // READY is promised only when the gates that can stop the port (1, 2, 4) pass; an open
        // gate is named with what settles it.
        QStringList open;
        for (const Gate& g : a.gates) {
            if ((g.number != 1 && g.number != 2 && g.number != 4) || g.status == GateStatus::Pass)
                continue;
            const char* settle = g.number == 1   ? "--gpu"
                                 : g.number == 2 ? "--elements"
                                                 : "--pattern";
            open << (g.status == GateStatus::Fail
                         ? QStringLiteral("Gate %1 (%2) fails").arg(g.number).arg(g.name.toLower())
                         : QStringLiteral("Gate %1 (%2) is uncertain, `%3` settles it")
                               .arg(g.number)
                               .arg(g.name.toLower(), QLatin1String(settle)));
        }
        steps << NextStep{
            QStringLiteral("reassess"),
            open.isEmpty()
                ? QStringLiteral("Run `cnready assess` again after the rewrites and confirm the "
                                 "verdict reaches READY.")
                : QStringLiteral("Run `cnready assess` again after the rewrites and confirm the "
                                 "code-level verdict (Gate 3) reaches READY; the verdict itself "
                                 "stays open until the gates do: %1.")
                      .arg(open.join(QStringLiteral("; "))),
            {},
            {}};
    }
    if (!a.pilotModule.isEmpty())
        steps << NextStep{QStringLiteral("pilot"),
                          QStringLiteral("Pilot module: `%1` (%2). Swap `import numpy as np` for "
                                         "`import cupynumeric as np` there first and check the "
                                         "results with `np.allclose` against the NumPy version.")
                              .arg(a.pilotModule, a.pilotReason),
                          {},
                          {SourceRange{a.pilotModule, 0, 1, 0, 1}}};
    if (in.doctor)
        steps << doctorReportStep(in);
    QString handOff =
        QStringLiteral("Hand-off to cuPyNumeric Doctor on the first real run%1: while the code "
                       "still imports numpy, `%2`; once it imports cupynumeric, `%3`.")
            .arg(a.entryScript.isEmpty()
                     ? QStringLiteral(" (no entry script found; replace `main.py` with yours)")
                     : QString(),
                 doctorPatchCommand(a.entryScript), doctorLegateCommand(a.entryScript));
    if (c.nodes > 1)
        handOff += QStringLiteral(" On %1 nodes: `%2` (`--launcher srun` under Slurm).")
                       .arg(c.nodes)
                       .arg(doctorMultiNodeCommand(a.entryScript, c.nodes, c.gpus));
    handOff += QStringLiteral(
        " Launcher flags go before the script (anything after it is the script's own "
        "arguments), and the old report is removed first because a clean run writes no file. "
        "In `doctor-report.json`, look for repeated scalar reads (`.item()`, `float()` of "
        "arrays), per-element indexing and iteration over arrays, gathers through index "
        "arrays, stacking in loops, `nonzero` calls, builtin reductions and an `mpi4py` "
        "import; read it back with `cnready assess --doctor-report doctor-report.json` to "
        "see which findings the run confirmed.");
    steps << NextStep{QStringLiteral("doctor"), handOff, {}, {}};
    steps << NextStep{QStringLiteral("benchmark"),
                      QStringLiteral("Benchmark on one GPU with `legate.timing.time()` against "
                                     "NumPy on the same machine; only when one GPU is clearly "
                                     "faster, add GPUs while each keeps well above 65,536 "
                                     "elements."),
                      {},
                      {}};
    return steps;
}

} // namespace cnready
