#pragma once
// Private to core/assess: the pieces Assessment.cpp puts together, one concern per file:
// PatternInference.cpp (the pattern names and inferPattern()), Context.cpp (resolveContext()),
// gates/Gate*.cpp (one gate each; Gate6Readiness.cpp also scans launch scripts), ApiGaps.cpp
// (the API-gap list), PilotAndEntry.cpp (pilot module and entry script), Honesty.cpp and
// VerdictList.cpp. Public entry points are in Assessment.h.

#include "assess/Assessment.h"

#include <QList>
#include <QSet>
#include <QString>
#include <QStringList>

namespace cnready::assessment {

/// Patterns that pass / fail Gate 4 (decision-framework.md, Gate 4 table).
const QStringList& passingPatterns();
const QStringList& failingPatterns();
/// Reader's label of a pattern key ("gemm" -> "dense linear algebra (GEMM)"); the key itself
/// when unknown.
QString patternLabel(const QString& p);
/// Whether `module.function` is on the project's hot path; false for an empty function.
bool isHotFunction(const ProjectResult& project, const QString& module, const QString& function);
/// A source range as inline code: "`path:line`".
QString loc(const SourceRange& r);

/// Gate 1 (hardware) from the resolved context.
Gate hardwareGate(const Context& c);
/// Gate 2 (problem size per GPU) from the resolved context.
Gate sizeGate(const Context& c);
/// Gate 4 (compute pattern) from the resolved context.
Gate patternGate(const Context& c);
/// Gate 5 (boundary cost) from the project's host touchpoints.
Gate boundaryGate(const QList<ResolvedTouchpoint>& tps);
/// Gate 6 (operational readiness) from the readiness hints and the chosen entry script.
Gate readinessGate(const QList<ReadinessHint>& hints, const Context& c, const QString& entryScript);

/// The API-gap list: every ✗ / 🟡 / single-GPU NumPy call outside test modules, with its
/// locations, compute-path and hot-path flags, and a supported rewrite (ApiGaps.cpp).
/// `nodes` > 1 makes single-GPU APIs on the hot path material.
QList<ApiGap> apiGaps(const ProjectResult& project, const Manifest& manifest, int nodes);
/// The script the Doctor hand-off runs: an entry script of the workload, never a test, demo or
/// data generator; "" when none (PilotAndEntry.cpp).
QString chooseEntryScript(const ProjectResult& project);
/// The pilot module (a.pilotModule, a.pilotReason) from the counted findings, with the same
/// exclusions (PilotAndEntry.cpp).
void choosePilot(const ProjectResult& project, const FindingSelection& findings, Assessment& a);
/// What the verdict rests on (PRODUCT.md, "Honesty of the verdict"), after the verdict list
/// has run: fills a.unreadCode, a.verdictBelowFloor and a.onlyTestFindings and adds their
/// sentences to a.rationale (Honesty.cpp). `testPaths` are the project's test modules.
void stateBasis(const ProjectResult& project, const QSet<QString>& testPaths, Assessment& a);

} // namespace cnready::assessment
