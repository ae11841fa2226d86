#pragma once
// Runs the core analysis of one project off the GUI thread: the scan, the per-file analysis
// (one task per pool thread, taking files in turn) and the project-wide merge. The GUI thread
// only receives finished values, in small batches, so it never waits on parsing or rules.

#include "analysis/FileAnalyzer.h"
#include "analysis/IncrementalProject.h"
#include "analysis/MemoryBudget.h"
#include "analysis/ProjectScanner.h"
#include "model/ProjectResult.h"

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QMutex>
#include <QObject>
#include <QThreadPool>
#include <QTimer>

#include <atomic>
#include <memory>
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
    /// Brings the last finished analysis up to date after files of its project changed
    /// (`paths`: absolute files or folders, as ProjectWatcher reports them): only the changed
    /// files are analysed, the project facts are solved again from the kept summaries
    /// (IncrementalProject) and finished() follows with the result a full run would give. A
    /// folder, or a file the last scan did not list, scans the project again first (no
    /// started(); scanFinished() when the list of files changed). Returns false, and does
    /// nothing, while a run is in progress or when no complete analysis of the project is
    /// kept (the caller starts a full one).
    bool update(const QStringList& paths);
    /// Milliseconds the last update() took, from the call to finished(); -1 before the first.
    qint64 lastUpdateMs() const { return m_lastUpdateMs; }
    /// What the last update() analysed (files analysed, analysed again for moved facts,
    /// dropped); all zero before the first. Counts, not clocks: the tests assert on these.
    IncrementalProject::UpdateStats lastUpdateStats() const { return m_lastUpdateStats; }
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
    /// What the workers of one run share with the GUI thread. Workers append finished files
    /// under the mutex (held only to move a value in); the GUI thread takes all of them at once
    /// when told. A QFutureWatcher would instead post one event per file and lock the future
    /// twice per file on the GUI thread, each time a chance to wait for a worker that holds the
    /// lock but has no CPU.
    struct FileStream {
        QString root;
        QStringList files;
        std::atomic<int> next{0};           ///< the next file index to take
        std::atomic<bool> cancelled{false}; ///< workers take no new file
        std::atomic<int> running{0};        ///< workers not finished yet
        std::atomic<bool> notified{false};  ///< a drain is already on its way to the GUI
        QMutex mutex;
        QList<std::pair<int, FileResult>> ready; ///< finished, not yet taken (guarded)
        /// Huge generated modules take turns instead of adding their peaks (AnalyzerLimits).
        MemoryBudget budget{AnalyzerLimits{}.concurrentAnalysisBytes};
    };
    void runWorker(const std::shared_ptr<FileStream>& stream, int generation);
    void onScanDone(int generation, const ScanResult& scan);
    void drain(int generation);
    void onFilesDone(int generation);
    void flushPending();
    void finishWith(int generation, ProjectResult project);

    QThreadPool m_pool; ///< private: scan, per-file analysis and merge run here
    int m_generation = 0;
    bool m_running = false;
    bool m_cancelRequested = false;
    ScanResult m_scan;
    std::shared_ptr<FileStream> m_stream;             ///< the per-file analysis in progress
    std::vector<std::optional<FileResult>> m_results; ///< by scan index
    QList<FileResult> m_pending;                      ///< not yet sent to the GUI
    int m_done = 0;
    QTimer m_flushTimer;
    QElapsedTimer m_clock;
    QElapsedTimer m_sinceFlush;
    QElapsedTimer m_sinceProgress;
    bool m_flushed = false; ///< the first batch of this run went out
    qint64 m_lastDurationMs = 0;
    qint64 m_lastUpdateMs = -1;
    IncrementalProject::UpdateStats m_lastUpdateStats;
    bool m_updating = false; ///< the run in progress is an update()
    /// The last complete analysis, for update(); pool tasks take the mutex (a new run's merge
    /// may start while an update it superseded is still running).
    struct Kept {
        QMutex mutex;
        IncrementalProject project;
    };
    std::shared_ptr<Kept> m_kept = std::make_shared<Kept>();
    QString m_keptRoot; ///< the root m_kept holds a complete analysis of (GUI thread), or ""
};

} // namespace cnready::ui
