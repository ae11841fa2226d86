#include "AnalysisController.h"

#include "analysis/ProjectAnalyzer.h"

#include <QFileInfo>
#include <QThread>
#include <QtConcurrent/QtConcurrentRun>

namespace cnready::ui {

namespace {
// Results are handed to the GUI at most this often (ms): a project of thousands of small files
// would otherwise post one model update per file.
constexpr int kFlushIntervalMs = 50;
// The progress bar is repainted at most this often (ms): each repaint of a Fusion progress bar
// hands its fills to Qt's raster helper threads and waits for them, which on a busy machine
// costs the GUI thread a scheduling round each time.
constexpr int kProgressIntervalMs = 200;
} // namespace

AnalysisController::AnalysisController(QObject* parent) : QObject(parent) {
    // A private pool: the global one must stay free for Qt's own helpers (see
    // startFileAnalysis(scan, pool)). One thread per core, like the global pool.
    m_pool.setMaxThreadCount(QThread::idealThreadCount());
    m_flushTimer.setSingleShot(true);
    m_flushTimer.setInterval(kFlushIntervalMs);
    connect(&m_flushTimer, &QTimer::timeout, this, &AnalysisController::flushPending);
}

AnalysisController::~AnalysisController() {
    // Workers only compute values; cancelling lets the pool drain quickly on exit.
    if (m_fileWatcher)
        m_fileWatcher->cancel();
    m_pool.waitForDone();
}

void AnalysisController::start(const QString& path) {
    if (m_running)
        cancel();
    if (m_fileWatcher) {
        m_fileWatcher->disconnect(this);
        m_fileWatcher->deleteLater();
        m_fileWatcher = nullptr;
    }
    const int generation = ++m_generation;
    m_running = true;
    m_cancelRequested = false;
    m_scan = ScanResult{};
    m_results.clear();
    m_pending.clear();
    m_done = 0;
    m_sinceProgress.invalidate();
    m_clock.start();
    m_sinceFlush.start();
    emit started(path);

    auto* scanWatcher = new QFutureWatcher<ScanResult>(this);
    connect(scanWatcher, &QFutureWatcherBase::finished, this, [this, scanWatcher, generation] {
        scanWatcher->deleteLater();
        onScanDone(generation, scanWatcher->result());
    });
    scanWatcher->setFuture(QtConcurrent::run(&m_pool, [path] { return scanProject({path}); }));
}

void AnalysisController::cancel() {
    if (!m_running)
        return;
    m_cancelRequested = true;
    if (m_fileWatcher)
        m_fileWatcher->cancel();
}

void AnalysisController::onScanDone(int generation, const ScanResult& scan) {
    if (generation != m_generation)
        return;
    if (!scan.missing.isEmpty()) {
        m_running = false;
        emit failed(tr("No such file or folder: %1").arg(scan.missing.first()));
        return;
    }
    m_scan = scan;
    m_results.assign(size_t(scan.files.size()), std::nullopt);
    emit scanFinished(m_scan);
    emit progress(0, int(scan.files.size()));
    if (m_cancelRequested || scan.files.isEmpty()) {
        ProjectResult project;
        project.root = scan.root;
        project.diagnostics = scan.diagnostics;
        project.cancelled = m_cancelRequested;
        finishWith(generation, std::move(project));
        return;
    }
    auto* watcher = new QFutureWatcher<FileResult>(this);
    m_fileWatcher = watcher;
    connect(watcher, &QFutureWatcherBase::resultReadyAt, this, [this, generation](int index) {
        if (generation == m_generation)
            onResultReady(index);
    });
    connect(watcher, &QFutureWatcherBase::finished, this,
            [this, generation] { onFilesDone(generation); });
    watcher->setFuture(startFileAnalysis(m_scan, &m_pool));
}

void AnalysisController::onResultReady(int index) {
    if (!m_fileWatcher || index < 0 || size_t(index) >= m_results.size() || m_results[index])
        return;
    // QFuture::resultAt() on a running future lets the calling thread "steal" the map's
    // runnable and run the rest of the analysis itself: the GUI thread would freeze until the
    // end. The future's interface reads a ready result without waiting or stealing.
    const QFutureInterface<FileResult> iface(QFutureInterfaceBase::get(m_fileWatcher->future()));
    FileResult r = iface.resultReference(index);
    m_pending.append(r);
    m_results[size_t(index)] = std::move(r);
    ++m_done;
    // Flush by elapsed time, not only by the timer: while result events keep arriving, the
    // event loop may not get round to the timer until the queue is empty.
    if (m_sinceFlush.elapsed() >= kFlushIntervalMs)
        flushPending();
    else if (!m_flushTimer.isActive())
        m_flushTimer.start();
}

void AnalysisController::flushPending() {
    m_sinceFlush.start();
    if (!m_pending.isEmpty()) {
        const QList<FileResult> batch = std::exchange(m_pending, {});
        emit filesAnalyzed(batch);
    }
    if (!m_sinceProgress.isValid() || m_sinceProgress.elapsed() >= kProgressIntervalMs ||
        m_done == int(m_results.size())) {
        m_sinceProgress.start();
        emit progress(m_done, int(m_results.size()));
    }
}

void AnalysisController::onFilesDone(int generation) {
    if (generation != m_generation)
        return;
    // Pick up results whose resultReadyAt was not delivered (e.g. right before a cancel).
    if (m_fileWatcher) {
        const QFuture<FileResult> f = m_fileWatcher->future();
        for (int i = 0; i < int(m_results.size()); ++i)
            if (!m_results[size_t(i)] && f.isResultReadyAt(i))
                onResultReady(i);
    }
    m_flushTimer.stop();
    flushPending();
    emit progress(m_done, int(m_results.size())); // the last count, also after a cancel
    const bool cancelled = m_cancelRequested || m_done < int(m_results.size());
    // Scan order, as the command line's blocking analysis returns them: same merge input.
    QList<FileResult> files;
    files.reserve(m_done);
    for (auto& r : m_results)
        if (r)
            files.append(*r);
    const QString root = m_scan.root;
    const QList<FileDiagnostic> diags = m_scan.diagnostics;
    auto* mergeWatcher = new QFutureWatcher<ProjectResult>(this);
    connect(mergeWatcher, &QFutureWatcherBase::finished, this,
            [this, mergeWatcher, generation, cancelled] {
                mergeWatcher->deleteLater();
                ProjectResult p = mergeWatcher->result();
                p.cancelled = p.cancelled || cancelled;
                finishWith(generation, std::move(p));
            });
    mergeWatcher->setFuture(
        QtConcurrent::run(&m_pool, [root, files = std::move(files), diags]() mutable {
            return mergeFileResults(root, std::move(files), diags);
        }));
}

void AnalysisController::finishWith(int generation, ProjectResult project) {
    if (generation != m_generation)
        return;
    m_running = false;
    m_lastDurationMs = m_clock.elapsed();
    m_results.clear();
    emit finished(project);
}

} // namespace cnready::ui
