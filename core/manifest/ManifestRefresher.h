#pragma once
// Downloads the upstream comparison page and replaces the user's manifest with it — the only
// code in cnready that touches the network, and only when the user asks (`cnready manifest
// refresh`, the GUI's refresh menu entry).

#include <QByteArray>
#include <QNetworkReply>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QTimer>
#include <QUrl>

#include <atomic>
#include <chrono>

class QNetworkAccessManager;

namespace cnready {

/// Asynchronous refresh: start() downloads `url`, converts the page with
/// manifestFromComparisonPage() and, only when that validates, writes the manifest atomically to
/// destination() (default Manifest::userManifestPath()). finished(ok, message) is emitted once
/// per start(), with a one-line message (what was written, or why nothing was). After
/// finished(true, ...), Manifest::active() returns the new manifest: reload it and re-assess.
///
/// Errors, each leaving the existing manifest untouched: no complete answer within timeout()
/// (default 30 s), TLS errors (never ignored), a final HTTP status other than 200, a body over
/// 32 MiB, a page that does not convert. Redirects are followed like a browser does, except
/// that https never downgrades to http (QNetworkRequest::NoLessSafeRedirectPolicy), at most 10.
/// The QNetworkAccessManager is created on the first start() only, so constructing a refresher
/// costs no network setup. Needs a running event loop (QCoreApplication::exec or a QEventLoop).
class ManifestRefresher : public QObject {
    Q_OBJECT
public:
    explicit ManifestRefresher(QObject* parent = nullptr);
    ~ManifestRefresher() override;

    /// Overall deadline for the download, from start() to the last byte.
    void setTimeout(std::chrono::milliseconds timeout) { m_timeout = timeout; }
    std::chrono::milliseconds timeout() const { return m_timeout; }
    /// Where the manifest is written; empty means Manifest::userManifestPath().
    void setDestination(const QString& path) { m_destination = path; }
    QString destination() const;

    /// Starts a download of `url` (http or https). Ignored while one is running. Emits
    /// finished(false, ...) right away (queued) for a URL that is not http(s).
    void start(const QUrl& url);
    bool isRunning() const { return m_reply != nullptr; }
    /// Cancels a running download; finished(false, ...) is emitted before cancel() returns.
    void cancel();

    /// How many QNetworkAccessManager objects refreshers have created in this process (tests
    /// use it to show that `assess` never gets near the network).
    static int networkManagersCreated() { return s_created.load(); }

signals:
    void progress(qint64 bytesReceived, qint64 bytesTotal);
    void finished(bool ok, const QString& message);

private:
    void onFinished();
    void fail(const QString& message);

    QNetworkAccessManager* m_nam = nullptr;
    QPointer<QNetworkReply> m_reply;
    QTimer m_deadline;
    QUrl m_url;
    QString m_destination;
    std::chrono::milliseconds m_timeout{30000};
    bool m_timedOut = false, m_cancelled = false, m_tooBig = false;
    static std::atomic<int> s_created;
};

} // namespace cnready
