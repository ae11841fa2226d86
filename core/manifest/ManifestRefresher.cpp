#include "manifest/ManifestRefresher.h"

#include "manifest/ComparisonPage.h"
#include "manifest/Manifest.h"

#include <QDateTime>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QSslError>

namespace cnready {

std::atomic<int> ManifestRefresher::s_created{0};

namespace {
constexpr qint64 kMaxPageBytes = 32LL * 1024 * 1024; // the real page is well under 1 MiB
constexpr int kMaxRedirects = 10;
} // namespace

ManifestRefresher::ManifestRefresher(QObject* parent) : QObject(parent) {
    m_deadline.setSingleShot(true);
    connect(&m_deadline, &QTimer::timeout, this, [this] {
        if (m_reply) {
            m_timedOut = true;
            m_reply->abort();
        }
    });
}

ManifestRefresher::~ManifestRefresher() {
    if (m_reply) {
        m_reply->disconnect(this);
        m_reply->abort();
    }
}

QString ManifestRefresher::destination() const {
    return m_destination.isEmpty() ? Manifest::userManifestPath() : m_destination;
}

void ManifestRefresher::fail(const QString& message) {
    emit finished(false, message);
}

void ManifestRefresher::start(const QUrl& url) {
    if (m_reply)
        return;
    const QString scheme = url.scheme().toLower();
    if (!url.isValid() || (scheme != QLatin1String("https") && scheme != QLatin1String("http")) ||
        url.host().isEmpty()) {
        const QString msg = QStringLiteral("cannot refresh from '%1': only http:// and https:// "
                                           "URLs are supported")
                                .arg(url.toString());
        QMetaObject::invokeMethod(
            this, [this, msg] { fail(msg); }, Qt::QueuedConnection);
        return;
    }
    if (!m_nam) {
        m_nam = new QNetworkAccessManager(this);
        ++s_created;
    }
    m_url = url;
    m_timedOut = m_cancelled = m_tooBig = false;
    QNetworkRequest request(url);
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                         QNetworkRequest::NoLessSafeRedirectPolicy);
    request.setMaximumRedirectsAllowed(kMaxRedirects);
    request.setHeader(
        QNetworkRequest::UserAgentHeader,
        QStringLiteral("cnready/%1 (manifest refresh)").arg(QLatin1String(CNREADY_VERSION)));
    m_reply = m_nam->get(request);
    connect(m_reply, &QNetworkReply::downloadProgress, this, [this](qint64 received, qint64 total) {
        if (received > kMaxPageBytes && m_reply) {
            m_tooBig = true;
            m_reply->abort();
            return;
        }
        emit progress(received, total);
    });
    connect(m_reply, &QNetworkReply::finished, this, &ManifestRefresher::onFinished);
    m_deadline.start(m_timeout);
}

void ManifestRefresher::cancel() {
    if (m_reply) {
        m_cancelled = true;
        m_reply->abort();
    }
}

void ManifestRefresher::onFinished() {
    m_deadline.stop();
    QNetworkReply* reply = m_reply;
    m_reply = nullptr;
    if (!reply)
        return;
    reply->deleteLater();
    const QString where = m_url.toString();
    if (m_timedOut) {
        fail(QStringLiteral("no complete answer from %1 within %2 s; nothing written")
                 .arg(where)
                 .arg(double(m_timeout.count()) / 1000.0));
        return;
    }
    if (m_cancelled) {
        fail(QStringLiteral("refresh cancelled; nothing written"));
        return;
    }
    if (m_tooBig) {
        fail(QStringLiteral("the answer from %1 is larger than %2 MiB, which is not the "
                            "comparison page; nothing written")
                 .arg(where)
                 .arg(kMaxPageBytes / (1024 * 1024)));
        return;
    }
    const QVariant statusAttr = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
    const int status = statusAttr.isValid() ? statusAttr.toInt() : 0;
    const QString finalUrl = reply->url().toString();
    if (reply->error() == QNetworkReply::SslHandshakeFailedError) {
        fail(QStringLiteral("TLS error talking to %1: %2; nothing written")
                 .arg(reply->url().host(), reply->errorString()));
        return;
    }
    if (reply->error() == QNetworkReply::InsecureRedirectError ||
        reply->error() == QNetworkReply::TooManyRedirectsError) {
        fail(QStringLiteral("refused redirect from %1: %2; nothing written")
                 .arg(where, reply->errorString()));
        return;
    }
    if (status != 0 && status != 200) {
        const QString reason =
            reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toString();
        fail(QStringLiteral("%1 answered HTTP %2%3; nothing written")
                 .arg(finalUrl)
                 .arg(status)
                 .arg(reason.isEmpty() ? QString() : QLatin1Char(' ') + reason));
        return;
    }
    if (reply->error() != QNetworkReply::NoError) {
        fail(QStringLiteral("cannot download %1: %2; nothing written")
                 .arg(where, reply->errorString()));
        return;
    }
    const QByteArray body = reply->readAll();
    const ManifestImport imported =
        manifestFromComparisonPage(body, finalUrl, QDateTime::currentDateTimeUtc());
    if (!imported.ok) {
        fail(QStringLiteral("%1: %2").arg(finalUrl, imported.error));
        return;
    }
    QString error;
    const QString dest = destination();
    if (!writeManifestFile(imported.markdown, dest, &error)) {
        fail(error + QStringLiteral("; the previous manifest is unchanged"));
        return;
    }
    const ManifestCounts c = imported.manifest.counts();
    emit finished(true, QStringLiteral("refreshed from %1: %2 APIs, %3 implemented (%4 multi-GPU, "
                                       "%5 single-GPU only, %6 partial); written to %7")
                            .arg(finalUrl)
                            .arg(c.total)
                            .arg(c.implemented())
                            .arg(c.multi)
                            .arg(c.single)
                            .arg(c.partial)
                            .arg(dest));
}

} // namespace cnready
