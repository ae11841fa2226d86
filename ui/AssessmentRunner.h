#pragma once
// Runs assess() (gates and verdict) off the GUI thread from the kept ProjectResult, one at a
// time: a request made while one runs is coalesced into one more run with the values current
// when it ends, and a result for an earlier analysis is dropped. The project's launch scripts
// (Gate 6) are read once per analysis and reused for every context change.

#include "assess/Assessment.h"
#include "manifest/Manifest.h"
#include "model/ProjectResult.h"

#include <QFutureWatcher>
#include <QObject>
#include <QPointer>

#include <functional>
#include <optional>

class QThreadPool;

namespace cnready::ui {

class AssessmentRunner : public QObject {
    Q_OBJECT
public:
    /// What one assessment reads, taken on the GUI thread when it starts.
    struct Inputs {
        ProjectResult project;
        ContextInput context;
        Manifest manifest;
    };
    /// `pool` runs the assessments (one thread: one at a time); `inputs` gives the values
    /// current at the moment a run starts.
    AssessmentRunner(QThreadPool* pool, std::function<Inputs()> inputs, QObject* parent);

    /// A new analysis started: the run in flight belongs to the previous project (its result
    /// is dropped) and the launch scripts are read again.
    void reset();
    /// Starts an assessment, or, while one runs, asks for one more when it ends
    /// (rerunWanted()).
    void request();
    /// An assessment is being computed.
    bool isRunning() const { return m_watcher != nullptr; }
    /// A run is in flight or one more is asked for: the result on screen is not the latest.
    bool isBehind() const { return m_watcher != nullptr || m_again; }
    /// Computes the assessment on the spot (blocking) and drops the run in flight (it is for
    /// older values): used before an export.
    Assessment assessHere(const Inputs& in);

signals:
    /// The latest assessment for the current analysis.
    void assessed(const cnready::Assessment& assessment);
    /// The values changed while a run was in flight: the owner requests again (after its own
    /// checks that there is something to assess).
    void rerunWanted();

private:
    struct Outcome {
        QList<ReadinessHint> launchScripts;
        Assessment assessment;
    };
    QThreadPool* m_pool;
    std::function<Inputs()> m_inputs;
    QPointer<QFutureWatcher<Outcome>> m_watcher;
    int m_generation = 0; ///< bumped by a new analysis: older assessments are dropped
    bool m_again = false; ///< the values changed while an assessment was running
    /// The project's launch scripts, read once per analysis (Gate 6) and reused on every
    /// context change.
    std::optional<QList<ReadinessHint>> m_launchScripts;
};

} // namespace cnready::ui
