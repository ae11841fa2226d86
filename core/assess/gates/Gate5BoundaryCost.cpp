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

namespace {

QString touchpointLabel(const QString& kind) {
    static const QHash<QString, QString> labels = {
        {QStringLiteral("pandas"), QStringLiteral("pandas")},
        {QStringLiteral("h5py"), QStringLiteral("h5py")},
        {QStringLiteral("io"), QStringLiteral("file I/O")},
        {QStringLiteral("scipy"), QStringLiteral("SciPy")},
        {QStringLiteral("sklearn"), QStringLiteral("scikit-learn")},
        {QStringLiteral("plotting"), QStringLiteral("plotting")},
        {QStringLiteral("logging"), QStringLiteral("logging/print in a loop")},
        {QStringLiteral("external"), QStringLiteral("external library")},
    };
    return labels.value(kind, kind);
}

} // namespace

Gate boundaryGate(const QList<ResolvedTouchpoint>& tps) {
    Gate g{5, QStringLiteral("Boundary cost"), GateStatus::Uncertain, {}, {}};
    if (tps.isEmpty()) {
        g.status = GateStatus::Pass;
        g.reason = QStringLiteral("no host touchpoints found (pandas, h5py, file I/O, SciPy, "
                                  "sklearn, plotting, logging in loops)");
        return g;
    }
    QMap<QString, int> byKind;
    int hot = 0;
    for (const ResolvedTouchpoint& t : tps) {
        ++byKind[touchpointLabel(t.touchpoint.kind)];
        hot += t.hot;
        g.evidence << QStringLiteral("%1 %2%3").arg(loc(t.touchpoint.range), t.touchpoint.note,
                                                    t.hot ? QStringLiteral(" (hot path)")
                                                          : QString());
    }
    QStringList parts;
    for (auto it = byKind.cbegin(); it != byKind.cend(); ++it)
        parts << QStringLiteral("%1 %2").arg(it.key()).arg(it.value());
    g.reason = QStringLiteral("%1 host touchpoint%2 (%3), %4 on a hot path; the share of time "
                              "inside array code is unknown")
                   .arg(tps.size())
                   .arg(tps.size() == 1 ? QString() : QStringLiteral("s"))
                   .arg(parts.join(QStringLiteral(", ")))
                   .arg(hot);
    return g;
}

} // namespace cnready::assessment
