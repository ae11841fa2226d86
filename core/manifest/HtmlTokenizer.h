#pragma once
// A small, tolerant HTML tokenizer: enough to walk the tables of a Sphinx-generated page.
// Not a full HTML5 parser (Qt Core has none): it yields start tags with their attributes, end
// tags and decoded text; comments, doctypes and processing instructions are skipped, and the
// contents of <script>/<style> are skipped as raw text. Malformed markup never stops it: a
// stray '<' is text, an unterminated tag ends the input. Linear time, no recursion.

#include <QHash>
#include <QString>
#include <QStringView>

#include <utility>

namespace cnready {

struct HtmlToken {
    enum class Kind { StartTag, EndTag, Text };
    Kind kind = Kind::Text;
    QString name;                  ///< tag name in lower case (tags only)
    QHash<QString, QString> attrs; ///< attribute names in lower case, values entity-decoded
    bool selfClosing = false;      ///< "<br/>"
    QString text;                  ///< decoded text (Text tokens only)

    QString attr(const QString& key) const { return attrs.value(key); }
};

class HtmlTokenizer {
public:
    /// Keeps its own (implicitly shared) copy of `html`, so a temporary is fine.
    explicit HtmlTokenizer(QString html) : m_text(std::move(html)), m_s(m_text) {}
    HtmlTokenizer(const HtmlTokenizer&) = delete;
    HtmlTokenizer& operator=(const HtmlTokenizer&) = delete;
    /// Fills `token` with the next token; false at the end of the input.
    bool next(HtmlToken& token);

    /// Decodes character references: `&amp;`, `&lt;`, `&#8212;`, `&#x2713;`, and a few named
    /// ones common in Sphinx output (nbsp, mdash, ndash, quotes, hellip, copy). Unknown or
    /// unterminated references are kept as written.
    static QString decodeEntities(QStringView text);

private:
    void skipPast(QStringView terminator);
    QString m_text;
    QStringView m_s; ///< view of m_text
    qsizetype m_pos = 0;
    QString m_rawTextEnd; ///< set after <script>/<style>: skip up to this end tag
};

} // namespace cnready
