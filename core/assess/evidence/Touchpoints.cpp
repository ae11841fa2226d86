#include "assess/evidence/Collector.h"

namespace cnready::evidence {

// Receivers whose method calls are log calls (`logger.info(...)`).
bool isLoggerName(std::string_view s) {
    return s == "log" || s == "logger" || s == "LOGGER" || s == "LOG" || s == "_log" ||
           s == "_logger";
}

void Collector::touchpointsOfCall(const CallSite& c) {
    const TSNode call = c.call;
    const Where& w = c.w;
    const TSNode f = c.f;
    const QString& canonical = c.canonical;
    const CanonInfo& info = c.info;
    const bool loop = c.loop;
    const auto ftype = c.ftype;
    const bool attribute = c.attribute;
    // Host touchpoints (Gate 5).
    if (!out.isTest) {
        QString kind = info.touchpoint;
        QString note = canonical;
        if (kind.isEmpty() && ftype == "identifier") {
            const std::string_view name = t.text(f);
            if (name == "open" && !m_aliases.contains(QStringLiteral("open"))) {
                kind = QStringLiteral("io");
                note = QStringLiteral("open()");
            } else if (name == "print" && loop) {
                kind = QStringLiteral("logging");
                note = QStringLiteral("print() in a loop");
            }
        }
        if (kind.isEmpty() && loop &&
            (info.logging || (attribute && isLoggerName(t.text(field(f, F().object)))))) {
            kind = QStringLiteral("logging");
            note = QStringLiteral("%1 in a loop").arg(t.qtext(f));
        }
        if (!kind.isEmpty())
            out.touchpoints.append(
                HostTouchpoint{kind, rangeOf(call), note, scopeName(w.scope), loop});
    }

    // Operational readiness (Gate 6).
    if (out.isTest && info.goldenTest)
        out.readiness.append({QStringLiteral("golden-test"), rangeOf(call), canonical});
    if (info.benchmark)
        out.readiness.append({QStringLiteral("benchmark"), rangeOf(call), canonical});
}

} // namespace cnready::evidence
