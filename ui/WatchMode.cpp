#include "WatchMode.h"

#include "CodeView.h"
#include "ProjectWatcher.h"

#include "analysis/ProjectScanner.h"

#include <QAction>
#include <QSettings>

#include <utility>

namespace cnready::ui {

namespace {
const QString kSetting = QStringLiteral("watchProject");
}

WatchMode::WatchMode(QTableView* findings, CodeView* source, QObject* parent)
    : QObject(parent), m_findings(findings), m_source(source),
      m_action(new QAction(tr("&Watch Project"), this)), m_watcher(new ProjectWatcher(this)) {
    m_action->setObjectName(QStringLiteral("watchProject"));
    m_action->setCheckable(true);
    m_action->setStatusTip(tr("Assess the project again whenever one of its files is saved"));
    m_action->setChecked(QSettings().value(kSetting, false).toBool());
    connect(m_action, &QAction::toggled, this, [this](bool on) {
        QSettings().setValue(kSetting, on);
        update();
    });
    connect(m_watcher, &ProjectWatcher::projectChanged, this, [this](const QStringList& paths) {
        if (!m_action->isChecked())
            return;
        // A save during the analysis it started: the view from before that one is kept.
        if (!m_kept)
            m_kept = ViewState::capture(m_findings, m_source);
        emit reanalysisWanted(paths);
    });
}

void WatchMode::scanned(const ScanResult& scan) {
    m_root = scan.root;
    m_files = scan.files;
    update(); // a new module is watched from now on
}

void WatchMode::update() {
    if (m_action->isChecked() && !m_root.isEmpty())
        m_watcher->watch(m_root, m_files);
    else
        m_watcher->stop();
}

void WatchMode::analysisComplete(const std::function<void(const QString&)>& reload) {
    if (!m_kept)
        return;
    const ViewState kept = *std::exchange(m_kept, std::nullopt);
    if (!kept.sourcePath.isEmpty() && m_source->currentPath() == kept.sourcePath)
        reload(kept.sourcePath);
    kept.restore(m_findings, m_source);
}

} // namespace cnready::ui
