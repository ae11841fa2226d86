// What to run first (PRODUCT.md, "Recommended next steps"): the pilot module to swap first and
// the entry script the Doctor hand-off runs, both taken from the workload, never from tests,
// demos or data generators (RULES.md, the workload model item 5).
#include "assess/AssessInternals.h"
#include "model/PathRole.h"
#include "semantic/ComputePath.h"

#include <QHash>
#include <QMap>
#include <QSet>

namespace cnready::assessment {

namespace {

// A file kept as demo or example material (an `examples/`, `demo*/`, `data/` or `datasets/` folder,
// a `demo_*.py` or `example_*.py` file), or one that makes test or demo data (`make_test_data.py`,
// `generate_data.py`, `fake_*.py`, a data-set downloader, or a file whose array work is all in
// demo-data functions: FileResult::isDemoData): it shows the library off or feeds its tests rather
// than being the workload, so it is neither the pilot module nor the script Doctor runs (RULES.md,
// the workload model item 5).
bool demoMaterial(const FileResult& f) {
    if (f.isDemoData)
        return true;
    const QStringList parts = f.path.toLower().split(QLatin1Char('/'));
    for (qsizetype i = 0; i < parts.size(); ++i) {
        const QString& p = parts[i];
        const bool last = i + 1 == parts.size();
        // A `datasets/` or `data/` package loads, fetches or makes sample data (sklearn's
        // make_blobs, scipy's and astroML's fetchers, pywt.data's create_dat.py script and
        // demo signals, skimage.data): it feeds the workload, it is not the workload.
        if (!last && (isDemoFolderName(p) || p == QLatin1String("datasets") ||
                      p == QLatin1String("data") || p == QLatin1String("testdata") ||
                      p == QLatin1String("test_data") || p == QLatin1String("sample_data")))
            return true;
        if (last && (p.startsWith(QLatin1String("demo")) || p.startsWith(QLatin1String("example"))))
            return true;
        if (!last)
            continue;
        // A data generator by its name: a verb of making followed by data, or a word that
        // says the data are made up.
        QString stem = p.section(QLatin1Char('.'), 0, 0);
        while (stem.startsWith(QLatin1Char('_')))
            stem.remove(0, 1);
        // A script that downloads or fetches data sets (scipy's `datasets/_download_all.py`)
        // feeds the workload; it is not the workload either.
        if (stem.startsWith(QLatin1String("download")) || stem.startsWith(QLatin1String("fetch")))
            return true;
        static const char* const makers[] = {"make_", "gen_", "generate_", "create_", "build_"};
        for (const char* m : makers)
            if (stem.startsWith(QLatin1String(m)) && stem.contains(QLatin1String("data")))
                return true;
        // `samples_generator.py`, `data_generators.py`: a generator of data, by name.
        if (stem.contains(QLatin1String("generator")) &&
            (stem.contains(QLatin1String("sample")) || stem.contains(QLatin1String("data"))))
            return true;
        // Not "synthetic": synthetic seismograms or apertures are the computation itself.
        static const char* const madeUp[] = {"fake",      "toy_",    "sample_data", "testdata",
                                             "test_data", "datagen", "data_gen"};
        for (const char* w : madeUp)
            if (stem.startsWith(QLatin1String(w)))
                return true;
    }
    return false;
}

// A packaging or build script (`setup.py`, `noxfile.py`, `versioneer.py`): it configures
// the build and runs no workload, so Doctor has nothing to watch in it (nipy's entry script
// was `labs/setup.py`, an old numpy.distutils configuration).
bool packagingScript(const FileResult& f) {
    const QString name = f.path.section(QLatin1Char('/'), -1).toLower();
    return name == QLatin1String("setup.py") || name == QLatin1String("noxfile.py") ||
           name == QLatin1String("versioneer.py") || name == QLatin1String("conftest.py") ||
           name == QLatin1String("_version.py") || name == QLatin1String("fabfile.py");
}

// A module whose dotted name puts it off the compute path (ComputePathEngine::
// moduleRoleOfName): plotting and GUI packages, readers and writers, and, for the pilot only,
// command-line front-ends (a `cli.py` is still a good script for Doctor to run). astroML's
// pilot was `plotting/regression.py` before this check.
bool offPathModule(const FileResult& f, bool forEntryScript) {
    switch (ComputePathEngine::moduleRoleOfName(f.moduleName)) {
    case PathRole::Compute:
        return false;
    case PathRole::Setup:
        return !forEntryScript;
    default:
        return true;
    }
}

// Whether an entry script reaches the workload at all: it does array work of its own (a
// finding or a NumPy call in it: `arrayWork` holds such paths) or imports a module of the
// project. A script that only uses the standard library (sklearn's
// `_min_dependencies.py` prints version pins), or imports NumPy only to read its version
// (scipy's build helper `stats/_generate_pyx.py`), gives Doctor nothing to look at.
bool reachesWorkload(const FileResult& f, const QSet<QString>& projectModules,
                     const QSet<QString>& arrayWork) {
    if (!f.apiUses.isEmpty() || arrayWork.contains(f.path))
        return true;
    for (const QString& i : f.imports)
        if (i != f.moduleName && projectModules.contains(i))
            return true;
    return false;
}

} // namespace

QString chooseEntryScript(const ProjectResult& project) {
    static const QStringList preferred = {QStringLiteral("main.py"), QStringLiteral("__main__.py"),
                                          QStringLiteral("run.py"), QStringLiteral("cli.py"),
                                          QStringLiteral("app.py")};
    // Every project module and package, also without its leading folders ("src.pkg.sim" is
    // "pkg.sim" to a script that puts src/ on the path). Runs of one part count only at the
    // top ("pkg"): a subpackage named `io` or `signal` must not match the standard library.
    QSet<QString> modules;
    for (const FileResult& f : project.files) {
        const QStringList parts = f.moduleName.split(QLatin1Char('.'), Qt::SkipEmptyParts);
        for (qsizetype from = 0; from < parts.size(); ++from)
            for (qsizetype to = from + 1; to <= parts.size(); ++to)
                if (from == 0 || to - from >= 2)
                    modules.insert(parts.mid(from, to - from).join(QLatin1Char('.')));
    }
    QSet<QString> arrayWork;
    for (const QList<Finding>* list : {&project.findings, &project.offComputePath})
        for (const Finding& f : *list)
            arrayWork.insert(f.range.path);
    QString best;
    int bestRank = 1000;
    for (const FileResult& f : project.files) {
        if (!f.isEntryScript || f.isTest || demoMaterial(f) || packagingScript(f) ||
            offPathModule(f, true) || !reachesWorkload(f, modules, arrayWork))
            continue;
        const QString name = f.path.section(QLatin1Char('/'), -1);
        int rank = int(preferred.indexOf(name));
        if (rank < 0)
            rank = name.startsWith(QLatin1String("run")) ? 10 : 20;
        rank = rank * 10 + int(f.path.count(QLatin1Char('/'))); // shallower first
        if (rank < bestRank) {
            bestRank = rank;
            best = f.path;
        }
    }
    return best;
}

void choosePilot(const ProjectResult& project, const FindingSelection& findings, Assessment& a) {
    QMap<QString, QPair<int, int>> counts; // path → (scales, blocks)
    QSet<QString> tests;
    for (const FileResult& f : project.files)
        if (f.isTest || demoMaterial(f) || packagingScript(f) || offPathModule(f, false))
            tests.insert(f.path);
    for (const Finding& f : findings) {
        if (tests.contains(f.range.path))
            continue;
        if (f.category == Category::Scales)
            ++counts[f.range.path].first;
        else if (f.category == Category::Blocks)
            ++counts[f.range.path].second;
    }
    // Per file, the calls of APIs the manifest marks ✗ (a.apiGaps, built before): after the
    // import swap each one raises AttributeError (cuPyNumeric 26.06+), so a module with them
    // cannot run as the pilot until they are rewritten. Dtype queries and names count too:
    // they do no array work, but the swapped module still lacks the name.
    QHash<QString, QMap<QString, int>> missingApis; // path → API → sites
    QHash<QString, int> missingSites;
    QHash<QString, QString> rewriteOf;
    for (const ApiGap& g : a.apiGaps) {
        if (g.support != Support::Missing)
            continue;
        rewriteOf.insert(g.name, g.rewrite);
        for (const SourceRange& r : g.locations) {
            ++missingApis[r.path][g.name];
            ++missingSites[r.path];
        }
    }
    QString best;
    QPair<int, int> bestCount{0, 0};
    int bestMissing = 0;
    for (auto it = counts.cbegin(); it != counts.cend(); ++it) {
        const auto [scales, blocks] = it.value();
        if (scales == 0)
            continue;
        const int missing = missingSites.value(it.key());
        // A module the port can run first: fewest ✗ API sites, then fewest BLOCKS, then most
        // SCALES, then path order (QMap is sorted). brian2's pilot was core/variables.py, which
        // calls numpy.asanyarray (✗) at 29 sites, before ✗ uses counted.
        if (best.isEmpty() || missing < bestMissing ||
            (missing == bestMissing && (blocks < bestCount.second || (blocks == bestCount.second &&
                                                                      scales > bestCount.first)))) {
            best = it.key();
            bestCount = it.value();
            bestMissing = missing;
        }
    }
    a.pilotModule = best;
    if (best.isEmpty())
        return;
    a.pilotReason =
        QStringLiteral("%1 SCALES finding%2, %3")
            .arg(bestCount.first)
            .arg(bestCount.first == 1 ? QString() : QStringLiteral("s"))
            .arg(bestCount.second == 0
                     ? QStringLiteral("no BLOCKS")
                     : QStringLiteral("%1 BLOCKS finding%2")
                           .arg(bestCount.second)
                           .arg(bestCount.second == 1 ? QString() : QStringLiteral("s")));
    const QMap<QString, int> apis = missingApis.value(best);
    if (apis.isEmpty())
        return;
    // Every module with SCALES findings calls some ✗ API: say which, so the swap is not tried
    // before they are rewritten.
    QStringList parts;
    for (auto it = apis.cbegin(); it != apis.cend(); ++it) {
        if (parts.size() == 3) {
            parts << QStringLiteral("%1 more").arg(apis.size() - 3);
            break;
        }
        const QString rewrite = rewriteOf.value(it.key());
        parts << QStringLiteral("`%1` at %2 site%3%4")
                     .arg(it.key())
                     .arg(it.value())
                     .arg(it.value() == 1 ? QString() : QStringLiteral("s"))
                     .arg(rewrite.isEmpty() ? QString()
                                            : QStringLiteral(" (use `%1`)").arg(rewrite));
    }
    a.pilotReason +=
        QStringLiteral("; it calls %1 API%2 cuPyNumeric does not implement (✗): %3 — "
                       "rewrite %4 before the swap, or it fails at once (no "
                       "other candidate calls fewer)")
            .arg(apis.size() == 1 ? QStringLiteral("an") : QString::number(apis.size()))
            .arg(apis.size() == 1 ? QString() : QStringLiteral("s"))
            .arg(parts.join(QStringLiteral(", ")))
            .arg(apis.size() == 1 ? QStringLiteral("it") : QStringLiteral("them"));
}

} // namespace cnready::assessment
