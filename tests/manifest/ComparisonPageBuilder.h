#pragma once
// Test helper: writes HTML pages with the structure of the upstream comparison page (nested
// Sphinx sections, one table per section, body rows of four cells with links/code/spans), from
// rows the test chooses. Written for these tests; no upstream markup is copied.

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

namespace cnready::test {

/// One table row. `cupy` empty means "not implemented" (the page shows '-').
struct PageRow {
    QString section; ///< page section id, e.g. "linear-algebra"
    QString numpy;   ///< "numpy.add"
    QString cupy;    ///< "cupynumeric.add" or empty
    QString single; ///< support token for the single-GPU column: "✓", "🟡", "❌", "", "1", "3"
    QString multi;  ///< same for the multi-GPU column
};

struct PageStyle {
    bool digits = false;      ///< write 1 / 3 instead of ✓ / 🟡 (older pages), ❌ as empty
    bool divSections = false; ///< older Sphinx: <div class="section" id=...> instead of <section>
    int cellsPerRow = 4;      ///< != 4 simulates a changed table layout
    QString idSuffix;         ///< appended to section ids (a renamed section)
    QString canonical = QStringLiteral("https://docs.example.test/cupynumeric/api/comparison.html");
};

inline const QStringList& pageSectionIds() {
    static const QStringList ids = {
        QStringLiteral("module-level"), QStringLiteral("multi-dimensional-array"),
        QStringLiteral("linear-algebra"), QStringLiteral("discrete-fourier-transform"),
        QStringLiteral("random-sampling")};
    return ids;
}

inline QString pageToken(const QString& token, const PageStyle& style) {
    if (!style.digits)
        return token;
    if (token == QStringLiteral("✓"))
        return QStringLiteral("1");
    if (token == QStringLiteral("🟡"))
        return QStringLiteral("3");
    if (token == QStringLiteral("❌"))
        return QString();
    return token;
}

inline QString htmlEscape(const QString& s) {
    QString out = s;
    out.replace(QLatin1Char('&'), QStringLiteral("&amp;"))
        .replace(QLatin1Char('<'), QStringLiteral("&lt;"))
        .replace(QLatin1Char('>'), QStringLiteral("&gt;"))
        .replace(QLatin1Char('"'), QStringLiteral("&quot;"));
    return out;
}

/// A cell holding a name the way Sphinx renders cross references: link > code > span.
inline QString nameCell(const QString& name, const QString& href) {
    return QStringLiteral("<td><p><a class=\"reference external\" href=\"%1\" title=\"(docs &amp; "
                          "more)\"><code class=\"xref py py-obj docutils literal notranslate\">"
                          "<span class=\"pre\">%2</span></code></a></p></td>")
        .arg(htmlEscape(href), htmlEscape(name));
}

inline QByteArray comparisonPageHtml(const QList<PageRow>& rows, const PageStyle& style = {}) {
    QString h;
    h += QStringLiteral("<!DOCTYPE html>\n<html lang=\"en\" data-content_root=\"../\">\n<head>\n"
                        "<meta charset=\"utf-8\" />\n");
    if (!style.canonical.isEmpty())
        h += QStringLiteral("<link rel=\"canonical\" href=\"%1\" />\n").arg(style.canonical);
    h += QStringLiteral("<title>API comparison &#8212; test page</title>\n"
                        "<script>var fake = '<table><tr><td>numpy.x</td></tr></table>';</script>\n"
                        "<style>td > p { margin: 0 }</style>\n</head>\n<body>\n"
                        "<!-- a comment with <table> inside is not a table -->\n");
    const QString open = style.divSections ? QStringLiteral("<div class=\"section\" id=\"%1\">")
                                           : QStringLiteral("<section id=\"%1\">");
    const QString close =
        style.divSections ? QStringLiteral("</div>") : QStringLiteral("</section>");
    h += open.arg(QStringLiteral("api-comparison")) + QStringLiteral("\n<h1>Comparison</h1>\n");
    // A table outside the five sections must be ignored.
    h += QStringLiteral("<table><tbody><tr><td>numpy.outside</td><td>cupynumeric.outside</td>"
                        "<td>%1</td><td>%1</td></tr></tbody></table>\n")
             .arg(pageToken(QStringLiteral("✓"), style));
    for (const QString& id : pageSectionIds()) {
        h += open.arg(id + style.idSuffix) +
             QStringLiteral("\n<h2>%1<a class=\"headerlink\" href=\"#%1\">¶</a></h2>\n").arg(id);
        h += QStringLiteral("<div class=\"pst-scrollable-table-container\"><table class=\"table\">"
                            "\n<thead>\n<tr class=\"row-odd\"><th class=\"head\"><p>NumPy</p></th>"
                            "<th class=\"head\"><p>cuPyNumeric</p></th><th class=\"head\"><p>single"
                            "-GPU/CPU</p></th><th class=\"head\"><p>multi-GPU/CPU</p></th></tr>\n"
                            "</thead>\n<tbody>\n");
        int n = 0;
        for (const PageRow& r : rows) {
            if (r.section != id)
                continue;
            h += QStringLiteral("<tr class=\"%1\">").arg(++n % 2 ? u"row-even" : u"row-odd");
            QStringList cells;
            cells << nameCell(
                r.numpy, QStringLiteral("https://numpy.example.test/%1.html?a=1&b=2").arg(r.numpy));
            cells << (r.cupy.isEmpty()
                          ? QStringLiteral("<td><p>-</p></td>")
                          : nameCell(r.cupy, QStringLiteral("generated/%1.html#%1").arg(r.cupy)));
            cells << QStringLiteral("<td><p>%1</p></td>").arg(pageToken(r.single, style));
            cells << QStringLiteral("\n<td><p>%1</p></td>").arg(pageToken(r.multi, style));
            while (cells.size() < style.cellsPerRow)
                cells << QStringLiteral("<td><p>note</p></td>");
            h += cells.mid(0, style.cellsPerRow).join(QString());
            h += QStringLiteral("</tr>\n");
        }
        h += QStringLiteral("</tbody>\n</table>\n</div>\n") + close + QStringLiteral("\n");
    }
    h += close + QStringLiteral("\n</body>\n</html>\n");
    return h.toUtf8();
}

/// A realistic mix: `implementedModuleRows` implemented module-level functions (multi-GPU,
/// every 10th single-GPU only), 15 not-implemented ones, array methods, linear algebra with
/// single-only entries, FFT with partial multi-GPU support and random sampling.
inline QList<PageRow> typicalRows(int implementedModuleRows = 120) {
    QList<PageRow> rows;
    const QString ok = QStringLiteral("✓"), partial = QStringLiteral("🟡"),
                  no = QStringLiteral("❌");
    for (int i = 0; i < implementedModuleRows; ++i) {
        const QString tail = QStringLiteral("func_%1").arg(i, 3, 10, QLatin1Char('0'));
        rows.append({QStringLiteral("module-level"), QStringLiteral("numpy.") + tail,
                     QStringLiteral("cupynumeric.") + tail, ok, i % 10 == 9 ? no : ok});
    }
    rows.append({QStringLiteral("module-level"), QStringLiteral("numpy.ix_"),
                 QStringLiteral("cupynumeric.ix_"), ok, ok});
    for (int i = 0; i < 15; ++i)
        rows.append({QStringLiteral("module-level"),
                     QStringLiteral("numpy.missing_%1").arg(i, 2, 10, QLatin1Char('0')),
                     {},
                     {},
                     {}});
    rows.append({QStringLiteral("module-level"), QStringLiteral("numpy.str_"), {}, {}, {}});
    for (const char* m : {"all", "any", "sum", "mean"})
        rows.append({QStringLiteral("multi-dimensional-array"),
                     QStringLiteral("numpy.ndarray.%1()").arg(QLatin1String(m)),
                     QStringLiteral("cupynumeric.ndarray.%1()").arg(QLatin1String(m)), ok, ok});
    rows.append({QStringLiteral("multi-dimensional-array"),
                 QStringLiteral("numpy.ndarray.std()"),
                 {},
                 {},
                 {}});
    rows.append({QStringLiteral("linear-algebra"), QStringLiteral("numpy.linalg.solve"),
                 QStringLiteral("cupynumeric.linalg.solve"), ok, ok});
    rows.append({QStringLiteral("linear-algebra"), QStringLiteral("numpy.linalg.qr"),
                 QStringLiteral("cupynumeric.linalg.qr"), ok, no});
    rows.append({QStringLiteral("linear-algebra"),
                 QStringLiteral("numpy.linalg.svd"),
                 QStringLiteral("cupynumeric.linalg.svd"),
                 ok,
                 {}});
    rows.append({QStringLiteral("linear-algebra"), QStringLiteral("numpy.linalg.det"), {}, {}, {}});
    rows.append({QStringLiteral("discrete-fourier-transform"), QStringLiteral("numpy.fft.fft"),
                 QStringLiteral("cupynumeric.fft.fft"), ok, partial});
    rows.append({QStringLiteral("discrete-fourier-transform"), QStringLiteral("numpy.fft.rfft2"),
                 QStringLiteral("cupynumeric.fft.rfft2"), ok, partial});
    rows.append({QStringLiteral("discrete-fourier-transform"), QStringLiteral("numpy.fft.fftshift"),
                 QStringLiteral("cupynumeric.fft.fftshift"), ok, ok});
    rows.append({QStringLiteral("discrete-fourier-transform"),
                 QStringLiteral("numpy.fft.fftfreq"),
                 {},
                 {},
                 {}});
    rows.append({QStringLiteral("random-sampling"), QStringLiteral("numpy.random.normal"),
                 QStringLiteral("cupynumeric.random.normal"), ok, ok});
    rows.append(
        {QStringLiteral("random-sampling"), QStringLiteral("numpy.random.choice"), {}, {}, {}});
    return rows;
}

} // namespace cnready::test
