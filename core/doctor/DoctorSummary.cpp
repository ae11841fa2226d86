#include "doctor/DoctorSummary.h"

namespace cnready {

namespace {

QString plural(qsizetype n, const char* one, const char* many) {
    return QStringLiteral("%1 %2").arg(n).arg(QLatin1String(n == 1 ? one : many));
}

QString siteText(const DoctorSite& s) {
    QString t =
        QStringLiteral("`%1` %2 (%3")
            .arg(s.location(), s.check.code.isEmpty() ? QStringLiteral("no code") : s.check.code,
                 s.check.key == QLatin1String("unknown")
                     ? QStringLiteral("\"%1\"").arg(s.description)
                     : s.check.label);
    if (s.occurrences > 1)
        t += QStringLiteral(", %1 call stacks").arg(s.occurrences);
    return t + QLatin1Char(')');
}

} // namespace

QString doctorStatusLabel(const DoctorResult& doctor, const Finding& f) {
    return doctor.isConfirmed(f) ? QStringLiteral("confirmed") : QStringLiteral("static only");
}

QString doctorSummaryText(const DoctorResult& doctor, const FindingSelection& findings, int max) {
    qsizetype confirmed = 0;
    for (const Finding& f : findings)
        confirmed += doctor.isConfirmed(f) ? 1 : 0;
    QString t = QStringLiteral("cuPyNumeric Doctor report `%1` (%2): %3 of %4 confirmed at run "
                               "time, the rest static only.")
                    .arg(doctor.reportPath, plural(doctor.entries, "entry", "entries"))
                    .arg(confirmed)
                    .arg(plural(findings.size(), "finding", "findings"));
    const QList<DoctorSite> only = doctor.runtimeOnly();
    if (only.isEmpty()) {
        t += QStringLiteral(" No run-time only entries.");
    } else {
        QStringList parts;
        for (qsizetype i = 0; i < only.size() && i < max; ++i)
            parts << siteText(only[i]);
        if (only.size() > max)
            parts << QStringLiteral("and %1 more").arg(only.size() - max);
        t += QStringLiteral(" Run-time only (no static finding there; review them by hand): %1.")
                 .arg(parts.join(QStringLiteral(", ")));
    }
    if (doctor.outsideProject > 0)
        t += QStringLiteral(" %1 outside the assessed files (libraries or other code) left out.")
                 .arg(plural(doctor.outsideProject, "entry", "entries"));
    if (doctor.stale()) {
        QStringList why;
        if (!doctor.newerSources.isEmpty()) {
            QStringList files;
            for (const QString& p : doctor.newerSources)
                files << QStringLiteral("`%1`").arg(p);
            why << QStringLiteral("changed after the run: %1")
                       .arg(files.join(QStringLiteral(", ")));
        }
        QStringList moved;
        for (const DoctorSite& s : doctor.sites)
            if (s.staleText)
                moved << QStringLiteral("`%1:%2`").arg(s.path).arg(s.line);
        if (!moved.isEmpty())
            why << QStringLiteral("text no longer matches at %1 (not used)")
                       .arg(moved.join(QStringLiteral(", ")));
        t += QStringLiteral(" **Stale report**: %1; run Doctor again.")
                 .arg(why.join(QStringLiteral("; ")));
    }
    return t;
}

} // namespace cnready
