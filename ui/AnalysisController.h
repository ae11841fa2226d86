#pragma once
// Runs the core analysis of one project off the GUI thread: the scan, the per-file analysis
// (QtConcurrent, streamed through a QFutureWatcher) and the project-wide merge. The GUI thread
// only receives finished values, in small batches, so it never waits on parsing or rules.

#include "analysis/ProjectScanner.h"
#include "model/ProjectResult.h"

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QObject>
#include <QPointer>
#include <QThreadPool>
#include <QTimer>

#include <optional>
#include <vector>

namespace cnready::ui {

class AnalysisController : public QObject {
    Q_OBJECT
public:
    explicit AnalysisController(QObject* parent = nullptr);
    ~AnalysisController() override;

    /// Starts analysing `path` (a folder or a .py file). A run in progress is cancelled and its
    /// late results are ignored.
    void start(const QString& path);
    /// Cancels the run in progress; finished() follows with a partial, `cancelled` result.
    void cancel();
    bool isRunning() const { return m_running; }
    /// The files of the current run (valid after scanFinished()).
    const ScanResult& scan() const { return m_scan; }
    /// Milliseconds the last finished run took (scan to merge).
    qint64 lastDurationMs() const { return m_lastDurationMs; }

signals:
    void started(const QString& path);
    /// The scan is done: these files will be analysed.
    void scanFinished(const cnready::ScanResult& scan);
    /// A batch of finished files (any order). Conditional findings are not resolved yet.
    void filesAnalyzed(const QList<cnready::FileResult>& batch);
    void progress(int done, int total);
    /// The merged project (partial when the run was cancelled: `project.cancelled`).
    void finished(const cnready::ProjectResult& project);
    /// The path does not exist or cannot be read at all.
    void failed(const QString& message);

private:
    void onScanDone(int generation, const ScanResult& scan);
    void onResultReady(int index);
    void onFilesDone(int generation);
    void flushPending();
    void finishWith(int generation, ProjectResult project);

    QThreadPool m_pool; ///< private: scan, per-file analysis and merge run here
    int m_generation = 0;
    bool m_running = false;
    bool m_cancelRequested = false;
    ScanResult m_scan;
    QPointer<QFutureWatcher<FileResult>> m_fileWatcher;
    std::vector<std::optional<FileResult>> m_results; ///< by scan index
    QList<FileResult> m_pending;                      ///< not yet sent to the GUI
    int m_done = 0;
    QTimer m_flushTimer;
    QElapsedTimer m_clock;
    QElapsedTimer m_sinceFlush;
    QElapsedTimer m_sinceProgress;
    qint64 m_lastDurationMs = 0;
};

} // namespace cnready::ui
