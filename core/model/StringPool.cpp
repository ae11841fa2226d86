#include "model/StringPool.h"

#include <QMutexLocker>

namespace cnready {

void StringPool::intern(QString& s) {
    if (s.isEmpty())
        return;
    const auto it = m_strings.constFind(s);
    if (it != m_strings.cend()) {
        s = *it;
        return;
    }
    // Strings cut from a longer one (trimmed lines, arg() results) may keep the longer block.
    if (s.capacity() > s.size())
        s.squeeze();
    m_strings.insert(s);
}

void StringPool::intern(CompactString& s) {
    if (s.isEmpty())
        return;
    QString t = s.str();
    intern(t);
    s = t; // shares the pool's instance
}

void StringPool::compact(FileResult& r) {
    // One lock per file: a file's strings are few hundred, and two or four workers rarely
    // finish a file at the same moment.
    const QMutexLocker lock(&m_mutex);
    intern(r.path);
    intern(r.moduleName);
    for (QList<Finding>* list : {&r.findings, &r.offComputePath})
        for (Finding& f : *list) {
            intern(f.code);
            intern(f.range.path);
            intern(f.function);
            intern(f.message);
            intern(f.snippet);
            intern(f.requiresHotFunction);
            if (SiteTexts* t = f.work.texts.edit())
                t->forEach([this](CompactString& text) { intern(text); });
        }
    for (ApiUse& u : r.apiUses) {
        intern(u.name);
        intern(u.range.path);
        intern(u.function);
        intern(u.requiresHotFunction);
    }
    for (SizeHint& h : r.sizeHints) {
        intern(h.expression);
        intern(h.range.path);
    }
    for (PatternEvidence& e : r.patternEvidence) {
        intern(e.pattern);
        intern(e.range.path);
        intern(e.note);
        intern(e.function);
    }
    for (HostTouchpoint& t : r.touchpoints) {
        intern(t.kind);
        intern(t.range.path);
        intern(t.note);
        intern(t.function);
    }
    for (ReadinessHint& h : r.readiness) {
        intern(h.kind);
        intern(h.range.path);
        intern(h.note);
    }
    for (FileDiagnostic& d : r.diagnostics) {
        intern(d.range.path);
        intern(d.message);
    }
    for (FunctionInfo& fn : r.functions) {
        intern(fn.qualifiedName);
        intern(fn.range.path);
    }
    for (CallSite& c : r.calls) {
        intern(c.caller);
        intern(c.callee);
    }
    for (QString& i : r.imports)
        intern(i);
    r.findings.squeeze();
    r.apiUses.squeeze();
    r.sizeHints.squeeze();
    r.patternEvidence.squeeze();
    r.touchpoints.squeeze();
    r.readiness.squeeze();
    r.diagnostics.squeeze();
    r.functions.squeeze();
    r.calls.squeeze();
    r.imports.squeeze();
}

qsizetype StringPool::size() const {
    const QMutexLocker lock(&m_mutex);
    return m_strings.size();
}

} // namespace cnready
