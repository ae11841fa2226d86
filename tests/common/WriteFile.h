#pragma once
// Writing a file of a test project, its folders made first.

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QtTest>

namespace test {

/// Writes `bytes` to `path`, creating the folders on the way; a failed open fails the test.
inline void writeFile(const QString& path, const QByteArray& bytes) {
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes);
}

} // namespace test
