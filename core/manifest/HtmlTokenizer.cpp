#include "manifest/HtmlTokenizer.h"

namespace cnready {

namespace {

bool isSpace(QChar c) {
    return c == QLatin1Char(' ') || c == QLatin1Char('\t') || c == QLatin1Char('\n') ||
           c == QLatin1Char('\r') || c == QLatin1Char('\f');
}

bool isNameChar(QChar c) {
    return c.isLetterOrNumber() || c == QLatin1Char('-') || c == QLatin1Char('_') ||
           c == QLatin1Char(':') || c == QLatin1Char('.');
}

char32_t namedEntity(QStringView name) {
    static const QHash<QString, char32_t> table = {{QStringLiteral("amp"), U'&'},
                                                   {QStringLiteral("lt"), U'<'},
                                                   {QStringLiteral("gt"), U'>'},
                                                   {QStringLiteral("quot"), U'"'},
                                                   {QStringLiteral("apos"), U'\''},
                                                   {QStringLiteral("nbsp"), 0x00A0},
                                                   {QStringLiteral("mdash"), 0x2014},
                                                   {QStringLiteral("ndash"), 0x2013},
                                                   {QStringLiteral("hellip"), 0x2026},
                                                   {QStringLiteral("copy"), 0x00A9},
                                                   {QStringLiteral("lsquo"), 0x2018},
                                                   {QStringLiteral("rsquo"), 0x2019},
                                                   {QStringLiteral("ldquo"), 0x201C},
                                                   {QStringLiteral("rdquo"), 0x201D},
                                                   {QStringLiteral("para"), 0x00B6},
                                                   {QStringLiteral("check"), 0x2713},
                                                   {QStringLiteral("cross"), 0x2717},
                                                   {QStringLiteral("middot"), 0x00B7},
                                                   {QStringLiteral("ZeroWidthSpace"), 0x200B}};
    return table.value(name.toString(), 0);
}

} // namespace

QString HtmlTokenizer::decodeEntities(QStringView text) {
    if (!text.contains(QLatin1Char('&')))
        return text.toString();
    QString out;
    out.reserve(text.size());
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text[i] != QLatin1Char('&')) {
            out.append(text[i]);
            continue;
        }
        // A reference is at most ~32 characters up to its ';'.
        const qsizetype semi = text.indexOf(QLatin1Char(';'), i + 1);
        if (semi < 0 || semi - i > 32) {
            out.append(text[i]);
            continue;
        }
        const QStringView body = text.mid(i + 1, semi - i - 1);
        char32_t code = 0;
        if (body.startsWith(QLatin1Char('#'))) {
            bool ok = false;
            const bool hex =
                body.size() > 1 && (body[1] == QLatin1Char('x') || body[1] == QLatin1Char('X'));
            const uint v = hex ? body.mid(2).toUInt(&ok, 16) : body.mid(1).toUInt(&ok, 10);
            if (ok && v > 0 && v <= 0x10FFFF && !(v >= 0xD800 && v <= 0xDFFF))
                code = v;
        } else {
            code = namedEntity(body);
        }
        if (!code) {
            out.append(text[i]);
            continue;
        }
        out.append(QString::fromUcs4(&code, 1));
        i = semi;
    }
    return out;
}

void HtmlTokenizer::skipPast(QStringView terminator) {
    const qsizetype at = m_s.indexOf(terminator, m_pos, Qt::CaseInsensitive);
    m_pos = at < 0 ? m_s.size() : at + terminator.size();
}

bool HtmlTokenizer::next(HtmlToken& token) {
    token = HtmlToken{};
    if (!m_rawTextEnd.isEmpty()) {
        // Inside <script>/<style>: drop everything up to the end tag, then emit that end tag.
        const qsizetype at = m_s.indexOf(m_rawTextEnd, m_pos, Qt::CaseInsensitive);
        m_pos = at < 0 ? m_s.size() : at;
        m_rawTextEnd.clear();
    }
    while (m_pos < m_s.size()) {
        const QChar c = m_s[m_pos];
        if (c != QLatin1Char('<')) {
            qsizetype end = m_s.indexOf(QLatin1Char('<'), m_pos);
            if (end < 0)
                end = m_s.size();
            token.kind = HtmlToken::Kind::Text;
            token.text = decodeEntities(m_s.mid(m_pos, end - m_pos));
            m_pos = end;
            return true;
        }
        const QStringView ahead = m_s.mid(m_pos);
        if (ahead.startsWith(QLatin1String("<!--"))) {
            m_pos += 4;
            skipPast(u"-->");
            continue;
        }
        if (ahead.startsWith(QLatin1String("<!")) || ahead.startsWith(QLatin1String("<?"))) {
            skipPast(u">");
            continue;
        }
        const bool isEnd = ahead.startsWith(QLatin1String("</"));
        qsizetype p = m_pos + (isEnd ? 2 : 1);
        if (p >= m_s.size() || !m_s[p].isLetter()) {
            // A '<' that starts no tag is text.
            token.kind = HtmlToken::Kind::Text;
            token.text = QStringLiteral("<");
            ++m_pos;
            return true;
        }
        const qsizetype nameStart = p;
        while (p < m_s.size() && isNameChar(m_s[p]))
            ++p;
        token.name = m_s.mid(nameStart, p - nameStart).toString().toLower();
        token.kind = isEnd ? HtmlToken::Kind::EndTag : HtmlToken::Kind::StartTag;
        // Attributes: name, name=value, name="value", name='value'.
        while (p < m_s.size()) {
            while (p < m_s.size() && isSpace(m_s[p]))
                ++p;
            if (p >= m_s.size())
                break;
            if (m_s[p] == QLatin1Char('>')) {
                ++p;
                break;
            }
            if (m_s[p] == QLatin1Char('/')) {
                ++p;
                if (p < m_s.size() && m_s[p] == QLatin1Char('>')) {
                    token.selfClosing = true;
                    ++p;
                    break;
                }
                continue;
            }
            const qsizetype an = p;
            while (p < m_s.size() && !isSpace(m_s[p]) && m_s[p] != QLatin1Char('=') &&
                   m_s[p] != QLatin1Char('>') && m_s[p] != QLatin1Char('/'))
                ++p;
            const QString attrName = m_s.mid(an, p - an).toString().toLower();
            while (p < m_s.size() && isSpace(m_s[p]))
                ++p;
            QString value;
            if (p < m_s.size() && m_s[p] == QLatin1Char('=')) {
                ++p;
                while (p < m_s.size() && isSpace(m_s[p]))
                    ++p;
                if (p < m_s.size() && (m_s[p] == QLatin1Char('"') || m_s[p] == QLatin1Char('\''))) {
                    const QChar quote = m_s[p++];
                    qsizetype close = m_s.indexOf(quote, p);
                    if (close < 0)
                        close = m_s.size();
                    value = decodeEntities(m_s.mid(p, close - p));
                    p = close + 1;
                } else {
                    const qsizetype vs = p;
                    while (p < m_s.size() && !isSpace(m_s[p]) && m_s[p] != QLatin1Char('>'))
                        ++p;
                    value = decodeEntities(m_s.mid(vs, p - vs));
                }
            }
            if (!attrName.isEmpty() && !token.attrs.contains(attrName))
                token.attrs.insert(attrName, value);
            else if (p == an)
                ++p; // no progress on a stray character: skip it
        }
        m_pos = std::min(p, m_s.size());
        if (!isEnd && !token.selfClosing &&
            (token.name == QLatin1String("script") || token.name == QLatin1String("style")))
            m_rawTextEnd = QStringLiteral("</") + token.name;
        return true;
    }
    return false;
}

} // namespace cnready
