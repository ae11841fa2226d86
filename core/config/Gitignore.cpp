#include "config/Gitignore.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSet>

namespace cnready {

namespace {

QList<std::pair<PathGlob, bool>> readIgnoreFile(const QString& path) {
    QList<std::pair<PathGlob, bool>> out;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return out;
    for (const QByteArray& raw : f.readAll().split('\n')) {
        QString line = QString::fromUtf8(raw);
        if (line.endsWith(QLatin1Char('\r')))
            line.chop(1);
        while (line.endsWith(QLatin1Char(' ')) && !line.endsWith(QLatin1String("\\ ")))
            line.chop(1);
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        const bool negated = line.startsWith(QLatin1Char('!'));
        if (negated)
            line = line.mid(1);
        PathGlob g(line);
        if (g.isValid())
            out.append({g, negated});
    }
    return out;
}

} // namespace

GitignoreRules::GitignoreRules(const QString& root, const QStringList& files) {
    // Folders above the root, outermost first, up to the repository's top; each rule there
    // sees the root's path from its own folder.
    QList<QDir> above;
    QDir dir(root);
    while (!QFileInfo::exists(dir.filePath(QStringLiteral(".git"))) && dir.cdUp())
        above.prepend(dir);
    if (!QFileInfo::exists(dir.filePath(QStringLiteral(".git"))))
        above.clear(); // not in a repository: only the project's own files count
    for (const QDir& d : above) {
        const QString prefix = d.relativeFilePath(root) + QLatin1Char('/');
        for (const auto& [glob, neg] : readIgnoreFile(d.filePath(QStringLiteral(".gitignore"))))
            m_rules.append({QString(), prefix, glob, neg});
    }
    QSet<QString> folders{QString()};
    for (const QString& f : files)
        for (qsizetype s = f.indexOf(QLatin1Char('/')); s > 0;
             s = f.indexOf(QLatin1Char('/'), s + 1))
            folders.insert(f.left(s + 1));
    QStringList sorted(folders.cbegin(), folders.cend());
    sorted.sort(); // a parent's rules before its children's
    for (const QString& base : sorted)
        for (const auto& [glob, neg] :
             readIgnoreFile(root + QLatin1Char('/') + base + QStringLiteral(".gitignore")))
            m_rules.append({base, QString(), glob, neg});
}

bool GitignoreRules::matchAt(const QString& relative, bool isFolder, bool current) const {
    bool result = current;
    for (const Rule& r : m_rules) {
        if (!relative.startsWith(r.base))
            continue;
        const QString rel = r.prefix + relative.mid(r.base.size());
        if (!rel.isEmpty() && r.glob.matches(rel, isFolder))
            result = !r.negated;
    }
    return result;
}

bool GitignoreRules::ignored(const QString& relativeFile) const {
    if (m_rules.isEmpty())
        return false;
    // git does not look inside an ignored folder.
    const qsizetype slash = relativeFile.lastIndexOf(QLatin1Char('/'));
    if (slash > 0 && folderIgnored(relativeFile.left(slash)))
        return true;
    return matchAt(relativeFile, false, false);
}

bool GitignoreRules::folderIgnored(const QString& folder) const {
    if (const auto it = m_folders.constFind(folder); it != m_folders.cend())
        return *it;
    const qsizetype slash = folder.lastIndexOf(QLatin1Char('/'));
    const bool ignored =
        (slash > 0 && folderIgnored(folder.left(slash))) || matchAt(folder, true, false);
    m_folders.insert(folder, ignored);
    return ignored;
}

} // namespace cnready
