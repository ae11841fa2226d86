// Read-only guarantee: `cnready assess` (every format, to stdout and with -o outside the tree),
// `cnready port` (list and --diff) and the in-process analysis leave the analyzed tree exactly
// as it was: same bytes, same mtimes and ctimes, same permissions, no file created or removed. The
// snapshot itself is checked first, so this test can fail.
#include "../common/TreeSnapshot.h"

#include "analysis/ProjectAnalyzer.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using cnready::test::TreeSnapshot;

class TestReadOnly : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_root;   // the analyzed project
    QString m_outDir; // where -o writes, outside the project

    static void copyTree(const QString& from, const QString& to) {
        QDir().mkpath(to);
        for (const QFileInfo& fi : QDir(from).entryInfoList(QDir::Files))
            QVERIFY(QFile::copy(fi.absoluteFilePath(), to + QLatin1Char('/') + fi.fileName()));
    }
    void write(const QString& rel, const QByteArray& bytes) {
        const QString path = m_root + QLatin1Char('/') + rel;
        QDir().mkpath(QFileInfo(path).absolutePath());
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(bytes);
    }

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_root = m_dir.path() + QStringLiteral("/project");
        m_outDir = m_dir.path() + QStringLiteral("/out");
        QVERIFY(QDir().mkpath(m_outDir));
        copyTree(QStringLiteral(CNREADY_SOURCE_DIR "/assets/examples"),
                 m_root + QStringLiteral("/examples"));
        write(QStringLiteral("pkg/__init__.py"), "");
        write(QStringLiteral("pkg/solver.py"),
              "import numpy as np\n\ndef step(u):\n    for i in range(len(u)):\n"
              "        u[i] = u[i] * 0.5\n    return np.vectorize(abs)(u)\n");
        write(QStringLiteral("pkg/broken.py"), "def f(:\n    pass\n");
        write(QStringLiteral("pkg/__pycache__/solver.cpython-311.pyc"), QByteArray(64, '\x01'));
        write(QStringLiteral(".hidden/notes.py"), "x = 1\n");
        QVERIFY(QFile::link(QStringLiteral("solver.py"), m_root + QStringLiteral("/pkg/alias.py")));
        // Make the times old, so that any write would visibly move them.
        const QByteArray root = QFile::encodeName(m_root);
        const timespec old[2] = {{1'600'000'000, 0}, {1'600'000'000, 0}};
        for (const QString& rel : {QStringLiteral("pkg/solver.py"), QStringLiteral("pkg/broken.py"),
                                   QStringLiteral("pkg"), QStringLiteral(".")})
            QCOMPARE(::utimensat(AT_FDCWD,
                                 QFile::encodeName(m_root + QLatin1Char('/') + rel).constData(),
                                 old, 0),
                     0);
    }

    void snapshotSeesEveryKindOfChange() {
        QTemporaryDir d;
        const QString f = d.path() + QStringLiteral("/a.py");
        QFile file(f);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("x = 1\n");
        file.close();
        const TreeSnapshot s0 = TreeSnapshot::take(d.path());
        QVERIFY(s0.differences(TreeSnapshot::take(d.path())).isEmpty());
        QCOMPARE(s0.size(), qsizetype(2)); // "." and a.py

        // Same size, same mtime restored: caught by the hash (and the ctime).
        struct stat st {};
        QCOMPARE(::stat(QFile::encodeName(f).constData(), &st), 0);
        QVERIFY(file.open(QIODevice::ReadWrite));
        file.write("x = 2\n");
        file.close();
        const timespec keep[2] = {st.st_atim, st.st_mtim};
        QCOMPARE(::utimensat(AT_FDCWD, QFile::encodeName(f).constData(), keep, 0), 0);
        QVERIFY(s0.differences(TreeSnapshot::take(d.path()))
                    .join(QLatin1Char('\n'))
                    .contains(QStringLiteral("contents changed: a.py")));

        // Only the mtime moved.
        const TreeSnapshot s1 = TreeSnapshot::take(d.path());
        const timespec later[2] = {{1'700'000'000, 0}, {1'700'000'000, 0}};
        QCOMPARE(::utimensat(AT_FDCWD, QFile::encodeName(f).constData(), later, 0), 0);
        QVERIFY(s1.differences(TreeSnapshot::take(d.path()))
                    .contains(QStringLiteral("mtime changed: a.py")));

        // A new file (and the folder's mtime), and a permission change.
        const TreeSnapshot s2 = TreeSnapshot::take(d.path());
        QFile n(d.path() + QStringLiteral("/b.py"));
        QVERIFY(n.open(QIODevice::WriteOnly));
        n.close();
        QFile::setPermissions(f, QFileDevice::ReadOwner);
        const QStringList diff = s2.differences(TreeSnapshot::take(d.path()));
        QVERIFY(diff.contains(QStringLiteral("created: b.py")));
        QVERIFY(diff.contains(QStringLiteral("mtime changed: .")));
        QVERIFY(diff.contains(QStringLiteral("permissions changed: a.py")));
    }

    void cliLeavesTheTreeUntouched_data() {
        QTest::addColumn<QString>("format");
        QTest::addColumn<bool>("toFile");
        for (const char* fmt : {"md", "json", "sarif"}) {
            QTest::addRow("%s stdout", fmt) << QString::fromLatin1(fmt) << false;
            QTest::addRow("%s -o", fmt) << QString::fromLatin1(fmt) << true;
        }
    }
    void cliLeavesTheTreeUntouched() {
        QFETCH(QString, format);
        QFETCH(bool, toFile);
        const TreeSnapshot before = TreeSnapshot::take(m_root);
        QVERIFY(before.size() > 10);
        QStringList args{QStringLiteral("assess"), m_root, QStringLiteral("--format"), format};
        const QString out = m_outDir + QStringLiteral("/report.") + format;
        if (toFile)
            args << QStringLiteral("-o") << out;
        QProcess p;
        p.start(QStringLiteral(CNREADY_CLI_PATH), args);
        QVERIFY(p.waitForFinished(120'000));
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0,
                 p.readAllStandardError().constData());
        if (toFile) {
            QVERIFY(QFileInfo(out).size() > 0);
            QVERIFY(p.readAllStandardOutput().isEmpty());
        } else {
            QVERIFY(!p.readAllStandardOutput().isEmpty());
        }
        const QStringList diff = before.differences(TreeSnapshot::take(m_root));
        QVERIFY2(diff.isEmpty(), qPrintable(diff.join(QLatin1Char('\n'))));
    }

    // `cnready port` only prints its diff: `git apply` is the user's step.
    void portLeavesTheTreeUntouched() {
        write(QStringLiteral("pkg/port_me.py"),
              "import numpy as np\n\n\ndef f(n):\n    a = np.zeros(n, order=\"C\")\n"
              "    for t in range(n):\n        a = a + 1.0\n    return a\n");
        const TreeSnapshot before = TreeSnapshot::take(m_root);
        for (const QStringList& extra : {QStringList{QStringLiteral("--diff")}, QStringList{}}) {
            QProcess p;
            p.start(QStringLiteral(CNREADY_CLI_PATH),
                    QStringList{QStringLiteral("port"), m_root} + extra);
            QVERIFY(p.waitForFinished(120'000));
            QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0,
                     p.readAllStandardError().constData());
            QVERIFY(p.readAllStandardOutput().contains("pkg/port_me.py"));
        }
        const QStringList diff = before.differences(TreeSnapshot::take(m_root));
        QVERIFY2(diff.isEmpty(), qPrintable(diff.join(QLatin1Char('\n'))));
    }

    void inProcessAnalysisLeavesTheTreeUntouched() {
        const TreeSnapshot before = TreeSnapshot::take(m_root);
        const cnready::ProjectResult r = cnready::analyzeProject(cnready::scanProject({m_root}));
        QVERIFY(r.files.size() >= 5);
        const QStringList diff = before.differences(TreeSnapshot::take(m_root));
        QVERIFY2(diff.isEmpty(), qPrintable(diff.join(QLatin1Char('\n'))));
    }
};

QTEST_GUILESS_MAIN(TestReadOnly)
#include "tst_readonly.moc"
