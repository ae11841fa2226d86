// GitHub Actions annotations: the blockers as `::error` workflow commands.
#include "report/Report.h"

#include "baseline/Fingerprint.h"
#include "rules/RuleRegistry.h"

#include <QDir>

namespace cnready {

namespace {

QString escapeData(QString s) {
    return s.replace(QLatin1Char('%'), QStringLiteral("%25"))
        .replace(QLatin1Char('\r'), QStringLiteral("%0D"))
        .replace(QLatin1Char('\n'), QStringLiteral("%0A"));
}

QString escapeProperty(const QString& s) {
    return escapeData(s)
        .replace(QLatin1Char(':'), QStringLiteral("%3A"))
        .replace(QLatin1Char(','), QStringLiteral("%2C"));
}

// The runner resolves `file=` against the job's working directory (the repository), not
// against the folder assessed: `cnready assess src/pkg` must annotate `src/pkg/sim.py`. A
// project outside the working directory keeps its project-relative path.
QString annotationPath(const QString& root, const QString& path) {
    if (root.isEmpty())
        return path;
    const QString rel = QDir::current().relativeFilePath(QDir(root).filePath(path));
    return rel.startsWith(QLatin1String("..")) || QDir::isAbsolutePath(rel) ? path : rel;
}

} // namespace

QByteArray renderGithubAnnotations(const ReportInput& in) {
    const QSet<QString> tests = testModulePaths(in.project);
    QHash<QString, const NotebookMap*> notebooks;
    for (const FileResult& file : in.project.files)
        if (!file.notebook.isEmpty())
            notebooks.insert(file.path, &file.notebook);
    std::optional<FingerprintIndex> fingerprints;
    if (in.baseline)
        fingerprints.emplace(in.project);
    QString out;
    int shown = 0;
    for (const Finding& f : in.assessment.findings) {
        if (f.category != Category::Blocks || tests.contains(f.range.path))
            continue;
        if (fingerprints && in.baseline->contains(fingerprints->of(f)))
            continue;
        int line = std::max(1, f.range.line);
        int endLine = std::max(line, f.range.endLine);
        QString message = f.message.isEmpty() ? f.code : f.message;
        if (const NotebookMap* nb = f.range.cell > 0 ? notebooks.value(f.range.path) : nullptr) {
            line = std::max(1, nb->at(f.range.line).jsonLine);
            endLine = std::max(line, nb->at(f.range.endLine).jsonLine);
            message +=
                QStringLiteral(" (cell %1, line %2)").arg(f.range.cell).arg(f.range.displayLine());
        }
        const Rule* rule = RuleRegistry::instance().find(f.code);
        const QString title = rule ? f.code + QLatin1Char(' ') + rule->info().title : f.code;
        if (const QString recipe = recipeFor(f); !recipe.isEmpty())
            message += QStringLiteral(" Fix: recipe %1 (cnready explain %2).").arg(recipe, f.code);
        out += QStringLiteral("::error file=%1,line=%2,endLine=%3,title=%4::%5\n")
                   .arg(escapeProperty(annotationPath(in.project.root, f.range.path)))
                   .arg(line)
                   .arg(endLine)
                   .arg(escapeProperty(title), escapeData(message));
        ++shown;
    }
    out +=
        QStringLiteral("::notice title=%1::%2\n")
            .arg(escapeProperty(QStringLiteral("cnready: ") + verdictLabel(in.assessment.verdict)),
                 escapeData(QStringLiteral("%1 (%2 blocker annotation%3%4)")
                                .arg(in.assessment.rationale)
                                .arg(shown)
                                .arg(shown == 1 ? QString() : QStringLiteral("s"))
                                .arg(in.baseline ? QStringLiteral(", new since the baseline")
                                                 : QString())));
    return out.toUtf8();
}

} // namespace cnready
