// `cnready manifest ...` as a user runs it (QProcess, XDG_DATA_HOME pointed at a temporary
// folder), the staleness warning on stderr, and the proof that only `refresh` reaches the network.
#include "ComparisonPageBuilder.h"
#include "LocalHttpServer.h"
#include "cli/Cli.h"
#include "manifest/Manifest.h"
#include "manifest/ManifestRefresher.h"

#include <QDirIterator>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace cnready;
using namespace cnready::test;

namespace {

const QString kFixtures = QStringLiteral(CNREADY_FIXTURES_DIR "/manifest");

struct Run {
    int code = -1;
    QString out, err;
};

QByteArray readFile(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestManifestCli : public QObject {
    Q_OBJECT
    QTemporaryDir m_home;

    QString userManifest() const {
        return m_home.filePath(QStringLiteral("data/cnready/api-support.md"));
    }

    // Runs the CLI with its data folder in the temporary home. The event loop keeps running while
    // waiting, so an in-process LocalHttpServer can answer.
    Run cli(const QStringList& args) {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), m_home.path());
        env.insert(QStringLiteral("XDG_DATA_HOME"), m_home.filePath(QStringLiteral("data")));
        p.setProcessEnvironment(env);
        QSignalSpy done(&p, &QProcess::finished);
        p.start(QStringLiteral(CNREADY_CLI_PATH), args);
        if (!done.wait(120000))
            return {};
        return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()),
                QString::fromUtf8(p.readAllStandardError())};
    }
    QString writePage(const QString& name, const QByteArray& html) {
        const QString path = m_home.filePath(name);
        QFile f(path);
        if (f.open(QIODevice::WriteOnly))
            f.write(html);
        return path;
    }

private slots:
    void initTestCase() { QVERIFY(m_home.isValid()); }

    void showBundledWarnsAboutItsAge() {
        QFile::remove(userManifest());
        const Run r = cli({QStringLiteral("manifest"), QStringLiteral("show")});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.startsWith(QStringLiteral("Manifest:  bundled snapshot")),
                 qPrintable(r.out));
        QVERIFY(r.out.contains(QStringLiteral("\nFetched:   2026-05-22T15:45:33Z (")));
        QVERIFY(r.out.contains(QStringLiteral("\nEntries:   576 (372 implemented)\n")));
        QVERIFY(
            r.out.contains(QStringLiteral("  Discrete Fourier Transform     2 /  0 / 14 /   2   "
                                          "16 of 18\n")));
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
        QVERIFY(r.err.startsWith(QStringLiteral("cnready: warning: the API-support manifest "
                                                "(bundled) was fetched 2026-05-22, ")));
        QVERIFY(r.err.contains(QStringLiteral("'cnready manifest refresh'")));
    }

    // The same warning reaches stderr on the everyday path, `assess`.
    void assessWarnsAboutTheBundledManifestAge() {
        QFile::remove(userManifest());
        const Run r =
            cli({QStringLiteral("assess"), QStringLiteral(CNREADY_SOURCE_DIR "/assets/examples")});
        QCOMPARE(r.code, 0);
        // The wording is the assess command's; it must name the date and a way to refresh.
        QVERIFY2(r.err.contains(QStringLiteral("cnready: warning: ")), qPrintable(r.err));
        QVERIFY(r.err.contains(QStringLiteral("2026-05-22")));
        QVERIFY(r.err.contains(QStringLiteral("'cnready manifest ")));
    }

    void checkExitCodes() {
        QFile::remove(userManifest());
        const Run bundled = cli({QStringLiteral("manifest"), QStringLiteral("check")});
        // The snapshot's stated counts disagree with its entries: warnings, not a failure.
        QCOMPARE(bundled.code, 0);
        QVERIFY(bundled.out.startsWith(QStringLiteral(
            "bundled:api-support.md:6: warning: Counts: says 616 total, the entries give 576\n")));
        QVERIFY2(bundled.out.endsWith(QStringLiteral(
                     "bundled:api-support.md: valid, with 7 warning(s) (576 entries in 5 "
                     "sections; lookups use the entries, not the stated counts)\n")),
                 qPrintable(bundled.out));

        const QString valid = kFixtures + QStringLiteral("/valid.md");
        const Run ok = cli({QStringLiteral("manifest"), QStringLiteral("check"),
                            QStringLiteral("--manifest"), valid});
        QCOMPARE(ok.code, 0);
        QCOMPARE(ok.out, valid + QStringLiteral(": valid (12 entries in 3 sections; the Counts: "
                                                "header and section counts agree)\n"));
        QCOMPARE(ok.err, QString()); // `check` validates; the age is for `show` and `assess`
        const QString broken = kFixtures + QStringLiteral("/broken.md");
        const Run bad = cli({QStringLiteral("manifest"), QStringLiteral("check"),
                             QStringLiteral("--manifest"), broken});
        QCOMPARE(bad.code, 1);
        QVERIFY(bad.out.contains(broken + QStringLiteral(":10: unknown glyph '❌'")));
        QVERIFY(bad.out.contains(broken + QStringLiteral(":5: warning: Counts: says 9 total")));
        QVERIFY2(bad.out.endsWith(broken + QStringLiteral(": 10 problem(s), 4 warning(s)\n")),
                 qPrintable(bad.out));
        QVERIFY(
            bad.out.contains(broken + QStringLiteral(":16: glyph and names must be separated")));
        const Run missing = cli({QStringLiteral("manifest"), QStringLiteral("check"),
                                 QStringLiteral("--manifest"), QStringLiteral("/no/such.md")});
        QCOMPARE(missing.code, 3);
        QCOMPARE(missing.err, QStringLiteral("cnready: no such manifest file: /no/such.md\n"));
    }

    void importShowCheckReset() {
        QFile::remove(userManifest());
        const QString page =
            writePage(QStringLiteral("comparison.html"), comparisonPageHtml(typicalRows()));
        const Run imp = cli({QStringLiteral("manifest"), QStringLiteral("import"), page});
        QCOMPARE(imp.code, 0);
        QVERIFY2(imp.out.contains(QStringLiteral("152 APIs, 132 implemented; written to ") +
                                  userManifest()),
                 qPrintable(imp.out + imp.err));
        const QByteArray installed = readFile(userManifest());
        QVERIFY(installed.contains("\n## Module-Level (121 of 137 implemented)\n"));

        const Run show = cli({QStringLiteral("manifest"), QStringLiteral("show")});
        QCOMPARE(show.code, 0);
        QVERIFY2(show.out.startsWith(QStringLiteral("Manifest:  user-imported, ") + userManifest()),
                 qPrintable(show.out));
        QVERIFY(show.out.contains(
            QRegularExpression(QStringLiteral("\nFetched:   \\S+Z \\(-?\\d+ days? ago\\)\n"))));
        QCOMPARE(show.err, QString()); // fresh: no age warning
        QCOMPARE(cli({QStringLiteral("manifest"), QStringLiteral("check")}).code, 0);

        // A refused page and an invalid Markdown file leave the installed manifest alone.
        PageStyle changed;
        changed.cellsPerRow = 5;
        const QString bad =
            writePage(QStringLiteral("changed.html"), comparisonPageHtml(typicalRows(), changed));
        const Run refused = cli({QStringLiteral("manifest"), QStringLiteral("import"), bad});
        QCOMPARE(refused.code, 1);
        QCOMPARE(refused.err.count(QLatin1Char('\n')), 1);
        QVERIFY(refused.err.contains(QStringLiteral("nothing written")));
        const Run badMd = cli({QStringLiteral("manifest"), QStringLiteral("import"),
                               kFixtures + QStringLiteral("/broken.md")});
        QCOMPARE(badMd.code, 1);
        QCOMPARE(readFile(userManifest()), installed);

        // --manifest wins over the imported one for a run.
        const Run given =
            cli({QStringLiteral("manifest"), QStringLiteral("show"), QStringLiteral("--manifest"),
                 kFixtures + QStringLiteral("/valid.md")});
        QVERIFY(given.out.startsWith(QStringLiteral("Manifest:  --manifest ")));

        const Run reset = cli({QStringLiteral("manifest"), QStringLiteral("reset")});
        QCOMPARE(reset.code, 0);
        QVERIFY(!QFile::exists(userManifest()));
        QVERIFY(cli({QStringLiteral("manifest"), QStringLiteral("show")})
                    .out.startsWith(QStringLiteral("Manifest:  bundled snapshot")));
    }

    void refreshThroughTheCli() {
        LocalHttpServer server;
        QVERIFY(server.listen());
        server.route("/hang", {200, "OK", {}, {}, true});
        server.route("/ok", {200, "OK", comparisonPageHtml(typicalRows()), {}, false});
        QFile::remove(userManifest());
        const Run notFound = cli({QStringLiteral("manifest"), QStringLiteral("refresh"),
                                  server.url(QStringLiteral("/gone"))});
        QCOMPARE(notFound.code, 1);
        QCOMPARE(notFound.err, QStringLiteral("cnready: %1 answered HTTP 404 Not Found; nothing "
                                              "written\n")
                                   .arg(server.url(QStringLiteral("/gone"))));
        const Run slow = cli({QStringLiteral("manifest"), QStringLiteral("refresh"),
                              server.url(QStringLiteral("/hang")), QStringLiteral("--timeout"),
                              QStringLiteral("0.5")});
        QCOMPARE(slow.code, 1);
        QVERIFY2(slow.err.contains(QStringLiteral("within 0.5 s")), qPrintable(slow.err));
        QVERIFY(!QFile::exists(userManifest()));
        const Run ok = cli({QStringLiteral("manifest"), QStringLiteral("refresh"),
                            server.url(QStringLiteral("/ok"))});
        QCOMPARE(ok.code, 0);
        QVERIFY(ok.out.startsWith(QStringLiteral("refreshed from ")));
        QVERIFY(QFile::exists(userManifest()));
        QFile::remove(userManifest());
    }

    void usageErrors() {
        const QList<QStringList> bad = {
            {QStringLiteral("manifest")},
            {QStringLiteral("manifest"), QStringLiteral("frobnicate")},
            {QStringLiteral("manifest"), QStringLiteral("import")},
            {QStringLiteral("manifest"), QStringLiteral("show"), QStringLiteral("extra")},
            {QStringLiteral("manifest"), QStringLiteral("refresh"), QStringLiteral("--timeout"),
             QStringLiteral("soon")},
            {QStringLiteral("manifest"), QStringLiteral("show"), QStringLiteral("--timeout"),
             QStringLiteral("3")},
            {QStringLiteral("manifest"), QStringLiteral("import"), QStringLiteral("a"),
             QStringLiteral("--manifest"), QStringLiteral("b")},
            {QStringLiteral("manifest"), QStringLiteral("refresh"),
             QStringLiteral("docs.nvidia.com/cupynumeric/latest/api/comparison.html")},
            {QStringLiteral("manifest"), QStringLiteral("refresh"),
             QStringLiteral("file:///etc/hosts")}};
        for (const QStringList& args : bad) {
            const Run r = cli(args);
            QVERIFY2(r.code == 2, qPrintable(args.join(QLatin1Char(' '))));
            QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
        }
        const Run help = cli({QStringLiteral("manifest"), QStringLiteral("--help")});
        QCOMPARE(help.code, 0);
        QVERIFY(help.out.contains(QStringLiteral("refresh [URL]")));
    }

    // No network on any path but `refresh`, shown two ways:
    // 1. statically: the only code in core/, ui/ and app/ that names a Qt networking class is
    //    ManifestRefresher — nothing else can open a connection;
    // 2. dynamically: a whole in-process `assess` run creates no QNetworkAccessManager (the
    //    refresher counts the ones it creates; a refresh afterwards shows the counter works).
    void onlyRefreshUsesTheNetwork() {
        static const QRegularExpression networking(QStringLiteral(
            "\\bQ(NetworkAccessManager|NetworkRequest|NetworkReply|TcpSocket|UdpSocket|SslSocket|"
            "TcpServer|HostInfo|DnsLookup|NetworkInformation|AbstractSocket|LocalSocket)\\b|"
            "<QtNetwork"));
        QStringList users;
        for (const char* area : {"core", "ui", "app"}) {
            QDirIterator it(QStringLiteral(CNREADY_SOURCE_DIR "/") + QLatin1String(area),
                            {QStringLiteral("*.h"), QStringLiteral("*.cpp")}, QDir::Files,
                            QDirIterator::Subdirectories);
            while (it.hasNext()) {
                const QString path = it.next();
                if (networking.match(QString::fromUtf8(readFile(path))).hasMatch())
                    users << QDir(QStringLiteral(CNREADY_SOURCE_DIR)).relativeFilePath(path);
            }
        }
        users.sort();
        QCOMPARE(users, QStringList({QStringLiteral("core/manifest/ManifestRefresher.cpp"),
                                     QStringLiteral("core/manifest/ManifestRefresher.h")}));

        QStandardPaths::setTestModeEnabled(true);
        QCOMPARE(ManifestRefresher::networkManagersCreated(), 0);
        QString outText, errText;
        QTextStream out(&outText), err(&errText);
        const int rc = runCli({QStringLiteral("cnready"), QStringLiteral("assess"),
                               QStringLiteral(CNREADY_SOURCE_DIR "/assets/examples")},
                              out, err);
        QCOMPARE(rc, 0);
        QVERIFY(outText.contains(QStringLiteral("## Verdict")));
        QCOMPARE(ManifestRefresher::networkManagersCreated(), 0);
        QCOMPARE(
            runCli({QStringLiteral("cnready"), QStringLiteral("manifest"), QStringLiteral("show")},
                   out, err),
            0);
        QCOMPARE(ManifestRefresher::networkManagersCreated(), 0);

        ManifestRefresher probe;
        QSignalSpy spy(&probe, &ManifestRefresher::finished);
        probe.setTimeout(std::chrono::milliseconds(300));
        probe.start(QUrl(QStringLiteral("http://127.0.0.1:9/")));
        QVERIFY(spy.wait(5000));
        QCOMPARE(ManifestRefresher::networkManagersCreated(), 1);
    }
};

QTEST_GUILESS_MAIN(TestManifestCli)
#include "tst_manifest_cli.moc"
