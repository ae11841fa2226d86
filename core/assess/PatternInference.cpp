#include "assess/Assessment.h"

#include "assess/AssessInternals.h"
#include "assess/GpuCatalog.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <tuple>

namespace cnready::assessment {

const QStringList& passingPatterns() {
    static const QStringList p = {QStringLiteral("stencil"),     QStringLiteral("gemm"),
                                  QStringLiteral("reduction"),   QStringLiteral("elementwise"),
                                  QStringLiteral("monte-carlo"), QStringLiteral("fft")};
    return p;
}
const QStringList& failingPatterns() {
    static const QStringList p = {QStringLiteral("sparse"), QStringLiteral("graph"),
                                  QStringLiteral("ml"), QStringLiteral("string"),
                                  QStringLiteral("sequential")};
    return p;
}

QString patternLabel(const QString& p) {
    static const QHash<QString, QString> labels = {
        {QStringLiteral("stencil"), QStringLiteral("stencil on a regular grid")},
        {QStringLiteral("gemm"), QStringLiteral("dense linear algebra (GEMM)")},
        {QStringLiteral("reduction"), QStringLiteral("reductions over large arrays")},
        {QStringLiteral("elementwise"), QStringLiteral("vectorized elementwise pipeline")},
        {QStringLiteral("monte-carlo"), QStringLiteral("Monte Carlo sampling")},
        {QStringLiteral("fft"), QStringLiteral("FFT")},
        {QStringLiteral("sparse"), QStringLiteral("sparse matrices")},
        {QStringLiteral("graph"), QStringLiteral("graph algorithm")},
        {QStringLiteral("ml"), QStringLiteral("ML training / inference")},
        {QStringLiteral("string"), QStringLiteral("string processing / NLP")},
        {QStringLiteral("sequential"), QStringLiteral("sequential recurrence")},
        {QStringLiteral("scipy-mixed"),
         QStringLiteral("mixed: array math plus heavy SciPy/sklearn")},
    };
    return labels.value(p, p);
}

} // namespace cnready::assessment

namespace cnready {

using namespace assessment;

// ---- pattern inference ---------------------------------------------------------------------

QString inferPattern(const ProjectResult& project, QList<PatternScore>* scoresOut,
                     QString* setAside) {
    // One candidate per evidence line, by reference: a big tree has ~200k of them and only
    // three per pattern are kept.
    struct Candidate {
        int weight;
        bool hot;
        const PatternEvidence* evidence;
    };
    QMap<QString, PatternScore> scores;
    QHash<QString, std::vector<Candidate>> weighted;
    // Regex text handling in a file that never imports NumPy (a config or command-line
    // parser next to the array code) is off the array path: it is not what a port would
    // run on GPUs, and a loop there is not a hot path of array work, so it is not doubled.
    // It still names the workload when the project has little array work besides (a
    // tokenizer feeding a few small NumPy steps): see offArrayAside below.
    QHash<QString, int> offScore, offSites; // per failing pattern
    int offTotal = 0;
    const PatternEvidence* offFirst = nullptr;
    for (const FileResult& f : project.files) {
        if (f.isTest)
            continue;
        const bool arrayFile =
            std::any_of(f.imports.cbegin(), f.imports.cend(), [](const QString& i) {
                return i == QLatin1String("numpy") || i == QLatin1String("cupynumeric");
            });
        for (const PatternEvidence& e : f.patternEvidence) {
            const bool off = !arrayFile && e.pattern == QLatin1String("string") &&
                             e.note.startsWith(QLatin1String("re."));
            const bool hot = !off && (e.hot || isHotFunction(project, f.moduleName, e.function));
            const int w = std::max(1, e.weight) * (hot ? 2 : 1);
            PatternScore& s = scores[e.pattern];
            s.pattern = e.pattern;
            s.score += w;
            ++s.sites;
            weighted[e.pattern].push_back({w, hot, &e});
            if (off) {
                offScore[e.pattern] += w;
                ++offSites[e.pattern];
                offTotal += w;
                if (!offFirst)
                    offFirst = &e;
            }
        }
    }
    // Heaviest first, then by location; the earliest candidate wins a tie.
    const auto before = [](const Candidate& a, const Candidate& b) {
        if (a.weight != b.weight)
            return a.weight > b.weight;
        if (const int c = QString::compare(a.evidence->range.path, b.evidence->range.path))
            return c < 0;
        return a.evidence->range.line < b.evidence->range.line;
    };
    QList<PatternScore> list;
    for (auto it = scores.begin(); it != scores.end(); ++it) {
        const std::vector<Candidate>& ev = weighted[it.key()];
        // The three best candidates on distinct source lines (one line per source line).
        std::vector<const Candidate*> taken;
        while (it->top.size() < 3) {
            const Candidate* best = nullptr;
            for (const Candidate& c : ev) {
                const bool seen = std::any_of(taken.begin(), taken.end(), [&](const Candidate* t) {
                    return t->evidence->range.line == c.evidence->range.line &&
                           t->evidence->range.path == c.evidence->range.path;
                });
                if (!seen && (!best || before(c, *best)))
                    best = &c;
            }
            if (!best)
                break;
            taken.push_back(best);
            PatternEvidence copy = *best->evidence;
            copy.hot = best->hot;
            it->top << copy;
        }
        list << *it;
    }
    std::stable_sort(list.begin(), list.end(), [](const PatternScore& a, const PatternScore& b) {
        return std::make_tuple(-a.score, a.pattern) < std::make_tuple(-b.score, b.pattern);
    });
    if (scoresOut)
        *scoresOut = list;

    // A failing pattern decides only with enough evidence behind it: at least two lines, or
    // one whole-algorithm shape (a recurrence or a frontier loop, weight >= 4). One incidental
    // call (a `re.match` parsing /proc/cpuinfo in a loop) says nothing about where the work
    // is; it stays in the scores but is set aside for the decision.
    // Off-array evidence is set aside when the text handling is confined to files without
    // arrays (the NumPy files do none themselves) and the array work (passing and SciPy-mixed
    // scores) weighs at least as much: it is then plumbing around the array program. Text work
    // in the NumPy files too (pythran's spec.py) makes the rest of it part of the same workload.
    int arrayWork = 0;
    for (const PatternScore& s : list)
        if (!failingPatterns().contains(s.pattern))
            arrayWork += s.score;
    bool textInArrayFiles = false;
    for (const PatternScore& s : list)
        textInArrayFiles = textInArrayFiles ||
                           (offScore.contains(s.pattern) && s.score > offScore.value(s.pattern));
    const bool offArrayAside = offTotal > 0 && !textInArrayFiles && arrayWork >= offTotal;
    auto thin = [&](const PatternScore& s) {
        if (s.sites >= 2)
            return false;
        return std::none_of(weighted[s.pattern].begin(), weighted[s.pattern].end(),
                            [](const Candidate& c) { return c.evidence->weight >= 4; });
    };
    auto decide = [&](bool setAsideThin) -> QString {
        int passing = 0, failing = 0, mixed = 0;
        QString bestPassing, bestFailing;
        // Failing patterns in order of the score they keep after setting aside.
        std::vector<std::pair<int, QString>> failingKept;
        for (const PatternScore& s : list) { // best first
            if (passingPatterns().contains(s.pattern)) {
                passing += s.score;
                if (bestPassing.isEmpty())
                    bestPassing = s.pattern;
            } else if (failingPatterns().contains(s.pattern)) {
                PatternScore kept = s;
                if (setAsideThin && offArrayAside) {
                    kept.score -= offScore.value(s.pattern);
                    kept.sites -= offSites.value(s.pattern);
                }
                if (kept.score <= 0 || (setAsideThin && thin(kept)))
                    continue;
                failing += kept.score;
                failingKept.emplace_back(-kept.score, s.pattern);
            } else {
                mixed += s.score;
            }
        }
        if (!failingKept.empty())
            bestFailing = std::min_element(failingKept.begin(), failingKept.end())->second;
        if (passing + failing + mixed == 0)
            return {};
        if (failing > 0 && failing >= passing)
            return bestFailing;
        if (failing + mixed > 0 && 2 * (failing + mixed) >= passing)
            return QStringLiteral("scipy-mixed");
        return bestPassing;
    };
    const QString chosen = decide(true);
    if (setAside) {
        setAside->clear();
        // Explain the thin evidence only where it would have changed the answer.
        if (const QString naive = decide(false); naive != chosen) {
            int allSites = 0;
            for (const PatternScore& s : list)
                allSites += s.sites;
            QStringList parts;
            if (offArrayAside)
                parts << QStringLiteral("%1 comes only from files that never import NumPy "
                                        "(`%2` %3; score %4 against array work %5): text "
                                        "handling beside the array code is not the workload, so "
                                        "it is set aside")
                             .arg(patternLabel(offFirst->pattern), offFirst->range.toString(),
                                  offFirst->note)
                             .arg(offTotal)
                             .arg(arrayWork);
            QStringList thinParts;
            for (const PatternScore& s : list) {
                PatternScore kept = s;
                if (offArrayAside)
                    kept.sites -= offSites.value(s.pattern); // those are explained above
                if (!failingPatterns().contains(s.pattern) || kept.sites <= 0 || !thin(kept))
                    continue;
                const PatternEvidence& e = s.top.value(0);
                thinParts << QStringLiteral("%1 rests on one line of %2 (`%3` %4%5)")
                                 .arg(patternLabel(s.pattern))
                                 .arg(allSites)
                                 .arg(e.range.toString(), e.note,
                                      e.hot ? QStringLiteral(", in a loop") : QString());
            }
            if (!thinParts.isEmpty())
                parts << thinParts.join(QStringLiteral("; ")) +
                             QStringLiteral(": one incidental line does not name the workload, "
                                            "so it is set aside");
            *setAside = parts.join(QStringLiteral("; "));
        }
    }
    return chosen;
}

} // namespace cnready
