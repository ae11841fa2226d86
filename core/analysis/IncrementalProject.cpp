#include "analysis/IncrementalProject.h"

#include "analysis/MemoryBudget.h"
#include "analysis/ProjectFacts.h"
#include "model/StringPool.h"

#include <QElapsedTimer>
#include <QSet>

#include <QtConcurrent/QtConcurrentMap>

#include <algorithm>
#include <numeric>

namespace cnready {

namespace {

// What the fact solver reads of a first pass, and nothing else (a big project keeps one per
// file for as long as it is watched).
FileResult summaryOf(const FileResult& r) {
    FileResult s;
    s.path = r.path;
    s.moduleName = r.moduleName;
    s.bytes = r.bytes;
    s.isTest = r.isTest;
    s.summaries = r.summaries;
    s.reexports = r.reexports;
    s.passedFunctions = r.passedFunctions;
    return s;
}

void dropSummaries(FileResult& r) {
    r.summaries = {};
    r.reexports = {};
    r.passedFunctions = {};
}

} // namespace

ProjectResult IncrementalProject::analyzeAll(const ScanResult& scan, const AnalyzerLimits& limits) {
    clear();
    m_root = scan.root;
    m_files = scan.files;
    m_scanDiags = scan.diagnostics;
    m_notRead = scan.notRead;
    m_limits = limits;
    QList<FileResult> first(scan.files.size());
    std::vector<qsizetype> indices(size_t(scan.files.size()));
    std::iota(indices.begin(), indices.end(), qsizetype(0));
    MemoryBudget budget(limits.concurrentAnalysisBytes);
    StringPool pool;
    FileResult* out = first.data();
    QtConcurrent::blockingMap(indices, [&](qsizetype i) {
        FileResult r = analyzeFile(m_root, m_files.at(i), m_limits, &budget);
        pool.compact(r);
        out[i] = std::move(r);
    });
    rebuild(std::move(first));
    return merged();
}

ProjectResult IncrementalProject::adopt(const ScanResult& scan, QList<FileResult> firstPass,
                                        const AnalyzerLimits& limits) {
    if (firstPass.size() != scan.files.size())
        return analyzeAll(scan, limits);
    clear();
    m_root = scan.root;
    m_files = scan.files;
    m_scanDiags = scan.diagnostics;
    m_notRead = scan.notRead;
    m_limits = limits;
    rebuild(std::move(firstPass));
    return merged();
}

void IncrementalProject::rebuild(QList<FileResult> firstPass) {
    m_summaries.clear();
    m_summaries.reserve(firstPass.size());
    for (const FileResult& r : std::as_const(firstPass))
        m_summaries.append(summaryOf(r));
    m_facts.assign(size_t(firstPass.size()), FileFacts{});
    for (FileResult& r : firstPass)
        dropSummaries(r);
    m_results = std::move(firstPass);
    resolveFacts({});
}

int IncrementalProject::resolveFacts(QHash<qsizetype, FileResult> fresh) {
    std::vector<FileFacts> now(size_t(m_summaries.size()));
    for (auto& [file, facts] : solveProjectFacts(m_summaries))
        now[size_t(file)] = std::move(facts);
    // Files whose facts moved need a second look (or a plain first pass again when they lost
    // all of theirs); a fresh file keeps its first pass when it has no facts.
    std::vector<qsizetype> again;
    int moved = 0;
    for (qsizetype i = 0; i < m_summaries.size(); ++i) {
        const auto f = fresh.find(i);
        if (f != fresh.end() && now[size_t(i)].isEmpty()) {
            m_results[i] = std::move(*f);
            dropSummaries(m_results[i]);
        } else if (f != fresh.end()) {
            again.push_back(i);
        } else if (now[size_t(i)] != m_facts[size_t(i)]) {
            again.push_back(i);
            ++moved;
        }
    }
    std::stable_sort(again.begin(), again.end(), [&](qsizetype a, qsizetype b) {
        return m_summaries[a].bytes > m_summaries[b].bytes;
    });
    MemoryBudget budget(m_limits.concurrentAnalysisBytes);
    FileResult* out = m_results.data();
    QtConcurrent::blockingMap(again, [&](qsizetype i) {
        const FileFacts& facts = now[size_t(i)];
        FileResult r = analyzeFile(m_root, m_files.at(i), m_limits, &budget,
                                   facts.isEmpty() ? nullptr : &facts);
        dropSummaries(r);
        out[i] = std::move(r);
    });
    m_facts = std::move(now);
    return moved;
}

ProjectResult IncrementalProject::update(const ScanResult& scan, const QStringList& changed,
                                         UpdateStats* stats) {
    UpdateStats st;
    if (!holds(scan.root)) {
        ProjectResult p = analyzeAll(scan, m_limits);
        st.analysed = int(scan.files.size());
        if (stats)
            *stats = st;
        return p;
    }
    QElapsedTimer clock;
    clock.start();
    // The kept entries by path, moved to the new scan's order.
    if (scan.files != m_files) {
        QHash<QString, qsizetype> old;
        for (qsizetype i = 0; i < m_files.size(); ++i)
            old.insert(m_files.at(i), i);
        QList<FileResult> summaries(scan.files.size()), results(scan.files.size());
        std::vector<FileFacts> facts(size_t(scan.files.size()));
        for (qsizetype i = 0; i < scan.files.size(); ++i) {
            const auto it = old.constFind(scan.files.at(i));
            if (it == old.cend())
                continue; // new: analysed below
            summaries[i] = std::move(m_summaries[*it]);
            results[i] = std::move(m_results[*it]);
            facts[size_t(i)] = std::move(m_facts[size_t(*it)]);
            old.erase(it);
        }
        st.removed = int(old.size());
        m_summaries = std::move(summaries);
        m_results = std::move(results);
        m_facts = std::move(facts);
        m_files = scan.files;
    }
    m_scanDiags = scan.diagnostics;
    m_notRead = scan.notRead;
    // Changed and new files: a first pass each (an empty path is a slot no kept entry filled).
    const QSet<QString> wanted(changed.cbegin(), changed.cend());
    std::vector<qsizetype> first;
    for (qsizetype i = 0; i < m_files.size(); ++i)
        if (wanted.contains(m_files.at(i)) || m_summaries.at(i).path.isEmpty())
            first.push_back(i);
    QList<FileResult> passes(qsizetype(first.size()));
    {
        std::vector<size_t> order(first.size());
        std::iota(order.begin(), order.end(), size_t(0));
        MemoryBudget budget(m_limits.concurrentAnalysisBytes);
        FileResult* out = passes.data();
        QtConcurrent::blockingMap(order, [&](size_t k) {
            out[k] = analyzeFile(m_root, m_files.at(first[k]), m_limits, &budget);
        });
    }
    QHash<qsizetype, FileResult> fresh;
    for (size_t k = 0; k < first.size(); ++k) {
        m_summaries[first[k]] = summaryOf(passes[qsizetype(k)]);
        fresh.insert(first[k], std::move(passes[qsizetype(k)]));
    }
    st.analysed = int(first.size());
    st.analyseMs = clock.restart();
    st.factsReanalysed = resolveFacts(std::move(fresh));
    st.factsMs = clock.restart();
    ProjectResult p = merged();
    st.mergeMs = clock.elapsed();
    if (stats)
        *stats = st;
    return p;
}

ProjectResult IncrementalProject::merged() const {
    // mergeFileResults moves each file's lists out of its copy: the kept results stay whole.
    ProjectResult p = mergeFileResults(m_root, m_results, m_scanDiags);
    p.notRead = m_notRead;
    return p;
}

ScanResult IncrementalProject::scan() const {
    ScanResult s;
    s.root = m_root;
    s.files = m_files;
    s.diagnostics = m_scanDiags;
    s.notRead = m_notRead;
    return s;
}

void IncrementalProject::clear() {
    m_root.clear();
    m_files.clear();
    m_scanDiags.clear();
    m_notRead.clear();
    m_summaries.clear();
    m_facts.clear();
    m_results.clear();
}

} // namespace cnready
