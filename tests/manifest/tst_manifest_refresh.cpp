// `manifest refresh` against a local HTTP server on 127.0.0.1 started by this test: a good page
// replaces the manifest; a 404, a timeout, a malformed page, a refused redirect and a TLS
// failure each leave the existing manifest file exactly as it was (bytes and mtime).
#include "ComparisonPageBuilder.h"
#include "LocalHttpServer.h"
#include "manifest/Manifest.h"
#include "manifest/ManifestRefresher.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QSignalSpy>
#include <QSslKey>
#include <QSslServer>
#include <QSslSocket>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace cnready;
using namespace cnready::test;
using namespace std::chrono_literals;

namespace {

const QByteArray kOldManifest = "old manifest bytes, must survive a failed refresh\n";
const QDateTime kOldTime(QDate(2024, 1, 2), QTime(3, 4, 5), Qt::UTC);

struct Outcome {
    bool ok = false;
    QString message;
};

Outcome runRefresh(ManifestRefresher& r, const QString& url, int waitMs = 15000) {
    QSignalSpy spy(&r, &ManifestRefresher::finished);
    r.start(QUrl(url));
    if (!spy.wait(waitMs))
        return {false, QStringLiteral("finished() never came")};
    return {spy.at(0).at(0).toBool(), spy.at(0).at(1).toString()};
}

} // namespace

class TestManifestRefresh : public QObject {
    Q_OBJECT
    LocalHttpServer m_server;
    QString m_dest;

    void writeOldManifest() {
        QFile::remove(m_dest);
        QVERIFY(QDir().mkpath(QFileInfo(m_dest).absolutePath()));
        QFile f(m_dest);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(kOldManifest);
        QVERIFY(f.flush()); // otherwise closing writes the data and updates the mtime again
        QVERIFY(f.setFileTime(kOldTime, QFileDevice::FileModificationTime));
        f.close();
        QCOMPARE(QFileInfo(m_dest).lastModified().toUTC(), kOldTime);
    }
    void verifyOldManifestUntouched() {
        QFile f(m_dest);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), kOldManifest);
        QCOMPARE(QFileInfo(m_dest).lastModified().toUTC(), kOldTime);
        QCOMPARE(QDir(QFileInfo(m_dest).absolutePath()).entryList(QDir::Files | QDir::Hidden),
                 QStringList{QFileInfo(m_dest).fileName()}); // no temporary file left
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        m_dest = Manifest::userManifestPath();
        QVERIFY(m_dest.contains(QStringLiteral("qttest")));
        QVERIFY(m_server.listen());
        m_server.route("/ok", {200, "OK", comparisonPageHtml(typicalRows()), {}, false});
        m_server.route("/moved",
                       {301, "Moved Permanently", {}, m_server.url("/ok").toUtf8(), false});
        m_server.route("/hang", {200, "OK", {}, {}, true});
        PageStyle changed;
        changed.cellsPerRow = 5;
        m_server.route("/changed",
                       {200, "OK", comparisonPageHtml(typicalRows(), changed), {}, false});
        m_server.route("/small", {200, "OK", comparisonPageHtml(typicalRows(40)), {}, false});
        m_server.route("/garbage",
                       {200, "OK", QByteArray("\x00\xff\xfe", 3) + "<<<not html", {}, false});
        m_server.route("/error", {500, "Internal Server Error", "oops", {}, false});
    }

    void init() { writeOldManifest(); }

    void goodPageReplacesTheManifest() {
        ManifestRefresher r;
        QCOMPARE(r.destination(), m_dest);
        const QDateTime before = QDateTime::currentDateTimeUtc().addSecs(-1);
        const Outcome o = runRefresh(r, m_server.url(QStringLiteral("/ok")));
        QVERIFY2(o.ok, qPrintable(o.message));
        QVERIFY(o.message.contains(m_dest));
        const Manifest m = Manifest::active();
        QCOMPARE(m.originKind(), ManifestOrigin::UserImported);
        QCOMPARE(m.issues().size(), 0);
        QCOMPARE(m.source(), m_server.url(QStringLiteral("/ok")));
        QVERIFY(m.fetched() >= before);
        QVERIFY(m.fetched() <= QDateTime::currentDateTimeUtc().addSecs(1));
        QCOMPARE(m.lookup(QStringLiteral("numpy.fft.fft")), Support::Partial);
        QCOMPARE(m.counts().implemented(), 132);
        QVERIFY(manifestAgeWarning(m, QDate::currentDate()).isEmpty());
    }

    void redirectIsFollowed() {
        ManifestRefresher r;
        const Outcome o = runRefresh(r, m_server.url(QStringLiteral("/moved")));
        QVERIFY2(o.ok, qPrintable(o.message));
        QCOMPARE(Manifest::active().source(), m_server.url(QStringLiteral("/ok"))); // final URL
    }

    void notFound() {
        ManifestRefresher r;
        const Outcome o = runRefresh(r, m_server.url(QStringLiteral("/nowhere")));
        QVERIFY(!o.ok);
        QCOMPARE(o.message, m_server.url(QStringLiteral("/nowhere")) +
                                QStringLiteral(" answered HTTP 404 Not Found; nothing written"));
        verifyOldManifestUntouched();
    }

    void serverError() {
        ManifestRefresher r;
        const Outcome o = runRefresh(r, m_server.url(QStringLiteral("/error")));
        QVERIFY(!o.ok);
        QVERIFY2(o.message.contains(QStringLiteral("HTTP 500")), qPrintable(o.message));
        verifyOldManifestUntouched();
    }

    void timeout() {
        ManifestRefresher r;
        r.setTimeout(400ms);
        QElapsedTimer clock;
        clock.start();
        const Outcome o = runRefresh(r, m_server.url(QStringLiteral("/hang")));
        QVERIFY(!o.ok);
        QVERIFY2(o.message.contains(QStringLiteral("no complete answer")) &&
                     o.message.contains(QStringLiteral("within 0.4 s")),
                 qPrintable(o.message));
        QVERIFY(clock.elapsed() >= 350);
        QVERIFY(clock.elapsed() < 10000);
        QVERIFY(!r.isRunning());
        verifyOldManifestUntouched();
    }

    void malformedPages_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("why");
        QTest::newRow("changed table")
            << QStringLiteral("/changed") << QStringLiteral("5 cells, expected 4");
        QTest::newRow("too small")
            << QStringLiteral("/small") << QStringLiteral("only 52 implemented rows");
        QTest::newRow("garbage") << QStringLiteral("/garbage")
                                 << QStringLiteral("no table in section(s)");
    }
    void malformedPages() {
        QFETCH(QString, path);
        QFETCH(QString, why);
        ManifestRefresher r;
        const Outcome o = runRefresh(r, m_server.url(path));
        QVERIFY(!o.ok);
        QVERIFY2(o.message.contains(why), qPrintable(o.message));
        QVERIFY(o.message.contains(QStringLiteral("nothing written")));
        verifyOldManifestUntouched();
    }

    void notHttpIsRefused() {
        ManifestRefresher r;
        const Outcome o = runRefresh(r, QStringLiteral("file:///etc/passwd"));
        QVERIFY(!o.ok);
        QVERIFY(o.message.contains(QStringLiteral("only http:// and https://")));
        verifyOldManifestUntouched();
    }

    // https to a server that speaks plain HTTP: the TLS handshake fails, which is an error
    // (never ignored), not a fallback.
    void tlsFailure() {
        if (!QSslSocket::supportsSsl())
            QSKIP("no TLS backend in this Qt build");
        ManifestRefresher r;
        const QString url = QStringLiteral("https://127.0.0.1:%1/ok").arg(m_server.port());
        const Outcome o = runRefresh(r, url);
        QVERIFY(!o.ok);
        QVERIFY2(o.message.contains(QStringLiteral("TLS error talking to 127.0.0.1")),
                 qPrintable(o.message));
        verifyOldManifestUntouched();
    }

    // A real TLS server on 127.0.0.1 with a self-signed certificate (made for this run with the
    // openssl tool): the refresher must refuse it, not ignore the certificate errors.
    void untrustedCertificateIsRefused() {
        if (!QSslSocket::supportsSsl())
            QSKIP("no TLS backend in this Qt build");
        const QString openssl = QStandardPaths::findExecutable(QStringLiteral("openssl"));
        if (openssl.isEmpty())
            QSKIP("no openssl tool to make a test certificate");
        QTemporaryDir dir;
        const QString certPath = dir.filePath(QStringLiteral("cert.pem"));
        const QString keyPath = dir.filePath(QStringLiteral("key.pem"));
        QProcess gen;
        gen.start(openssl,
                  {QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"),
                   QStringLiteral("ec"), QStringLiteral("-pkeyopt"),
                   QStringLiteral("ec_paramgen_curve:prime256v1"), QStringLiteral("-nodes"),
                   QStringLiteral("-keyout"), keyPath, QStringLiteral("-out"), certPath,
                   QStringLiteral("-days"), QStringLiteral("2"), QStringLiteral("-subj"),
                   QStringLiteral("/CN=127.0.0.1"), QStringLiteral("-addext"),
                   QStringLiteral("subjectAltName=IP:127.0.0.1")});
        QVERIFY(gen.waitForFinished(30000));
        QCOMPARE(gen.exitCode(), 0);
        const QList<QSslCertificate> certs = QSslCertificate::fromPath(certPath);
        QCOMPARE(certs.size(), 1);
        QFile keyFile(keyPath);
        QVERIFY(keyFile.open(QIODevice::ReadOnly));
        const QSslKey key(&keyFile, QSsl::Ec);
        QVERIFY(!key.isNull());

        QSslServer tls;
        QSslConfiguration conf = QSslConfiguration::defaultConfiguration();
        conf.setLocalCertificate(certs.first());
        conf.setPrivateKey(key);
        tls.setSslConfiguration(conf);
        QVERIFY(tls.listen(QHostAddress::LocalHost, 0));
        const QByteArray page = comparisonPageHtml(typicalRows());
        connect(&tls, &QTcpServer::pendingConnectionAvailable, &tls, [&] {
            while (QTcpSocket* s = tls.nextPendingConnection())
                connect(s, &QTcpSocket::readyRead, s, [s, page] {
                    s->readAll();
                    s->write(
                        "HTTP/1.1 200 OK\r\nContent-Length: " + QByteArray::number(page.size()) +
                        "\r\nConnection: close\r\n\r\n" + page);
                    s->disconnectFromHost();
                });
        });
        ManifestRefresher r;
        const Outcome o =
            runRefresh(r, QStringLiteral("https://127.0.0.1:%1/ok").arg(tls.serverPort()));
        QVERIFY(!o.ok);
        qInfo("%s", qPrintable(o.message));
        QVERIFY2(o.message.startsWith(QStringLiteral("TLS error talking to 127.0.0.1: ")),
                 qPrintable(o.message));
        QVERIFY(o.message.contains(QStringLiteral("certificate"), Qt::CaseInsensitive));
        verifyOldManifestUntouched();
    }

    void cancel() {
        ManifestRefresher r;
        QSignalSpy spy(&r, &ManifestRefresher::finished);
        r.start(QUrl(m_server.url(QStringLiteral("/hang"))));
        QVERIFY(r.isRunning());
        QTest::qWait(100);
        r.cancel();
        QVERIFY(spy.count() == 1 || spy.wait(5000)); // abort() may emit before cancel() returns
        QCOMPARE(spy.at(0).at(0).toBool(), false);
        QCOMPARE(spy.at(0).at(1).toString(), QStringLiteral("refresh cancelled; nothing written"));
        verifyOldManifestUntouched();
    }

    void cleanupTestCase() { QFile::remove(m_dest); }
};

QTEST_GUILESS_MAIN(TestManifestRefresh)
#include "tst_manifest_refresh.moc"
