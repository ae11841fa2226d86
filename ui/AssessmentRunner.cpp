#include "AssessmentRunner.h"

#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <utility>

namespace cnready::ui {

AssessmentRunner::AssessmentRunner(QThreadPool* pool, std::function<Inputs()> inputs,
                                   QObject* parent)
    : QObject(parent), m_pool(pool), m_inputs(std::move(inputs)) {}

void AssessmentRunner::reset() {
    ++m_generation;
    m_again = false;
    m_launchScripts.reset();
}

void AssessmentRunner::request() {
    if (m_watcher) {
        m_again = true; // picked up with the then current context when this one ends
        return;
    }
    // Gates and verdict from the kept ProjectResult: no Python file is read again. The launch
    // scripts are read once per analysis. Everything the job uses is a copy (implicitly
    // shared, read-only on both sides).
    auto* watcher = new QFutureWatcher<Outcome>(this);
    m_watcher = watcher;
    const int generation = m_generation;
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        if (m_watcher == watcher)
            m_watcher = nullptr;
        if (generation != m_generation) {
            // A new analysis started meanwhile: this result is for the old project, but the
            // new one may have asked for its assessment while this ran.
            if (std::exchange(m_again, false))
                emit rerunWanted();
            return;
        }
        Outcome out = watcher->result();
        m_launchScripts = std::move(out.launchScripts);
        if (std::exchange(m_again, false)) {
            // The context changed while this ran: its verdict is already stale.
            emit rerunWanted();
            return;
        }
        emit assessed(out.assessment);
    });
    watcher->setFuture(QtConcurrent::run(m_pool, [in = m_inputs(), scripts = m_launchScripts] {
        Outcome out;
        out.launchScripts = scripts ? *scripts : scanLaunchScripts(in.project.root);
        out.assessment = assess(in.project, in.context, in.manifest, out.launchScripts);
        return out;
    }));
}

Assessment AssessmentRunner::assessHere(const Inputs& in) {
    // The file must match the context on screen, even a change made a moment ago: compute it
    // here and drop the result of the run in flight (it is for an older context).
    ++m_generation;
    m_again = false;
    if (!m_launchScripts)
        m_launchScripts = scanLaunchScripts(in.project.root);
    return assess(in.project, in.context, in.manifest, *m_launchScripts);
}

} // namespace cnready::ui
