// Notebooks read as Python (parse/Notebook.h) and suppression comments
// (analysis/Suppressions.h): the joined code, the cell map, every report's locations.
#include "analysis/FileAnalyzer.h"
#include "analysis/ProjectAnalyzer.h"
#include "analysis/ProjectScanner.h"
#include "assess/Assessment.h"
#include "manifest/Manifest.h"
#include "parse/Notebook.h"
#include "report/Report.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace cnready;

namespace {

const QString kHeat = QStringLiteral(CNREADY_FIXTURES_DIR "/notebooks/heat");

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QStringList codeLines(const Notebook& nb) {
    QStringList l = QString::fromUtf8(nb.code).split(QLatin1Char('\n'));
    if (!l.isEmpty() && l.last().isEmpty())
        l.removeLast();
    return l;
}

// A one-cell notebook around `source` (Python lines).
QByteArray oneCell(const QString& source) {
    QJsonArray lines;
    const QStringList parts = source.split(QLatin1Char('\n'));
    for (qsizetype i = 0; i < parts.size(); ++i)
        lines.append(i + 1 < parts.size() ? parts[i] + QLatin1Char('\n') : parts[i]);
    const QJsonObject cell{{QStringLiteral("cell_type"), QStringLiteral("code")},
                           {QStringLiteral("metadata"), QJsonObject()},
                           {QStringLiteral("outputs"), QJsonArray()},
                           {QStringLiteral("source"), lines}};
    const QJsonObject nb{{QStringLiteral("cells"), QJsonArray{cell}},
                         {QStringLiteral("metadata"), QJsonObject()},
                         {QStringLiteral("nbformat"), 4},
                         {QStringLiteral("nbformat_minor"), 5}};
    return QJsonDocument(nb).toJson();
}

const Finding* findCode(const FindingSelection& fs, const QString& code) {
    for (const Finding& f : fs)
        if (f.code == code)
            return &f;
    return nullptr;
}

} // namespace

class TestNotebook : public QObject {
    Q_OBJECT
private slots:
    void joinsCodeCellsAndBlanksMagics() {
        const Notebook nb = readNotebook(readAll(kHeat + QStringLiteral("/relax.ipynb")));
        QVERIFY2(nb.error.isEmpty(), qPrintable(nb.error));
        QCOMPARE(nb.cells, 7);
        QCOMPARE(nb.codeCells, 5);
        const QStringList lines = codeLines(nb);
        QCOMPARE(lines.size(), nb.map.lines.size());
        // Cell 2: a line magic and a shell line around the import.
        QCOMPARE(lines[0], QString());
        QCOMPARE(lines[1], QStringLiteral("import numpy as np"));
        QCOMPARE(lines[2], QString());
        QCOMPARE(nb.map.at(2).cell, 2);
        QCOMPARE(nb.map.at(2).cellLine, 2);
        // Cell 3 (%%bash): every line blank, none dropped.
        for (int i = 3; i < 6; ++i) {
            QCOMPARE(nb.map.at(i + 1).cell, 3);
            QCOMPARE(lines[i], QString());
        }
        // Cell 5 follows (the markdown and raw cells add no lines but count).
        QCOMPARE(nb.map.at(7).cell, 5);
        QCOMPARE(nb.map.at(7).cellLine, 1);
        QCOMPARE(lines[6], QStringLiteral("rod = np.linspace(0.0, 1.0, 200_000)"));
        // Cell 6 (%%timeit): the magic line goes, the Python body stays.
        QCOMPARE(lines[10], QString());
        QCOMPARE(lines[11], QStringLiteral("cooled = heat * 0.9"));
        // Cell 7: `x = !ls`, help, an indented magic (kept a valid block), and a '%' that
        // continues a bracketed expression (Python, not a magic).
        QCOMPARE(lines[12], QString());
        QCOMPARE(lines[13], QString());
        QCOMPARE(lines[15], QStringLiteral("    pass"));
        QCOMPARE(lines[17], QStringLiteral("          % 7)"));
    }
    void mapsLinesToTheNotebookText() {
        const QByteArray json = readAll(kHeat + QStringLiteral("/relax.ipynb"));
        const Notebook nb = readNotebook(json);
        const QList<QByteArray> text = json.split('\n');
        // The loop header of cell 5 is joined line 9; its JSON line holds that string.
        QCOMPARE(codeLines(nb)[8], QStringLiteral("for i in range(len(rod)):"));
        const int jsonLine = nb.map.at(9).jsonLine;
        QVERIFY(jsonLine > 0);
        QVERIFY2(text[jsonLine - 1].contains("for i in range(len(rod)):"),
                 text[jsonLine - 1].constData());
        // A source given as one string: every line maps to that string's line.
        const QByteArray single = readAll(kHeat + QStringLiteral("/single_string_source.ipynb"));
        const Notebook one = readNotebook(single);
        QCOMPARE(codeLines(one).size(), 3);
        QCOMPARE(one.map.at(1).cell, 2);
        QCOMPARE(one.map.at(3).cellLine, 3);
        QVERIFY(single.split('\n')[one.map.at(3).jsonLine - 1].contains("vals = np.arange"));
    }
    void refusesWhatIsNotANotebook4() {
        QVERIFY(readNotebook(readAll(kHeat + QStringLiteral("/broken.ipynb")))
                    .error.contains(QStringLiteral("not valid JSON")));
        QVERIFY(readNotebook(readAll(kHeat + QStringLiteral("/old_format.ipynb")))
                    .error.contains(QStringLiteral("nbformat 3")));
        QVERIFY(readNotebook("[1, 2]").error.contains(QStringLiteral("not a notebook")));
        QJsonObject r{
            {QStringLiteral("cells"), QJsonArray()},
            {QStringLiteral("nbformat"), 4},
            {QStringLiteral("metadata"),
             QJsonObject{{QStringLiteral("kernelspec"),
                          QJsonObject{{QStringLiteral("language"), QStringLiteral("R")}}}}}};
        QVERIFY(readNotebook(QJsonDocument(r).toJson()).error.contains(QStringLiteral("R kernel")));
    }
    void analyzedWithCellLocations() {
        const FileResult r = analyzeFile(kHeat, QStringLiteral("relax.ipynb"));
        QVERIFY(!wasSkipped(r));
        // No syntax error: every magic was blanked, the bracketed '%' kept.
        for (const FileDiagnostic& d : r.diagnostics)
            QVERIFY2(d.kind != FileDiagnostic::Kind::Syntax, qPrintable(d.message));
        QVERIFY(r.imports.contains(QStringLiteral("numpy")));
        const Finding* loop = findCode(r.findings, QStringLiteral("R101"));
        QVERIFY(loop);
        QCOMPARE(loop->range.line, 9); // the joined module's line: the studio shows that text
        QCOMPARE(loop->range.cell, 5);
        QCOMPARE(loop->range.displayLine(), 3);
        QVERIFY2(loop->range.toString().startsWith(QStringLiteral("relax.ipynb:cell 5:3")),
                 qPrintable(loop->range.toString()));
        QCOMPARE(r.notebook.at(9).cell, 5);
    }
    void scannerListsNotebooksAndSkipsCheckpoints() {
        QTemporaryDir dir;
        QDir(dir.path()).mkpath(QStringLiteral(".ipynb_checkpoints"));
        for (const QString& name :
             {QStringLiteral("a.ipynb"), QStringLiteral(".ipynb_checkpoints/a-checkpoint.ipynb")}) {
            QFile f(dir.filePath(name));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(oneCell(QStringLiteral("import numpy as np")));
        }
        const ScanResult scan = scanProject({dir.path()});
        QCOMPARE(scan.files, QStringList{QStringLiteral("a.ipynb")});
        QCOMPARE(moduleNameForPath(QStringLiteral("notes/a.ipynb")), QStringLiteral("notes.a"));
    }
    void brokenNotebookLeavesTheRestAssessed() {
        const ProjectResult p = analyzeProject(scanProject({kHeat}));
        QCOMPARE(p.files.size(), 4);
        QCOMPARE(assessedFileCount(p), 2);
        int refused = 0;
        for (const FileDiagnostic& d : p.diagnostics)
            if (d.range.path == QLatin1String("broken.ipynb") ||
                d.range.path == QLatin1String("old_format.ipynb")) {
                QCOMPARE(d.range.line, 0);
                ++refused;
            }
        QCOMPARE(refused, 2);
        QVERIFY(findCode(p.findings, QStringLiteral("R101")));
    }
    void reportsNameTheCell() {
        const ProjectResult p = analyzeProject(scanProject({kHeat}));
        const Manifest m = Manifest::bundled();
        const Assessment a = assess(p, ContextInput(), m);
        const ReportInput in{p, a, m, QDate(2026, 6, 1)};
        const QString md = QString::fromUtf8(renderMarkdown(in));
        QVERIFY2(md.contains(QStringLiteral("`relax.ipynb:cell 5:3")), qPrintable(md));
        QVERIFY(md.contains(QStringLiteral("read 4 notebooks (")));

        const QJsonObject json = QJsonDocument::fromJson(renderJson(in)).object();
        bool seen = false;
        for (const QJsonValue v : json.value(QStringLiteral("findings")).toArray()) {
            const QJsonObject f = v.toObject();
            if (f.value(QStringLiteral("code")).toString() != QLatin1String("R101"))
                continue;
            const QJsonObject range = f.value(QStringLiteral("range")).toObject();
            QCOMPARE(range.value(QStringLiteral("cell")).toInt(), 5);
            QCOMPARE(range.value(QStringLiteral("line")).toInt(), 3);
            seen = true;
        }
        QVERIFY(seen);

        // SARIF: the notebook file at the line of its JSON text, the cell in the message.
        const QByteArray raw = readAll(kHeat + QStringLiteral("/relax.ipynb"));
        const QJsonObject run =
            QJsonDocument::fromJson(renderSarif(in)).object()[QStringLiteral("runs")][0].toObject();
        seen = false;
        for (const QJsonValue v : run.value(QStringLiteral("results")).toArray()) {
            const QJsonObject r = v.toObject();
            if (r.value(QStringLiteral("ruleId")).toString() != QLatin1String("R101"))
                continue;
            const QJsonObject phys =
                r[QStringLiteral("locations")][0][QStringLiteral("physicalLocation")].toObject();
            QCOMPARE(phys[QStringLiteral("artifactLocation")][QStringLiteral("uri")].toString(),
                     QStringLiteral("relax.ipynb"));
            const int line = phys[QStringLiteral("region")][QStringLiteral("startLine")].toInt();
            QVERIFY(raw.split('\n')[line - 1].contains("for i in range(len(rod)):"));
            QVERIFY(r[QStringLiteral("message")][QStringLiteral("text")].toString().endsWith(
                QStringLiteral("(cell 5, line 3)")));
            seen = true;
        }
        QVERIFY(seen);
    }
    void suppressionInANotebookIsCountedNotDropped() {
        QTemporaryDir dir;
        QFile f(dir.filePath(QStringLiteral("s.ipynb")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(oneCell(
            QStringLiteral("import numpy as np\n"
                           "def fill(out: np.ndarray):\n"
                           "    for i in range(len(out)):  # cnready: ignore[R101]\n"
                           "        out[i] = i\n"
                           "    return out.reshape(-1, order=\"F\")  # noqa: R109, R999\n")));
        f.close();
        const ProjectResult p = analyzeProject(scanProject({dir.path()}));
        QVERIFY(!findCode(p.findings, QStringLiteral("R101")));
        QVERIFY(!findCode(p.findings, QStringLiteral("R109")));
        QCOMPARE(p.suppressed.size(), 2);
        QCOMPARE(p.suppressed.first().range.cell, 1);
        bool warned = false;
        for (const FileDiagnostic& d : p.diagnostics)
            warned |= d.kind == FileDiagnostic::Kind::Suppression &&
                      d.message.contains(QStringLiteral("R999"));
        QVERIFY(warned);

        const Manifest m = Manifest::bundled();
        const Assessment a = assess(p, ContextInput(), m);
        const ReportInput in{p, a, m, QDate(2026, 6, 1)};
        const QString md = QString::fromUtf8(renderMarkdown(in));
        QVERIFY2(md.contains(QStringLiteral("2 findings suppressed")), qPrintable(md));
        QVERIFY(md.contains(QStringLiteral("R999")));
        const QJsonObject json = QJsonDocument::fromJson(renderJson(in)).object();
        QCOMPARE(json[QStringLiteral("counts")][QStringLiteral("suppressed")].toInt(), 2);
        QCOMPARE(json[QStringLiteral("suppressed")].toArray().size(), 2);
        const QJsonArray results =
            QJsonDocument::fromJson(renderSarif(in))
                .object()[QStringLiteral("runs")][0][QStringLiteral("results")]
                .toArray();
        int inSource = 0;
        for (const QJsonValue v : results)
            inSource += v[QStringLiteral("suppressions")][0][QStringLiteral("kind")].toString() ==
                        QLatin1String("inSource");
        QCOMPARE(inSource, 2);
    }
    void suppressionLeavesTheVerdict() {
        // The same element loop with and without its suppression: only the unsuppressed one
        // is a blocker in the assessment.
        const QByteArray code = "import numpy as np\n"
                                "def fill(out: np.ndarray):\n"
                                "    for i in range(len(out)):%1\n"
                                "        out[i] = i * 2\n"
                                "    return out\n";
        for (const bool suppressed : {false, true}) {
            QTemporaryDir dir;
            QFile f(dir.filePath(QStringLiteral("m.py")));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QString::fromLatin1(code)
                        .arg(suppressed ? QStringLiteral("  # cnready: ignore[R101]") : QString())
                        .toUtf8());
            f.close();
            const ProjectResult p = analyzeProject(scanProject({dir.path()}));
            const Assessment a = assess(p, ContextInput(), Manifest::bundled());
            QCOMPARE(findCode(a.findings, QStringLiteral("R101")) != nullptr, !suppressed);
            QCOMPARE(p.suppressed.size(), suppressed ? 1 : 0);
        }
    }
    void unreadableSuppressionsWarn() {
        const FileResult r =
            analyzeSource(QStringLiteral("w.py"), "import numpy as np\n"
                                                  "x = np.zeros(4)  # cnready: ignore\n"
                                                  "y = np.zeros(4)  # cnready: skip[R101]\n"
                                                  "z = np.zeros(4)  # cnready: ignore[Z1]\n"
                                                  "w = np.zeros(4)  # noqa: E501, R0913\n");
        QStringList lines;
        for (const FileDiagnostic& d : r.diagnostics)
            if (d.kind == FileDiagnostic::Kind::Suppression)
                lines << QString::number(d.range.line);
        // Other linters' codes (E501, pylint's R0913) are theirs: no warning on line 5.
        QCOMPARE(lines,
                 (QStringList{QStringLiteral("2"), QStringLiteral("3"), QStringLiteral("4")}));
    }
};

QTEST_GUILESS_MAIN(TestNotebook)
#include "tst_notebook.moc"
