// Importing the upstream comparison page (saved HTML) or a Markdown manifest.
#include "ComparisonPageBuilder.h"
#include "manifest/ComparisonPage.h"
#include "manifest/HtmlTokenizer.h"

#include <QFile>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <ctime>

using namespace cnready;
using namespace cnready::test;

namespace {

const QString kFixtures = QStringLiteral(CNREADY_FIXTURES_DIR "/manifest");
const QDateTime kNow(QDate(2026, 11, 30), QTime(9, 0, 0), Qt::UTC);

// CPU milliseconds of this process. Time limits use it rather than wall time, which a loaded
// machine (or ctest -j next to a sanitizer build) stretches several-fold.
qint64 cpuMillis() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return qint64(ts.tv_sec) * 1000 + ts.tv_nsec / 1'000'000;
}

QByteArray readFile(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return f.readAll();
}

// What the rows should become, computed from the rows alone (the test's own reading of the
// mapping rules in PRODUCT.md).
Support expectedSupport(const PageRow& r) {
    if (r.cupy.isEmpty())
        return Support::Missing;
    if (r.multi == QStringLiteral("🟡") || r.single == QStringLiteral("🟡"))
        return Support::Partial;
    if (r.multi == QStringLiteral("✓"))
        return Support::Multi;
    return Support::Single;
}

QString canonical(QString name) {
    if (name.endsWith(QLatin1String("()")))
        name.chop(2);
    return name;
}

void verifyMatchesRows(const Manifest& m, const QList<PageRow>& rows) {
    ManifestCounts expected;
    for (const PageRow& r : rows) {
        const Support s = expectedSupport(r);
        expected.add(s);
        QCOMPARE(m.lookup(canonical(r.numpy)), s);
        if (!r.cupy.isEmpty())
            QCOMPARE(m.lookup(canonical(r.cupy)), s);
    }
    QCOMPARE(m.counts(), expected);
}

} // namespace

class TestManifestImport : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void tokenizerHandlesAttributesEntitiesAndRawText() {
        const QString html = QStringLiteral(
            "<!-- <td>hidden</td> --><A HREF=\"x?a=1&amp;b=2\" title='q > r' data-x=plain "
            "checked>a&#8212;b&#x2713;&amp;&bogus;&lt;</A><br/><script>if (a<b) "
            "'</td>'</script>tail & more");
        HtmlTokenizer tok(html);
        HtmlToken t;
        QStringList seen;
        while (tok.next(t)) {
            switch (t.kind) {
            case HtmlToken::Kind::StartTag:
                seen << QStringLiteral("<%1%2>").arg(t.name, t.selfClosing ? u"/" : u"");
                for (const QString& k : {QStringLiteral("href"), QStringLiteral("title"),
                                         QStringLiteral("data-x"), QStringLiteral("checked")})
                    if (t.attrs.contains(k))
                        seen << QStringLiteral("@%1=%2").arg(k, t.attr(k));
                break;
            case HtmlToken::Kind::EndTag:
                seen << QStringLiteral("</%1>").arg(t.name);
                break;
            case HtmlToken::Kind::Text:
                seen << QStringLiteral("'%1'").arg(t.text);
                break;
            }
        }
        const QStringList expected = {
            QStringLiteral("<a>"),          QStringLiteral("@href=x?a=1&b=2"),
            QStringLiteral("@title=q > r"), QStringLiteral("@data-x=plain"),
            QStringLiteral("@checked="),    QStringLiteral("'a—b✓&&bogus;<'"),
            QStringLiteral("</a>"),         QStringLiteral("<br/>"),
            QStringLiteral("<script>"),     QStringLiteral("</script>"),
            QStringLiteral("'tail & more'")};
        QCOMPARE(seen, expected);
    }

    void tokenizerSurvivesBrokenMarkup() {
        for (const char* bad : {"<", "<a", "<a href=\"never closed", "<!--", "</", "<<<>>>",
                                "&#99999999;", "&#xD800;", "<script>no end", "<a =x>"}) {
            HtmlTokenizer tok(QString::fromUtf8(bad));
            HtmlToken t;
            int n = 0;
            while (tok.next(t))
                QVERIFY2(++n < 100, bad);
        }
        // A stray '=' (no attribute name) does not swallow the end of the tag.
        HtmlTokenizer stray(QStringLiteral("<td =x>text</td>"));
        HtmlToken t;
        QVERIFY(stray.next(t));
        QCOMPARE(t.name, QStringLiteral("td"));
        QVERIFY(stray.next(t));
        QCOMPARE(t.text, QStringLiteral("text"));
        QCOMPARE(HtmlTokenizer::decodeEntities(u"&#99999999;&#xD800;&#65;"),
                 QStringLiteral("&#99999999;&#xD800;A"));
    }

    // A hand-written page: older <div class="section"> markup, digit tokens, entities, nested
    // spans, a commented-out row, a script with markup and a table in an unrelated subsection.
    void sampleFixturePage() {
        const ComparisonPage page =
            parseComparisonPage(readFile(kFixtures + QStringLiteral("/comparison-sample.html")));
        QCOMPARE(page.errors, QStringList());
        QCOMPARE(
            page.canonicalUrl,
            QStringLiteral("https://docs.example.test/cupynumeric/api/comparison.html?v=1&w=2"));
        QCOMPARE(page.sectionsFound, QStringList({QStringLiteral("module-level"),
                                                  QStringLiteral("multi-dimensional-array"),
                                                  QStringLiteral("linear-algebra"),
                                                  QStringLiteral("discrete-fourier-transform"),
                                                  QStringLiteral("random-sampling")}));
        QStringList got;
        for (const ManifestEntry& e : page.entries)
            got << QStringLiteral("%1|%2|%3|%4")
                       .arg(e.section, e.name, supportGlyph(e.support), e.note);
        const QString fftNote = QStringLiteral("multi-GPU partial: only batches of transforms "
                                               "along an axis are spread over GPUs");
        const QStringList expected = {
            QStringLiteral("Module-Level|numpy.absolute|✓✓|"),
            QStringLiteral("Module-Level|numpy.ix_|✓✓|"),
            QStringLiteral("Module-Level|numpy.roots|✓|"),
            QStringLiteral("Module-Level|numpy.apply_along_axis|✗|"),
            QStringLiteral("Module-Level|numpy.bytes_|✗|"),
            QStringLiteral("Multi-Dimensional Array|numpy.ndarray.all|✓✓|"),
            QStringLiteral("Multi-Dimensional Array|numpy.ndarray.std|✗|"),
            QStringLiteral("Linear Algebra|numpy.linalg.inv|✓|"),
            QStringLiteral("Linear Algebra|numpy.linalg.norm|✓✓|"),
            QStringLiteral("Discrete Fourier Transform|numpy.fft.fft|🟡|") + fftNote,
            QStringLiteral("Discrete Fourier Transform|numpy.fft.fftfreq|✗|"),
            QStringLiteral("Random Sampling|numpy.random.normal|✓✓|"),
            QStringLiteral("Random Sampling|numpy.random.choice|✗|")};
        QCOMPARE(got, expected);
        QCOMPARE(page.rows, 13);
        QCOMPARE(page.implemented, 8);
        // Too small to become a manifest (fewer than 100 implemented rows) ...
        const ManifestImport refused = manifestFromComparisonPage(
            readFile(kFixtures + QStringLiteral("/comparison-sample.html")), {}, kNow);
        QVERIFY(!refused.ok);
        QVERIFY(refused.error.contains(QStringLiteral("only 8 implemented rows")));
        QVERIFY(refused.markdown.isEmpty());
        // ... unless the threshold is lowered, and then it round-trips through our format.
        const ManifestImport small = manifestFromComparisonPage(
            readFile(kFixtures + QStringLiteral("/comparison-sample.html")), {}, kNow, 5);
        QVERIFY2(small.ok, qPrintable(small.error));
        QCOMPARE(small.manifest.source(), page.canonicalUrl);
        QCOMPARE(small.manifest.counts().total, 13);
        QVERIFY(small.markdown.contains("✓✓ numpy.absolute, numpy.ix\\_\n"));
        QVERIFY(small.markdown.contains("✗ numpy.apply_along_axis, numpy.bytes\\_\n"));
    }

    void glyphTokenPage() {
        const QList<PageRow> rows = typicalRows();
        const ManifestImport r =
            manifestFromComparisonPage(comparisonPageHtml(rows), QString(), kNow);
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.manifest.issues().size(), 0);
        verifyMatchesRows(r.manifest, rows);
        QCOMPARE(r.rows, int(rows.size()));
        // Exact spot checks of the mapping.
        QCOMPARE(r.manifest.lookup(QStringLiteral("numpy.func_000")), Support::Multi);
        QCOMPARE(r.manifest.lookup(QStringLiteral("numpy.func_009")), Support::Single);
        QCOMPARE(r.manifest.lookup(QStringLiteral("numpy.linalg.qr")), Support::Single);
        QCOMPARE(r.manifest.lookup(QStringLiteral("numpy.linalg.det")), Support::Missing);
        QCOMPARE(r.manifest.lookup(QStringLiteral("numpy.ndarray.all")), Support::Multi);
        QCOMPARE(r.manifest.lookup(QStringLiteral("numpy.outside")), Support::Absent);
        const ManifestEntry* fft = r.manifest.entry(QStringLiteral("numpy.fft.rfft2"));
        QVERIFY(fft);
        QCOMPARE(fft->support, Support::Partial);
        QVERIFY(fft->note.contains(QStringLiteral("along an axis")));
        const ManifestEntry* svd = r.manifest.entry(QStringLiteral("numpy.linalg.svd"));
        QCOMPARE(svd->support, Support::Single);
        QCOMPARE(svd->note, QString()); // single ✓, multi empty: single-GPU only, no note
        // Header of our format: the canonical link, Fetched = the time given, in UTC.
        QCOMPARE(r.manifest.source(), PageStyle().canonical);
        QCOMPARE(r.manifest.fetched(), kNow);
        QVERIFY(r.markdown.contains("\nFetched: 2026-11-30T09:00:00Z\n"));
        QVERIFY(r.markdown.contains("\n## Discrete Fourier Transform (3 of 4 implemented)\n"));
        QVERIFY(r.markdown.contains("CC-BY-4.0"));
        // Deterministic: the same page gives the same bytes.
        QCOMPARE(manifestFromComparisonPage(comparisonPageHtml(rows), QString(), kNow).markdown,
                 r.markdown);
    }

    void digitTokenPageGivesTheSameManifest() {
        const QList<PageRow> rows = typicalRows();
        PageStyle digits;
        digits.digits = true;
        digits.divSections = true;
        const QByteArray html = comparisonPageHtml(rows, digits);
        QVERIFY(!html.contains("✓")); // really the old format
        QVERIFY(!html.contains("<section"));
        const ManifestImport d = manifestFromComparisonPage(html, QString(), kNow);
        QVERIFY2(d.ok, qPrintable(d.error));
        verifyMatchesRows(d.manifest, rows);
        const ManifestImport g =
            manifestFromComparisonPage(comparisonPageHtml(rows), QString(), kNow);
        QCOMPARE(d.markdown, g.markdown);
    }

    // Full scale: the bundled snapshot written out as a comparison page and imported again gives
    // the same entries (name, glyph, section) — 576 rows, 372 implemented.
    void bundledSnapshotRoundTripsThroughAPage() {
        const Manifest bundled = Manifest::bundled();
        QList<PageRow> rows;
        for (const ManifestEntry& e : bundled.entries()) {
            QString id;
            for (const ComparisonSectionDef& d : comparisonSections())
                if (e.section == QLatin1String(d.title))
                    id = QString::fromLatin1(d.id);
            const QString cupy = QStringLiteral("cupynumeric.") + e.name.mid(6);
            switch (e.support) {
            case Support::Multi:
                rows.append({id, e.name, cupy, QStringLiteral("✓"), QStringLiteral("✓")});
                break;
            case Support::Single:
                rows.append({id, e.name, cupy, QStringLiteral("✓"), QStringLiteral("❌")});
                break;
            case Support::Partial:
                rows.append({id, e.name, cupy, QStringLiteral("✓"), QStringLiteral("🟡")});
                break;
            case Support::Missing:
                rows.append({id, e.name, {}, {}, {}});
                break;
            case Support::Absent:
                QFAIL("absent entry in the bundled manifest");
            }
        }
        const ManifestImport r = manifestFromComparisonPage(comparisonPageHtml(rows), {}, kNow);
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.manifest.counts(), bundled.counts());
        QCOMPARE(r.rows, 576);
        QCOMPARE(r.implemented, 372);
        for (const ManifestEntry& e : bundled.entries()) {
            const ManifestEntry* got = r.manifest.entry(e.name);
            QVERIFY2(got, qPrintable(e.name));
            QCOMPARE(got->support, e.support);
            QCOMPARE(got->section, e.section);
        }
        // For eyeballing the writer's output: CNREADY_DUMP_MANIFEST=/tmp/out.md.
        if (const QString dump = qEnvironmentVariable("CNREADY_DUMP_MANIFEST"); !dump.isEmpty()) {
            QFile f(dump);
            if (f.open(QIODevice::WriteOnly))
                f.write(r.markdown);
        }
    }

    void implementedRowWithoutMarksIsSingleWithNote() {
        QList<PageRow> rows = typicalRows();
        rows.append({QStringLiteral("random-sampling"), QStringLiteral("numpy.random.unmarked"),
                     QStringLiteral("cupynumeric.random.unmarked"), QString(), QString()});
        const ManifestImport r = manifestFromComparisonPage(comparisonPageHtml(rows), {}, kNow);
        QVERIFY2(r.ok, qPrintable(r.error));
        const ManifestEntry* e = r.manifest.entry(QStringLiteral("numpy.random.unmarked"));
        QVERIFY(e);
        QCOMPARE(e->support, Support::Single);
        QCOMPARE(e->note, QStringLiteral("implemented, but the page marks no GPU support"));
    }

    void changedFormatsAreRefused_data() {
        QTest::addColumn<QByteArray>("html");
        QTest::addColumn<QString>("why");
        QTest::newRow("too few implemented rows")
            << comparisonPageHtml(typicalRows(80))
            << QStringLiteral("only 92 implemented rows found (at least 100 expected)");
        PageStyle five;
        five.cellsPerRow = 5;
        QTest::newRow("five cells per row")
            << comparisonPageHtml(typicalRows(), five)
            << QStringLiteral("section 'module-level', body row 1: 5 cells, expected 4");
        PageStyle three;
        three.cellsPerRow = 3;
        QTest::newRow("three cells per row")
            << comparisonPageHtml(typicalRows(), three)
            << QStringLiteral("section 'module-level', body row 1: 3 cells, expected 4");
        PageStyle renamed;
        renamed.idSuffix = QStringLiteral("-api");
        QTest::newRow("renamed sections")
            << comparisonPageHtml(typicalRows(), renamed)
            << QStringLiteral("no table in section(s) module-level, multi-dimensional-array, "
                              "linear-algebra, discrete-fourier-transform, random-sampling");
        QList<PageRow> odd = typicalRows();
        odd[3].multi = QStringLiteral("yes");
        QTest::newRow("unknown support token")
            << comparisonPageHtml(odd)
            << QStringLiteral("section 'module-level', body row 4: unknown support marker 'yes'");
        QList<PageRow> swapped = typicalRows();
        swapped[0].numpy = QStringLiteral("cupynumeric.func_000");
        QTest::newRow("columns swapped")
            << comparisonPageHtml(swapped)
            << QStringLiteral("first cell 'cupynumeric.func_000' is not a NumPy name");
        QList<PageRow> noRandom = typicalRows();
        noRandom.erase(std::remove_if(noRandom.begin(), noRandom.end(),
                                      [](const PageRow& r) {
                                          return r.section == QLatin1String("random-sampling");
                                      }),
                       noRandom.end());
        QByteArray html = comparisonPageHtml(noRandom);
        const qsizetype at = html.indexOf("<section id=\"random-sampling\">");
        html.truncate(at);
        QTest::newRow("a section missing")
            << html << QStringLiteral("no table in section(s) random-sampling");
        QTest::newRow("not the page at all")
            << QByteArray("<html><body><h1>Down for maintenance</h1></body></html>")
            << QStringLiteral("no table in section(s) module-level");
    }

    void changedFormatsAreRefused() {
        QFETCH(QByteArray, html);
        QFETCH(QString, why);
        const ManifestImport r = manifestFromComparisonPage(html, QString(), kNow);
        QVERIFY(!r.ok);
        QVERIFY2(r.error.contains(why), qPrintable(r.error));
        QVERIFY(r.markdown.isEmpty());
    }

    // Hostile nesting: 200,000 unclosed <div>s and <table>s, then as many stray end tags.
    // Iterative and amortised O(1) per tag, so this takes milliseconds, not minutes.
    void pathologicalNestingIsLinear() {
        constexpr int kDepth = 200000;
        QByteArray html = "<section id=\"module-level\">";
        html += QByteArray("<div>").repeated(kDepth);
        html += QByteArray("<table><tr><td>x").repeated(kDepth / 4);
        html += QByteArray("</section>").repeated(kDepth);
        html += QByteArray("</div>").repeated(kDepth);
        const qint64 cpu0 = cpuMillis();
        const ComparisonPage page = parseComparisonPage(html);
        const qint64 cpu = cpuMillis() - cpu0;
        QVERIFY2(cpu < 5000, qPrintable(QString::number(cpu)));
        // Only the outermost table's row counts (nested tables are not the section's table),
        // and its single cell is reported, not dropped.
        QCOMPARE(page.rows, 1);
        QCOMPARE(page.errors, QStringList{QStringLiteral(
                                  "section 'module-level', body row 1: 1 cells, expected 4")});
        QCOMPARE(page.entries.size(), 0);
    }

    void duplicateRowsKeepTheFirst() {
        QList<PageRow> rows = typicalRows();
        rows.append(
            {QStringLiteral("random-sampling"), QStringLiteral("numpy.func_000"), {}, {}, {}});
        const ComparisonPage page = parseComparisonPage(comparisonPageHtml(rows));
        QCOMPARE(page.duplicates, 1);
        const ManifestImport r = manifestFromComparisonPage(comparisonPageHtml(rows), {}, kNow);
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.manifest.lookup(QStringLiteral("numpy.func_000")), Support::Multi);
    }

    void fileImportDetectsHtmlAndMarkdown() {
        QTemporaryDir dir;
        const QString html = dir.filePath(QStringLiteral("page.html"));
        {
            PageStyle noCanonical;
            noCanonical.canonical.clear();
            QFile f(html);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(comparisonPageHtml(typicalRows(), noCanonical));
        }
        const ManifestImport h = manifestFromFile(html, kNow);
        QVERIFY2(h.ok, qPrintable(h.error));
        QCOMPARE(h.manifest.source(), QUrl::fromLocalFile(html).toString());
        QVERIFY(h.manifest.isValid());

        const ManifestImport md = manifestFromFile(kFixtures + QStringLiteral("/valid.md"), kNow);
        QVERIFY2(md.ok, qPrintable(md.error));
        QCOMPARE(md.markdown, readFile(kFixtures + QStringLiteral("/valid.md"))); // kept as is

        const ManifestImport bad = manifestFromFile(kFixtures + QStringLiteral("/broken.md"), kNow);
        QVERIFY(!bad.ok);
        // The first error is named; stated counts that disagree are warnings and block nothing.
        QVERIFY2(bad.error.contains(QStringLiteral("broken.md:7: no Fetched: line")),
                 qPrintable(bad.error));
        QVERIFY2(bad.error.contains(QStringLiteral("10 problem(s)")), qPrintable(bad.error));

        // A Markdown manifest whose stated counts disagree with its entries (the bundled
        // snapshot) imports: lookups use the entries.
        const ManifestImport bundledCopy =
            manifestFromFile(QStringLiteral(CNREADY_SOURCE_DIR "/assets/api-support.md"), kNow);
        QVERIFY2(bundledCopy.ok, qPrintable(bundledCopy.error));
        QCOMPARE(bundledCopy.manifest.entries().size(), 576);
        QCOMPARE(bundledCopy.manifest.issues().size(), 7);
        QVERIFY(bundledCopy.manifest.errors().isEmpty());

        const ManifestImport missing =
            manifestFromFile(dir.filePath(QStringLiteral("no.md")), kNow);
        QVERIFY(!missing.ok);
        QVERIFY(missing.error.startsWith(QStringLiteral("cannot read")));
    }

    void atomicWriteCreatesTheFolder() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("a/b/api-support.md"));
        QString error;
        QVERIFY(writeManifestFile("x\n", path, &error));
        QCOMPARE(readFile(path), QByteArray("x\n"));
        QVERIFY(writeManifestFile("y\n", path, &error));
        QCOMPARE(readFile(path), QByteArray("y\n"));
        QCOMPARE(QDir(dir.filePath(QStringLiteral("a/b"))).entryList(QDir::Files),
                 QStringList{QStringLiteral("api-support.md")}); // no temporary left behind
        QVERIFY(
            !writeManifestFile("z\n", QStringLiteral("/proc/cnready-no/api-support.md"), &error));
        QVERIFY(!error.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestManifestImport)
#include "tst_manifest_import.moc"
