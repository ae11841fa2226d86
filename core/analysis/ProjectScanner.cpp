#include "analysis/ProjectScanner.h"

#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QSet>

#include "analysis/FileAnalyzer.h"

#if defined(Q_OS_UNIX)
#include <dirent.h>
#endif

namespace cnready {

namespace {

bool skippedFolder(const QFileInfo& dir) {
    static const QSet<QString> names = {
        QStringLiteral("venv"),          QStringLiteral("env"),
        QStringLiteral("build"),         QStringLiteral("dist"),
        QStringLiteral("node_modules"),  QStringLiteral("__pycache__"),
        QStringLiteral("site-packages"), QStringLiteral("_build")};
    const QString n = dir.fileName();
    if (n.startsWith(QLatin1Char('.')) || names.contains(n))
        return true;
    return QFileInfo::exists(dir.absoluteFilePath() + QStringLiteral("/pyvenv.cfg"));
}

void walk(const QString& dirPath, const QDir& root, QStringList& files, QStringList& notRead,
          QList<FileDiagnostic>& diags) {
    // Explicit stack instead of recursion: deep trees must not overflow.
    QStringList stack{dirPath};
    while (!stack.isEmpty()) {
        const QString current = stack.takeLast();
        QDir dir(current);
        if (!dir.isReadable()) {
            diags.append({FileDiagnostic::Kind::Unreadable,
                          SourceRange{root.relativeFilePath(current), 0, 1, 0, 1},
                          QStringLiteral("folder cannot be read; its files were not assessed")});
            continue;
        }
        const QFileInfoList entries = dir.entryInfoList(
            QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System,
            QDir::Name);
#if defined(Q_OS_UNIX)
        // Qt cannot address a name that is not valid UTF-8 (it decodes it lossily) and its
        // listing silently drops such entries; find them in the raw listing and report them.
        if (DIR* raw = ::opendir(QFile::encodeName(current).constData())) {
            while (const dirent* ent = ::readdir(raw)) {
                const QByteArray name(ent->d_name);
                if (name.endsWith(".py") && !name.startsWith('.') && firstInvalidUtf8(name) >= 0)
                    diags.append({FileDiagnostic::Kind::Unreadable,
                                  SourceRange{root.relativeFilePath(current + QLatin1Char('/') +
                                                                    QFile::decodeName(name)),
                                              0, 1, 0, 1},
                                  QStringLiteral("file name is not valid UTF-8, so it cannot be "
                                                 "opened; skipped")});
            }
            ::closedir(raw);
        }
#endif
        for (const QFileInfo& e : entries) {
            const QString rel = root.relativeFilePath(e.absoluteFilePath());
            if (e.isSymLink() && !e.exists()) {
                // Broken, or a loop (a.py -> b.py -> a.py): nothing to read either way.
                if (e.fileName().endsWith(QLatin1String(".py")))
                    diags.append({FileDiagnostic::Kind::Unreadable, SourceRange{rel, 0, 1, 0, 1},
                                  QStringLiteral("symbolic link is broken or loops; skipped")});
                continue;
            }
            if (e.isDir()) {
                if (skippedFolder(e))
                    continue;
                if (e.isSymLink()) {
                    // Not followed: no loops, and no file is assessed twice under two names.
                    diags.append({FileDiagnostic::Kind::Skipped, SourceRange{rel, 0, 1, 0, 1},
                                  QStringLiteral("symbolic link to a folder (%1); not followed")
                                      .arg(e.symLinkTarget())});
                    continue;
                }
                stack.append(e.absoluteFilePath());
            } else if ((e.suffix() == QLatin1String("py") ||
                        e.suffix().compare(QLatin1String("ipynb"), Qt::CaseInsensitive) == 0) &&
                       !e.fileName().startsWith(QLatin1Char('.'))) {
                files.append(rel);
            } else if (!e.fileName().startsWith(QLatin1Char('.')) &&
                       isPythonLikeNotRead(e.fileName())) {
                notRead.append(rel);
            }
        }
    }
}

} // namespace

bool isPythonLikeNotRead(const QString& fileName) {
    static const char* const suffixes[] = {".pyx",      ".pxd",     ".pxi",    ".py_",
                                           ".py.in",    ".pyx.in",  ".pxd.in", ".py.tmpl",
                                           ".py.jinja", ".py.mako", ".pyw"};
    const QString lower = fileName.toLower();
    for (const char* s : suffixes)
        if (lower.endsWith(QLatin1String(s)) && lower.size() > qsizetype(qstrlen(s)))
            return true;
    return false;
}

QString moduleNameForPath(const QString& relativePath) {
    QString p = relativePath;
    if (p.endsWith(QLatin1String(".py")))
        p.chop(3);
    else if (p.endsWith(QLatin1String(".ipynb"), Qt::CaseInsensitive))
        p.chop(6);
    if (p.endsWith(QLatin1String("/__init__")))
        p.chop(9);
    return p.replace(QLatin1Char('/'), QLatin1Char('.'));
}

ScanResult scanProject(const QStringList& paths) {
    ScanResult r;
    QStringList existing;
    for (const QString& p : paths) {
        QFileInfo fi(p);
        if (!fi.exists())
            r.missing.append(p);
        else
            existing.append(fi.absoluteFilePath());
    }
    if (existing.isEmpty())
        return r;
    // Root: the single folder, the folder of a single file, or the common parent.
    auto folderOf = [](const QString& p) {
        QFileInfo fi(p);
        return fi.isDir() ? QDir::cleanPath(fi.absoluteFilePath()) : fi.absolutePath();
    };
    QString root = folderOf(existing.first());
    for (const QString& p : existing) {
        const QString f = folderOf(p);
        while (!(f == root || f.startsWith(root + QLatin1Char('/'))) &&
               root.contains(QLatin1Char('/')))
            root = QFileInfo(root).absolutePath();
    }
    r.root = root;
    const QDir rootDir(root);
    for (const QString& p : existing) {
        QFileInfo fi(p);
        if (fi.isDir())
            walk(fi.absoluteFilePath(), rootDir, r.files, r.notRead, r.diagnostics);
        else
            r.files.append(rootDir.relativeFilePath(fi.absoluteFilePath()));
    }
    r.files.sort();
    r.files.removeDuplicates();
    r.notRead.sort();
    r.notRead.removeDuplicates();
    // The paths that do exist are assessed; each missing one is named where the report lists
    // what was not read, and makes the verdict provisional (assess/Honesty.cpp).
    for (const QString& m : r.missing)
        r.diagnostics.append({FileDiagnostic::Kind::Missing,
                              SourceRange{QDir::fromNativeSeparators(m), 0, 1, 0, 1},
                              QStringLiteral("no such file or folder; not assessed")});
    return r;
}

} // namespace cnready
