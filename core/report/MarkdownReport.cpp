#include "report/Report.h"

#include <QTextStream>

namespace cnready {

QByteArray renderReport(const ReportInput& in, ReportFormat format) {
    Q_UNUSED(format);
    return renderMarkdown(in);
}

QByteArray renderMarkdown(const ReportInput& in) {
    QString s;
    QTextStream out(&s);
    out << "# cnready assessment\n\n";
    out << "## Verdict\n\n**" << verdictLabel(in.assessment.verdict) << "**\n\n";
    const struct {
        const char* heading;
        Category cat;
    } sections[] = {{"What works (SCALES findings)", Category::Scales},
                    {"What blocks (BLOCKS findings)", Category::Blocks},
                    {"What's fixable (REFACTOR findings)", Category::Refactor},
                    {"Compatibility / cost notes (INFO findings)", Category::Info}};
    for (const auto& sec : sections) {
        out << "## " << sec.heading << "\n\n";
        bool any = false;
        for (const Finding& f : in.project.findings)
            if (f.category == sec.cat) {
                out << "- `" << f.range.toString() << "` " << f.code << " " << f.message << "\n";
                any = true;
            }
        out << (any ? "\n" : "None for this code\n\n");
    }
    out << "## API support gaps\n\nNone for this code\n\n";
    out << "## Decision-framework summary\n\nn/a — see verdict\n\n";
    out << "## Recommended next steps\n\nn/a — see verdict\n";
    out.flush();
    return s.toUtf8();
}

} // namespace cnready
