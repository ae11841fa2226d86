#pragma once
// Work split into steps that run in later event-loop turns, one per turn and in order, so that
// input and painting get through between the pieces of a large project's end-of-analysis work.

#include <QObject>
#include <QTimer>

#include <functional>

namespace cnready::ui {

class StepQueue : public QObject {
    Q_OBJECT
public:
    explicit StepQueue(QObject* parent = nullptr);
    /// Runs `step` in a later turn, after the steps queued before it.
    void runLater(std::function<void()> step);
    /// Drops the steps still queued (a new analysis).
    void clear() { m_steps.clear(); }

private:
    void runNext();

    QList<std::function<void()>> m_steps;
    QTimer m_timer;
};

} // namespace cnready::ui
