#pragma once
// Test helper: a tiny HTTP/1.1 server on 127.0.0.1 inside the test process (QTcpServer), serving
// canned answers by path. A route with `hang` accepts the connection and never answers.

#include <QByteArray>
#include <QHash>
#include <QPointer>
#include <QTcpServer>
#include <QTcpSocket>

#include <cctype>

namespace cnready::test {

struct HttpAnswer {
    int status = 200;
    QByteArray reason = "OK";
    QByteArray body;
    QByteArray location; ///< for redirects
    bool hang = false;   ///< read the request, never answer
};

class LocalHttpServer : public QObject {
public:
    LocalHttpServer() {
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket* s = m_server.nextPendingConnection()) {
                s->setParent(this);
                connect(s, &QTcpSocket::readyRead, this, [this, s] { onReadyRead(s); });
                connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
            }
        });
    }
    bool listen() { return m_server.listen(QHostAddress::LocalHost, 0); }
    quint16 port() const { return m_server.serverPort(); }
    QString url(const QString& path) const {
        return QStringLiteral("http://127.0.0.1:%1%2").arg(port()).arg(path);
    }
    void route(const QByteArray& path, const HttpAnswer& a) { m_routes.insert(path, a); }
    QList<QByteArray> requests; ///< request paths, in order

private:
    void onReadyRead(QTcpSocket* s) {
        QByteArray& buf = m_buffers[s];
        buf += s->readAll();
        if (!buf.isEmpty() && !std::isalpha(static_cast<unsigned char>(buf.front()))) {
            // Not HTTP (e.g. a TLS ClientHello): answer in plain text and hang up.
            buf.clear();
            s->write("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
            s->disconnectFromHost();
            return;
        }
        if (!buf.contains("\r\n\r\n"))
            return;
        const QByteArray requestLine = buf.left(buf.indexOf("\r\n"));
        buf.clear();
        const QList<QByteArray> parts = requestLine.split(' ');
        const QByteArray path = parts.value(1);
        requests << path;
        const HttpAnswer a =
            m_routes.value(path, HttpAnswer{404, "Not Found", "no such page\n", {}, false});
        if (a.hang)
            return;
        QByteArray out = "HTTP/1.1 " + QByteArray::number(a.status) + ' ' + a.reason + "\r\n";
        out += "Content-Type: text/html; charset=utf-8\r\n";
        out += "Content-Length: " + QByteArray::number(a.body.size()) + "\r\n";
        if (!a.location.isEmpty())
            out += "Location: " + a.location + "\r\n";
        out += "Connection: close\r\n\r\n";
        out += a.body;
        s->write(out);
        s->disconnectFromHost();
    }

    QTcpServer m_server;
    QHash<QByteArray, HttpAnswer> m_routes;
    QHash<QTcpSocket*, QByteArray> m_buffers;
};

} // namespace cnready::test
