#include "assess/Assessment.h"

#include "assess/AssessInternals.h"
#include "assess/GpuCatalog.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <tuple>

namespace cnready::assessment {

Gate readinessGate(const QList<ReadinessHint>& hints, const Context& c,
                   const QString& entryScript) {
    Gate g{6, QStringLiteral("Operational readiness"), GateStatus::Uncertain, {}, {}};
    QSet<QString> kinds;
    QSet<QString> goldenFiles;
    for (const ReadinessHint& h : hints) {
        kinds.insert(h.kind);
        if (h.kind == QLatin1String("golden-test"))
            goldenFiles.insert(h.range.path);
        g.evidence << QStringLiteral("%1 %2: %3").arg(loc(h.range), h.kind, h.note);
    }
    const bool golden = kinds.contains(QStringLiteral("golden-test"));
    const bool bench = kinds.contains(QStringLiteral("benchmark"));
    const bool launch =
        kinds.contains(QStringLiteral("launch-script")) || kinds.contains(QStringLiteral("legate"));
    const bool mpi = kinds.contains(QStringLiteral("mpi-launcher"));
    QStringList have, missing;
    (golden ? have : missing) << (golden
                                      ? QStringLiteral("tests with a NumPy reference (%1 file%2)")
                                            .arg(goldenFiles.size())
                                            .arg(goldenFiles.size() == 1 ? QString()
                                                                         : QStringLiteral("s"))
                                      : QStringLiteral("a test with a NumPy golden reference"));
    (bench ? have : missing) << QStringLiteral("a benchmark");
    (launch ? have : missing) << QStringLiteral("a launch script");
    if (c.nodes >= 2)
        (mpi ? have : missing) << QStringLiteral("an MPI launcher (mpirun/srun)");
    if (!entryScript.isEmpty())
        have << QStringLiteral("entry script `%1`").arg(entryScript);
    const bool pass = golden && bench && (c.nodes < 2 || mpi);
    g.status = pass ? GateStatus::Pass : GateStatus::Uncertain;
    QStringList parts;
    if (!have.isEmpty())
        parts << QStringLiteral("found %1").arg(have.join(QStringLiteral(", ")));
    if (!missing.isEmpty())
        parts << QStringLiteral("missing %1").arg(missing.join(QStringLiteral(", ")));
    g.reason = parts.join(QStringLiteral("; "));
    return g;
}

} // namespace cnready::assessment

namespace cnready {

// Launch scripts under the root (shell, Slurm/PBS/LSF jobs, Makefiles): what Gate 6 reads
// besides the Python files.
QList<ReadinessHint> scanLaunchScripts(const QString& root) {
    QList<ReadinessHint> hints;
    const QDir base(root);
    if (root.isEmpty() || !base.exists())
        return hints;
    static const QStringList suffixes = {QStringLiteral("sh"),    QStringLiteral("bash"),
                                         QStringLiteral("slurm"), QStringLiteral("sbatch"),
                                         QStringLiteral("pbs"),   QStringLiteral("lsf"),
                                         QStringLiteral("job"),   QStringLiteral("zsh")};
    static const QRegularExpression legate(QStringLiteral("\\blegate\\b"));
    static const QRegularExpression mpi(QStringLiteral("\\b(mpirun|mpiexec|srun|jsrun)\\b"));
    static const QRegularExpression python(QStringLiteral("\\bpython[0-9.]*\\b|\\.py\\b"));
    QStringList files;
    // Breadth-limited walk: root and up to 3 levels of non-hidden folders.
    QList<QPair<QString, int>> dirs{{base.absolutePath(), 0}};
    while (!dirs.isEmpty()) {
        const auto [dir, depth] = dirs.takeFirst();
        const QDir d(dir);
        const QFileInfoList entries =
            d.entryInfoList(QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
        for (const QFileInfo& fi : entries) {
            if (fi.fileName().startsWith(QLatin1Char('.')))
                continue;
            if (fi.isDir()) {
                static const QStringList skip = {
                    QStringLiteral("venv"),         QStringLiteral("env"),
                    QStringLiteral("build"),        QStringLiteral("dist"),
                    QStringLiteral("node_modules"), QStringLiteral("__pycache__"),
                    QStringLiteral("site-packages")};
                if (!fi.isSymLink() && depth < 3 && !skip.contains(fi.fileName()))
                    dirs.append({fi.absoluteFilePath(), depth + 1});
                continue;
            }
            if (suffixes.contains(fi.suffix().toLower()) ||
                fi.fileName() == QLatin1String("Makefile") ||
                fi.fileName() == QLatin1String("Justfile"))
                files << base.relativeFilePath(fi.absoluteFilePath());
        }
    }
    files.sort();
    for (const QString& rel : files) {
        QFile f(base.absoluteFilePath(rel));
        if (f.size() > 256 * 1024 || !f.open(QIODevice::ReadOnly))
            continue;
        const QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'));
        bool launches = false;
        for (qsizetype i = 0; i < lines.size(); ++i) {
            const QString line = lines[i].trimmed();
            if (line.startsWith(QLatin1Char('#')) && !line.startsWith(QLatin1String("#SBATCH")))
                continue;
            const SourceRange r{rel, int(i) + 1, 1, int(i) + 1, 1};
            QString shown = line;
            if (shown.size() > 100)
                shown = shown.left(97) + QStringLiteral("...");
            if (legate.match(line).hasMatch())
                hints << ReadinessHint{QStringLiteral("legate"), r, shown};
            if (mpi.match(line).hasMatch())
                hints << ReadinessHint{QStringLiteral("mpi-launcher"), r, shown};
            if (!launches && python.match(line).hasMatch()) {
                hints << ReadinessHint{QStringLiteral("launch-script"), r, shown};
                launches = true;
            }
        }
    }
    return hints;
}

} // namespace cnready
