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
