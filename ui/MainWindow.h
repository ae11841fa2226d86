#pragma once
// The studio's main window: builds the layout (project tree, source view, findings pane,
// verdict panel, gate dashboard, context form, report preview) and wires its controllers:
// AnalysisController (analysis and watch-mode updates), AssessmentRunner (gates and verdict
// off the GUI thread), ManifestControl, DoctorImport, WatchMode, ReportExport, ProjectSettings
// and WindowLayout (what persists through QSettings).

#include "analysis/IncrementalProject.h"
#include "analysis/ProjectScanner.h"
#include "assess/Assessment.h"
#include "manifest/Manifest.h"
#include "model/ProjectResult.h"
#include "report/Report.h"

#include <QFutureWatcher>
#include <QMainWindow>
#include <QPointer>
#include <QThreadPool>
#include <QTimer>

#include <array>
#include <functional>

#include <optional>

class QAction;
class QLabel;
class QLineEdit;
class QListWidget;
class QMenu;
class QProgressBar;
class QPlainTextEdit;
class QPushButton;
class QStackedWidget;
class QTabWidget;
class QTextBrowser;
class QTextDocument;
class QTableView;
class QToolButton;
class QTreeView;

namespace cnready::ui {

class AnalysisController;
class AssessmentRunner;
class CodeView;
class ContextForm;
class DoctorImport;
class FindingsFilterModel;
class FindingsModel;
class FindingsPane;
class ManifestControl;
class GateDashboard;
class ProjectTreeModel;
class ProjectWatcher;
class WatchMode;
class ReportView;
class RuleBrowser;
class VerdictPanel;
class StepQueue;
class WelcomePage;
class WindowActions;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Opens a project folder (or one .py file) and starts its analysis.
    void openProject(const QString& path);
    /// Runs the analysis of the current project again (F5).
    void reanalyze();
    void cancelAnalysis();
    bool isAnalyzing() const;
    /// True once an analysis has finished and an assessment exists.
    bool hasAssessment() const { return m_hasAssessment; }
    /// An assessment with code behind it: at least one file was read (or the run was
    /// cancelled part way). Without one there is no verdict, report preview or export.
    bool hasVerdict() const;
    /// True while a new assessment (after an analysis or a context change) is being computed;
    /// assessmentChanged() follows.
    /// True also while a context change waits for typing to pause (kContextDelayMs).
    bool isAssessing() const;
    QString projectPath() const { return m_projectPath; }
    const ProjectResult& project() const { return m_project; }
    const Assessment& assessment() const { return m_assessment; }
    const Manifest& manifest() const;

    /// The report for the current project and context, as `cnready assess` renders it.
    QByteArray reportBytes(ReportFormat format) const;
    /// Writes the report atomically (QSaveFile), for the context on screen even when its
    /// assessment has not come back yet. On failure returns false and sets `error`.
    bool exportReport(const QString& fileName, ReportFormat format, QString* error = nullptr);
    /// Opens `relativePath` of the project in the source view, at `line` when > 0.
    void openFile(const QString& relativePath, int line = 0);
    /// File ▸ Watch Project: a saved file of the project re-assesses it (see ProjectWatcher).
    ProjectWatcher* projectWatcher() const;
    /// What watch mode's last update analysed (AnalysisController::lastUpdateStats).
    IncrementalProject::UpdateStats lastWatchUpdate() const;
    /// Selects and shows the next / previous finding of the (filtered, sorted) table (F8).
    void nextFinding();
    void previousFinding();
    /// After the next analysis finishes: select the first BLOCKS finding, save a picture of the
    /// window to `fileName` and quit (used for docs/screenshot.png).
    void setScreenshotOnFinish(const QString& fileName);
    QStringList recentProjects() const;
    /// The About box's versions and manifest lines (HTML); see ManifestControl.
    QString aboutText() const;

    // For tests and the screenshot.
    CodeView* codeView() const { return m_code; }
    QTableView* findingsView() const { return m_findingsView; }
    FindingsFilterModel* findingsFilter() const { return m_filter; }
    /// File ▸ Import Doctor Report… and the "Confirmed at run time" filter.
    DoctorImport* doctorImport() const { return m_doctor; }
    QTreeView* projectView() const { return m_tree; }
    ContextForm* contextForm() const { return m_context; }
    VerdictPanel* verdictPanel() const { return m_verdict; }
    GateDashboard* gateDashboard() const { return m_gates; }
    /// The report preview: the report rendered as rich text (see ReportView).
    ReportView* reportView() const { return m_report; }
    /// The detail pane beside the findings table: the selected finding in full.
    QTextBrowser* findingDetail() const { return m_detail; }
    /// Where File ▸ Export Report starts: the folder this project was last exported to, else
    /// the project folder (the folder holding it for a one-file project).
    QString exportStartDir() const;
    /// Installs a saved comparison page (.html) or a Markdown manifest as the user's manifest
    /// (what `cnready manifest import FILE` does) and re-assesses. On failure returns false and
    /// sets `error`.
    bool importManifest(const QString& fileName, QString* error = nullptr);
    /// The analysis summary on the status bar (files, lines, findings as the report lists them).
    QString analysisSummary() const { return m_summary; }
    /// How long a context change waits for the next keystroke before it is assessed (ms).
    static constexpr int kContextDelayMs = 300;
    QProgressBar* progressBar() const { return m_progress; }
    QPushButton* cancelButton() const { return m_cancel; }
    QAction* action(const QString& objectName) const;

signals:
    /// An analysis finished (also when cancelled) and the assessment is up to date.
    void analysisFinished();
    /// The verdict and gates were recomputed (new analysis or context change).
    void assessmentChanged();
    /// A finding was activated: the source view moves to this file and line.
    void findingActivated(const QString& path, int line);

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void createActions();
    void createMenus();
    void createDocks();
    void createStatusBar();
    /// The context form's values of the project at `path` (QSettings, per project folder).
    void loadProjectContext(const QString& path);
    void saveProjectContext();
    /// Reads `relativePath` into the source view, also when it is on display (its text changed).
    void loadSource(const QString& relativePath);
    void addRecent(const QString& path);
    void rebuildRecentMenus();
    void updateActions();
    /// The tree's counts from the assessment's findings (the ones the table shows).
    void updateTreeCounts();

    void onAnalysisStarted(const QString& path);
    void onScanFinished(const ScanResult& scan);
    void onFilesAnalyzed(const QList<FileResult>& batch);
    void onProgress(int done, int total);
    void onAnalysisFinished(const ProjectResult& project);
    void onAnalysisFailed(const QString& message);
    void onContextChanged(const ContextInput& input);
    /// Watch mode saw `paths` (absolute files or folders) change: brings the analysis up to
    /// date from the kept summaries (AnalysisController::update), or analyses again.
    void onProjectChanged(const QStringList& paths);
    /// Recomputes the assessment off the GUI thread (it reads the launch scripts and walks every
    /// finding: ~100 ms on a 5,000-file project). Requests made while one runs are coalesced
    /// into one more run with the latest context. Returns false when there is nothing to assess.
    bool reassess();
    /// When an assessment is still being computed, computes it on the spot (before an export).
    void assessNow();
    void applyAssessment(const Assessment& assessment);
    /// The part of a finished analysis that needs its assessment: status, first file, signal.
    void completeAnalysis();
    /// The status-bar line of a finished analysis; its finding count is the assessment's (the
    /// report's), which a context change can move (R304 counts for multi-GPU targets only).
    QString summaryText() const;
    /// Renders the report into the preview off the GUI thread (ReportView). Not
    /// QTextDocument::setMarkdown: it grows quadratically with the report's tables (a 310 KB
    /// report took more than 8 minutes on the GUI thread).
    void renderReportPreview();
    void activateFinding(const QModelIndex& proxyIndex);
    void openFolderDialog();
    void openExamples();
    void showRules(const QString& code = {});
    void showAbout();

    AnalysisController* m_analysis;
    QThreadPool m_assessPool; ///< one thread: assessments and preview renders one at a time
    AssessmentRunner* m_runner = nullptr;
    bool m_completePending = false; ///< completeAnalysis() waits for the next assessment
    /// A large project's end-of-analysis work, split so that input and painting get through
    /// between the pieces; a new analysis drops the steps still queued.
    StepQueue* m_steps = nullptr;
    QTimer m_contextTimer; ///< debounces typing in the context form
    QString m_summary;
    ManifestControl* m_manifest = nullptr;
    ProjectResult m_project;
    Assessment m_assessment;
    bool m_hasAssessment = false;
    bool m_reportDirty = true;
    QString m_projectPath;
    QString m_screenshotFile;
    WatchMode* m_watch = nullptr;
    QStringList m_changedWhileBusy; ///< watched paths that changed during a run
    bool m_treeCountsStale = false; ///< the tree lost its counts (new files) or they moved

    QStackedWidget* m_stack = nullptr;
    QTabWidget* m_tabs = nullptr;
    CodeView* m_code = nullptr;
    ReportView* m_report = nullptr;
    QTextBrowser* m_detail = nullptr;
    WelcomePage* m_welcome = nullptr;
    ProjectTreeModel* m_treeModel = nullptr;
    QTreeView* m_tree = nullptr;
    FindingsPane* m_pane = nullptr;
    FindingsModel* m_findings = nullptr;
    FindingsFilterModel* m_filter = nullptr;
    DoctorImport* m_doctor = nullptr;
    QTableView* m_findingsView = nullptr;
    VerdictPanel* m_verdict = nullptr;
    GateDashboard* m_gates = nullptr;
    ContextForm* m_context = nullptr;
    QPointer<RuleBrowser> m_rules;

    QProgressBar* m_progress = nullptr;
    QPushButton* m_cancel = nullptr;

    WindowActions* m_actions = nullptr;
};

} // namespace cnready::ui
