// Smoke test of the KSyntaxHighlighting set-up: a broken dependency build fails CI here.
#include "SyntaxRepository.h"

#include <KSyntaxHighlighting/Definition>
#include <KSyntaxHighlighting/Repository>
#include <KSyntaxHighlighting/SyntaxHighlighter>
#include <KSyntaxHighlighting/Theme>
#include <QTextDocument>
#include <QtTest>

class TestHighlighting : public QObject {
    Q_OBJECT
private slots:
    void pythonDefinitionHighlightsALine() {
        auto& repo = cnready::ui::syntaxRepository();
        const auto def = repo.definitionForName(QStringLiteral("Python"));
        QVERIFY(def.isValid());
        QCOMPARE(repo.definitionForFileName(QStringLiteral("solver.py")).name(), def.name());

        QTextDocument doc;
        doc.setPlainText(QStringLiteral("import numpy as np\nx = np.zeros(10)  # buffer\n"));
        KSyntaxHighlighting::SyntaxHighlighter hl(&doc);
        hl.setTheme(repo.defaultTheme(KSyntaxHighlighting::Repository::LightTheme));
        hl.setDefinition(def);
        hl.rehighlight();
        // The keyword "import" must carry a format different from plain text.
        const auto formats = doc.firstBlock().layout()->formats();
        QVERIFY(!formats.isEmpty());
        bool keywordFormatted = false;
        for (const auto& r : formats)
            if (r.start == 0 && r.length >= 6)
                keywordFormatted = r.format.fontWeight() > QFont::Normal ||
                                   r.format.foreground().color().isValid();
        QVERIFY(keywordFormatted);
    }
};

QTEST_MAIN(TestHighlighting)
#include "tst_highlighting.moc"
