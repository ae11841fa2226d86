#include "ReportLinks.h"

#include "model/ProjectResult.h"

#include <QRegularExpression>
#include <QUrl>

namespace cnready::ui {

namespace {
const QString kScheme = QStringLiteral("cnready-source");
}

QString linkSourceLocations(const QString& html) {
    // Paths are the report's: relative, '/' separators, HTML-escaped by cmark-gfm.
    static const QRegularExpression location(
        QStringLiteral(R"(<code>([^<>\s]+\.(?:py|ipynb)):(?:cell (\d+):)?(\d+)(?:-\d+)?</code>)"));
    QString out;
    out.reserve(html.size() + html.size() / 8);
    qsizetype last = 0;
    for (auto it = location.globalMatch(html); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        QUrl url;
        url.setScheme(kScheme);
        QString path = m.captured(1);
        path.replace(QStringLiteral("&amp;"), QStringLiteral("&"));
        url.setPath(path);
        url.setFragment(QStringLiteral("%1:%2").arg(m.captured(2).toInt()).arg(m.captured(3)));
        out += QStringView(html).mid(last, m.capturedStart() - last);
        out += QStringLiteral("<a href=\"%1\">%2</a>")
                   .arg(QString::fromUtf8(url.toEncoded()).toHtmlEscaped(), m.captured(0));
        last = m.capturedEnd();
    }
    out += QStringView(html).mid(last);
    return out;
}

SourceLink parseSourceLink(const QString& href) {
    const QUrl url(href);
    SourceLink link;
    if (url.scheme() != kScheme)
        return link;
    const QStringList at = url.fragment().split(QLatin1Char(':'));
    if (at.size() != 2)
        return link;
    link.path = url.path();
    link.cell = at[0].toInt();
    link.line = at[1].toInt();
    return link;
}

int sourceViewLine(const ProjectResult& project, const SourceLink& link) {
    if (link.cell <= 0)
        return link.line;
    for (const FileResult& f : project.files) {
        if (f.path != link.path)
            continue;
        for (qsizetype i = 0; i < f.notebook.lines.size(); ++i)
            if (f.notebook.lines[i].cell == link.cell && f.notebook.lines[i].cellLine == link.line)
                return int(i + 1);
    }
    return 0;
}

} // namespace cnready::ui
