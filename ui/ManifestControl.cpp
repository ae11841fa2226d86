#include "ManifestControl.h"

#include "Theme.h"
#include "Versions.h"
#include "manifest/ComparisonPage.h"
#include "manifest/ManifestRefresher.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QMainWindow>
#include <QMessageBox>
#include <QStatusBar>
#include <QToolButton>

namespace cnready::ui {

ManifestControl::ManifestControl(QMainWindow* window)
    : QObject(window), m_window(window),
      m_refreshAct(new QAction(tr("Refresh &Manifest…"), window)),
      m_importAct(new QAction(tr("&Import Manifest…"), window)) {
    // The user's imported manifest when there is one, else the bundled snapshot (local files
    // only; the network is used only by File ▸ Refresh Manifest).
    m_manifest = Manifest::active(QString(), &m_note);
    m_refreshAct->setObjectName(QStringLiteral("refreshManifest"));
    m_refreshAct->setStatusTip(
        tr("Download the current cuPyNumeric API-support table (uses the network)"));
    connect(m_refreshAct, &QAction::triggered, this, &ManifestControl::refreshInteractive);
    window->addAction(m_refreshAct);
    m_importAct->setObjectName(QStringLiteral("importManifest"));
    m_importAct->setStatusTip(tr("Use a saved cuPyNumeric API comparison page (.html) or "
                                 "a Markdown manifest as your manifest (no network)"));
    connect(m_importAct, &QAction::triggered, this, &ManifestControl::importInteractive);
    window->addAction(m_importAct);
}

QToolButton* ManifestControl::statusButton() {
    if (!m_status) {
        m_status = new QToolButton;
        m_status->setObjectName(QStringLiteral("manifestStatus"));
        m_status->setAutoRaise(true);
        m_status->setToolButtonStyle(Qt::ToolButtonTextOnly);
        connect(m_status, &QToolButton::clicked, this, &ManifestControl::refreshInteractive);
    }
    return m_status;
}

void ManifestControl::reload() {
    m_note.clear();
    m_manifest = Manifest::active(QString(), &m_note);
    updateStatus();
    emit manifestChanged();
}

void ManifestControl::updateStatus() {
    if (!m_status)
        return;
    const QPalette& palette = m_window->palette();
    const QDate today = QDate::currentDate();
    const QString warning = manifestAgeWarning(m_manifest, today);
    const QString date = m_manifest.fetched().isValid()
                             ? m_manifest.fetched().date().toString(Qt::ISODate)
                             : tr("unknown date");
    const int age = m_manifest.ageInDays(today);
    QString text = tr("Manifest: %1").arg(date);
    if (!warning.isEmpty())
        text = tr("⚠ Manifest %1 (%2 old) — refresh…")
                   .arg(date, age < 0 ? tr("? days") : formatDayCount(age));
    m_status->setText(text);
    QString tip =
        tr("cuPyNumeric API-support manifest in use: %1.").arg(manifestDescription(m_manifest));
    if (!warning.isEmpty())
        tip += QStringLiteral("\n") + warning;
    if (!m_note.isEmpty())
        tip += QStringLiteral("\n") + m_note;
    tip += QStringLiteral("\n") + tr("Click to download the current table (uses the network).");
    m_status->setToolTip(tip);
    QPalette pal = m_status->palette();
    pal.setColor(QPalette::ButtonText, !warning.isEmpty()
                                           ? categoryColor(Category::Refactor, palette)
                                           : palette.color(QPalette::WindowText));
    m_status->setPalette(pal);
}

void ManifestControl::refreshInteractive() {
    if (m_refresher && m_refresher->isRunning())
        return;
    const QString url = defaultComparisonUrl();
    const auto answer = QMessageBox::question(
        m_window, tr("Refresh manifest"),
        tr("<p>The manifest in use: %1.</p><p>Download the current cuPyNumeric API "
           "comparison page from<br><tt>%2</tt><br>and save it as your manifest (<tt>%3</tt>)?"
           "</p><p>This is the only thing cnready does on the network.</p>")
            .arg(manifestDescription(m_manifest).toHtmlEscaped(), url.toHtmlEscaped(),
                 QDir::toNativeSeparators(Manifest::userManifestPath()).toHtmlEscaped()));
    if (answer != QMessageBox::Yes)
        return;
    if (!m_refresher) {
        m_refresher = new ManifestRefresher(this);
        connect(m_refresher, &ManifestRefresher::finished, this,
                [this](bool ok, const QString& message) {
                    m_refreshAct->setEnabled(true);
                    if (!ok) {
                        m_window->statusBar()->showMessage(
                            tr("Manifest not refreshed: %1").arg(message), 15000);
                        QMessageBox::warning(
                            m_window, tr("Refresh manifest"),
                            tr("The manifest was not refreshed:\n%1").arg(message));
                        return;
                    }
                    reload();
                    m_window->statusBar()->showMessage(message, 15000);
                });
    }
    m_refreshAct->setEnabled(false);
    m_window->statusBar()->showMessage(tr("Downloading the API comparison page…"));
    m_refresher->start(QUrl(url));
}

bool ManifestControl::importManifest(const QString& fileName, QString* error) {
    const ManifestImport r = manifestFromFile(fileName, QDateTime::currentDateTimeUtc());
    QString why = r.error;
    if (r.ok && writeManifestFile(r.markdown, Manifest::userManifestPath(), &why)) {
        reload();
        return true;
    }
    if (error)
        *error = why;
    return false;
}

void ManifestControl::importInteractive() {
    const QString file = QFileDialog::getOpenFileName(
        m_window, tr("Import Manifest"), QDir::homePath(),
        tr("Comparison page or manifest (*.html *.htm *.md);;All files (*)"));
    if (file.isEmpty())
        return;
    QString error;
    if (!importManifest(file, &error)) {
        QMessageBox::warning(
            m_window, tr("Import manifest"),
            tr("%1 was not imported:\n%2").arg(QDir::toNativeSeparators(file), error));
        return;
    }
    m_window->statusBar()->showMessage(
        tr("Manifest imported from %1: %2")
            .arg(QDir::toNativeSeparators(file), manifestDescription(m_manifest)),
        15000);
}

QString ManifestControl::aboutText() const {
    const QDate today = QDate::currentDate();
    const int age = m_manifest.ageInDays(today);
    const QString ago = !m_manifest.fetched().isValid()
                            ? tr("date unknown")
                            : (age < 0 ? tr("%1 in the future").arg(formatDayCount(-qint64(age)))
                                       : tr("%1 ago").arg(formatDayCount(age)));
    QString manifestLine = tr("API-support manifest: %1 (Fetched %2, %3)")
                               .arg(manifestDescription(m_manifest).toHtmlEscaped(),
                                    m_manifest.fetched().date().toString(Qt::ISODate), ago);
    const QString warning = manifestAgeWarning(m_manifest, today);
    if (!warning.isEmpty())
        manifestLine +=
            QStringLiteral("<br><span style='color:%1'><b>%2</b></span> %3")
                .arg(categoryColor(Category::Refactor, m_window->palette()).name(),
                     tr("Warning: older than %1.").arg(formatDayCount(Manifest::kStaleAfterDays)),
                     warning.toHtmlEscaped());
    return QStringLiteral("<p>%1<br>KSyntaxHighlighting %2<br>tree-sitter %3<br>"
                          "tree-sitter-python %4</p><p>%5</p>")
        .arg(qtVersionText(), syntaxHighlightingVersion(), treeSitterVersion(),
             treeSitterPythonVersion(), manifestLine);
}

} // namespace cnready::ui
