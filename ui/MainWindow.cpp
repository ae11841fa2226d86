#include "MainWindow.h"

#include "AnalysisController.h"
#include "AnalysisSummary.h"
#include "AppIcon.h"
#include "AssessmentRunner.h"
#include "CodeView.h"
#include "ContextForm.h"
#include "CostChartView.h"
#include "DoctorImport.h"
#include "FindingsModel.h"
#include "FindingsPane.h"
#include "GateDashboard.h"
#include "ManifestControl.h"
#include "PortPreview.h"
#include "ProjectSettings.h"
#include "ProjectTreeModel.h"
#include "ReportExport.h"
#include "ReportLinks.h"
#include "ReportView.h"
#include "RuleBrowser.h"
#include "SourceLoader.h"
#include "StepQueue.h"
#include "Theme.h"
#include "VerdictPanel.h"
#include "Versions.h"
#include "WatchMode.h"
#include "WelcomePage.h"
#include "WindowActions.h"
#include "WindowLayout.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QTimer>
#include <QToolButton>
#include <QTreeView>

#include <algorithm>
#include <utility>

namespace cnready::ui {

namespace {
QScrollArea* scrolled(QWidget* w) {
    auto* area = new QScrollArea;
    area->setWidget(w);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    return area;
}
} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), m_analysis(new AnalysisController(this)) {
    m_assessPool.setMaxThreadCount(1);
    m_runner = new AssessmentRunner(
        &m_assessPool,
        [this] {
            return AssessmentRunner::Inputs{m_project, m_context->input(), m_manifest->manifest()};
        },
        this);
    connect(m_runner, &AssessmentRunner::rerunWanted, this, [this] { reassess(); });
    connect(m_runner, &AssessmentRunner::assessed, this, [this](const Assessment& a) {
        applyAssessment(a);
        if (m_completePending)
            m_steps->runLater([this] { completeAnalysis(); });
    });
    m_steps = new StepQueue(this);
    // Typing "1000" must not assess (and redraw the report for) "1", "10" and "100" first.
    m_contextTimer.setSingleShot(true);
    m_contextTimer.setInterval(kContextDelayMs);
    connect(&m_contextTimer, &QTimer::timeout, this, [this] { reassess(); });
    setObjectName(QStringLiteral("mainWindow"));
    setWindowIcon(appIcon());
    setWindowTitle(tr("cnready Studio"));
    setAcceptDrops(true);
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);
    // The findings table spans under the project tree (wide columns); the verdict, gates and
    // context keep the full height on the right.
    setCorner(Qt::BottomLeftCorner, Qt::BottomDockWidgetArea);
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);

    m_manifest = new ManifestControl(this);
    // API gaps and the report follow a new manifest; no re-analysis.
    connect(m_manifest, &ManifestControl::manifestChanged, this, [this] { reassess(); });

    m_code = new CodeView;
    m_code->setObjectName(QStringLiteral("codeView"));
    m_code->showMessage(tr("Select a file in the project tree or a finding in the table."));
    m_report = new ReportView(&m_assessPool);
    m_report->setObjectName(QStringLiteral("reportPreview"));
    m_tabs = new QTabWidget;
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_code, tr("Source"));
    m_tabs->addTab(m_report, tr("Report preview"));
    auto* costChart = new CostChartView; // the chart and the table's Cost bound column
    m_tabs->addTab(costChart, tr("Cost chart"));
    connect(this, &MainWindow::assessmentChanged, costChart,
            [this, costChart] { costChart->follow(m_project, m_assessment); });
    connect(costChart, &CostChartView::costsChanged, this,
            [this](const QList<cost::SiteCost>& costs) { m_findings->setSiteCosts(costs); });
    m_stack = new QStackedWidget;
    m_welcome = new WelcomePage;
    connect(m_welcome, &WelcomePage::openFolderRequested, this, &MainWindow::openFolderDialog);
    connect(m_welcome, &WelcomePage::openExampleRequested, this, &MainWindow::openExamples);
    connect(m_welcome, &WelcomePage::projectChosen, this, &MainWindow::openProject);
    m_stack->addWidget(m_welcome);
    m_stack->addWidget(m_tabs);
    setCentralWidget(m_stack);

    createActions();
    createDocks();
    m_watch = new WatchMode(m_findingsView, m_code, this);
    connect(m_watch, &WatchMode::reanalysisWanted, this, &MainWindow::onProjectChanged);
    createMenus();
    createStatusBar();

    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int i) {
        if (m_tabs->widget(i) == m_report && m_reportDirty)
            renderReportPreview();
    });
    connect(m_analysis, &AnalysisController::started, this, &MainWindow::onAnalysisStarted);
    connect(m_analysis, &AnalysisController::scanFinished, this, &MainWindow::onScanFinished);
    connect(m_analysis, &AnalysisController::filesAnalyzed, this, &MainWindow::onFilesAnalyzed);
    connect(m_analysis, &AnalysisController::progress, this, &MainWindow::onProgress);
    connect(m_analysis, &AnalysisController::finished, this, &MainWindow::onAnalysisFinished);
    connect(m_analysis, &AnalysisController::failed, this, &MainWindow::onAnalysisFailed);
    connect(m_context, &ContextForm::inputChanged, this, &MainWindow::onContextChanged);
    connect(this, &MainWindow::findingActivated, this,
            [this](const QString& path, int line) { openFile(path, line); });
    // A location in the report preview: a notebook's "cell 3:5" is a line of its joined code.
    connect(m_report, &ReportView::sourceLinkActivated, this,
            [this](const QString& path, int cell, int line) {
                openFile(path, sourceViewLine(m_project, SourceLink{path, cell, line}));
            });

    restoreWindowLayout(this);
    m_manifest->updateStatus();
    updateActions();
}

MainWindow::~MainWindow() {
    // Assessments and preview renders still running use copies; wait for them to end.
    m_assessPool.waitForDone();
}

// ---------------------------------------------------------------------------------------------
// Construction

void MainWindow::createActions() {
    m_actions = new WindowActions(this);
    connect(m_actions->open, &QAction::triggered, this, &MainWindow::openFolderDialog);
    connect(m_actions->openExample, &QAction::triggered, this, &MainWindow::openExamples);
    connect(m_actions->reanalyze, &QAction::triggered, this, &MainWindow::reanalyze);
    connect(m_actions->cancel, &QAction::triggered, this, &MainWindow::cancelAnalysis);
    connect(m_actions->exportReport, &QAction::triggered, this,
            [this] { ui::exportInteractive(this); });
    connect(m_actions->quit, &QAction::triggered, this, &QWidget::close);
    connect(m_actions->next, &QAction::triggered, this, &MainWindow::nextFinding);
    connect(m_actions->previous, &QAction::triggered, this, &MainWindow::previousFinding);
    connect(m_actions->showSource, &QAction::triggered, this,
            [this] { m_tabs->setCurrentWidget(m_code); });
    connect(m_actions->showReport, &QAction::triggered, this,
            [this] { m_tabs->setCurrentWidget(m_report); });
    connect(m_actions->portPreview, &QAction::triggered, this, [this] {
        auto* d = new PortPreview(m_project, m_manifest->manifest(), m_code->currentPath(), this);
        d->setAttribute(Qt::WA_DeleteOnClose);
        d->show();
    });
    connect(m_actions->rules, &QAction::triggered, this, [this] { showRules(); });
    connect(m_actions->about, &QAction::triggered, this, &MainWindow::showAbout);
    connect(m_actions->aboutQt, &QAction::triggered, qApp, &QApplication::aboutQt);
    connect(m_actions, &WindowActions::recentChosen, this, &MainWindow::openProject);
    connect(m_actions, &WindowActions::recentCleared, this, [this] {
        settings::clearRecent();
        rebuildRecentMenus();
    });
}

void MainWindow::createMenus() {
    m_actions->buildMenus(
        m_watch->action(),
        {m_manifest->refreshAction(), m_manifest->importAction(), m_doctor->importAction()},
        findChildren<QDockWidget*>());
    rebuildRecentMenus();
}

void MainWindow::createDocks() {
    auto dock = [this](const QString& name, const QString& title, QWidget* w,
                       Qt::DockWidgetArea area) {
        auto* d = new QDockWidget(title, this);
        d->setObjectName(name);
        d->setWidget(w);
        addDockWidget(area, d);
        return d;
    };
    m_treeModel = new ProjectTreeModel(this);
    m_tree = new QTreeView;
    m_tree->setObjectName(QStringLiteral("projectView"));
    m_tree->setModel(m_treeModel);
    m_tree->setUniformRowHeights(true);
    m_tree->setIndentation(14);
    // Long module names keep their end ("…_probe.py", "….ipynb") in a narrow dock.
    m_tree->setTextElideMode(Qt::ElideMiddle);
    m_tree->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_tree->header()->setStretchLastSection(false);
    m_tree->header()->setSectionResizeMode(ProjectTreeModel::NameColumn, QHeaderView::Stretch);
    // Fixed widths: ResizeToContents would measure every row on each streamed update.
    m_tree->header()->setSectionResizeMode(ProjectTreeModel::CountColumn, QHeaderView::Fixed);
    m_tree->header()->setSectionResizeMode(ProjectTreeModel::WorstColumn, QHeaderView::Fixed);
    m_tree->header()->resizeSection(ProjectTreeModel::CountColumn,
                                    m_tree->fontMetrics().horizontalAdvance(tr("Findings")) + 12);
    m_tree->header()->resizeSection(
        ProjectTreeModel::WorstColumn,
        m_tree->fontMetrics().horizontalAdvance(QStringLiteral("REFACTOR")) + 30);
    auto openFromTree = [this](const QModelIndex& idx) {
        const QModelIndex name = idx.siblingAtColumn(ProjectTreeModel::NameColumn);
        if (name.data(ProjectTreeModel::IsFileRole).toBool())
            openFile(name.data(ProjectTreeModel::PathRole).toString());
    };
    connect(m_tree, &QTreeView::clicked, this, openFromTree);
    connect(m_tree, &QTreeView::activated, this, openFromTree);
    QDockWidget* projectDock =
        dock(QStringLiteral("projectDock"), tr("Project"), m_tree, Qt::LeftDockWidgetArea);

    m_pane = new FindingsPane;
    m_findings = m_pane->model();
    m_filter = m_pane->filter();
    m_findingsView = m_pane->view();
    m_detail = m_pane->detail();
    m_doctor = new DoctorImport(this, m_findings, m_filter);
    m_pane->addFilterButton(m_doctor->filterButton(m_pane));
    connect(m_pane, &FindingsPane::findingActivated, this, &MainWindow::activateFinding);
    connect(m_pane, &FindingsPane::ruleRequested, this, [this](const QString& c) { showRules(c); });
    QDockWidget* findingsDock =
        dock(QStringLiteral("findingsDock"), tr("Findings"), m_pane, Qt::BottomDockWidgetArea);

    m_verdict = new VerdictPanel;
    m_verdict->setObjectName(QStringLiteral("verdictPanel"));
    QDockWidget* verdictDock = dock(QStringLiteral("verdictDock"), tr("Verdict"),
                                    scrolled(m_verdict), Qt::RightDockWidgetArea);
    m_gates = new GateDashboard;
    m_gates->setObjectName(QStringLiteral("gateDashboard"));
    QDockWidget* gatesDock =
        dock(QStringLiteral("gatesDock"), tr("Gates"), scrolled(m_gates), Qt::RightDockWidgetArea);
    m_context = new ContextForm;
    m_context->setObjectName(QStringLiteral("contextForm"));
    QDockWidget* contextDock = dock(QStringLiteral("contextDock"), tr("Context"),
                                    scrolled(m_context), Qt::RightDockWidgetArea);

    resizeDocks({projectDock, verdictDock}, {330, 520}, Qt::Horizontal);
    resizeDocks({findingsDock}, {250}, Qt::Vertical);
    resizeDocks({verdictDock, gatesDock, contextDock}, {170, 370, 330}, Qt::Vertical);
}

void MainWindow::createStatusBar() {
    m_progress = new QProgressBar;
    m_progress->setObjectName(QStringLiteral("analysisProgress"));
    m_progress->setMaximumWidth(260);
    m_progress->setFormat(tr("%v / %m files"));
    m_progress->hide();
    m_cancel = new QPushButton(tr("Cancel"));
    m_cancel->setObjectName(QStringLiteral("cancelAnalysisButton"));
    m_cancel->setToolTip(tr("Stop the analysis; the files read so far are assessed"));
    m_cancel->hide();
    connect(m_cancel, &QPushButton::clicked, this, &MainWindow::cancelAnalysis);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_cancel);
    statusBar()->addPermanentWidget(m_manifest->statusButton());
}

// ---------------------------------------------------------------------------------------------
// Settings

void MainWindow::loadProjectContext(const QString& path) {
    m_context->setInput(settings::loadContext(path), ContextForm::Origin::LastSession);
}

void MainWindow::saveProjectContext() {
    if (!m_projectPath.isEmpty())
        settings::saveContext(m_projectPath, m_context->input());
}

QStringList MainWindow::recentProjects() const {
    return settings::recentProjects();
}

void MainWindow::addRecent(const QString& path) {
    settings::addRecent(path);
    rebuildRecentMenus();
}

void MainWindow::rebuildRecentMenus() {
    const QStringList list = recentProjects();
    m_actions->setRecent(list);
    if (m_welcome)
        m_welcome->setRecent(list);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    saveWindowLayout(this);
    saveProjectContext();
    m_analysis->cancel();
    QMainWindow::closeEvent(event);
}

// ---------------------------------------------------------------------------------------------
// Opening and analysing

void MainWindow::openFolderDialog() {
    const QString start = m_projectPath.isEmpty() ? QDir::homePath() : m_projectPath;
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Open Project Folder"), start);
    if (!dir.isEmpty())
        openProject(dir);
}

void MainWindow::openExamples() {
    const QString dir = bundledExamplesDir();
    if (dir.isEmpty()) {
        QMessageBox::warning(this, tr("Example project"),
                             tr("The bundled example project was not found next to the program "
                                "(share/cnready/examples) nor in its source tree."));
        return;
    }
    openProject(dir);
}

void MainWindow::openProject(const QString& path) {
    const QFileInfo fi(path);
    if (!fi.exists()) {
        QMessageBox::warning(this, tr("Open project"),
                             tr("No such file or folder:\n%1").arg(QDir::toNativeSeparators(path)));
        return;
    }
    const QString absolute = fi.absoluteFilePath();
    if (absolute != m_projectPath) {
        saveProjectContext();  // the project on screen keeps its values
        m_watch->forgetView(); // another project: nothing to find again
        m_changedWhileBusy.clear();
        m_projectPath = absolute;
        loadProjectContext(m_projectPath);
    }
    addRecent(m_projectPath);
    setWindowTitle(tr("%1 — cnready Studio").arg(fi.fileName()));
    m_stack->setCurrentWidget(m_tabs);
    m_analysis->start(m_projectPath);
}

void MainWindow::onProjectChanged(const QStringList& paths) {
    if (m_projectPath.isEmpty())
        return;
    if (isAnalyzing()) {
        // Taken up when the run in progress is on screen (it may have read the file before
        // this save).
        for (const QString& p : paths)
            if (!m_changedWhileBusy.contains(p))
                m_changedWhileBusy << p;
        return;
    }
    // The changed files only, from the summaries kept of the last run; a full run when there
    // is none (the last one was cancelled).
    if (!m_analysis->update(paths))
        reanalyze();
    statusBar()->showMessage(tr("A file of the project changed: assessing it again…"));
}

void MainWindow::reanalyze() {
    if (!m_projectPath.isEmpty())
        m_analysis->start(m_projectPath);
}

void MainWindow::cancelAnalysis() {
    if (m_analysis->isRunning()) {
        statusBar()->showMessage(tr("Cancelling…"));
        m_analysis->cancel();
    }
}

bool MainWindow::isAnalyzing() const {
    return m_analysis->isRunning() || m_completePending;
}

void MainWindow::onAnalysisStarted(const QString& path) {
    m_hasAssessment = false;
    // An assessment still running belongs to the previous project: its result is dropped.
    m_runner->reset();
    m_completePending = false;
    m_contextTimer.stop();
    m_steps->clear();
    m_project = ProjectResult{};
    m_findings->clear();
    m_pane->updateCategoryButtons();
    m_treeModel->setFiles(QFileInfo(path).fileName(), {});
    m_verdict->clear(tr("Analysing…"));
    m_gates->clear();
    // Nothing of the previous project stays on show: its inferred size and pattern, its
    // report, its finding.
    m_context->clearContext(tr("analysing the project…"));
    m_report->showMessage(tr("*Analysing %1…*").arg(QFileInfo(path).fileName()));
    m_detail->clear();
    m_reportDirty = true;
    const QString shown = m_code->currentPath();
    if (!shown.isEmpty())
        m_code->setFindings({});
    m_progress->setRange(0, 0); // busy until the scan has counted the files
    m_progress->show();
    m_cancel->show();
    m_cancel->setEnabled(true);
    statusBar()->showMessage(
        tr("Looking for Python files in %1…").arg(QDir::toNativeSeparators(path)));
    updateActions();
}

void MainWindow::onScanFinished(const ScanResult& scan) {
    m_treeModel->setFiles(QFileInfo(scan.root).fileName(), scan.files);
    m_treeCountsStale = true; // also after watch mode's scan, which streams no files
    m_tree->expandToDepth(1);
    m_progress->setRange(0, qMax(1, int(scan.files.size())));
    m_progress->setValue(0);
    statusBar()->showMessage(tr("Analysing %n Python file(s)…", nullptr, int(scan.files.size())));
    // Keep the file on display if the new project still has it; otherwise show a hint.
    if (!m_code->currentPath().isEmpty() && !scan.files.contains(m_code->currentPath()))
        m_code->showMessage(tr("Select a file in the project tree or a finding in the table."));
    m_watch->scanned(scan);
}

void MainWindow::onFilesAnalyzed(const QList<FileResult>& batch) {
    m_treeModel->updateFiles(batch);
    QList<Finding> found;
    for (const FileResult& r : batch)
        for (const Finding& f : r.findings)
            if (f.requiresHotFunction.isEmpty())
                found.append(f);
    m_findings->appendFindings(found);
    m_pane->countFindings(found);
    const QString shown = m_code->currentPath();
    if (!shown.isEmpty())
        for (const FileResult& r : batch)
            if (r.path == shown)
                m_code->setFindings(m_pane->findingsForFile(shown));
}

void MainWindow::onProgress(int done, int total) {
    m_progress->setRange(0, qMax(1, total));
    m_progress->setValue(done);
}

void MainWindow::onAnalysisFinished(const ProjectResult& project) {
    m_project = project;
    m_progress->hide();
    m_cancel->hide();
    // The streamed findings stay in the table until the assessment replaces them with the ones
    // it counts (merged, conditional findings resolved): no empty table in between.
    statusBar()->showMessage(tr("Assessing…"));
    m_completePending = true;
    if (!reassess())
        completeAnalysis(); // nothing to assess (no files, no root)
}

void MainWindow::completeAnalysis() {
    m_completePending = false;
    m_summary = summaryText();
    statusBar()->showMessage(m_summary);
    updateActions();
    // Nothing on display yet: show the file of the first (worst) finding.
    if (m_code->currentPath().isEmpty() && m_filter->rowCount() > 0) {
        int best = 0, bestSev = -1;
        const int worst = categorySeverity(Category::Blocks);
        for (int r = 0; r < m_filter->rowCount() && bestSev < worst; ++r) {
            const int sev = categorySeverity(
                Category(m_filter->index(r, 0).data(FindingsModel::CategoryRole).toInt()));
            if (sev > bestSev) {
                bestSev = sev;
                best = r;
            }
        }
        const QModelIndex idx = m_filter->index(best, 0);
        openFile(idx.data(FindingsModel::PathRole).toString(),
                 idx.data(FindingsModel::LineRole).toInt());
    }
    // Watch mode: the saved file's new text, the same finding selected, nothing scrolled.
    m_watch->analysisComplete([this](const QString& path) { loadSource(path); });
    emit analysisFinished();
    if (!m_changedWhileBusy.isEmpty())
        m_steps->runLater([this] { onProjectChanged(std::exchange(m_changedWhileBusy, {})); });

    if (!m_screenshotFile.isEmpty()) {
        const QString file = std::exchange(m_screenshotFile, QString());
        QTimer::singleShot(300, this, [this, file] {
            // Show a BLOCKS finding when there is one: it exercises most of the window.
            for (int r = 0; r < m_filter->rowCount(); ++r) {
                const QModelIndex idx = m_filter->index(r, 0);
                if (Category(idx.data(FindingsModel::CategoryRole).toInt()) == Category::Blocks) {
                    m_findingsView->setCurrentIndex(idx);
                    activateFinding(idx);
                    break;
                }
            }
            QTimer::singleShot(500, this, [this, file] {
                const bool ok = grab().save(file);
                if (!ok)
                    qWarning("cnready-studio: cannot save the screenshot to %s", qPrintable(file));
                QApplication::exit(ok ? 0 : 1);
            });
        });
    }
}

QString MainWindow::summaryText() const {
    // The findings the table and the report list: the assessment's. The analysis' own list
    // also holds the R304 notes that count for multi-GPU targets only.
    return ui::analysisSummary(m_project, m_hasAssessment ? &m_assessment : nullptr,
                               m_analysis->scan().files.size(), m_analysis->lastDurationMs());
}

void MainWindow::onAnalysisFailed(const QString& message) {
    m_progress->hide();
    m_cancel->hide();
    m_verdict->clear(message);
    statusBar()->showMessage(message);
    updateActions();
    emit analysisFinished();
}

void MainWindow::setScreenshotOnFinish(const QString& fileName) {
    m_screenshotFile = fileName;
}

// ---------------------------------------------------------------------------------------------
// Assessment, report, export

void MainWindow::onContextChanged(const ContextInput&) {
    saveProjectContext();
    m_contextTimer.start();
}

bool MainWindow::reassess() {
    if (m_analysis->isRunning() || (m_project.root.isEmpty() && m_project.files.isEmpty()))
        return false;
    m_runner->request();
    updateActions();
    return true;
}

void MainWindow::assessNow() {
    const bool typed = m_contextTimer.isActive();
    m_contextTimer.stop();
    if (!m_hasAssessment || m_completePending || (!m_runner->isBehind() && !typed))
        return;
    applyAssessment(m_runner->assessHere(
        AssessmentRunner::Inputs{m_project, m_context->input(), m_manifest->manifest()}));
}

void MainWindow::applyAssessment(const Assessment& assessment) {
    m_assessment = assessment;
    m_hasAssessment = true;
    // The assessment decides which findings count (R304 only for multi-GPU targets), so the
    // table, tree and code view follow it; reset them only when that set actually changed.
    // Off-path notes (BLOCKS / REFACTOR findings in plotting, I/O, set-up, ...) are rows too,
    // as the INFO notes the report lists them as; the table shows them greyed.
    QList<Finding> rows = m_assessment.findings.toList();
    if (!m_project.offComputePath.isEmpty()) {
        rows.reserve(rows.size() + m_project.offComputePath.size());
        for (Finding f : m_project.offComputePath) {
            f.category = Category::Info;
            rows.append(std::move(f));
        }
        std::sort(rows.begin(), rows.end(), findingLess);
    }
    if (m_findings->findings() != rows) {
        m_findings->setFindings(rows);
        m_treeCountsStale = true;
        m_pane->updateCategoryButtons();
        if (const QString path = m_code->currentPath(); !path.isEmpty())
            m_code->setFindings(m_pane->findingsForFile(path));
    }
    if (std::exchange(m_treeCountsStale, false))
        m_steps->runLater([this] { updateTreeCounts(); });
    // No file read means no code behind a verdict (the CLI refuses such a tree with exit 3):
    // say so instead of a green READY that nothing supports.
    if (!hasVerdict()) {
        m_verdict->clear(m_project.files.isEmpty()
                             ? tr("Nothing to assess: no Python files in this folder.")
                             : tr("Nothing to assess: none of the %n Python file(s) could be "
                                  "read; the project tree says why.",
                                  nullptr, int(m_project.files.size())));
        m_gates->clear();
    } else {
        m_verdict->setAssessment(m_assessment, m_project.cancelled);
        m_gates->setGates(m_assessment.gates);
    }
    m_context->setContext(m_assessment.context);
    // A context change can move the count (R304): keep the summary in step with the table.
    if (!m_summary.isEmpty() && !m_completePending && statusBar()->currentMessage() == m_summary) {
        m_summary = summaryText();
        statusBar()->showMessage(m_summary);
    }
    m_reportDirty = true;
    if (m_tabs->currentWidget() == m_report)
        renderReportPreview();
    updateActions();
    emit assessmentChanged();
}

bool MainWindow::isAssessing() const {
    return m_runner->isRunning() || m_contextTimer.isActive();
}

bool MainWindow::hasVerdict() const {
    return m_hasAssessment && (m_project.cancelled || assessedFileCount(m_project) > 0);
}

void MainWindow::renderReportPreview() {
    m_reportDirty = false;
    if (!m_hasAssessment) {
        m_report->showMessage(tr("*No report yet: open a project and wait for its analysis.*"));
        return;
    }
    if (!hasVerdict()) {
        m_report->showMessage(tr("*No report: none of this folder's Python files could be "
                                 "read.*"));
        return;
    }
    // Writing a large project's report, rendering and laying it out take seconds: a worker
    // does all of it from copies (implicitly shared, read-only on both sides).
    m_report->setSource([project = m_project, assessment = m_assessment,
                         manifest = m_manifest->manifest(), today = QDate::currentDate()] {
        return renderReport(ReportInput{project, assessment, manifest, today},
                            ReportFormat::Markdown);
    });
}

QByteArray MainWindow::reportBytes(ReportFormat format) const {
    if (!m_hasAssessment)
        return {};
    return renderReport(
        ReportInput{m_project, m_assessment, m_manifest->manifest(), QDate::currentDate()}, format);
}

bool MainWindow::exportReport(const QString& fileName, ReportFormat format, QString* error) {
    assessNow();
    if (!hasVerdict()) {
        if (error)
            *error = m_hasAssessment ? tr("Nothing to assess: none of the Python files could be "
                                          "read, so there is no report.")
                                     : tr("There is no assessment to export yet.");
        return false;
    }
    return saveReport(
        ReportInput{m_project, m_assessment, m_manifest->manifest(), QDate::currentDate()}, format,
        fileName, error);
}

QString MainWindow::exportStartDir() const {
    return ui::exportStartDir(m_projectPath);
}

// ---------------------------------------------------------------------------------------------
// Navigation

void MainWindow::loadSource(const QString& relativePath) {
    const QString root = m_project.root.isEmpty() ? m_analysis->scan().root : m_project.root;
    loadSourceInto(m_code, root, relativePath, m_pane->findingsForFile(relativePath));
}

ProjectWatcher* MainWindow::projectWatcher() const {
    return m_watch->watcher();
}

IncrementalProject::UpdateStats MainWindow::lastWatchUpdate() const {
    return m_analysis->lastUpdateStats();
}

void MainWindow::openFile(const QString& relativePath, int line) {
    if (relativePath.isEmpty())
        return;
    m_stack->setCurrentWidget(m_tabs);
    m_tabs->setCurrentWidget(m_code);
    if (m_code->currentPath() != relativePath)
        loadSource(relativePath);
    if (line > 0)
        m_code->goToLine(line);
    const QModelIndex treeIdx = m_treeModel->indexForPath(relativePath);
    if (treeIdx.isValid()) {
        m_tree->setCurrentIndex(treeIdx);
        m_tree->scrollTo(treeIdx);
    }
}

void MainWindow::activateFinding(const QModelIndex& proxyIndex) {
    if (!proxyIndex.isValid())
        return;
    const QString path = proxyIndex.data(FindingsModel::PathRole).toString();
    const int line = proxyIndex.data(FindingsModel::LineRole).toInt();
    const QString message =
        proxyIndex.siblingAtColumn(FindingsModel::MessageColumn).data().toString();
    statusBar()->showMessage(
        QStringLiteral("%1 %2 — %3")
            .arg(proxyIndex.data(FindingsModel::CodeRole).toString(),
                 proxyIndex.siblingAtColumn(FindingsModel::LocationColumn).data().toString(),
                 message),
        10000);
    emit findingActivated(path, line);
}

void MainWindow::nextFinding() {
    m_pane->stepFinding(+1);
}
void MainWindow::previousFinding() {
    m_pane->stepFinding(-1);
}

void MainWindow::updateTreeCounts() {
    ProjectResult shown = m_project;
    shown.findings = m_assessment.findings.toList();
    m_treeModel->setProject(shown);
}

void MainWindow::updateActions() {
    const bool running = m_analysis->isRunning();
    m_actions->reanalyze->setEnabled(!m_projectPath.isEmpty() && !running);
    m_actions->cancel->setEnabled(running);
    m_actions->exportReport->setEnabled(hasVerdict() && !running);
    m_actions->openExample->setEnabled(!bundledExamplesDir().isEmpty());
    if (m_welcome)
        m_welcome->setExampleAvailable(!bundledExamplesDir().isEmpty());
}

QAction* MainWindow::action(const QString& objectName) const {
    return findChild<QAction*>(objectName);
}

// ---------------------------------------------------------------------------------------------
// Manifest, rules, about

void MainWindow::showRules(const QString& code) {
    if (!m_rules) {
        m_rules = new RuleBrowser(this);
        m_rules->setAttribute(Qt::WA_DeleteOnClose);
    }
    if (!code.isEmpty())
        m_rules->showRule(code);
    m_rules->show();
    m_rules->raise();
    m_rules->activateWindow();
}

const Manifest& MainWindow::manifest() const {
    return m_manifest->manifest();
}

bool MainWindow::importManifest(const QString& fileName, QString* error) {
    return m_manifest->importManifest(fileName, error);
}

QString MainWindow::aboutText() const {
    return m_manifest->aboutText();
}

void MainWindow::showAbout() {
    QMessageBox box(this);
    box.setObjectName(QStringLiteral("aboutBox"));
    box.setWindowTitle(tr("About cnready Studio"));
    box.setIconPixmap(appIcon().pixmap(64, 64));
    box.setTextFormat(Qt::RichText);
    box.setText(tr("<h3>cnready Studio %1</h3>"
                   "<p>Static readiness assessment of NumPy code for cuPyNumeric.</p>")
                    .arg(QStringLiteral(CNREADY_VERSION)));
    box.setInformativeText(aboutText());
    box.exec();
}

// ---------------------------------------------------------------------------------------------
// Drag and drop, palette

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    const QList<QUrl> urls = event->mimeData()->urls();
    if (!urls.isEmpty() && urls.first().isLocalFile() &&
        QFileInfo::exists(urls.first().toLocalFile()))
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.isEmpty() || !urls.first().isLocalFile())
        return;
    event->acceptProposedAction();
    openProject(urls.first().toLocalFile());
}

void MainWindow::changeEvent(QEvent* event) {
    QMainWindow::changeEvent(event);
    if (event->type() == QEvent::PaletteChange && m_treeModel) {
        m_treeModel->refreshColors(palette());
        m_pane->refreshColors(palette());
        // The preview's colours are fixed when its document is built: build it again.
        m_manifest->updateStatus();
    }
}

} // namespace cnready::ui
