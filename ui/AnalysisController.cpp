#include "AnalysisController.h"

#include "analysis/FileAnalyzer.h"
#include "analysis/MemoryBudget.h"
#include "analysis/ProjectAnalyzer.h"

#include <QDir>
#include <QFileInfo>
#include <QThread>
#include <QtConcurrent/QtConcurrentRun>

namespace cnready::ui {

namespace {
// Results are handed to the GUI at most this often (ms): a project of thousands of small files
// would otherwise post one model update per file, and each batch costs an insert into the
// sorted table and a repaint of its scroll bar.
constexpr int kFlushIntervalMs = 150;
// The first findings go out sooner: a user opening a project should see results at once.
constexpr int kFirstFlushMs = 50;
// The progress bar is repainted at most this often (ms): each repaint of a Fusion progress bar
// hands its fills to Qt's raster helper threads and waits for them, which on a busy machine
// costs the GUI thread a scheduling round each time.
constexpr int kProgressIntervalMs = 200;
} // namespace

AnalysisController::AnalysisController(QObject* parent) : QObject(parent) {
    // A private pool: the global one must stay free for Qt's own helpers (the raster paint
    // engine splits large fills over it and waits for them). One thread per core.
    m_pool.setMaxThreadCount(QThread::idealThreadCount());
    m_flushTimer.setSingleShot(true);
    m_flushTimer.setInterval(kFlushIntervalMs);
    connect(&m_flushTimer, &QTimer::timeout, this, &AnalysisController::flushPending);
}

AnalysisController::~AnalysisController() {
    // Workers only compute values; cancelling lets the pool drain quickly on exit. They post
    // to this object, so it must outlive them: wait here, not in the pool's destructor.
    if (m_stream)
        m_stream->cancelled = true;
    m_pool.waitForDone();
}

void AnalysisController::start(const QString& path) {
    if (m_running)
        cancel();
    if (m_stream) {
        m_stream->cancelled = true; // its late results carry an old generation: ignored
        m_stream.reset();
    }
    const int generation = ++m_generation;
    m_running = true;
    m_updating = false;
    m_keptRoot.clear();
    m_cancelRequested = false;
    m_scan = ScanResult{};
    m_results.clear();
    m_pending.clear();
    m_done = 0;
    m_sinceProgress.invalidate();
    m_flushed = false;
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
    if (m_stream)
        m_stream->cancelled = true;
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
    auto stream = std::make_shared<FileStream>();
    stream->root = m_scan.root;
    stream->files = m_scan.files;
    m_stream = stream;
    // One task per pool thread; each takes the next file until none is left (or cancelled).
    const int workers = qBound(1, m_pool.maxThreadCount(), int(m_scan.files.size()));
    stream->running = workers;
    for (int w = 0; w < workers; ++w)
        m_pool.start([this, stream, generation] { runWorker(stream, generation); });
}

void AnalysisController::runWorker(const std::shared_ptr<FileStream>& stream, int generation) {
    const int count = int(stream->files.size());
    while (!stream->cancelled) {
        const int i = stream->next.fetch_add(1);
        if (i >= count)
            break;
        FileResult r = analyzeFile(stream->root, stream->files.at(i), {}, &stream->budget);
        {
            QMutexLocker lock(&stream->mutex);
            stream->ready.append({i, std::move(r)});
        }
        // One queued call per drain, not per file: the GUI takes everything ready at once.
        if (!stream->notified.exchange(true))
            QMetaObject::invokeMethod(
                this, [this, generation] { drain(generation); }, Qt::QueuedConnection);
    }
    if (stream->running.fetch_sub(1) == 1)
        QMetaObject::invokeMethod(
            this, [this, generation] { onFilesDone(generation); }, Qt::QueuedConnection);
}

void AnalysisController::drain(int generation) {
    if (generation != m_generation || !m_stream)
        return;
    // Cleared before taking the list: a file appended after this point posts a new drain.
    m_stream->notified = false;
    QList<std::pair<int, FileResult>> ready;
    {
        QMutexLocker lock(&m_stream->mutex);
        ready.swap(m_stream->ready);
    }
    for (auto& [index, result] : ready) {
        if (index < 0 || size_t(index) >= m_results.size() || m_results[size_t(index)])
            continue;
        m_pending.append(result);
        m_results[size_t(index)] = std::move(result);
        ++m_done;
    }
    // Flush by elapsed time, not only by the timer: while drains keep arriving, the event loop
    // may not get round to the timer until the queue is empty.
    const int interval = m_flushed ? kFlushIntervalMs : kFirstFlushMs;
    if (m_sinceFlush.elapsed() >= interval)
        flushPending();
    else if (!m_pending.isEmpty() && !m_flushTimer.isActive())
        m_flushTimer.start(int(interval - m_sinceFlush.elapsed()));
}

void AnalysisController::flushPending() {
    m_sinceFlush.start();
    if (!m_pending.isEmpty()) {
        const QList<FileResult> batch = std::exchange(m_pending, {});
        m_flushed = true;
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
    drain(generation); // every worker has finished: whatever is still queued
    m_stream.reset();
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
                if (generation == m_generation && !p.cancelled)
                    m_keptRoot = m_scan.root;
                finishWith(generation, std::move(p));
            });
    mergeWatcher->setFuture(QtConcurrent::run(
        &m_pool, [kept = m_kept, scan = m_scan, files = std::move(files), cancelled]() mutable {
            QMutexLocker lock(&kept->mutex);
            if (cancelled) {
                kept->project.clear(); // a partial analysis is no base for an update
                return mergeFileResults(scan.root, std::move(files), scan.diagnostics);
            }
            // The command line's second look at files whose parameters the project decides,
            // with the summaries kept for watch mode's updates.
            return kept->project.adopt(scan, std::move(files));
        }));
}

bool AnalysisController::update(const QStringList& paths) {
    if (m_running || m_keptRoot.isEmpty() || m_keptRoot != m_scan.root)
        return false;
    const QFileInfo rootInfo(m_scan.root);
    // A one-file project: its root is the folder holding it.
    const QDir dir(rootInfo.isDir() ? m_scan.root : rootInfo.absolutePath());
    const QSet<QString> listed(m_scan.files.cbegin(), m_scan.files.cend());
    QStringList changed;
    bool rescan = false;
    for (const QString& p : paths) {
        const QString rel = dir.relativeFilePath(p);
        if (listed.contains(rel) && !QFileInfo(p).isDir())
            changed << rel;
        else
            rescan = true; // a folder changed, or a file the scan did not list
    }
    const int generation = ++m_generation;
    m_running = true;
    m_updating = true;
    m_cancelRequested = false;
    m_clock.start();
    struct Outcome {
        ScanResult scan;
        bool scanChanged = false;
        ProjectResult project;
        IncrementalProject::UpdateStats stats;
    };
    auto* watcher = new QFutureWatcher<Outcome>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        if (generation != m_generation)
            return;
        Outcome out = watcher->result();
        if (out.scanChanged) {
            m_scan = out.scan;
            emit scanFinished(m_scan);
        }
        m_lastUpdateMs = m_clock.elapsed();
        m_lastUpdateStats = out.stats;
        finishWith(generation, std::move(out.project));
    });
    watcher->setFuture(QtConcurrent::run(
        &m_pool, [kept = m_kept, scan = m_scan, changed, rescan, path = m_scan.root] {
            QMutexLocker lock(&kept->mutex);
            Outcome out;
            out.scan = scan;
            if (rescan) {
                ScanResult now = scanProject({path});
                // The files that went missing leave the project; a missing root empties it.
                out.scanChanged = now.files != scan.files;
                out.scan = std::move(now);
            }
            out.project = kept->project.update(out.scan, changed, &out.stats);
            return out;
        }));
    return true;
}

void AnalysisController::finishWith(int generation, ProjectResult project) {
    if (generation != m_generation)
        return;
    m_running = false;
    if (!std::exchange(m_updating, false))
        m_lastDurationMs = m_clock.elapsed();
    m_results.clear();
    emit finished(project);
}

} // namespace cnready::ui
