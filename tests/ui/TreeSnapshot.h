#pragma once
// A fingerprint of a folder tree: every entry's relative path, type, size, modification time
// and content hash. Two equal snapshots mean nothing was written, added, removed or touched.

#include <QCryptographicHash>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QStringList>

namespace cnready::test {

inline QStringList treeSnapshot(const QString& root) {
    QStringList lines;
    QDirIterator it(root, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const QFileInfo fi = it.fileInfo();
        QString line = QDir(root).relativeFilePath(path) + QLatin1Char('|') +
                       (fi.isDir() ? QStringLiteral("d") : QStringLiteral("f")) + QLatin1Char('|') +
                       QString::number(fi.size()) + QLatin1Char('|') +
                       QString::number(fi.lastModified().toMSecsSinceEpoch());
        if (fi.isFile()) {
            QFile f(path);
            if (f.open(QIODevice::ReadOnly)) {
                QCryptographicHash h(QCryptographicHash::Sha256);
                h.addData(&f);
                line += QLatin1Char('|') + QString::fromLatin1(h.result().toHex());
            }
        }
        lines << line;
    }
    lines.sort();
    return lines;
}

} // namespace cnready::test
