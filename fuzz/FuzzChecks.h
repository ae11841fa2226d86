#pragma once
// The invariants the libFuzzer target checks on every input, shared with the ctest that replays
// fuzz/regressions/ in the normal build (tests/robustness/tst_fuzz_regressions.cpp).

#include "analysis/FileAnalyzer.h"

#include <QByteArray>
#include <QString>

#include <thread>

namespace cnready::fuzz {

/// The path every fuzz input is analyzed as (inside a package, so module names are exercised).
inline QString inputPath() {
    return QStringLiteral("pkg/input.py");
}

/// "path:line:column-endLine:endColumn".
inline QByteArray describe(const SourceRange& r) {
    return QStringLiteral("%1:%2:%3-%4:%5")
        .arg(r.path)
        .arg(r.line)
        .arg(r.column)
        .arg(r.endLine)
        .arg(r.endColumn)
        .toUtf8();
}

/// Everything a report can show from one file, one line per item: equal texts mean equal
/// reports, and a differing line shows what changed.
inline QByteArray describe(const FileResult& r) {
    QByteArray out = "lines " + QByteArray::number(r.lines) + " bytes " +
                     QByteArray::number(r.bytes) + " module " + r.moduleName.toUtf8() + " test " +
                     QByteArray::number(r.isTest) + " entry " +
                     QByteArray::number(r.isEntryScript) + '\n';
    for (const Finding& f : r.findings)
        out += "finding " + f.code.toUtf8() + ' ' + QByteArray::number(int(f.category)) + ' ' +
               describe(f.range) + " fn=" + f.function.toUtf8() +
               " hot=" + QByteArray::number(f.hot) +
               " req=" + f.requiresHotFunction.str().toUtf8() + " msg=" + f.message.toUtf8() +
               " snippet=" + f.snippet.toUtf8() + '\n';
    for (const FileDiagnostic& d : r.diagnostics)
        out += "diagnostic " + QByteArray::number(int(d.kind)) + ' ' + describe(d.range) + ' ' +
               d.message.toUtf8() + '\n';
    for (const ApiUse& u : r.apiUses)
        out += "api " + u.name.toUtf8() + ' ' + describe(u.range) + " fn=" + u.function.toUtf8() +
               " hot=" + QByteArray::number(u.hot) +
               " req=" + u.requiresHotFunction.str().toUtf8() + '\n';
    for (const SizeHint& h : r.sizeHints)
        out += "size " + QByteArray::number(h.elements) + ' ' + describe(h.range) + ' ' +
               h.expression.toUtf8() + " feeds=" + QByteArray::number(h.feedsArray) +
               " literal=" + QByteArray::number(h.literal) +
               " named=" + QByteArray::number(h.sizeNamed) + '\n';
    for (const PatternEvidence& p : r.patternEvidence)
        out += "pattern " + p.pattern.toUtf8() + ' ' + describe(p.range) + ' ' + p.note.toUtf8() +
               " hot=" + QByteArray::number(p.hot) + " weight=" + QByteArray::number(p.weight) +
               " fn=" + p.function.toUtf8() + '\n';
    for (const HostTouchpoint& t : r.touchpoints)
        out += "touch " + t.kind.toUtf8() + ' ' + describe(t.range) + ' ' + t.note.toUtf8() +
               " fn=" + t.function.toUtf8() + " hot=" + QByteArray::number(t.hot) + '\n';
    for (const ReadinessHint& h : r.readiness)
        out += "ready " + h.kind.toUtf8() + ' ' + describe(h.range) + ' ' + h.note.toUtf8() + '\n';
    for (const FunctionInfo& f : r.functions)
        out += "function " + f.qualifiedName.toUtf8() + ' ' + describe(f.range) +
               " array=" + QByteArray::number(f.returnsArray) + '\n';
    for (const CallSite& c : r.calls)
        out += "call " + c.caller.toUtf8() + " -> " + c.callee.toUtf8() + ':' +
               QByteArray::number(c.line) + " loop=" + QByteArray::number(c.inLoop) + '\n';
    out += "imports " + r.imports.join(QLatin1Char(',')).toUtf8() + '\n';
    return out;
}

/// Empty when `r`, the analysis of `bytes` as inputPath(), keeps every invariant; otherwise
/// the broken invariant's name followed by the whole result.
inline QByteArray brokenInvariant(const QByteArray& bytes, const FileResult& r) {
    // Lines are 1-based; a file-wide diagnostic uses line 0. An end one past the last line is
    // allowed (a range ending at the file's final newline).
    const int lastLine = r.lines + 1;
    auto inFile = [&](const SourceRange& s) {
        return s.path == r.path && s.line >= 1 && s.line <= lastLine && s.endLine >= s.line &&
               s.endLine <= lastLine && s.column >= 1 && s.endColumn >= 1 &&
               (s.endLine > s.line || s.endColumn >= s.column);
    };
    const char* broken = nullptr;
    if (r.path != inputPath())
        broken = "path kept";
    else if (r.bytes != qint64(bytes.size()))
        broken = "byte count";
    else if (r.lines < 0)
        broken = "line count";
    for (const Finding& f : r.findings)
        if (!broken && !inFile(f.range))
            broken = "finding inside the file";
    for (const ApiUse& u : r.apiUses)
        if (!broken && !inFile(u.range))
            broken = "API use inside the file";
    for (const SizeHint& h : r.sizeHints)
        if (!broken && !inFile(h.range))
            broken = "size hint inside the file";
    for (const PatternEvidence& p : r.patternEvidence)
        if (!broken && !inFile(p.range))
            broken = "pattern evidence inside the file";
    for (const HostTouchpoint& t : r.touchpoints)
        if (!broken && !inFile(t.range))
            broken = "host touchpoint inside the file";
    for (const FunctionInfo& f : r.functions)
        if (!broken && !inFile(f.range))
            broken = "function inside the file";
    for (const CallSite& c : r.calls)
        if (!broken && (c.line < 1 || c.line > lastLine))
            broken = "call site inside the file";
    for (const FileDiagnostic& d : r.diagnostics) {
        if (!broken && (d.range.path != r.path || d.range.line < 0 || d.range.line > lastLine))
            broken = "diagnostic line in file";
        if (!broken && d.message.isEmpty())
            broken = "diagnostic message";
    }
    if (!broken)
        return {};
    return QByteArray(broken) + '\n' + describe(r);
}

/// Analyzes `bytes` as inputPath() on a new thread, i.e. with a parser that has never seen
/// another input: the reference that a result on a reused thread must equal.
inline FileResult analyzeOnFreshThread(const QByteArray& bytes) {
    FileResult r;
    std::thread([&] { r = analyzeSource(inputPath(), bytes); }).join();
    return r;
}

/// Empty when analyzing `bytes` on this thread (whatever it analyzed before) keeps every
/// invariant and equals the analysis on a fresh thread; otherwise what broke, with details.
inline QByteArray checkInput(const QByteArray& bytes) {
    const FileResult here = analyzeSource(inputPath(), bytes);
    const QByteArray broken = brokenInvariant(bytes, here);
    if (!broken.isEmpty())
        return broken;
    const QByteArray first = describe(here);
    const QByteArray fresh = describe(analyzeOnFreshThread(bytes));
    if (first != fresh)
        return "same result on a fresh thread (state kept between inputs?)\nthis thread:\n" +
               first + "fresh thread:\n" + fresh;
    return {};
}

} // namespace cnready::fuzz
