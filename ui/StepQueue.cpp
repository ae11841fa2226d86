#include "StepQueue.h"

namespace cnready::ui {

StepQueue::StepQueue(QObject* parent) : QObject(parent) {
    m_timer.setSingleShot(true);
    m_timer.setInterval(0);
    connect(&m_timer, &QTimer::timeout, this, &StepQueue::runNext);
}

void StepQueue::runLater(std::function<void()> step) {
    m_steps.append(std::move(step));
    if (!m_timer.isActive())
        m_timer.start();
}

void StepQueue::runNext() {
    if (m_steps.isEmpty())
        return;
    const std::function<void()> step = m_steps.takeFirst();
    // Restarted before the step runs: a step may queue more, or start an analysis that clears
    // the queue (the timer then finds it empty).
    if (!m_steps.isEmpty())
        m_timer.start();
    step();
}

} // namespace cnready::ui
