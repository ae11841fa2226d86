#include "config/ProjectConfig.h"

#include "rules/RuleRegistry.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <toml++/toml.h>

namespace cnready {

namespace {

// Keys whose value is one string or number the CLI option of the same name takes.
const QStringList& contextKeys() {
    static const QStringList keys = {
        QStringLiteral("elements"), QStringLiteral("elements-per-gpu"),
        QStringLiteral("gpus"),     QStringLiteral("nodes"),
        QStringLiteral("gpu"),      QStringLiteral("compute-capability"),
        QStringLiteral("cuda"),     QStringLiteral("os"),
        QStringLiteral("pattern"),  QStringLiteral("entry"),
        QStringLiteral("fail-on")};
    return keys;
}

int lineOf(const toml::node& n) {
    return int(n.source().begin.line);
}

QString typeName(const toml::node& n) {
    switch (n.type()) {
    case toml::node_type::table:
        return QStringLiteral("a table");
    case toml::node_type::array:
        return QStringLiteral("an array");
    case toml::node_type::string:
        return QStringLiteral("a string");
    case toml::node_type::integer:
        return QStringLiteral("an integer");
    case toml::node_type::floating_point:
        return QStringLiteral("a float");
    case toml::node_type::boolean:
        return QStringLiteral("a boolean");
    default:
        return QStringLiteral("a date or time");
    }
}

// Collects the first error; later checks are skipped once one is set.
struct Reader {
    QString file; // display name for messages
    QString error;

    bool fail(const toml::node& at, const QString& what) {
        if (error.isEmpty())
            error = QStringLiteral("%1:%2: %3").arg(file).arg(lineOf(at)).arg(what);
        return false;
    }

    bool strings(const QString& key, const toml::node& v, QStringList* out) {
        const toml::array* arr = v.as_array();
        if (!arr)
            return fail(
                v,
                QStringLiteral("'%1' must be an array of strings, not %2").arg(key, typeName(v)));
        for (const toml::node& e : *arr) {
            const auto s = e.value<std::string>();
            if (!e.is_string() || !s)
                return fail(
                    e, QStringLiteral("'%1' must hold strings only, not %2").arg(key, typeName(e)));
            *out << QString::fromStdString(*s);
        }
        return true;
    }

    bool globs(const QString& key, const toml::node& v, QList<PathGlob>* out) {
        QStringList texts;
        if (!strings(key, v, &texts))
            return false;
        for (const QString& t : texts) {
            const PathGlob g(t);
            if (!g.isValid())
                return fail(v, QStringLiteral("'%1' holds the unusable glob '%2'").arg(key, t));
            *out << g;
        }
        return true;
    }

    bool codes(const QString& key, const toml::node& v, QStringList* out) {
        QStringList texts;
        if (!strings(key, v, &texts))
            return false;
        for (const QString& t : texts) {
            const QString c = t.trimmed().toUpper();
            bool known = c == QLatin1String("ALL");
            for (const auto& r : RuleRegistry::instance().rules())
                known = known || (!c.isEmpty() && r->info().code.startsWith(c));
            if (!known)
                return fail(v, QStringLiteral("'%1' holds '%2', which is no rule code or code "
                                              "prefix (see 'cnready rules')")
                                   .arg(key, t));
            *out << c;
        }
        return true;
    }

    // A context value as the CLI option would be given it.
    bool scalar(const QString& key, const toml::node& v, ConfigValue* out) {
        out->line = lineOf(v);
        if (const auto s = v.value_exact<std::string>()) {
            out->text = QString::fromStdString(*s);
            return true;
        }
        const bool numeric = key == QLatin1String("elements") ||
                             key == QLatin1String("elements-per-gpu") ||
                             key == QLatin1String("gpus") || key == QLatin1String("nodes");
        if (const auto i = v.value_exact<int64_t>(); i && numeric) {
            out->text = QString::number(*i);
            return true;
        }
        // 8.6 as a float is unambiguous; 12.10 as a CUDA version would not be, so it is a string.
        if (const auto d = v.value_exact<double>();
            d && key == QLatin1String("compute-capability")) {
            out->text = QString::number(*d, 'f', 1);
            return true;
        }
        return fail(v, QStringLiteral("'%1' must be %2, not %3")
                           .arg(key,
                                numeric ? QStringLiteral("an integer or a string such as \"16M\"")
                                : key == QLatin1String("compute-capability")
                                    ? QStringLiteral("a number or a string such as \"8.0\"")
                                    : QStringLiteral("a string"),
                                typeName(v)));
    }
};

} // namespace

QString findProjectConfig(const QString& startFolder) {
    QDir dir(QFileInfo(startFolder).absoluteFilePath());
    for (;;) {
        const QString own = dir.filePath(QStringLiteral("cnready.toml"));
        if (QFileInfo(own).isFile())
            return own;
        const QString py = dir.filePath(QStringLiteral("pyproject.toml"));
        if (QFileInfo(py).isFile()) {
            // A cheap look before parsing: most pyproject.toml files are about other tools.
            QFile f(py);
            if (f.open(QIODevice::ReadOnly) && f.readAll().contains("tool.cnready"))
                return py;
        }
        if (QFileInfo::exists(dir.filePath(QStringLiteral(".git"))) || !dir.cdUp())
            return {};
    }
}

bool codeSelected(const QString& code, const QStringList& selectors) {
    for (const QString& s : selectors)
        if (s == QLatin1String("ALL") || code.startsWith(s, Qt::CaseInsensitive))
            return true;
    return false;
}

ProjectConfig loadProjectConfig(const QString& path, QString* error) {
    const QFileInfo info(path);
    Reader rd{info.fileName(), {}};
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error =
            QStringLiteral("%1: cannot read the configuration: %2").arg(path, file.errorString());
        return {};
    }
    const QByteArray bytes = file.readAll();
    toml::table doc;
    try {
        doc = toml::parse(std::string_view(bytes.constData(), size_t(bytes.size())),
                          info.fileName().toStdString());
    } catch (const toml::parse_error& e) {
        *error =
            QStringLiteral("%1:%2: not valid TOML: %3")
                .arg(info.fileName())
                .arg(e.source().begin.line)
                .arg(QString::fromUtf8(e.description().data(), qsizetype(e.description().size())));
        return {};
    }
    const bool own = info.fileName() == QLatin1String("cnready.toml");
    const toml::table* tbl = doc["tool"]["cnready"].as_table();
    if (!tbl && own)
        tbl = &doc;
    ProjectConfig c;
    c.path = info.absoluteFilePath();
    c.dir = info.absolutePath();
    c.fileName = info.fileName();
    if (!tbl) {
        if (const toml::node* n = doc["tool"]["cnready"].node())
            rd.fail(*n, QStringLiteral("[tool.cnready] must be a table, not %1").arg(typeName(*n)));
        if (!rd.error.isEmpty()) {
            *error = rd.error;
            return {};
        }
        return c; // a pyproject.toml without our table: nothing configured
    }
    for (auto&& [k, v] : *tbl) {
        const QString key = QString::fromUtf8(k.str().data(), qsizetype(k.str().size()));
        if (own && tbl == &doc && key == QLatin1String("tool"))
            continue;
        if (key == QLatin1String("exclude") || key == QLatin1String("extend-exclude")) {
            rd.globs(key, v, &c.exclude);
        } else if (key == QLatin1String("select")) {
            rd.codes(key, v, &c.select);
        } else if (key == QLatin1String("ignore")) {
            rd.codes(key, v, &c.ignore);
        } else if (key == QLatin1String("respect-gitignore")) {
            if (const auto b = v.value_exact<bool>())
                c.respectGitignore = *b;
            else
                rd.fail(v, QStringLiteral("'respect-gitignore' must be true or false, not %1")
                               .arg(typeName(v)));
        } else if (key == QLatin1String("per-file-ignores")) {
            const toml::table* t = v.as_table();
            if (!t) {
                rd.fail(v, QStringLiteral("'per-file-ignores' must be a table of glob = [codes], "
                                          "not %1")
                               .arg(typeName(v)));
                continue;
            }
            for (auto&& [gk, gv] : *t) {
                const QString glob = QString::fromUtf8(gk.str().data(), qsizetype(gk.str().size()));
                PerFileIgnore pfi{PathGlob(glob), {}};
                if (!pfi.glob.isValid())
                    rd.fail(gv, QStringLiteral("'per-file-ignores' holds the unusable glob '%1'")
                                    .arg(glob));
                else if (rd.codes(QStringLiteral("per-file-ignores.\"%1\"").arg(glob), gv,
                                  &pfi.codes))
                    c.perFileIgnores << pfi;
            }
        } else if (contextKeys().contains(key)) {
            ConfigValue cv;
            if (rd.scalar(key, v, &cv))
                c.options.insert(key, cv);
        } else {
            c.warnings << QStringLiteral("%1:%2: unknown key '%3' in %4; ignored")
                              .arg(c.fileName)
                              .arg(lineOf(v))
                              .arg(key, own && tbl == &doc ? QStringLiteral("cnready.toml")
                                                           : QStringLiteral("[tool.cnready]"));
        }
        if (!rd.error.isEmpty())
            break;
    }
    if (!rd.error.isEmpty()) {
        *error = rd.error;
        return {};
    }
    return c;
}

} // namespace cnready
