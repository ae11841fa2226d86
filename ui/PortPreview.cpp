#include "PortPreview.h"

#include "SyntaxRepository.h"
#include "Theme.h"

#include "port/PortPlan.h"

#include <KSyntaxHighlighting/Definition>
#include <KSyntaxHighlighting/Repository>
#include <KSyntaxHighlighting/SyntaxHighlighter>
#include <KSyntaxHighlighting/Theme>

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace cnready::ui {

PortPreview::PortPreview(const ProjectResult& project, const Manifest& manifest,
                         const QString& currentFile, QWidget* parent)
    : QDialog(parent), m_project(project), m_manifest(manifest), m_currentFile(currentFile) {
    setObjectName(QStringLiteral("portPreview"));
    setWindowTitle(tr("Port Preview"));
    auto* layout = new QVBoxLayout(this);
    auto* note =
        new QLabel(tr("The rewrites that are safe by construction, as "
                      "<code>cnready port --diff</code> prints them. Nothing is written: "
                      "apply the diff with <code>git apply</code> in the project folder."));
    note->setWordWrap(true);
    layout->addWidget(note);
    m_scope = new QComboBox;
    m_scope->setObjectName(QStringLiteral("portScope"));
    m_scope->addItem(tr("Whole project"));
    m_scope->addItem(currentFile.isEmpty() ? tr("Current file (none open)")
                                           : tr("Current file: %1").arg(currentFile));
    layout->addWidget(m_scope);
    m_view = new QPlainTextEdit;
    m_view->setObjectName(QStringLiteral("portDiff"));
    m_view->setReadOnly(true);
    m_view->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_view->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    auto* highlighter = new KSyntaxHighlighting::SyntaxHighlighter(m_view->document());
    highlighter->setTheme(syntaxRepository().defaultTheme(
        isDarkPalette(palette()) ? KSyntaxHighlighting::Repository::DarkTheme
                                 : KSyntaxHighlighting::Repository::LightTheme));
    highlighter->setDefinition(syntaxRepository().definitionForName(QStringLiteral("Diff")));
    layout->addWidget(m_view, 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    connect(m_scope, &QComboBox::currentIndexChanged, this, [this] { rebuild(); });
    connect(&m_watcher, &QFutureWatcher<QByteArray>::finished, this, [this] {
        const QByteArray diff = m_watcher.result();
        m_view->setPlainText(diff.isEmpty() ? tr("Nothing to rewrite mechanically here.")
                                            : QString::fromUtf8(diff));
    });
    resize(900, 640);
    rebuild();
}

QString PortPreview::text() const {
    return m_view->toPlainText();
}

void PortPreview::setWholeProject(bool whole) {
    m_scope->setCurrentIndex(whole ? 0 : 1);
}

void PortPreview::rebuild() {
    if (m_watcher.isRunning())
        m_watcher.waitForFinished(); // a small plan; the new scope follows at once
    m_view->setPlainText(tr("Computing the port preview…"));
    const QString only = m_scope->currentIndex() == 1 ? m_currentFile : QString();
    if (m_scope->currentIndex() == 1 && only.isEmpty()) {
        m_view->setPlainText(tr("No file is open."));
        return;
    }
    // Copies for the worker thread: the dialog may close while it runs.
    m_watcher.setFuture(QtConcurrent::run([project = m_project, manifest = m_manifest, only] {
        return renderPortDiff(planPort(project, manifest, only));
    }));
}

} // namespace cnready::ui
