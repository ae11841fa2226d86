// The eight-section Markdown report (PRODUCT.md, "The report (structural contract)").
#include "report/Report.h"

#include "doctor/DoctorSummary.h"
#include "rules/Recipes.h"
#include "rules/RuleRegistry.h"

#include <QHash>
#include <QIODevice>
#include <QMap>
#include <QSet>

#include <algorithm>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

namespace cnready {

namespace {

// Table cells: no newlines, escaped pipes.
QString cell(QString s) {
    s.replace(QLatin1Char('\n'), QLatin1Char(' '));
    s.replace(QLatin1Char('|'), QStringLiteral("\\|"));
    return s;
}

QString ruleTitle(const Finding& f) {
    if (const Rule* r = RuleRegistry::instance().find(f.code))
        return r->info().title;
    return f.code;
}

QString findingText(const Finding& f) {
    return f.message.isEmpty() ? ruleTitle(f) : f.message;
}

QString where(const Finding& f) {
    return f.function.isEmpty() ? QStringLiteral("module level")
                                : QStringLiteral("`%1`").arg(f.function);
}

class Writer {
public:
    /// With a `sink`, the text goes out in ~1 MiB pieces and render() returns only the tail.
    explicit Writer(const ReportInput& in, QIODevice* sink = nullptr)
        : in(in), a(in.assessment), sink(sink) {}

    bool failed() const { return writeFailed; }

    QByteArray render() {
        title();
        verdict();
        scales();
        blocks();
        refactor();
        info();
        gaps();
        gates();
        next();
        flush();
        return s;
    }

private:
    const ReportInput& in;
    const Assessment& a;
    // Built in UTF-8 line by line: a report of 200k findings is ~30 MB, and a UTF-16 copy
    // (with its growth slack) plus the final conversion would hold three times that.
    QByteArray s;
    QIODevice* sink = nullptr;
    bool writeFailed = false;
    std::optional<QSet<QString>> testPaths; ///< built on first use by inTests()

    void flush() {
        if (!sink || s.isEmpty())
            return;
        if (!writeFailed && sink->write(s) != s.size())
            writeFailed = true;
        s.resize(0); // keeps the capacity for the next piece
    }

    void line(const QString& t = {}) {
        s += t.toUtf8();
        s += '\n';
        if (sink && s.size() >= (1 << 20))
            flush();
    }

    QString empty() const {
        return a.verdict == Verdict::NotRecommended && a.decidingRule <= 3
                   ? QStringLiteral("n/a — see verdict")
                   : QStringLiteral("None for this code");
    }

    void title() {
        const ProjectResult& p = in.project;
        line(QStringLiteral("# cuPyNumeric readiness: %1").arg(reportName(in)));
        line();
        // The same list as the provisional sentence of the verdict (Assessment::unreadCode):
        // one count in both places.
        const qsizetype unread = a.unreadPaths().size();
        const qsizetype notebooks =
            std::count_if(p.files.cbegin(), p.files.cend(),
                          [](const FileResult& f) { return isNotebookPath(f.path); });
        const bool allNotebooks = notebooks > 0 && notebooks == p.files.size();
        line(QStringLiteral("cnready %1 read %2 %3%6 (%4 lines) statically; paths below are "
                            "relative to the project root.%5")
                 .arg(QStringLiteral(CNREADY_VERSION))
                 .arg(p.files.size())
                 .arg(QString::fromLatin1(allNotebooks ? "notebook" : "Python file") +
                      (p.files.size() == 1 ? QString() : QStringLiteral("s")))
                 .arg(formatCount(p.totalLines))
                 .arg(unread == 0 ? QString()
                                  : QStringLiteral(" %1 could not be assessed fully (listed under "
                                                   "\"Files not fully read\"), so the verdict "
                                                   "is provisional.")
                                        .arg(unread == 1 ? QStringLiteral("1 file")
                                                         : QStringLiteral("%1 files").arg(unread)))
                 .arg(notebooks == 0 || allNotebooks ? QString()
                      : notebooks == 1               ? QStringLiteral(", 1 of them a notebook")
                                       : QStringLiteral(", %1 of them notebooks").arg(notebooks)));
        notReadLine();
        line();
        line(QStringLiteral("| Context | Value | Source | Evidence |"));
        line(QStringLiteral("|---|---|---|---|"));
        for (const ContextValue& r : a.context.rows)
            line(QStringLiteral("| %1 | %2 | %3 | %4 |")
                     .arg(cell(r.label), cell(r.value), provenanceLabel(r.provenance),
                          cell(r.evidence)));
        line();
        const Manifest& m = in.manifest;
        const QString fetched = m.fetched().isValid() ? m.fetched().date().toString(Qt::ISODate)
                                                      : QStringLiteral("unknown date");
        QString manifestLine =
            QStringLiteral("API-support manifest: %1 (%2), fetched %3")
                .arg(m.origin() == QLatin1String("bundled")
                         ? QStringLiteral("bundled snapshot")
                         : QStringLiteral("`%1`").arg(m.origin()),
                     m.source().isEmpty() ? QStringLiteral("no source") : m.source(), fetched);
        const int age = m.ageInDays(in.today);
        if (age >= 0 && in.today.isValid())
            manifestLine += QStringLiteral(", %1 before %2")
                                .arg(formatDayCount(age), in.today.toString(Qt::ISODate));
        line(manifestLine + QLatin1Char('.'));
        if (const QString stale = manifestAgeWarning(m, in.today); !stale.isEmpty()) {
            line();
            line(QStringLiteral("> **Warning:** ") + stale + QLatin1Char('.'));
        }
        const auto isSuppression = [](const FileDiagnostic& d) {
            return d.kind == FileDiagnostic::Kind::Suppression;
        };
        const auto diagnosticLine = [this](const FileDiagnostic& d) {
            line(QStringLiteral("- `%1` (%2): %3")
                     .arg(d.range.line > 0 ? d.range.toString() : d.range.path,
                          diagnosticKindName(d.kind), d.message));
        };
        if (!std::all_of(p.diagnostics.cbegin(), p.diagnostics.cend(), isSuppression)) {
            line();
            line(QStringLiteral("Files not fully read:"));
            line();
            for (const FileDiagnostic& d : p.diagnostics)
                if (!isSuppression(d))
                    diagnosticLine(d);
        }
        suppressions();
        line();
    }

    // Python-like files the scan met and cnready does not read (Cython, code templates): per
    // suffix a count and the first path, so a reader knows what the verdict cannot see.
    void notReadLine() {
        const QStringList& files = in.project.notRead;
        if (files.isEmpty())
            return;
        QMap<QString, QStringList> bySuffix;
        for (const QString& f : files) {
            const QString name = f.section(QLatin1Char('/'), -1).toLower();
            // ".py.in" and ".pyx.in" stay whole; ".py_" and ".pyx" are the last dot's part.
            const qsizetype dot =
                name.endsWith(QLatin1String(".in")) || name.endsWith(QLatin1String(".tmpl")) ||
                        name.endsWith(QLatin1String(".jinja")) ||
                        name.endsWith(QLatin1String(".mako"))
                    ? name.lastIndexOf(QLatin1Char('.'), name.lastIndexOf(QLatin1Char('.')) - 1)
                    : name.lastIndexOf(QLatin1Char('.'));
            bySuffix[name.mid(dot)] << f;
        }
        QStringList parts;
        for (auto it = bySuffix.cbegin(); it != bySuffix.cend(); ++it)
            parts << QStringLiteral("%1 `%2` (`%3`%4)")
                         .arg(it.value().size())
                         .arg(it.key(), it.value().first(),
                              it.value().size() == 1 ? QString() : QStringLiteral(", …"));
        line();
        line(QStringLiteral("%1 Python-like file%2 not read: %3. cnready parses `.py` files and "
                            "notebooks only, so code in Cython sources or generated from "
                            "templates is not in this verdict.")
                 .arg(files.size())
                 .arg(files.size() == 1 ? QStringLiteral(" was") : QStringLiteral("s were"))
                 .arg(parts.join(QStringLiteral(", "))));
    }

    // "2 findings suppressed": a suppressed finding is never silently dropped.
    void suppressions() {
        const ProjectResult& p = in.project;
        const bool warnings =
            std::any_of(p.diagnostics.cbegin(), p.diagnostics.cend(), [](const FileDiagnostic& d) {
                return d.kind == FileDiagnostic::Kind::Suppression;
            });
        if (p.suppressed.isEmpty() && !warnings && p.leftOutByConfig.isEmpty())
            return;
        line();
        if (!p.leftOutByConfig.isEmpty()) {
            QMap<QString, int> perCode;
            for (const Finding& f : p.leftOutByConfig)
                ++perCode[f.code];
            QStringList parts;
            for (auto it = perCode.cbegin(); it != perCode.cend(); ++it)
                parts << QStringLiteral("%1 ×%2").arg(it.key()).arg(it.value());
            line(QStringLiteral("%1 finding%2 left out by the `select`, `ignore` and "
                                "`per-file-ignores` settings of `%3` and out of the verdict: %4.")
                     .arg(p.leftOutByConfig.size())
                     .arg(p.leftOutByConfig.size() == 1 ? QString() : QStringLiteral("s"))
                     .arg(p.configFile, parts.join(QStringLiteral(", "))));
            if (!p.suppressed.isEmpty() || warnings)
                line();
        }
        if (!p.suppressed.isEmpty()) {
            QMap<QString, int> perCode;
            for (const Finding& f : p.suppressed)
                ++perCode[f.code];
            QStringList parts;
            for (auto it = perCode.cbegin(); it != perCode.cend(); ++it)
                parts << QStringLiteral("%1 ×%2").arg(it.key()).arg(it.value());
            line(QStringLiteral("%1 finding%2 suppressed by `# cnready: ignore[…]` or "
                                "`# noqa: …` comments in the code and left out of the verdict: "
                                "%3.")
                     .arg(p.suppressed.size())
                     .arg(p.suppressed.size() == 1 ? QString() : QStringLiteral("s"))
                     .arg(parts.join(QStringLiteral(", "))));
        }
        if (warnings) {
            if (!p.suppressed.isEmpty())
                line();
            line(QStringLiteral("Suppression comments cnready could not use:"));
            line();
            for (const FileDiagnostic& d : p.diagnostics)
                if (d.kind == FileDiagnostic::Kind::Suppression)
                    line(QStringLiteral("- `%1`: %2").arg(d.range.toString(), d.message));
        }
    }

    void verdict() {
        line(QStringLiteral("## Verdict"));
        line();
        line(QStringLiteral("**%1** — %2").arg(verdictLabel(a.verdict), a.rationale));
        line();
        line(QStringLiteral("Decided by rule %1 of the verdict list (`cnready explain verdict`): "
                            "%2.")
                 .arg(a.decidingRule)
                 .arg(a.decidingReason));
        if (!a.wouldChange.isEmpty()) {
            line();
            line(QStringLiteral("What would change it: ") + a.wouldChange);
        }
        for (const QString& d : a.demotions) {
            line();
            line(d + QLatin1Char('.'));
        }
        if (a.verdictOnVolta) {
            line();
            line(QStringLiteral("On supported hardware (compute capability 7.0 or newer) the "
                                "code itself would get **%1**.")
                     .arg(verdictLabel(*a.verdictOnVolta)));
        }
        line();
    }

    // References into the assessment's list, not copies: a category can hold 100k findings.
    using Refs = std::vector<std::reference_wrapper<const Finding>>;

    Refs of(Category c) const {
        Refs r;
        for (const Finding& f : a.findings)
            if (f.category == c)
                r.push_back(f);
        return r;
    }

    // With a Doctor report: the extra column's heading, and its cell for a row of `fs`
    // (confirmed when any finding of the row is).
    QString runTimeHead() const { return in.doctor ? QStringLiteral(" Run time |") : QString(); }
    QString runTimeCell(const Refs& fs) const {
        if (!in.doctor)
            return {};
        const bool any = std::any_of(fs.cbegin(), fs.cend(),
                                     [&](const Finding& f) { return in.doctor->isConfirmed(f); });
        return any ? QStringLiteral(" confirmed |") : QStringLiteral(" static only |");
    }

    // Identical rows (same place, code and note) are one row; the findings are sorted by
    // place and code, so such rows are neighbours.
    void findingTable(const Refs& fs) {
        line(QStringLiteral("| Location | Code | Idiom | In | Note |%1").arg(runTimeHead()));
        line(QStringLiteral("|---|---|---|---|---|%1").arg(in.doctor ? "---|" : ""));
        QString previous;
        for (const Finding& f : fs) {
            QString row = QStringLiteral("| `%1` | %2 | %3 | %4 | %5 |%6")
                              .arg(f.range.toString(), f.code, cell(ruleTitle(f)), cell(where(f)),
                                   cell(f.message), runTimeCell({f}));
            if (row == previous)
                continue;
            line(row);
            previous = std::move(row);
        }
    }

    // The workload's SCALES findings; those in test modules leave the table, a count remains.
    void scales() {
        line(QStringLiteral("## What works (SCALES findings)"));
        line();
        const Refs fs = of(Category::Scales);
        const auto [work, tests] = splitTests(fs);
        if (fs.empty())
            line(empty());
        else if (work.empty())
            line(QStringLiteral("None outside test modules."));
        else
            findingTable(work);
        if (!tests.empty()) {
            line();
            line(QStringLiteral("%1 SCALES finding%2 in test modules, not listed: tests keep host "
                                "NumPy as their reference and are not the workload.")
                     .arg(qsizetype(tests.size()))
                     .arg(tests.size() == 1 ? QString() : QStringLiteral("s")));
        }
        line();
    }

    // Paths of the project's test modules: their findings are listed apart, as the verdict
    // leaves them out (tests keep host NumPy as their reference; they are not the workload).
    bool inTests(const Finding& f) {
        if (!testPaths)
            testPaths.emplace(testModulePaths(in.project));
        return testPaths->contains(f.range.path);
    }

    // Splits `fs` into the workload's findings and those in test modules, order kept.
    std::pair<Refs, Refs> splitTests(const Refs& fs) {
        Refs work, tests;
        for (const Finding& f : fs)
            (inTests(f) ? tests : work).push_back(f);
        return {std::move(work), std::move(tests)};
    }

    // One row per site and code (RULES.md, the workload model item 7): the calls of one loop
    // nest are listed under their site, not as rows of their own.
    void blocksTable(const Refs& fs) {
        line(QStringLiteral("| Location | Code | Finding | Hot path | Recipe |%1")
                 .arg(runTimeHead()));
        line(QStringLiteral("|---|---|---|---|---|%1").arg(in.doctor ? "---|" : ""));
        std::vector<Refs> groups;
        QHash<QPair<SourceRange, QString>, size_t> index;
        for (const Finding& f : fs) {
            const auto key = qMakePair(findingSite(f), f.code + QLatin1Char('/') + recipeFor(f));
            const auto it = index.constFind(key);
            if (it == index.cend()) {
                index.insert(key, groups.size());
                groups.push_back(Refs{f});
            } else {
                groups[*it].push_back(f);
            }
        }
        for (const Refs& g : groups) {
            const Finding& f = g.front();
            const QString anchor = recipeFor(f);
            const Recipe* r = findRecipe(anchor);
            QString where = f.range.toString();
            QString text = findingText(f);
            QString hot = hotPathLabel(f);
            if (g.size() > 1) {
                where = findingSite(f).toString();
                QStringList lines;
                for (const Finding& x : g) {
                    lines << QString::number(x.range.line);
                    if (x.hot)
                        hot = hotPathLabel(x);
                }
                lines.removeDuplicates();
                text = QStringLiteral("%1 findings at one site (line%2 %3); first: %4")
                           .arg(qsizetype(g.size()))
                           .arg(lines.size() == 1 ? QString() : QStringLiteral("s"))
                           .arg(lines.join(QStringLiteral(", ")), text);
            }
            line(QStringLiteral("| `%1` | %2 | %3 | %4 | %5 |%6")
                     .arg(where, f.code, cell(text), hot,
                          r ? cell(QStringLiteral("%1: %2").arg(r->anchor, r->title))
                            : QStringLiteral("—"),
                          runTimeCell(g)));
        }
    }

    // The heading and sentence that introduce findings in test modules.
    void testsHeading(qsizetype count, const QString& what) {
        line(QStringLiteral("### In test modules: %1 %2 finding%3, not counted by the verdict")
                 .arg(count)
                 .arg(what)
                 .arg(count == 1 ? QString() : QStringLiteral("s")));
        line();
        line(QStringLiteral("Tests keep host NumPy as their reference and are not the workload "
                            "being ported, so the verdict leaves these out; port them after the "
                            "code they test."));
        line();
    }

    void blocks() {
        line(QStringLiteral("## What blocks (BLOCKS findings)"));
        line();
        const Refs fs = of(Category::Blocks);
        if (fs.empty()) {
            line(empty());
            line();
            return;
        }
        const auto [work, tests] = splitTests(fs);
        if (work.empty())
            line(QStringLiteral("None outside test modules."));
        else
            blocksTable(work);
        line();
        if (!tests.empty()) {
            testsHeading(qsizetype(tests.size()), QStringLiteral("BLOCKS"));
            blocksTable(tests);
            line();
        }
    }

    void refactorGroups(const Refs& fs, const char* level) {
        QMap<QString, Refs> byRecipe;
        for (const Finding& f : fs)
            byRecipe[recipeFor(f)].push_back(f);
        QStringList order;
        for (const Recipe& r : allRecipes())
            if (byRecipe.contains(r.anchor))
                order << r.anchor;
        for (auto it = byRecipe.cbegin(); it != byRecipe.cend(); ++it)
            if (!order.contains(it.key()))
                order << it.key();
        for (const QString& anchor : order) {
            const Refs& group = byRecipe[anchor];
            const Recipe* r = findRecipe(anchor);
            line(QStringLiteral("%1 %2 (%3 site%4)")
                     .arg(QLatin1String(level))
                     .arg(r ? QStringLiteral("%1: %2").arg(r->anchor, r->title)
                            : QStringLiteral("No recipe registered"))
                     .arg(qsizetype(group.size()))
                     .arg(group.size() == 1 ? QString() : QStringLiteral("s")));
            line();
            if (r) {
                line(r->summary);
                line();
            }
            // Identical lines (same place, code and note) are one: findings are sorted by
            // place and code, so they are neighbours.
            QString previous;
            for (const Finding& f : group) {
                QString item = QStringLiteral("- `%1` %2 in %3: %4%5")
                                   .arg(f.range.toString(), f.code, where(f), findingText(f),
                                        in.doctor ? QStringLiteral(" (run time: %1)")
                                                        .arg(doctorStatusLabel(*in.doctor, f))
                                                  : QString());
                if (item == previous)
                    continue;
                line(item);
                previous = std::move(item);
            }
            line();
        }
    }

    void refactor() {
        line(QStringLiteral("## What's fixable (REFACTOR findings)"));
        line();
        const Refs fs = of(Category::Refactor);
        if (fs.empty()) {
            line(empty());
            line();
            return;
        }
        const auto [work, tests] = splitTests(fs);
        if (work.empty()) {
            line(QStringLiteral("None outside test modules."));
            line();
        }
        refactorGroups(work, "###");
        if (!tests.empty()) {
            testsHeading(qsizetype(tests.size()), QStringLiteral("REFACTOR"));
            refactorGroups(tests, "####");
        }
    }

    void info() {
        line(QStringLiteral("## Compatibility / cost notes (INFO findings)"));
        line();
        const Refs fs = of(Category::Info);
        if (fs.empty())
            line(empty());
        else
            findingTable(fs);
        if (a.droppedRngFindings > 0) {
            line();
            line(QStringLiteral("%1 RNG note%2 (R304) left out: random streams differ only "
                                "between GPU counts, and the target is one GPU on one node.")
                     .arg(a.droppedRngFindings)
                     .arg(a.droppedRngFindings == 1 ? QString() : QStringLiteral("s")));
        }
        line();
        offPath();
    }

    // BLOCKS / REFACTOR findings off the compute path (RULES.md, the workload model item 5):
    // listed as notes so a reader can check the call, never counted for the verdict.
    void offPath() {
        const QList<Finding>& fs = in.project.offComputePath;
        if (fs.isEmpty() || (a.verdict == Verdict::NotRecommended && a.decidingRule <= 3))
            return;
        QMap<QString, int> byRole;
        for (const Finding& f : fs)
            ++byRole[pathRoleLabel(f.pathRole)];
        QStringList parts;
        for (auto it = byRole.cbegin(); it != byRole.cend(); ++it)
            parts << QStringLiteral("%1 %2").arg(it.value()).arg(it.key());
        line(QStringLiteral("Off the compute path (not counted): %1 BLOCKS/REFACTOR finding%2 "
                            "in code that is not the computation (%3). They do not count for "
                            "the verdict; port them when convenient.")
                 .arg(fs.size())
                 .arg(fs.size() == 1 ? QString() : QStringLiteral("s"))
                 .arg(parts.join(QStringLiteral(", "))));
        line();
        line(QStringLiteral("| Location | Code | Role |"));
        line(QStringLiteral("|---|---|---|"));
        constexpr qsizetype kRows = 100;
        for (qsizetype i = 0; i < fs.size() && i < kRows; ++i)
            line(QStringLiteral("| `%1` | %2 | %3 |")
                     .arg(fs[i].range.toString(), fs[i].code, pathRoleLabel(fs[i].pathRole)));
        if (fs.size() > kRows)
            line(QStringLiteral("| +%1 more | | |").arg(fs.size() - kRows));
        line();
    }

    void gaps() {
        line(QStringLiteral("## API support gaps"));
        line();
        if (a.apiGaps.isEmpty()) {
            line(a.verdict == Verdict::NotRecommended && a.decidingRule <= 3
                     ? empty()
                     : QStringLiteral("None for this code: every NumPy API it calls that the "
                                      "manifest lists is multi-GPU (✓✓); unlisted APIs are "
                                      "passed over."));
            line();
            return;
        }
        line(QStringLiteral("| API | Support | Hot path | Locations | Effect |"));
        line(QStringLiteral("|---|---|---|---|---|"));
        for (const ApiGap& g : a.apiGaps) {
            // Two calls on one line are one location in the table.
            QStringList all;
            for (const SourceRange& r : g.locations)
                all << QStringLiteral("`%1`").arg(r.toString());
            all.removeDuplicates();
            QStringList locs = all.mid(0, 8);
            if (all.size() > 8)
                locs << QStringLiteral("+%1 more").arg(all.size() - 8);
            QString effect;
            if (g.support == Support::Missing && g.onComputePath && !g.nonCompute.isEmpty())
                effect = QStringLiteral("not implemented, on the compute path, but %1 that does "
                                        "no array work: listed, no demotion")
                             .arg(g.nonCompute);
            else if (g.support == Support::Missing)
                effect = g.material
                             ? QStringLiteral("not implemented, on the compute path (loop or "
                                              "not): cuPyNumeric 26.06+ raises AttributeError "
                                              "there, no NumPy fallback; demotes the verdict "
                                              "one tier")
                             : QStringLiteral("not implemented, off the compute path: listed, "
                                              "no demotion; call host NumPy explicitly there "
                                              "(cuPyNumeric 26.06+ raises AttributeError)");
            else if (g.support == Support::Single)
                effect = g.material ? QStringLiteral("single-GPU only, on a hot path of a "
                                                     "multi-node target: demotes one tier")
                                    : QStringLiteral("single-GPU only: matters only for a "
                                                     "multi-node target");
            else
                effect = QStringLiteral("partial: %1")
                             .arg(g.note.isEmpty() ? QStringLiteral("see the manifest") : g.note);
            if (!g.rewrite.isEmpty())
                effect += QStringLiteral("; rewrite: `%1`").arg(g.rewrite);
            line(QStringLiteral("| `%1` | %2 | %3 | %4 | %5 |")
                     .arg(g.name, supportGlyph(g.support),
                          g.onHotPath ? QStringLiteral("yes") : QStringLiteral("no"),
                          locs.join(QStringLiteral(", ")), cell(effect)));
        }
        line();
    }

    void gates() {
        line(QStringLiteral("## Decision-framework summary"));
        line();
        line(QStringLiteral("| Gate | Status | Reason |"));
        line(QStringLiteral("|---|---|---|"));
        for (const Gate& g : a.gates)
            line(QStringLiteral("| %1. %2 | %3 | %4 |")
                     .arg(g.number)
                     .arg(g.name, gateStatusLabel(g.status), cell(g.reason)));
        line();
        for (const Gate& g : a.gates) {
            if (g.evidence.isEmpty() || g.number == 2)
                continue;
            const QString head = g.number == 4   ? QStringLiteral("Gate 4 evidence")
                                 : g.number == 5 ? QStringLiteral("Gate 5 host touchpoints")
                                 : g.number == 6 ? QStringLiteral("Gate 6, what the tree shows")
                                                 : QStringLiteral("Gate %1").arg(g.number);
            line(head + QLatin1Char(':'));
            line();
            const int max = 12;
            for (qsizetype i = 0; i < g.evidence.size() && i < max; ++i)
                line(QStringLiteral("- %1").arg(g.evidence[i]));
            if (g.evidence.size() > max)
                line(QStringLiteral("- and %1 more").arg(g.evidence.size() - max));
            line();
        }
    }

    /// "Where the time would go": the top hot sites by the cost model's lower bound on the
    /// target (cost/CostModel.h), with the assumption that dominates each, then every site of
    /// unknown size by location on one line (none is hidden under a count).
    void costTable() {
        // Every site: the ones of unknown size are listed by location after the top ones.
        // Sites come one at a time, in order (the known ones first), and only the top known
        // ones and those of unknown size get their text built.
        const int max = 8;
        int shown = 0, more = 0;
        QStringList rows, unknown;
        const qsizetype sites = cost::forEachSite(
            in.assessment.findings, cost::inputsFor(in.assessment.context),
            testModulePaths(in.project),
            [&](const cost::SiteBound& b) {
                if (!b.sizeKnown)
                    return true;
                if (shown == max) {
                    ++more;
                    return false;
                }
                ++shown;
                return true;
            },
            [&](const cost::SiteCost& c) {
                if (!c.sizeKnown)
                    unknown << QStringLiteral("`%1` %2 (%3)")
                                   .arg(c.site.toString(), c.code, c.unknownWhy);
                else
                    rows << QStringLiteral("| `%1` | %2 | %3 | %4 | %5 |")
                                .arg(c.site.toString(), c.code, c.kind, cost::formatBound(c),
                                     c.assumption);
            });
        if (sites == 0)
            return;
        const cost::Inputs ci = cost::inputsFor(in.assessment.context);
        QString sizes;
        switch (ci.sizeSource) {
        case cost::SizeSource::Given:
            sizes = QStringLiteral("each site sized by the shapes of the arrays it touches, "
                                   "else the given %1 elements")
                        .arg(formatCount(ci.elements));
            break;
        case cost::SizeSource::Inferred:
        case cost::SizeSource::Default:
            sizes = QStringLiteral("each site sized by the shapes of the arrays it touches "
                                   "(no size given: `--elements` sizes the rest)");
            break;
        }
        line(QStringLiteral(
                 "**Where the time would go** (estimated lower bounds on "
                 "%1 GPU%2 of %3, %4; not measurements; each bound says its unit: per step "
                 "(one pass of the time / iteration loop around the site), per pass (of a loop "
                 "whose trip count is not known), per call (of a site run every k-th step, k "
                 "not known) or per run (once: a site outside any step loop, whose set-up cost "
                 "no per-step figure adds in), and each NumPy figure has the unit of the GPU "
                 "figure beside it; ranked by bound, except that a bound per pass of an element "
                 "loop over data ranks, and says so, as 65,536 passes; context table, \"Cost "
                 "model inputs\"):")
                 .arg(ci.gpus)
                 .arg(ci.gpus == 1 ? QString() : QStringLiteral("s"), ci.gpuName, sizes));
        line();
        const bool anyKnown = shown > 0;
        if (anyKnown) {
            line(QStringLiteral("| Site | Code | Kind | Bound | Dominating assumption |"));
            line(QStringLiteral("|---|---|---|---|---|"));
        }
        for (const QString& r : rows)
            line(r);
        if (more > 0)
            line(QStringLiteral("| and %1 more site%2 with smaller bounds | | | | |")
                     .arg(more)
                     .arg(more == 1 ? QString() : QStringLiteral("s")));
        if (anyKnown)
            line();
        if (!unknown.isEmpty()) {
            line(QStringLiteral("Size unknown (no bound; what is missing in brackets): %1.")
                     .arg(unknown.join(QStringLiteral(", "))));
            line();
        }
        if (anyKnown) {
            line(QStringLiteral("The recipes below follow this ranking: first those whose "
                                "sites have a bound, by the largest of them (recipe priority "
                                "breaking ties), then those with no bound, in priority order."));
            line();
        }
    }

    void next() {
        line(QStringLiteral("## Recommended next steps"));
        line();
        costTable();
        const QList<NextStep> steps = recommendedSteps(in);
        int n = 1;
        for (const NextStep& st : steps)
            line(QStringLiteral("%1. %2").arg(n++).arg(st.text));
    }
};

} // namespace

QByteArray renderMarkdown(const ReportInput& in) {
    return Writer(in).render();
}

bool writeMarkdown(const ReportInput& in, QIODevice& device) {
    Writer w(in, &device);
    w.render();
    return !w.failed();
}

} // namespace cnready
