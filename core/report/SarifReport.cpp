// SARIF 2.1.0 output: one run, tool.driver.rules from the RuleRegistry (with help text and
// recipe), one result per finding with a region, a URI relative to %SRCROOT% (the base GitHub
// code scanning and other viewers resolve) and a line-independent partial fingerprint.
#include "report/Report.h"

#include "baseline/Fingerprint.h"

#include "rules/Recipes.h"
#include "rules/RuleRegistry.h"

#include <QDir>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QUrl>

namespace cnready {

namespace {

// SARIF §3.14.14: the conventional base id of the source tree.
const QString kSrcRoot = QStringLiteral("%SRCROOT%");

QString levelFor(Category c) {
    switch (c) {
    case Category::Blocks:
        return QStringLiteral("error");
    case Category::Refactor:
        return QStringLiteral("warning");
    case Category::Info:
        return QStringLiteral("note");
    case Category::Scales:
        break;
    }
    return QStringLiteral("none"); // SCALES: kind "pass"
}

QJsonObject ruleJson(const RuleInfo& i) {
    QString helpText = i.whatItDoes;
    QString helpMd = i.whatItDoes;
    if (!i.why.isEmpty()) {
        helpText += QStringLiteral(" Why: ") + i.why;
        helpMd += QStringLiteral("\n\n**Why it matters.** ") + i.why;
    }
    if (const Recipe* r = findRecipe(i.recipe)) {
        helpText += QStringLiteral(" Fix (%1, %2): %3").arg(r->anchor, r->title, r->summary);
        helpMd += QStringLiteral("\n\n**Fix (%1: %2).** %3").arg(r->anchor, r->title, r->summary);
    }
    // Some sites carry another recipe (each result names its own): the help lists them too,
    // as `cnready rules` and `cnready explain` do.
    for (const QString& alt : siteRecipes(i.code))
        if (const Recipe* r = findRecipe(alt)) {
            helpText +=
                QStringLiteral(" For some sites (%1, %2): %3").arg(r->anchor, r->title, r->summary);
            helpMd += QStringLiteral("\n\n**For some sites (%1: %2).** %3")
                          .arg(r->anchor, r->title, r->summary);
        }
    if (!i.example.isEmpty())
        helpMd += QStringLiteral("\n\nExample:\n\n```python\n%1\n```").arg(i.example);
    if (!i.useInstead.isEmpty())
        helpMd += QStringLiteral("\n\nUse instead:\n\n```python\n%1\n```").arg(i.useInstead);
    return QJsonObject{
        {QStringLiteral("id"), i.code},
        {QStringLiteral("name"), i.name},
        {QStringLiteral("shortDescription"), QJsonObject{{QStringLiteral("text"), i.title}}},
        {QStringLiteral("fullDescription"),
         QJsonObject{{QStringLiteral("text"), i.whatItDoes.isEmpty() ? i.title : i.whatItDoes}}},
        {QStringLiteral("help"),
         QJsonObject{{QStringLiteral("text"), helpText.isEmpty() ? i.title : helpText},
                     {QStringLiteral("markdown"), helpMd.isEmpty() ? i.title : helpMd}}},
        {QStringLiteral("defaultConfiguration"),
         QJsonObject{{QStringLiteral("level"), levelFor(i.category)}}},
        {QStringLiteral("properties"),
         QJsonObject{{QStringLiteral("category"), categoryName(i.category)},
                     {QStringLiteral("recipe"), i.recipe},
                     {QStringLiteral("hotPathOnly"), i.hotPathOnly},
                     {QStringLiteral("tags"), QJsonArray{categoryName(i.category)}}}}};
}

QString rootUri(const QString& root) {
    if (root.isEmpty())
        return {};
    QString abs = QDir::cleanPath(QDir(root).absolutePath());
    if (!abs.endsWith(QLatin1Char('/')))
        abs += QLatin1Char('/');
    return QUrl::fromLocalFile(abs).toString(QUrl::FullyEncoded);
}

} // namespace

QByteArray renderSarif(const ReportInput& in) {
    const Assessment& a = in.assessment;

    // Rules: every registered rule, plus a minimal entry for a code seen in results that the
    // registry does not know (so every result's ruleId resolves).
    QMap<QString, QJsonObject> rulesByCode;
    for (const auto& r : RuleRegistry::instance().rules())
        rulesByCode.insert(r->info().code, ruleJson(r->info()));
    for (const Finding& f : a.findings)
        if (!rulesByCode.contains(f.code)) {
            RuleInfo i;
            i.code = f.code;
            i.category = f.category;
            i.name = f.code.toLower();
            i.title = f.code;
            i.recipe = recipeForCode(f.code);
            rulesByCode.insert(f.code, ruleJson(i));
        }
    QJsonArray rules;
    QHash<QString, int> index;
    for (auto it = rulesByCode.cbegin(); it != rulesByCode.cend(); ++it) {
        index.insert(it.key(), int(rules.size()));
        rules.append(it.value());
    }

    // Notebooks: a SARIF viewer opens the file itself, i.e. the notebook's JSON text, so a
    // region names the JSON line holding the source line (no columns: they would point into
    // the JSON string), and the message says which cell and line that is.
    // Findings in test modules are notes: the verdict leaves them out (testModulePaths).
    const QSet<QString> tests = testModulePaths(in.project);
    const FingerprintIndex fingerprints(in.project);
    QHash<QString, const NotebookMap*> notebooks;
    for (const FileResult& file : in.project.files)
        if (!file.notebook.isEmpty())
            notebooks.insert(file.path, &file.notebook);
    const auto resultFor = [&](const Finding& f) {
        const NotebookMap* nb = f.range.cell > 0 ? notebooks.value(f.range.path) : nullptr;
        const bool inTests = tests.contains(f.range.path);
        const bool counted = f.pathRole == PathRole::Compute && !inTests;
        QJsonObject region;
        if (nb) {
            const int start = std::max(1, nb->at(f.range.line).jsonLine);
            const int end = std::max(start, nb->at(f.range.endLine).jsonLine);
            region.insert(QStringLiteral("startLine"), start);
            region.insert(QStringLiteral("endLine"), end);
        } else {
            region.insert(QStringLiteral("startLine"), std::max(1, f.range.line));
            region.insert(QStringLiteral("startColumn"), std::max(1, f.range.column));
            if (f.range.endLine >= f.range.line && f.range.endLine > 0) {
                region.insert(QStringLiteral("endLine"), f.range.endLine);
                region.insert(QStringLiteral("endColumn"), std::max(1, f.range.endColumn));
            }
        }
        if (!f.snippet.isEmpty() && !nb) // a notebook's region is JSON text, not this line
            region.insert(QStringLiteral("snippet"),
                          QJsonObject{{QStringLiteral("text"), f.snippet}});
        const QJsonObject physical{
            {QStringLiteral("artifactLocation"),
             QJsonObject{{QStringLiteral("uri"),
                          QString::fromLatin1(QUrl::toPercentEncoding(f.range.path, "/"))},
                         {QStringLiteral("uriBaseId"), kSrcRoot}}},
            {QStringLiteral("region"), region}};
        QJsonObject location{{QStringLiteral("physicalLocation"), physical}};
        if (!f.function.isEmpty())
            location.insert(
                QStringLiteral("logicalLocations"),
                QJsonArray{QJsonObject{{QStringLiteral("fullyQualifiedName"), f.function},
                                       {QStringLiteral("kind"), QStringLiteral("function")}}});
        if (nb)
            location.insert(QStringLiteral("properties"),
                            QJsonObject{{QStringLiteral("cell"), f.range.cell},
                                        {QStringLiteral("cellLine"), f.range.displayLine()}});
        const QString recipe = recipeFor(f);
        QJsonObject result{
            {QStringLiteral("ruleId"), f.code},
            {QStringLiteral("ruleIndex"), index.value(f.code)},
            {QStringLiteral("kind"),
             f.category == Category::Scales ? QStringLiteral("pass") : QStringLiteral("fail")},
            {QStringLiteral("level"), counted ? levelFor(f.category) : QStringLiteral("note")},
            {QStringLiteral("message"),
             QJsonObject{{QStringLiteral("text"), (f.message.isEmpty() ? f.code : f.message) +
                                                      (nb ? QStringLiteral(" (cell %1, line %2)")
                                                                .arg(f.range.cell)
                                                                .arg(f.range.displayLine())
                                                          : QString())}}},
            {QStringLiteral("locations"), QJsonArray{location}},
            {QStringLiteral("partialFingerprints"),
             QJsonObject{{QStringLiteral("cnready/v1"), fingerprints.of(f)}}},
            {QStringLiteral("properties"),
             QJsonObject{{QStringLiteral("category"), categoryName(f.category)},
                         {QStringLiteral("hot"), counted && findingOnHotPath(f)},
                         {QStringLiteral("pathRole"), pathRoleName(f.pathRole)},
                         {QStringLiteral("counted"), counted},
                         {QStringLiteral("testModule"), inTests},
                         {QStringLiteral("recipe"), recipe}}}};
        if (in.doctor) {
            // "confirmed" / "static-only", as the JSON report's finding.doctor.status.
            QJsonObject props = result.value(QStringLiteral("properties")).toObject();
            props.insert(QStringLiteral("doctor"), in.doctor->isConfirmed(f)
                                                       ? QStringLiteral("confirmed")
                                                       : QStringLiteral("static-only"));
            result.insert(QStringLiteral("properties"), props);
        }
        if (in.baseline)
            result.insert(QStringLiteral("baselineState"), in.baseline->contains(fingerprints.of(f))
                                                               ? QStringLiteral("unchanged")
                                                               : QStringLiteral("new"));
        return result;
    };
    QJsonArray results;
    // Findings that count, then the off-path notes (level "note", role in the properties).
    for (const Finding& f : a.findings)
        results.append(resultFor(f));
    for (const Finding& f : in.project.offComputePath)
        results.append(resultFor(f));
    // Suppressed in the source: SARIF's own field, so viewers hide them by default.
    for (const Finding& f : in.project.suppressed) {
        QJsonObject result = resultFor(f);
        result.insert(
            QStringLiteral("suppressions"),
            QJsonArray{QJsonObject{{QStringLiteral("kind"), QStringLiteral("inSource")}}});
        results.append(result);
    }
    // Left out by the project's configuration: suppressed outside the source.
    for (const Finding& f : in.project.leftOutByConfig) {
        QJsonObject result = resultFor(f);
        result.insert(
            QStringLiteral("suppressions"),
            QJsonArray{QJsonObject{{QStringLiteral("kind"), QStringLiteral("external")},
                                   {QStringLiteral("justification"),
                                    QStringLiteral("left out by %1").arg(in.project.configFile)}}});
        results.append(result);
    }

    // Files that could not be read or assessed in full (binary, unreadable, syntax errors,
    // skipped): SARIF's place for problems of the run itself, not of the code (§3.20.21).
    QJsonArray notifications;
    for (const FileDiagnostic& d : in.project.diagnostics) {
        // A missing PATH given as an absolute path is no file under the project root.
        QJsonObject physical{
            {QStringLiteral("artifactLocation"),
             QDir::isAbsolutePath(d.range.path)
                 ? QJsonObject{{QStringLiteral("uri"),
                                QUrl::fromLocalFile(d.range.path).toString(QUrl::FullyEncoded)}}
                 : QJsonObject{{QStringLiteral("uri"),
                                QString::fromLatin1(QUrl::toPercentEncoding(d.range.path, "/"))},
                               {QStringLiteral("uriBaseId"), kSrcRoot}}}};
        const NotebookMap* nb = d.range.cell > 0 ? notebooks.value(d.range.path) : nullptr;
        if (d.range.line > 0 && nb)
            physical.insert(QStringLiteral("region"),
                            QJsonObject{{QStringLiteral("startLine"),
                                         std::max(1, nb->at(d.range.line).jsonLine)}});
        else if (d.range.line > 0)
            physical.insert(
                QStringLiteral("region"),
                QJsonObject{{QStringLiteral("startLine"), d.range.line},
                            {QStringLiteral("startColumn"), std::max(1, d.range.column)}});
        notifications.append(
            QJsonObject{{QStringLiteral("level"), QStringLiteral("warning")},
                        {QStringLiteral("descriptor"),
                         QJsonObject{{QStringLiteral("id"), diagnosticKindName(d.kind)}}},
                        {QStringLiteral("message"),
                         QJsonObject{{QStringLiteral("text"),
                                      nb ? d.message + QStringLiteral(" (cell %1, line %2)")
                                                           .arg(d.range.cell)
                                                           .arg(d.range.displayLine())
                                         : d.message}}},
                        {QStringLiteral("locations"),
                         QJsonArray{QJsonObject{{QStringLiteral("physicalLocation"), physical}}}}});
    }

    QJsonArray gates;
    for (const Gate& g : a.gates)
        gates.append(QJsonObject{{QStringLiteral("number"), g.number},
                                 {QStringLiteral("name"), g.name},
                                 {QStringLiteral("status"), gateStatusLabel(g.status)},
                                 {QStringLiteral("reason"), g.reason}});

    QJsonObject run{
        {QStringLiteral("tool"),
         QJsonObject{
             {QStringLiteral("driver"),
              QJsonObject{{QStringLiteral("name"), QStringLiteral("cnready")},
                          {QStringLiteral("version"), QStringLiteral(CNREADY_VERSION)},
                          {QStringLiteral("semanticVersion"), QStringLiteral(CNREADY_VERSION)},
                          {QStringLiteral("rules"), rules}}}}},
        {QStringLiteral("columnKind"), QStringLiteral("unicodeCodePoints")},
        {QStringLiteral("invocations"),
         QJsonArray{QJsonObject{{QStringLiteral("executionSuccessful"), true},
                                {QStringLiteral("toolExecutionNotifications"), notifications}}}},
        {QStringLiteral("results"), results},
        {QStringLiteral("properties"),
         QJsonObject{{QStringLiteral("verdict"), verdictKey(a.verdict)},
                     {QStringLiteral("verdictLabel"), verdictLabel(a.verdict)},
                     {QStringLiteral("decidingRule"), a.decidingRule},
                     {QStringLiteral("rationale"), a.rationale},
                     {QStringLiteral("gates"), gates}}}};
    const QString uri = rootUri(in.project.root);
    QJsonObject base{{QStringLiteral("description"),
                      QJsonObject{{QStringLiteral("text"),
                                   QStringLiteral("The root of the assessed project.")}}}};
    if (!uri.isEmpty())
        base.insert(QStringLiteral("uri"), uri);
    run.insert(QStringLiteral("originalUriBaseIds"), QJsonObject{{kSrcRoot, base}});

    const QJsonObject root{{QStringLiteral("$schema"),
                            QStringLiteral("https://json.schemastore.org/sarif-2.1.0.json")},
                           {QStringLiteral("version"), QStringLiteral("2.1.0")},
                           {QStringLiteral("runs"), QJsonArray{run}}};
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

} // namespace cnready
