// Data-driven rule test: every fixture under tests/fixtures/rules/ states its expectations on
// the lines they concern and this test compares the exact set of findings.
//
//   x = a.item()            # expect: R104
//   buf = np.zeros(n)       # ok: R201          (asserts absence)
//   # codes: R104, R105     (optional, anywhere: the codes checked exactly in this fixture;
//                            default: the code that starts the file name, e.g. R104_*.py)
//   # says: R105 "looks `node` up"   (the finding of that code on this line has a message
//                                     containing the quoted text)
//
// A fixture is a .py file, or a folder (a multi-file project, for cross-file hot paths).
// Findings are matched by code and first line.
#include "analysis/ProjectAnalyzer.h"
#include "rules/RuleRegistry.h"

#include <QDir>
#include <QDirIterator>
#include <QHash>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>

using namespace cnready;

namespace {

struct Expectations {
    QSet<QString> codes;          // checked exactly
    QSet<QString> expected;       // "path:line:code"
    QSet<QString> forbidden;      // "path:line:code"
    QHash<QString, QString> says; // "path:line:code" → text its message must contain
};

void readExpectations(const QString& root, const QString& rel, Expectations& e) {
    QFile f(root + QLatin1Char('/') + rel);
    QVERIFY(f.open(QIODevice::ReadOnly));
    static const QRegularExpression tag(QStringLiteral(R"(#\s*(expect|ok|codes):\s*([R0-9 ,]+))"));
    int line = 0;
    while (!f.atEnd()) {
        ++line;
        const QString text = QString::fromUtf8(f.readLine());
        static const QRegularExpression says(
            QStringLiteral("#\\s*says:\\s*(R[0-9]+)\\s+\"([^\"]*)\""));
        if (const auto sm = says.match(text); sm.hasMatch())
            e.says.insert(QStringLiteral("%1:%2:%3").arg(rel).arg(line).arg(sm.captured(1)),
                          sm.captured(2));
        auto it = tag.globalMatch(text);
        while (it.hasNext()) {
            const auto m = it.next();
            const QStringList codes = m.captured(2).split(
                QRegularExpression(QStringLiteral("[ ,]+")), Qt::SkipEmptyParts);
            for (const QString& c : codes) {
                const QString key = QStringLiteral("%1:%2:%3").arg(rel).arg(line).arg(c);
                if (m.captured(1) == QLatin1String("expect"))
                    e.expected.insert(key);
                else if (m.captured(1) == QLatin1String("ok"))
                    e.forbidden.insert(key);
                else
                    e.codes.insert(c);
            }
        }
    }
}

} // namespace

class TestRuleFixtures : public QObject {
    Q_OBJECT
private slots:
    void fixtures_data() {
        QTest::addColumn<QString>("fixture");
        const QDir dir(QStringLiteral(CNREADY_FIXTURES_DIR "/rules"));
        const auto entries =
            dir.entryInfoList(QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
        QVERIFY2(!entries.isEmpty(), "no rule fixtures found");
        for (const QFileInfo& e : entries)
            if (e.isDir() || e.suffix() == QLatin1String("py"))
                QTest::newRow(qPrintable(e.fileName())) << e.absoluteFilePath();
    }

    // One statement, one finding per code: two allocations in one statement inside a loop
    // are one R201 site (analysis/SiteFolding.h); two statements stay two.
    void oneFindingPerCodeAndStatement() {
        QTemporaryDir dir;
        QFile f(dir.path() + QStringLiteral("/draw.py"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("import numpy as np\n"
                "def energy(u: np.ndarray, n: int, steps: int):\n"
                "    total = 0.0\n"
                "    for t in range(steps):\n"
                "        total += np.sum((np.zeros(n) + np.ones(n)) * u)\n"
                "        total += np.sum(np.full(n, 2.0) * u)\n"
                "    return total\n");
        f.close();
        const ProjectResult result = analyzeProject(scanProject({dir.path()}));
        QMap<int, int> perLine;
        for (const Finding& x : result.findings)
            if (x.code == QLatin1String("R201"))
                ++perLine[x.range.line];
        QCOMPARE(perLine.value(5), 1);
        QCOMPARE(perLine.value(6), 1);
    }

    void fixtures() {
        QFETCH(QString, fixture);
        const ScanResult scan = scanProject({fixture});
        QVERIFY(!scan.files.isEmpty());
        Expectations e;
        for (const QString& rel : scan.files)
            readExpectations(scan.root, rel, e);
        if (e.codes.isEmpty()) {
            const QString code = QFileInfo(fixture).fileName().section(QLatin1Char('_'), 0, 0);
            QVERIFY2(RuleRegistry::instance().find(code),
                     qPrintable(QStringLiteral("fixture name must start with a rule code, or "
                                               "declare '# codes: ...': ") +
                                fixture));
            e.codes.insert(code);
        }
        const ProjectResult result = analyzeProject(scan);
        QSet<QString> actual;
        QHash<QString, QStringList> messages;
        for (const Finding& f : result.findings)
            if (e.codes.contains(f.code)) {
                const QString key =
                    QStringLiteral("%1:%2:%3").arg(f.range.path).arg(f.range.line).arg(f.code);
                actual.insert(key);
                messages[key] << f.message;
            }
        QStringList problems;
        for (auto it = e.says.cbegin(); it != e.says.cend(); ++it) {
            const QStringList& ms = messages[it.key()];
            if (std::none_of(ms.cbegin(), ms.cend(),
                             [&](const QString& m) { return m.contains(it.value()); }))
                problems << QStringLiteral("message  %1 lacks \"%2\" (has: %3)")
                                .arg(it.key(), it.value(), ms.join(QStringLiteral(" | ")));
        }
        for (const QString& k : e.expected)
            if (!actual.contains(k))
                problems << QStringLiteral("missed   %1").arg(k);
        for (const QString& k : actual)
            if (!e.expected.contains(k))
                problems << QStringLiteral("%1 %2").arg(e.forbidden.contains(k)
                                                            ? QStringLiteral("forbidden")
                                                            : QStringLiteral("unexpected"),
                                                        k);
        problems.sort();
        QVERIFY2(problems.isEmpty(),
                 qPrintable(QLatin1Char('\n') + problems.join(QLatin1Char('\n'))));
    }
};

QTEST_GUILESS_MAIN(TestRuleFixtures)
#include "tst_rule_fixtures.moc"
