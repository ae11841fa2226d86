#include "config/PathGlob.h"

#include <QStringList>

namespace cnready {

namespace {

// The regular expression of one glob component ('*', '?', '[...]', the rest literal).
QString componentPattern(const QString& c, bool* ok) {
    QString re;
    for (qsizetype i = 0; i < c.size(); ++i) {
        const QChar ch = c[i];
        if (ch == QLatin1Char('*')) {
            re += QStringLiteral("[^/]*");
        } else if (ch == QLatin1Char('?')) {
            re += QStringLiteral("[^/]");
        } else if (ch == QLatin1Char('[')) {
            const qsizetype close = c.indexOf(QLatin1Char(']'), i + 2);
            if (close < 0) {
                *ok = false;
                return {};
            }
            QString set = c.mid(i + 1, close - i - 1);
            if (set.startsWith(QLatin1Char('!')))
                set[0] = QLatin1Char('^');
            set.replace(QLatin1Char('\\'), QStringLiteral("\\\\"));
            re += QLatin1Char('[') + set + QLatin1Char(']');
            i = close;
        } else if (ch == QLatin1Char('\\') && i + 1 < c.size()) {
            re += QRegularExpression::escape(c.mid(++i, 1));
        } else {
            re += QRegularExpression::escape(QString(ch));
        }
    }
    return re;
}

} // namespace

PathGlob::PathGlob(const QString& glob) : m_text(glob) {
    QString g = glob.trimmed();
    if (g.startsWith(QLatin1String("./")))
        g = g.mid(2);
    if (g.endsWith(QLatin1Char('/'))) {
        m_foldersOnly = true;
        g.chop(1);
    }
    const bool anchored = g.contains(QLatin1Char('/'));
    if (g.startsWith(QLatin1Char('/')))
        g = g.mid(1);
    const QStringList parts = g.split(QLatin1Char('/'));
    bool ok = !g.isEmpty();
    QString re = anchored ? QStringLiteral("^") : QStringLiteral("^(?:.*/)?");
    for (qsizetype i = 0; i < parts.size() && ok; ++i) {
        const bool last = i + 1 == parts.size();
        if (parts[i] == QLatin1String("**"))
            re += last ? QStringLiteral(".*") : QStringLiteral("(?:[^/]+/)*");
        else
            re += componentPattern(parts[i], &ok) + (last ? QString() : QStringLiteral("/"));
    }
    m_re = ok ? QRegularExpression(re + QLatin1Char('$')) : QRegularExpression(QStringLiteral("("));
}

bool PathGlob::matches(const QString& relativePath, bool isFolder) const {
    if (!m_re.isValid() || (m_foldersOnly && !isFolder))
        return false;
    return m_re.match(relativePath).hasMatch();
}

bool pathOrParentMatches(const QString& relativeFile, const QList<PathGlob>& globs) {
    if (globs.isEmpty())
        return false;
    for (const PathGlob& g : globs)
        if (g.matches(relativeFile, false))
            return true;
    for (qsizetype slash = relativeFile.indexOf(QLatin1Char('/')); slash > 0;
         slash = relativeFile.indexOf(QLatin1Char('/'), slash + 1)) {
        const QString folder = relativeFile.left(slash);
        for (const PathGlob& g : globs)
            if (g.matches(folder, true))
                return true;
    }
    return false;
}

} // namespace cnready
