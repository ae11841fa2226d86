// The manifest model: parsing, validation with line numbers, lookups, age, the active manifest.
#include "manifest/Manifest.h"

#include <QFile>
#include <QRegularExpression>
#include <QSaveFile>
#include <QStandardPaths>
#include <QtTest>

using namespace cnready;

namespace {

const QString kFixtures = QStringLiteral(CNREADY_FIXTURES_DIR "/manifest");

QByteArray readFile(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return f.readAll();
}

// An independent, naive count of a manifest's glyph lines (no shared code with the parser).
QHash<QString, int> naiveGlyphCounts(const QByteArray& markdown) {
    QHash<QString, int> counts;
    bool inSection = false;
    for (const QByteArray& raw : markdown.split('\n')) {
        const QString line = QString::fromUtf8(raw).trimmed();
        if (line.startsWith(QLatin1String("## ")))
            inSection = true;
        if (!inSection || line.isEmpty() || line.startsWith(QLatin1String("## ")))
            continue;
        const QString glyph = line.section(QLatin1Char(' '), 0, 0);
        const QString names =
            line.section(QLatin1Char(' '), 1).section(QStringLiteral(" — "), 0, 0);
        counts[glyph] += int(names.count(QLatin1Char(',')) + 1);
    }
    return counts;
}

QStringList issueLines(const Manifest& m) {
    QStringList out;
    for (const ManifestIssue& i : m.issues())
        out << QStringLiteral("%1: %2").arg(i.line).arg(i.message);
    return out;
}

} // namespace

class TestManifest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void bundledEntriesMatchAnIndependentCount() {
        const Manifest m = Manifest::bundled();
        QCOMPARE(m.originKind(), ManifestOrigin::Bundled);
        QCOMPARE(m.origin(), QStringLiteral("bundled"));
        const QHash<QString, int> naive =
            naiveGlyphCounts(readFile(QStringLiteral(CNREADY_SOURCE_DIR "/assets/api-support.md")));
        const ManifestCounts c = m.counts();
        QCOMPARE(c.multi, naive.value(QStringLiteral("✓✓")));
        QCOMPARE(c.single, naive.value(QStringLiteral("✓")));
        QCOMPARE(c.partial, naive.value(QStringLiteral("🟡")));
        QCOMPARE(c.missing, naive.value(QStringLiteral("✗")));
        QCOMPARE(int(m.entries().size()), c.total);
        QCOMPARE(m.sections().size(), 5);
        QCOMPARE(m.source(),
                 QStringLiteral("https://docs.nvidia.com/cupynumeric/latest/api/comparison.html"));
        QCOMPARE(m.fetched(), QDateTime(QDate(2026, 5, 22), QTime(15, 45, 33), Qt::UTC));
    }

    void bundledLookups() {
        const Manifest m = Manifest::bundled();
        QCOMPARE(m.lookup(QStringLiteral("numpy.add")), Support::Multi);
        QCOMPARE(m.lookup(QStringLiteral("cupynumeric.add")), Support::Multi);
        QCOMPARE(m.lookup(QStringLiteral("numpy.linalg.inv")), Support::Single);
        QCOMPARE(m.lookup(QStringLiteral("cupynumeric.linalg.svd")), Support::Single);
        QCOMPARE(m.lookup(QStringLiteral("numpy.vectorize")), Support::Missing);
        QCOMPARE(m.lookup(QStringLiteral("numpy.random.choice")), Support::Missing);
        QCOMPARE(m.lookup(QStringLiteral("numpy.no_such_thing")), Support::Absent);
        QCOMPARE(m.lookup(QStringLiteral("scipy.linalg.inv")), Support::Absent);
        // Escaped names and method call suffixes are canonicalised.
        QCOMPARE(m.lookup(QStringLiteral("numpy.ix_")), Support::Multi);
        QCOMPARE(m.lookup(QStringLiteral("numpy.str_")), Support::Missing);
        QCOMPARE(m.lookup(QStringLiteral("numpy.ix\\_")), Support::Absent);
        QCOMPARE(m.lookup(QStringLiteral("numpy.ndarray.all")), Support::Multi);
        QCOMPARE(m.lookup(QStringLiteral("numpy.ndarray.std")), Support::Missing);
        QCOMPARE(m.lookup(QStringLiteral("numpy.ndarray.all()")), Support::Absent);
        const ManifestEntry* fft = m.entry(QStringLiteral("cupynumeric.fft.fft"));
        QVERIFY(fft);
        QCOMPARE(fft->support, Support::Partial);
        QVERIFY(fft->note.startsWith(QStringLiteral("multi-GPU partial")));
        QCOMPARE(fft->section, QStringLiteral("Discrete Fourier Transform"));
        QCOMPARE(fft->line, 107);
        QCOMPARE(m.entry(QStringLiteral("numpy.add"))->section, QStringLiteral("Module-Level"));
    }

    // The bundled snapshot's header and section counts do not agree with the lines it lists
    // (it lists 576 of the 616 rows it counts): validation must say so, line by line.
    void bundledValidationReportsTheCountGaps() {
        const Manifest m = Manifest::bundled();
        const QStringList expected = {
            QStringLiteral("6: Counts: says 616 total, the entries give 576"),
            QStringLiteral("6: Counts: says 412 implemented, the entries give 372"),
            QStringLiteral("6: Counts: says 363 multi-GPU, the entries give 349"),
            QStringLiteral("17: section 'Module-Level' says 290 of 454 implemented, its lines "
                           "give 261 of 425"),
            QStringLiteral("81: section 'Multi-Dimensional Array' says 46 of 50 implemented, its "
                           "lines give 39 of 43"),
            QStringLiteral("94: section 'Linear Algebra' says 15 of 32 implemented, its lines "
                           "give 14 of 31"),
            QStringLiteral("123: section 'Random Sampling' says 45 of 62 implemented, its lines "
                           "give 42 of 59")};
        QCOMPARE(issueLines(m), expected);
        // All of them warnings: the entries are complete for what they list.
        for (const ManifestIssue& i : m.issues())
            QVERIFY2(i.warning, qPrintable(i.message));
        QVERIFY(m.errors().isEmpty());
        QVERIFY(m.isValid());
        QCOMPARE(*m.headerCounts().total, 616);
        QCOMPARE(*m.headerCounts().single, 9);
    }

    void validFixtureHasNoIssues() {
        const Manifest m = Manifest::load(kFixtures + QStringLiteral("/valid.md"));
        QCOMPARE(issueLines(m), QStringList());
        QVERIFY(m.isValid());
        QCOMPARE(m.counts().total, 12);
        QCOMPARE(m.counts().implemented(), 9);
        QCOMPARE(m.lookup(QStringLiteral("numpy.ix_")), Support::Multi);
        QCOMPARE(m.lookup(QStringLiteral("numpy.str_")), Support::Missing);
        QCOMPARE(m.entry(QStringLiteral("numpy.convolve"))->note,
                 QStringLiteral("test note: only some modes"));
        QCOMPARE(m.entry(QStringLiteral("numpy.fft.fft"))->line, 24);
        QCOMPARE(m.sections().at(2).title, QStringLiteral("Discrete Fourier Transform"));
        QCOMPARE(*m.sections().at(2).claimedImplemented, 2);
    }

    void brokenFixtureReportsEveryProblemWithItsLine() {
        const Manifest m = Manifest::load(kFixtures + QStringLiteral("/broken.md"));
        const QStringList expected = {
            QStringLiteral("5: Counts: says 9 total, the entries give 6"),
            QStringLiteral("5: Counts: says 6 implemented, the entries give 4"),
            QStringLiteral("5: Counts: says 4 multi-GPU, the entries give 2"),
            QStringLiteral("7: no Fetched: line before the first section; the manifest's age is "
                           "unknown"),
            QStringLiteral("7: section 'Module-Level' says 4 of 6 implemented, its lines give 3 "
                           "of 5"),
            QStringLiteral("10: unknown glyph '❌' (expected ✓✓, ✓, 🟡 or ✗)"),
            QStringLiteral(
                "11: line has no glyph (expected ✓✓, ✓, 🟡 or ✗ before the names)"),
            QStringLiteral("12: numpy.add is listed twice (first on line 9)"),
            QStringLiteral("13: 'scipy.linalg.inv' is not a NumPy name (numpy.…)"),
            QStringLiteral("14: partial (🟡) line has no note saying what works ('— ...')"),
            QStringLiteral("15: empty name between commas"),
            QStringLiteral("16: glyph and names must be separated by a space"),
            QStringLiteral("18: section heading has no '(N of M implemented)' count"),
            QStringLiteral("19: header line 'Fetched: 2026-01-01' inside a section (the header "
                           "must come before the first '## ')")};
        QCOMPARE(issueLines(m), expected);
        // What could be read is still there.
        QCOMPARE(m.lookup(QStringLiteral("numpy.subtract")), Support::Multi);
        QCOMPARE(m.lookup(QStringLiteral("numpy.polyfit")), Support::Missing);
        QCOMPARE(m.lookup(QStringLiteral("numpy.linalg.qr")), Support::Single);
        QCOMPARE(m.lookup(QStringLiteral("numpy.flip")), Support::Absent);
        QVERIFY(!m.isValid());
    }

    void headerProblems() {
        const QByteArray md = "Source: x\nFetched: yesterday\nCounts: 1 total · 1 implemented · "
                              "1 multi-GPU · 0 partial · 0 not implemented · 3 bananas\n"
                              "## S (1 of 1 implemented)\n✓✓ numpy.add\n";
        const QStringList expected = {
            QStringLiteral("2: cannot read the Fetched: date 'yesterday' (expected ISO 8601)"),
            QStringLiteral("3: Counts: has an unknown figure 'bananas'"),
            QStringLiteral("3: Counts: has no 'single-GPU only' figure")};
        QCOMPARE(issueLines(Manifest::parse(md, QStringLiteral("t"))), expected);
        const Manifest empty = Manifest::parse(QByteArray(), QStringLiteral("t"));
        QVERIFY(empty.isEmpty());
        QCOMPARE(empty.issues().size(), 4); // no Source, Fetched, Counts, sections
        const Manifest unreadable = Manifest::load(QStringLiteral("/no/such/manifest.md"));
        QCOMPARE(unreadable.issues().size(), 1);
        QCOMPARE(unreadable.issues().first().line, 0);
    }

    void crlfAndBomAreAccepted() {
        QByteArray md = readFile(kFixtures + QStringLiteral("/valid.md"));
        md.replace("\n", "\r\n");
        md.prepend("\xEF\xBB\xBF");
        const Manifest m = Manifest::parse(md, QStringLiteral("crlf"));
        QCOMPARE(issueLines(m), QStringList());
        QCOMPARE(m.counts().total, 12);
    }

    void ageWarningAfterNinetyDays() {
        const Manifest m = Manifest::bundled();
        // Fetched 2026-05-22: 90 days later is 2026-08-20.
        QCOMPARE(m.ageInDays(QDate(2026, 8, 20)), 90);
        QVERIFY(manifestAgeWarning(m, QDate(2026, 5, 22)).isEmpty());
        QVERIFY(manifestAgeWarning(m, QDate(2026, 5, 21)).isEmpty()); // time-zone slack
        QVERIFY(manifestAgeWarning(m, QDate(2026, 8, 20)).isEmpty());
        // A "today" long before the fetch date is a wrong clock or --today, not a fresh list.
        QCOMPARE(manifestAgeWarning(m, QDate(1999, 1, 1)),
                 QStringLiteral("the API-support manifest (bundled) is dated 2026-05-22, 10,003 "
                                "days after the date used as today (1999-01-01); check the "
                                "system clock or --today"));
        QCOMPARE(formatDayCount(1), QStringLiteral("1 day"));
        QCOMPARE(formatDayCount(0), QStringLiteral("0 days"));
        QCOMPARE(formatDayCount(1234567), QStringLiteral("1,234,567 days"));
        const QString at91 = manifestAgeWarning(m, QDate(2026, 8, 21));
        QVERIFY(!at91.isEmpty());
        QVERIFY(at91.contains(QStringLiteral("91 days ago")));
        // The day this test suite was written, and any later day, warns.
        const QString w = manifestAgeWarning(m, QDate(2026, 11, 30));
        QCOMPARE(w, QStringLiteral("the API-support manifest (bundled) was fetched 2026-05-22, "
                                   "192 days ago (more than 90); refresh it with 'cnready "
                                   "manifest refresh' or import a saved comparison page with "
                                   "'cnready manifest import PAGE.html'"));
        QVERIFY(!manifestAgeWarning(m, QDate::currentDate()).isEmpty());
        QVERIFY(!w.contains(QLatin1Char('\n')));
        QCOMPARE(Manifest::parse("## A (0 of 0 implemented)\n", QStringLiteral("x"))
                     .ageInDays(QDate(2026, 1, 1)),
                 -1);
        const QString unknown = manifestAgeWarning(
            Manifest::parse("## A (0 of 0 implemented)\n", QStringLiteral("/tmp/x.md")),
            QDate(2026, 1, 1));
        QVERIFY(unknown.contains(QStringLiteral("age is unknown")));
        QVERIFY(unknown.contains(QStringLiteral("/tmp/x.md")));
    }

    void descriptions() {
        QCOMPARE(manifestDescription(Manifest::bundled()),
                 QStringLiteral("bundled snapshot, fetched 2026-05-22"));
        const QString valid = kFixtures + QStringLiteral("/valid.md");
        QCOMPARE(manifestDescription(Manifest::load(valid)),
                 QStringLiteral("--manifest %1, fetched 2026-11-01").arg(valid));
        QCOMPARE(manifestDescription(Manifest::parse("", QStringLiteral("x.md"))),
                 QStringLiteral("--manifest x.md, fetched date unknown"));
    }

    void activeManifestPrecedence() {
        const QString user = Manifest::userManifestPath();
        QVERIFY(user.endsWith(QStringLiteral("/cnready/api-support.md")));
        QVERIFY(user.contains(QStringLiteral("qttest"))); // test mode: never the real one
        QFile::remove(user);
        QString note;
        QCOMPARE(Manifest::active({}, &note).originKind(), ManifestOrigin::Bundled);
        QVERIFY(note.isEmpty());

        QVERIFY(QDir().mkpath(QFileInfo(user).absolutePath()));
        QVERIFY(QFile::copy(kFixtures + QStringLiteral("/valid.md"), user));
        const Manifest imported = Manifest::active({}, &note);
        QCOMPARE(imported.originKind(), ManifestOrigin::UserImported);
        QCOMPARE(imported.origin(), user);
        QCOMPARE(imported.counts().total, 12);
        QCOMPARE(manifestDescription(imported),
                 QStringLiteral("user-imported (%1), fetched 2026-11-01").arg(user));

        const Manifest given = Manifest::active(kFixtures + QStringLiteral("/broken.md"), &note);
        QCOMPARE(given.originKind(), ManifestOrigin::CommandLine);
        QCOMPARE(given.counts().total, 6);

        // An unusable imported file falls back to the bundled snapshot, with a note.
        QSaveFile f(user);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("not a manifest\n");
        QVERIFY(f.commit());
        const Manifest fallback = Manifest::active({}, &note);
        QCOMPARE(fallback.originKind(), ManifestOrigin::Bundled);
        QVERIFY(note.contains(user));
        QVERIFY(QFile::remove(user));
    }
};

QTEST_GUILESS_MAIN(TestManifest)
#include "tst_manifest.moc"
