// The JSON report: schema "cnready-report", version kReportSchemaVersion
// (docs/report-json-schema.md). Qt sorts object keys, so the bytes are stable.
#include "report/Report.h"

#include "doctor/HandOff.h"
#include "rules/RuleRegistry.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace cnready {

namespace {

// The lines of a finding's blocker site (findingSite): one loop nest or one statement.
QJsonObject siteJson(const Finding& f) {
    const SourceRange s = findingSite(f);
    // In a notebook, lines within the cell, like the finding's range.
    return QJsonObject{{QStringLiteral("line"), s.displayLine()},
                       {QStringLiteral("endLine"), s.displayEndLine()}};
}

// In a notebook, `cell` names the cell and the lines count within it (as "cell 3:12").
QJsonObject rangeJson(const SourceRange& r) {
    QJsonObject o{{QStringLiteral("path"), r.path},
                  {QStringLiteral("line"), r.line > 0 ? r.displayLine() : r.line},
                  {QStringLiteral("column"), r.column},
                  {QStringLiteral("endLine"), r.endLine > 0 ? r.displayEndLine() : r.endLine},
                  {QStringLiteral("endColumn"), r.endColumn}};
    if (r.cell > 0)
        o.insert(QStringLiteral("cell"), r.cell);
    return o;
}

QJsonArray rangesJson(const QList<SourceRange>& rs) {
    QJsonArray arr;
    for (const SourceRange& r : rs)
        arr.append(rangeJson(r));
    return arr;
}

QJsonArray strings(const QStringList& l) {
    return QJsonArray::fromStringList(l);
}

// One Doctor site (doctor/DoctorMatch.h) for `doctorReport`.
QJsonObject doctorSiteJson(const DoctorSite& s) {
    QJsonObject o{
        {QStringLiteral("path"), s.path},
        {QStringLiteral("line"), s.line},
        {QStringLiteral("statementLine"), s.statementLine},
        {QStringLiteral("statementEndLine"), s.statementEndLine},
        {QStringLiteral("location"), s.location()},
        {QStringLiteral("check"), s.check.key},
        {QStringLiteral("code"), s.check.code.isEmpty() ? QJsonValue() : QJsonValue(s.check.code)},
        {QStringLiteral("description"), s.description},
        {QStringLiteral("reference"),
         s.reference.isEmpty() ? QJsonValue() : QJsonValue(s.reference)},
        {QStringLiteral("source"), s.source},
        {QStringLiteral("occurrences"), s.occurrences},
        {QStringLiteral("confirms"), s.confirms},
        {QStringLiteral("staleText"), s.staleText}};
    if (s.staleText)
        o.insert(QStringLiteral("currentText"), s.currentText);
    return o;
}

// The imported Doctor report: counts, staleness, run-time only and stale sites.
QJsonValue doctorReportJson(const DoctorResult* d, const FindingSelection& findings) {
    if (!d)
        return QJsonValue();
    QJsonArray only, stale;
    for (const DoctorSite& s : d->runtimeOnly())
        only.append(doctorSiteJson(s));
    for (const DoctorSite& s : d->sites)
        if (s.staleText)
            stale.append(doctorSiteJson(s));
    int confirmed = 0;
    for (const Finding& f : findings)
        confirmed += d->isConfirmed(f) ? 1 : 0;
    return QJsonObject{{QStringLiteral("path"), d->reportPath},
                       {QStringLiteral("entries"), d->entries},
                       {QStringLiteral("sites"), int(d->sites.size())},
                       {QStringLiteral("outsideProject"), d->outsideProject},
                       {QStringLiteral("confirmed"), confirmed},
                       {QStringLiteral("staticOnly"), int(findings.size()) - confirmed},
                       {QStringLiteral("stale"), d->stale()},
                       {QStringLiteral("newerSources"), strings(d->newerSources)},
                       {QStringLiteral("runtimeOnly"), only},
                       {QStringLiteral("staleSites"), stale}};
}

} // namespace

QByteArray renderJson(const ReportInput& in) {
    const Assessment& a = in.assessment;
    const Context& c = a.context;
    const ProjectResult& p = in.project;

    QJsonObject project{{QStringLiteral("name"), reportName(in)},
                        {QStringLiteral("files"), int(p.files.size())},
                        {QStringLiteral("lines"), p.totalLines}};
    QJsonArray diags;
    for (const FileDiagnostic& d : p.diagnostics)
        diags.append(QJsonObject{{QStringLiteral("kind"), diagnosticKindName(d.kind)},
                                 {QStringLiteral("range"), rangeJson(d.range)},
                                 {QStringLiteral("message"), d.message}});
    project.insert(QStringLiteral("diagnostics"), diags);
    // Python-like files cnready does not read (Cython, code templates): not in the verdict.
    project.insert(QStringLiteral("notRead"), QJsonArray::fromStringList(p.notRead));

    const Manifest& m = in.manifest;
    const int age = m.ageInDays(in.today);
    QJsonObject manifest{
        {QStringLiteral("origin"), m.origin()},
        {QStringLiteral("source"), m.source()},
        {QStringLiteral("fetched"), m.fetched().isValid()
                                        ? QJsonValue(m.fetched().date().toString(Qt::ISODate))
                                        : QJsonValue()},
        {QStringLiteral("ageDays"), age >= 0 ? QJsonValue(age) : QJsonValue()},
        {QStringLiteral("stale"), age > Manifest::kStaleAfterDays},
        {QStringLiteral("today"),
         in.today.isValid() ? QJsonValue(in.today.toString(Qt::ISODate)) : QJsonValue()}};

    QJsonArray rows;
    for (const ContextValue& r : c.rows)
        rows.append(QJsonObject{{QStringLiteral("key"), r.key},
                                {QStringLiteral("label"), r.label},
                                {QStringLiteral("value"), r.value},
                                {QStringLiteral("provenance"), provenanceLabel(r.provenance)},
                                {QStringLiteral("evidence"), r.evidence}});
    QJsonArray scores;
    for (const PatternScore& s : c.patternScores)
        scores.append(QJsonObject{{QStringLiteral("pattern"), s.pattern},
                                  {QStringLiteral("score"), s.score},
                                  {QStringLiteral("sites"), s.sites}});
    QJsonArray patternEvidence;
    for (const PatternEvidence& e : c.patternEvidence)
        patternEvidence.append(QJsonObject{{QStringLiteral("pattern"), e.pattern},
                                           {QStringLiteral("range"), rangeJson(e.range)},
                                           {QStringLiteral("note"), e.note},
                                           {QStringLiteral("hot"), e.hot}});
    QJsonObject context{
        {QStringLiteral("rows"), rows},
        {QStringLiteral("totalElements"), double(c.totalElements)},
        {QStringLiteral("perGpuElements"), double(c.perGpuElements)},
        {QStringLiteral("sizeProvenance"), provenanceLabel(c.sizeProvenance)},
        {QStringLiteral("gpus"), c.gpus},
        {QStringLiteral("nodes"), c.nodes},
        {QStringLiteral("gpuModel"), c.gpuModel.isEmpty() ? QJsonValue() : QJsonValue(c.gpuModel)},
        {QStringLiteral("computeCapability"),
         c.computeCapability > 0 ? QJsonValue(c.computeCapability) : QJsonValue()},
        {QStringLiteral("cuda"), c.cuda.isEmpty() ? QJsonValue() : QJsonValue(c.cuda)},
        {QStringLiteral("os"), c.os.isEmpty() ? QJsonValue() : QJsonValue(c.os)},
        {QStringLiteral("pattern"), c.pattern.isEmpty() ? QJsonValue() : QJsonValue(c.pattern)},
        {QStringLiteral("patternProvenance"), provenanceLabel(c.patternProvenance)},
        {QStringLiteral("patternScores"), scores},
        {QStringLiteral("patternEvidence"), patternEvidence}};

    QJsonObject verdict{
        {QStringLiteral("key"), verdictKey(a.verdict)},
        {QStringLiteral("label"), verdictLabel(a.verdict)},
        {QStringLiteral("decidingRule"), a.decidingRule},
        {QStringLiteral("reason"), a.decidingReason},
        {QStringLiteral("rationale"), a.rationale},
        {QStringLiteral("beforeDemotion"), verdictKey(a.verdictBeforeDemotion)},
        {QStringLiteral("codeVerdict"), verdictKey(a.codeVerdict)},
        {QStringLiteral("demotions"), strings(a.demotions)},
        {QStringLiteral("onSupportedHardware"),
         a.verdictOnVolta ? QJsonValue(verdictKey(*a.verdictOnVolta)) : QJsonValue()},
        {QStringLiteral("wouldChange"), a.wouldChange},
        {QStringLiteral("provisional"), a.provisional()},
        {QStringLiteral("belowSizeFloor"),
         a.verdictBelowFloor ? QJsonValue(verdictKey(*a.verdictBelowFloor)) : QJsonValue()},
        {QStringLiteral("onlyTestFindings"), a.onlyTestFindings},
        {QStringLiteral("blockerSites"), a.blockerSites},
        {QStringLiteral("hotBlockerSites"), a.hotBlockerSites},
        {QStringLiteral("blockerKinds"), strings(a.blockerKinds)}};

    QJsonArray gates;
    for (const Gate& g : a.gates)
        gates.append(QJsonObject{{QStringLiteral("number"), g.number},
                                 {QStringLiteral("name"), g.name},
                                 {QStringLiteral("status"), gateStatusLabel(g.status)},
                                 {QStringLiteral("reason"), g.reason},
                                 {QStringLiteral("evidence"), strings(g.evidence)}});

    const QSet<QString> tests = testModulePaths(in.project);
    // What every listed finding carries; QJsonObject keeps keys sorted, so the order of
    // insertion below does not show in the output.
    const auto findingJson = [](const Finding& f) {
        const Rule* rule = RuleRegistry::instance().find(f.code);
        return QJsonObject{{QStringLiteral("code"), f.code},
                           {QStringLiteral("title"), rule ? rule->info().title : f.code},
                           {QStringLiteral("range"), rangeJson(f.range)},
                           {QStringLiteral("location"), f.range.toString()},
                           {QStringLiteral("function"), f.function},
                           {QStringLiteral("message"), f.message},
                           {QStringLiteral("snippet"), f.snippet},
                           {QStringLiteral("pathRole"), pathRoleName(f.pathRole)},
                           {QStringLiteral("recipe"), recipeFor(f)}};
    };
    QJsonArray findings;
    for (const Finding& f : a.findings) {
        QJsonObject o = findingJson(f);
        o.insert(QStringLiteral("category"), categoryName(f.category));
        o.insert(QStringLiteral("hot"), findingOnHotPath(f));
        o.insert(QStringLiteral("site"), siteJson(f));
        o.insert(QStringLiteral("testModule"), tests.contains(f.range.path));
        if (in.doctor)
            o.insert(QStringLiteral("doctor"),
                     QJsonObject{{QStringLiteral("status"), in.doctor->isConfirmed(f)
                                                                ? QStringLiteral("confirmed")
                                                                : QStringLiteral("static-only")}});
        findings.append(o);
    }
    // BLOCKS / REFACTOR findings off the compute path: INFO-level notes, not counted.
    QJsonArray offPath;
    for (const Finding& f : in.project.offComputePath) {
        QJsonObject o = findingJson(f);
        o.insert(QStringLiteral("category"), categoryName(Category::Info));
        o.insert(QStringLiteral("ruleCategory"), categoryName(f.category));
        offPath.append(o);
    }

    QJsonArray gaps;
    for (const ApiGap& g : a.apiGaps)
        gaps.append(QJsonObject{{QStringLiteral("name"), g.name},
                                {QStringLiteral("support"), supportName(g.support)},
                                {QStringLiteral("glyph"), supportGlyph(g.support)},
                                {QStringLiteral("note"), g.note},
                                {QStringLiteral("hot"), g.onHotPath},
                                {QStringLiteral("onComputePath"), g.onComputePath},
                                {QStringLiteral("material"), g.material},
                                {QStringLiteral("rewrite"), g.rewrite},
                                {QStringLiteral("locations"), rangesJson(g.locations)}});

    QJsonArray steps;
    for (const NextStep& s : recommendedSteps(in))
        steps.append(QJsonObject{{QStringLiteral("kind"), s.kind},
                                 {QStringLiteral("text"), s.text},
                                 {QStringLiteral("recipe"), s.recipe},
                                 {QStringLiteral("locations"), rangesJson(s.locations)}});

    // The cost model's estimate per hot site (cost/CostModel.h): numbers in seconds and
    // bytes, each a bound with the assumption it rests on.
    const cost::Inputs ci = cost::inputsFor(a.context);
    QJsonArray siteCostRows;
    // One site's text at a time (a large project has ~50k sites).
    const auto addSite = [&](const cost::SiteCost& c) {
        QJsonObject o{{QStringLiteral("site"), rangeJson(c.site)},
                      {QStringLiteral("location"), c.site.toString()},
                      {QStringLiteral("code"), c.code},
                      {QStringLiteral("kind"), c.kind},
                      {QStringLiteral("sizeKnown"), c.sizeKnown}};
        if (c.sizeKnown) {
            o.insert(QStringLiteral("bytesPerPass"), c.bytesPerPass);
            o.insert(QStringLiteral("passesPerStep"), c.passesPerStep);
            o.insert(QStringLiteral("tasksPerPass"), c.tasksPerPass);
            o.insert(QStringLiteral("hostBytesPerStep"), c.hostBytesPerStep);
            o.insert(QStringLiteral("lowerBoundSeconds"), c.gpuSeconds);
            o.insert(QStringLiteral("upperBoundSeconds"),
                     c.gpuSecondsHigh ? QJsonValue(*c.gpuSecondsHigh) : QJsonValue());
            o.insert(QStringLiteral("numpySeconds"), c.numpySeconds);
            o.insert(QStringLiteral("dominant"), cost::dominantKey(c.dominant));
            o.insert(QStringLiteral("assumption"), c.assumption);
            o.insert(QStringLiteral("taskSeconds"), c.taskSeconds);
            o.insert(QStringLiteral("memorySeconds"), c.memorySeconds);
            o.insert(QStringLiteral("linkSeconds"), c.linkSeconds);
            o.insert(QStringLiteral("hostObjectSeconds"), c.hostObjectSeconds);
            o.insert(QStringLiteral("statements"), QJsonArray::fromStringList(c.parts));
            o.insert(QStringLiteral("perPass"), c.perPass);
            if (c.perPass)
                o.insert(QStringLiteral("passNote"), c.passNote);
            o.insert(QStringLiteral("untilConverged"), c.untilConverged);
            if (c.untilConverged)
                o.insert(QStringLiteral("stepNote"), c.stepNote);
            o.insert(QStringLiteral("perCall"), c.perCall);
            // The old name of perCall (schema version 1), kept for readers of it.
            o.insert(QStringLiteral("perRun"), c.perCall);
            // The unit of the figures: "pass", "step", "call" or "run" (see formatBound()).
            o.insert(QStringLiteral("per"), c.perCall   ? QStringLiteral("call")
                                            : c.perPass ? QStringLiteral("pass")
                                            : c.perStep ? QStringLiteral("step")
                                                        : QStringLiteral("run"));
            o.insert(QStringLiteral("dataUnknown"), c.dataUnknown);
            o.insert(QStringLiteral("passFloorSeconds"), c.passFloorSeconds);
            o.insert(QStringLiteral("perRunStatements"), QJsonArray::fromStringList(c.perRunParts));
            o.insert(QStringLiteral("rankSeconds"), c.rankSeconds);
            o.insert(QStringLiteral("unknownStatements"),
                     QJsonArray::fromStringList(c.unknownParts));
            o.insert(QStringLiteral("sizeFrom"), c.sizeFrom);
        } else {
            o.insert(QStringLiteral("unknown"), c.unknownWhy);
        }
        siteCostRows.append(o);
    };
    cost::forEachSite(
        a.findings, ci, tests, [](const cost::SiteBound&) { return true; }, addSite);
    const QJsonObject costModel{
        {QStringLiteral("inputs"),
         QJsonObject{{QStringLiteral("elements"), double(ci.elements)},
                     {QStringLiteral("sizeSource"),
                      ci.sizeSource == cost::SizeSource::Given      ? QStringLiteral("given")
                      : ci.sizeSource == cost::SizeSource::Inferred ? QStringLiteral("inferred")
                                                                    : QStringLiteral("default")},
                     {QStringLiteral("gpus"), ci.gpus},
                     {QStringLiteral("gpu"), ci.gpuName},
                     {QStringLiteral("gpuAssumed"), ci.gpuAssumed},
                     {QStringLiteral("gpuBandwidthGBps"), ci.gpuBandwidthGBps},
                     {QStringLiteral("pcieGBps"), ci.pcieGBps},
                     {QStringLiteral("pageablePcieGBps"), cost::kPageablePcieGBps},
                     {QStringLiteral("taskSeconds"), ci.taskSeconds},
                     {QStringLiteral("hostBandwidthGBps"), ci.hostBandwidthGBps},
                     {QStringLiteral("bytesPerElement"), 8},
                     {QStringLiteral("pythonObjectBytes"), cost::kPythonObjectBytes},
                     {QStringLiteral("pythonOpSeconds"), cost::kPythonOpSeconds},
                     {QStringLiteral("rankDataPasses"), cost::kMinGpuChunk}}},
        {QStringLiteral("sites"), siteCostRows}};

    // Counts are the workload's: findings in test modules are counted apart.
    QJsonObject counts;
    int inTests = 0;
    for (const Finding& f : a.findings)
        inTests += tests.contains(f.range.path);
    for (Category cat : {Category::Scales, Category::Blocks, Category::Refactor, Category::Info}) {
        int n = 0;
        for (const Finding& f : a.findings)
            n += f.category == cat && !tests.contains(f.range.path);
        counts.insert(categoryName(cat), n);
    }
    counts.insert(QStringLiteral("testModules"), inTests);
    counts.insert(QStringLiteral("droppedRng"), a.droppedRngFindings);
    counts.insert(QStringLiteral("offComputePath"), int(offPath.size()));
    counts.insert(QStringLiteral("suppressed"), int(p.suppressed.size()));
    counts.insert(QStringLiteral("leftOutByConfig"), int(p.leftOutByConfig.size()));
    // Findings silenced by comments in the code: listed, never part of the verdict.
    QJsonArray suppressed;
    for (const Finding& f : p.suppressed)
        suppressed.append(QJsonObject{{QStringLiteral("code"), f.code},
                                      {QStringLiteral("category"), categoryName(f.category)},
                                      {QStringLiteral("range"), rangeJson(f.range)},
                                      {QStringLiteral("location"), f.range.toString()},
                                      {QStringLiteral("message"), f.message}});

    const QJsonObject root{
        {QStringLiteral("schema"), QStringLiteral("cnready-report")},
        {QStringLiteral("schemaVersion"), kReportSchemaVersion},
        {QStringLiteral("tool"),
         QJsonObject{{QStringLiteral("name"), QStringLiteral("cnready")},
                     {QStringLiteral("version"), QStringLiteral(CNREADY_VERSION)}}},
        {QStringLiteral("project"), project},
        {QStringLiteral("manifest"), manifest},
        {QStringLiteral("context"), context},
        {QStringLiteral("verdict"), verdict},
        {QStringLiteral("gates"), gates},
        {QStringLiteral("counts"), counts},
        {QStringLiteral("findings"), findings},
        {QStringLiteral("offComputePath"), offPath},
        {QStringLiteral("suppressed"), suppressed},
        {QStringLiteral("apiGaps"), gaps},
        {QStringLiteral("entryScript"),
         a.entryScript.isEmpty() ? QJsonValue() : QJsonValue(a.entryScript)},
        {QStringLiteral("pilotModule"),
         a.pilotModule.isEmpty() ? QJsonValue() : QJsonValue(a.pilotModule)},
        {QStringLiteral("doctorCommand"), doctorCommand(a.entryScript)},
        {QStringLiteral("doctorPatchCommand"), doctorPatchCommand(a.entryScript)},
        {QStringLiteral("doctorReport"), doctorReportJson(in.doctor, a.findings)},
        {QStringLiteral("nextSteps"), steps},
        {QStringLiteral("costModel"), costModel}};
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

} // namespace cnready
