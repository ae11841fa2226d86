// The summary for a review meeting (`cnready assess --summary`): the verdict, the gates, the
// top sites per code and the counts, in well under 80 lines whatever the project's size.
#include "report/Report.h"

#include "rules/RuleRegistry.h"

#include <QMap>

#include <algorithm>

namespace cnready {

namespace {

QString cell(QString s, qsizetype max = 160) {
    s.replace(QLatin1Char('\n'), QLatin1Char(' '));
    s.replace(QLatin1Char('|'), QStringLiteral("\\|"));
    if (s.size() > max)
        s = s.left(max - 1) + QStringLiteral("…");
    return s;
}

// Rule 9's line in at most `max` characters where it can be: as many whole API names as fit,
// then "and N more" (cell() would cut the list inside a name).
QString ruleNineLine(const Assessment& a, qsizetype max) {
    const auto material = std::count_if(a.apiGaps.begin(), a.apiGaps.end(),
                                        [](const ApiGap& g) { return g.material; });
    QString line = ruleNineDemotion(a.verdictBeforeDemotion, a.apiGaps);
    for (int names = int(material) - 1; line.size() > max && names >= 1; --names)
        line = ruleNineDemotion(a.verdictBeforeDemotion, a.apiGaps, names);
    return line;
}

// Per BLOCKS / REFACTOR code of the workload: its sites (findingSite), hot ones first.
struct CodeSites {
    QList<SourceRange> hot, other;
    int findings = 0;
};

} // namespace

QByteArray renderSummary(const ReportInput& in) {
    const Assessment& a = in.assessment;
    QStringList out;
    out << QStringLiteral("# cuPyNumeric readiness (summary): %1").arg(reportName(in)) << QString();
    out << QStringLiteral("**%1** — %2").arg(verdictLabel(a.verdict), cell(a.rationale, 600))
        << QString();
    out << QStringLiteral("Decided by rule %1 of the verdict list (`cnready explain verdict`): %2.")
               .arg(a.decidingRule)
               .arg(cell(a.decidingReason, 400));
    if (!a.wouldChange.isEmpty())
        out << QString() << QStringLiteral("What would change it: ") + cell(a.wouldChange, 400);
    if (!a.demotions.isEmpty())
        out << QString() << cell(ruleNineLine(a, 400), 800) + QLatin1Char('.');
    out << QString() << QStringLiteral("## Gates") << QString();
    out << QStringLiteral("| Gate | Status | Reason |") << QStringLiteral("|---|---|---|");
    for (const Gate& g : a.gates)
        out << QStringLiteral("| %1. %2 | %3 | %4 |")
                   .arg(g.number)
                   .arg(g.name, gateStatusLabel(g.status), cell(g.reason));

    const QSet<QString> tests = testModulePaths(in.project);
    QMap<QString, CodeSites> byCode;
    int counts[4] = {0, 0, 0, 0};
    int inTests = 0;
    for (const Finding& f : a.findings) {
        if (tests.contains(f.range.path)) {
            ++inTests;
            continue;
        }
        ++counts[int(f.category)];
        if (f.category != Category::Blocks && f.category != Category::Refactor)
            continue;
        CodeSites& c = byCode[f.code];
        ++c.findings;
        const SourceRange site = findingSite(f);
        QList<SourceRange>& list = findingOnHotPath(f) ? c.hot : c.other;
        if (!c.hot.contains(site) && !c.other.contains(site) && list.size() < 64)
            list << site;
    }
    out << QString() << QStringLiteral("## Top sites per code") << QString();
    if (byCode.isEmpty()) {
        out << QStringLiteral("No BLOCKS or REFACTOR findings outside test modules.");
    } else {
        out << QStringLiteral("| Code | Title | Sites | Top sites (hot first) |")
            << QStringLiteral("|---|---|---|---|");
        // BLOCKS codes (R1xx) sort before REFACTOR codes (R2xx); at most 24 rows.
        int rows = 0;
        for (auto it = byCode.cbegin(); it != byCode.cend() && rows < 24; ++it, ++rows) {
            const CodeSites& c = it.value();
            QStringList top;
            for (const SourceRange& r : c.hot + c.other) {
                if (top.size() == 3)
                    break;
                top << QStringLiteral("`%1`").arg(r.toString());
            }
            const Rule* rule = RuleRegistry::instance().find(it.key());
            const qsizetype sites = c.hot.size() + c.other.size();
            out << QStringLiteral("| %1 | %2 | %3%4 | %5 |")
                       .arg(it.key(), cell(rule ? rule->info().title : it.key(), 60))
                       .arg(sites)
                       .arg(sites >= 64 ? QStringLiteral("+") : QString())
                       .arg(top.join(QStringLiteral(", ")));
        }
    }
    out << QString() << QStringLiteral("## Counts") << QString();
    out << QStringLiteral("| SCALES | BLOCKS | REFACTOR | INFO | In test modules | API gaps |")
        << QStringLiteral("|---|---|---|---|---|---|");
    out << QStringLiteral("| %1 | %2 | %3 | %4 | %5 | %6 |")
               .arg(counts[0])
               .arg(counts[1])
               .arg(counts[2])
               .arg(counts[3])
               .arg(inTests)
               .arg(a.apiGaps.size());
    out << QString()
        << QStringLiteral("The full report (every finding with its recipe, the API gaps and the "
                          "next steps) is `cnready assess` without `--summary`.");
    return (out.join(QLatin1Char('\n')) + QLatin1Char('\n')).toUtf8();
}

} // namespace cnready
