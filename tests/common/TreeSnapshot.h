#pragma once
// A snapshot of a folder tree for read-only tests: every entry's type, size, permissions,
// modification and change times (nanoseconds) and, for regular files, a SHA-256 of the
// contents. Taking two snapshots around an operation and comparing them proves the operation
// wrote nothing in the tree (no changed byte, no touched mtime, no file created or removed:
// a folder's mtime moves when an entry is added or deleted inside it).
//
// Header-only, Qt Core + POSIX (lstat). Symbolic links are recorded, never followed; FIFOs,
// sockets and devices are recorded, never opened; unreadable files are recorded as such.
//
//   const auto before = cnready::test::TreeSnapshot::take(dir);
//   ... run the analysis ...
//   const QStringList diff = before.differences(cnready::test::TreeSnapshot::take(dir));
//   QVERIFY2(diff.isEmpty(), qPrintable(diff.join('\n')));

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QMap>
#include <QString>
#include <QStringList>

#include <sys/stat.h>
#include <unistd.h>

namespace cnready::test {

/// One entry of a snapshot.
struct TreeEntry {
    char type = '?';    ///< 'f' file, 'd' folder, 'l' symlink, 'p' FIFO, 's' socket, 'c'/'b' device
    qint64 size = 0;    ///< bytes (lstat)
    quint32 mode = 0;   ///< permission bits
    qint64 mtimeNs = 0; ///< modification time, ns since the epoch
    qint64 ctimeNs = 0; ///< status-change time, ns since the epoch (chmod, rename, link count)
    QByteArray
        contentHash; ///< SHA-256 hex of a regular file's bytes; "unreadable" if it cannot be read
    QString linkTarget; ///< for symlinks
    friend bool operator==(const TreeEntry&, const TreeEntry&) = default;
};

/// Entries of a tree by path relative to its root ('/' separators); the root itself is "."
class TreeSnapshot {
public:
    /// Walks `root` (not following symbolic links) and records every entry. `hashContents`
    /// false skips the SHA-256 (sizes and times only), for very large trees.
    static TreeSnapshot take(const QString& root, bool hashContents = true) {
        TreeSnapshot s;
        const QDir base(root);
        s.record(QStringLiteral("."), root, hashContents);
        QDirIterator it(root, QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System,
                        QDirIterator::Subdirectories); // no FollowSymlinks: links are leaves
        while (it.hasNext()) {
            const QString path = it.next();
            s.record(base.relativeFilePath(path), path, hashContents);
        }
        return s;
    }

    const QMap<QString, TreeEntry>& entries() const { return m_entries; }
    qsizetype size() const { return m_entries.size(); }

    /// Human-readable list of what changed from this snapshot to `after` (empty: identical).
    QStringList differences(const TreeSnapshot& after) const {
        QStringList out;
        for (auto it = m_entries.cbegin(); it != m_entries.cend(); ++it) {
            const auto other = after.m_entries.constFind(it.key());
            if (other == after.m_entries.cend()) {
                out << QStringLiteral("removed: %1").arg(it.key());
                continue;
            }
            const TreeEntry& a = it.value();
            const TreeEntry& b = other.value();
            if (a.type != b.type)
                out << QStringLiteral("type changed: %1").arg(it.key());
            if (a.size != b.size)
                out << QStringLiteral("size changed: %1 (%2 -> %3)")
                           .arg(it.key())
                           .arg(a.size)
                           .arg(b.size);
            if (a.contentHash != b.contentHash)
                out << QStringLiteral("contents changed: %1").arg(it.key());
            if (a.mtimeNs != b.mtimeNs)
                out << QStringLiteral("mtime changed: %1").arg(it.key());
            if (a.ctimeNs != b.ctimeNs)
                out << QStringLiteral("ctime changed: %1").arg(it.key());
            if (a.mode != b.mode)
                out << QStringLiteral("permissions changed: %1").arg(it.key());
            if (a.linkTarget != b.linkTarget)
                out << QStringLiteral("link target changed: %1").arg(it.key());
        }
        for (auto it = after.m_entries.cbegin(); it != after.m_entries.cend(); ++it)
            if (!m_entries.contains(it.key()))
                out << QStringLiteral("created: %1").arg(it.key());
        return out;
    }

private:
    void record(const QString& rel, const QString& path, bool hash) {
        struct stat st {};
        TreeEntry e;
        if (::lstat(QFile::encodeName(path).constData(), &st) != 0) {
            e.type = '!';
            m_entries.insert(rel, e);
            return;
        }
        e.size = qint64(st.st_size);
        e.mode = quint32(st.st_mode & 07777);
        e.mtimeNs = qint64(st.st_mtim.tv_sec) * 1'000'000'000 + qint64(st.st_mtim.tv_nsec);
        e.ctimeNs = qint64(st.st_ctim.tv_sec) * 1'000'000'000 + qint64(st.st_ctim.tv_nsec);
        if (S_ISREG(st.st_mode)) {
            e.type = 'f';
            if (hash) {
                QFile f(path);
                QCryptographicHash h(QCryptographicHash::Sha256);
                if (f.open(QIODevice::ReadOnly) && h.addData(&f))
                    e.contentHash = h.result().toHex();
                else
                    e.contentHash = "unreadable";
            }
        } else if (S_ISDIR(st.st_mode)) {
            e.type = 'd';
            e.size = 0; // folder sizes vary by file system; the mtime covers entry changes
        } else if (S_ISLNK(st.st_mode)) {
            e.type = 'l';
            QByteArray buf(4096, '\0');
            const ssize_t n =
                ::readlink(QFile::encodeName(path).constData(), buf.data(), size_t(buf.size()));
            if (n >= 0)
                e.linkTarget = QFile::decodeName(buf.left(n));
        } else if (S_ISFIFO(st.st_mode)) {
            e.type = 'p';
        } else if (S_ISSOCK(st.st_mode)) {
            e.type = 's';
        } else if (S_ISCHR(st.st_mode)) {
            e.type = 'c';
        } else if (S_ISBLK(st.st_mode)) {
            e.type = 'b';
        }
        m_entries.insert(rel, e);
    }

    QMap<QString, TreeEntry> m_entries;
};

} // namespace cnready::test
