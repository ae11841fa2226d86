// What the verdict rests on (PRODUCT.md, "Honesty of the verdict"): code that was not read,
// a size that is assumed, findings that come only from test modules.
#include "assess/AssessInternals.h"

#include <QHash>
#include <QSet>

namespace cnready::assessment {

namespace {

// Whether a diagnostic means code of the workload was not read. A binary file named `.py`
// could not be read as Python (Python cannot run it either), and a missing PATH was not read
// at all; an encoding problem was decoded and the file assessed; an empty file (valid Python)
// or a folder link that is not followed hides nothing. Test modules do not count for the
// verdict, so their syntax errors do not make it provisional.
bool hidesCode(const FileDiagnostic& d, const QHash<QString, const FileResult*>& files,
               const QSet<QString>& testPaths) {
    if (testPaths.contains(d.range.path))
        return false;
    switch (d.kind) {
    case FileDiagnostic::Kind::Unreadable:
    case FileDiagnostic::Kind::TooLarge:
    case FileDiagnostic::Kind::Syntax:
    case FileDiagnostic::Kind::Binary:
    case FileDiagnostic::Kind::Missing:
        return true;
    case FileDiagnostic::Kind::Skipped: {
        const FileResult* f = files.value(d.range.path, nullptr);
        return f && f->lines > 0 && !d.message.startsWith(QLatin1String("file is empty"));
    }
    case FileDiagnostic::Kind::Encoding:
    case FileDiagnostic::Kind::Suppression: // a comment cnready could not use hides no code
        break;
    }
    return false;
}

QString unreadSentence(const QList<FileDiagnostic>& unread) {
    QStringList paths;
    QHash<QString, QString> why;
    for (const FileDiagnostic& d : unread) {
        if (!why.contains(d.range.path)) {
            paths << d.range.path;
            why.insert(
                d.range.path,
                d.kind == FileDiagnostic::Kind::Syntax
                    ? QStringLiteral("syntax error at line %1").arg(std::max(1, d.range.line))
                    : diagnosticKindName(d.kind));
        }
    }
    QStringList shown;
    for (qsizetype i = 0; i < paths.size() && i < 3; ++i)
        shown << QStringLiteral("`%1`: %2").arg(paths[i], why.value(paths[i]));
    if (paths.size() > 3)
        shown << QStringLiteral("%1 more").arg(paths.size() - 3);
    return QStringLiteral(" %1 not read fully (%2), so the code there is not in this verdict; "
                          "fix %3 and assess again.")
        .arg(paths.size() == 1 ? QStringLiteral("1 file was")
                               : QStringLiteral("%1 files were").arg(paths.size()),
             shown.join(QStringLiteral("; ")),
             paths.size() == 1 ? QStringLiteral("it") : QStringLiteral("them"));
}

} // namespace

void stateBasis(const ProjectResult& project, const QSet<QString>& testPaths, Assessment& a) {
    QHash<QString, const FileResult*> files;
    for (const FileResult& f : project.files)
        files.insert(f.path, &f);
    for (const FileDiagnostic& d : project.diagnostics)
        if (hidesCode(d, files, testPaths))
            a.unreadCode << d;

    // An assumed size: below the floor the verdict list would stop at rule 3 (rules 1 and 2
    // come first, and a NOT RECOMMENDED cannot get worse).
    const Context& c = a.context;
    if (c.sizeProvenance == Provenance::Default && a.verdict != Verdict::NotRecommended) {
        Context low = c;
        low.sizeProvenance = Provenance::Given;
        low.perGpuElements = kSizeFloor - 1;
        low.totalElements = low.perGpuElements * std::max(1, c.gpus);
        if (sizeGate(low).status == GateStatus::Fail)
            a.verdictBelowFloor = Verdict::NotRecommended;
    }

    qsizetype inTests = 0, outside = 0;
    for (const Finding& f : a.findings)
        ++(testPaths.contains(f.range.path) ? inTests : outside);
    a.onlyTestFindings = outside == 0 && inTests > 0;

    if (a.verdictBelowFloor)
        a.rationale +=
            QStringLiteral(" The size is assumed (the default %1 elements; none is "
                           "given or sized in the code): below 65,536 elements per "
                           "GPU the verdict would be %2, so confirm the size with "
                           "--elements.")
                .arg(formatShortCount(c.totalElements), verdictLabel(*a.verdictBelowFloor));
    if (a.onlyTestFindings)
        a.rationale += QStringLiteral(" Every finding is in a test module (%1), which the verdict "
                                      "leaves out: it rests on no array code of the workload.")
                           .arg(inTests == 1 ? QStringLiteral("1 finding")
                                             : QStringLiteral("%1 findings").arg(inTests));
    if (a.provisional())
        a.rationale = QStringLiteral("Provisional: ") + a.rationale + unreadSentence(a.unreadCode);
}

} // namespace cnready::assessment

namespace cnready {

QStringList Assessment::unreadPaths() const {
    QStringList paths;
    QSet<QString> seen;
    for (const FileDiagnostic& d : unreadCode)
        if (!seen.contains(d.range.path)) {
            seen.insert(d.range.path);
            paths << d.range.path;
        }
    return paths;
}

} // namespace cnready
