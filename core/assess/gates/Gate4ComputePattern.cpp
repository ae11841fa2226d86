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

Gate patternGate(const Context& c) {
    Gate g{4, QStringLiteral("Compute pattern"), GateStatus::Uncertain, {}, {}};
    for (const PatternEvidence& e : c.patternEvidence)
        g.evidence << QStringLiteral("%1 %2").arg(loc(e.range), e.note);
    if (c.pattern.isEmpty()) {
        g.reason = QStringLiteral("no compute pattern recognised in the code; give --pattern");
        return g;
    }
    const QString how = c.patternProvenance == Provenance::Given ? QStringLiteral("given")
                                                                 : QStringLiteral("inferred");
    QString scores;
    if (c.patternProvenance == Provenance::Inferred && !c.patternScores.isEmpty()) {
        QStringList parts;
        for (const PatternScore& s : c.patternScores)
            parts << QStringLiteral("%1 %2").arg(s.pattern).arg(s.score);
        scores = QStringLiteral(" (scores: %1)").arg(parts.join(QStringLiteral(", ")));
    }
    if (c.patternProvenance == Provenance::Inferred && !c.patternSetAside.isEmpty())
        scores += QStringLiteral("; ") + c.patternSetAside;
    if (passingPatterns().contains(c.pattern)) {
        g.status = GateStatus::Pass;
        g.reason = QStringLiteral("%1 (%2) scales well on cuPyNumeric%3")
                       .arg(patternLabel(c.pattern), how, scores);
        if (c.pattern == QLatin1String("fft"))
            g.reason += QStringLiteral("; batch the transforms, a single one stays on one GPU");
    } else if (failingPatterns().contains(c.pattern)) {
        g.status = GateStatus::Fail;
        g.reason = QStringLiteral("%1 (%2) is the wrong shape for cuPyNumeric%3")
                       .arg(patternLabel(c.pattern), how, scores);
    } else {
        g.status = GateStatus::Uncertain;
        g.reason = QStringLiteral("%1 (%2): port the array math, keep the SciPy/sklearn calls at "
                                  "a boundary%3")
                       .arg(patternLabel(c.pattern), how, scores);
    }
    return g;
}

} // namespace cnready::assessment
