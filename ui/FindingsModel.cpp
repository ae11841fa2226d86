#include "FindingsModel.h"

#include "Theme.h"
#include "assess/Assessment.h"
#include "doctor/DoctorMatch.h"
#include "rules/Recipes.h"
#include "rules/RuleRegistry.h"

#include <QApplication>

#include <algorithm>

namespace cnready::ui {

namespace {
struct RuleText {
    QString title, recipe;
};
const RuleText& ruleText(const QString& code) {
    // The registry is immutable after start-up; cache its look-ups for the table (GUI thread).
    static QHash<QString, RuleText> cache;
    auto it = cache.find(code);
    if (it == cache.end()) {
        RuleText t;
        if (const Rule* r = RuleRegistry::instance().find(code)) {
            t.title = r->info().title;
            t.recipe = r->info().recipe;
        }
        it = cache.insert(code, t);
    }
    return *it;
}
} // namespace

QString FindingsModel::plainMessage(const QString& message) {
    QString s = message;
    return s.remove(QLatin1Char('`'));
}

QString FindingsModel::htmlMessage(const QString& message) {
    // Messages mark code with backticks (Markdown, as in the report): show it as code.
    const QStringList parts = message.split(QLatin1Char('`'));
    QString out;
    for (int i = 0; i < parts.size(); ++i)
        out += (i % 2) ? QStringLiteral("<code>%1</code>").arg(parts[i].toHtmlEscaped())
                       : parts[i].toHtmlEscaped();
    return out;
}

FindingsModel::FindingsModel(QObject* parent)
    : QAbstractTableModel(parent), m_palette(QApplication::palette()) {}

QString FindingsModel::ruleTitle(const QString& code) {
    return ruleText(code).title;
}
QString FindingsModel::ruleRecipe(const QString& code) {
    return ruleText(code).recipe;
}
QString FindingsModel::findingRecipe(const Finding& f) {
    if (f.recipeVariant != 0)
        if (QString site = siteRecipe(f.code, f.recipeVariant); !site.isEmpty())
            return site;
    return ruleRecipe(f.code);
}

void FindingsModel::setFindings(const QList<Finding>& findings) {
    beginResetModel();
    m_findings = findings;
    m_locationOrder = std::is_sorted(m_findings.cbegin(), m_findings.cend(), findingLess);
    endResetModel();
}

void FindingsModel::appendFindings(const QList<Finding>& findings) {
    if (findings.isEmpty())
        return;
    const int first = int(m_findings.size());
    beginInsertRows({}, first, first + int(findings.size()) - 1);
    m_locationOrder = m_locationOrder &&
                      (m_findings.isEmpty() || !findingLess(findings.first(), m_findings.last())) &&
                      std::is_sorted(findings.cbegin(), findings.cend(), findingLess);
    m_findings.append(findings);
    endInsertRows();
}

void FindingsModel::clear() {
    setFindings({});
}

void FindingsModel::setPalette(const QPalette& palette) {
    m_palette = palette;
    if (!m_findings.isEmpty())
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

int FindingsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_findings.size());
}

int FindingsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant FindingsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= m_findings.size())
        return {};
    const Finding& f = m_findings.at(index.row());
    switch (role) {
    case PathRole:
        return f.range.path;
    case LineRole:
        return f.range.line;
    case CategoryRole:
        return int(f.category);
    case CodeRole:
        return f.code;
    case ConfirmedRole:
        return isConfirmed(index.row());
    case SortRole:
        switch (index.column()) {
        case CategoryColumn:
            return int(f.category);
        case LocationColumn:
            return f.range.line; // path is compared first in lessThan()
        case CostColumn: {
            // The rank (cost::SiteCost::rankSeconds, the table's order); size unknown below every
            // bound, no cost below that.
            const cost::SiteCost* c = siteCost(index.row());
            return !c ? -2.0 : c->sizeKnown ? c->rankSeconds : -1.0;
        }
        default:
            return data(index, Qt::DisplayRole);
        }
    case Qt::DisplayRole:
        switch (index.column()) {
        case CategoryColumn:
            if (f.pathRole != cnready::PathRole::Compute)
                return QStringLiteral("%1 (%2)").arg(categoryLabel(f.category),
                                                     pathRoleLabel(f.pathRole));
            return categoryLabel(f.category);
        case CodeColumn:
            return f.code;
        case TitleColumn:
            return ruleTitle(f.code);
        case LocationColumn:
            return f.range.toString();
        case RecipeColumn:
            return findingRecipe(f);
        case CostColumn:
            if (const cost::SiteCost* c = siteCost(index.row()))
                return cost::formatBound(*c);
            return {};
        case MessageColumn:
            return plainMessage(f.message);
        }
        return {};
    case Qt::DecorationRole:
        if (index.column() == CategoryColumn)
            return categoryIcon(f.category, m_palette);
        if (index.column() == CodeColumn && isConfirmed(index.row()))
            return confirmedIcon(m_palette);
        return {};
    case Qt::ForegroundRole:
        // Off the compute path: greyed, it does not count for the verdict.
        if (f.pathRole != cnready::PathRole::Compute)
            return m_palette.color(QPalette::Disabled, QPalette::Text);
        if (index.column() == CategoryColumn)
            return categoryColor(f.category, m_palette);
        return {};
    case Qt::ToolTipRole: {
        if (index.column() == CostColumn) {
            const cost::SiteCost* c = siteCost(index.row());
            if (!c)
                return tr("No cost bound: only hot compute sites (not INFO, not tests) are "
                          "costed");
            if (!c->sizeKnown)
                return tr("Size unknown: %1").arg(c->unknownWhy.toHtmlEscaped());
            return tr("<b>%1</b> for the site %2 (a bound, not a measurement)<br>%3")
                .arg(cost::formatBound(*c).toHtmlEscaped(), c->site.toString().toHtmlEscaped(),
                     c->assumption.toHtmlEscaped());
        }
        QString tip = QStringLiteral("<b>%1</b> %2<br>%3")
                          .arg(f.code, ruleTitle(f.code).toHtmlEscaped(), htmlMessage(f.message));
        if (!f.function.isEmpty())
            tip += QStringLiteral("<br><i>in %1</i>").arg(f.function.toHtmlEscaped());
        if (isConfirmed(index.row()))
            tip += QStringLiteral("<br>%1").arg(tr("Confirmed at run time by cuPyNumeric Doctor"));
        if (const QString recipe = findingRecipe(f); !recipe.isEmpty())
            tip += QStringLiteral("<br>%1").arg(tr("Recipe: %1").arg(recipe.toHtmlEscaped()));
        if (f.pathRole != cnready::PathRole::Compute)
            tip += QStringLiteral("<br><i>%1</i>")
                       .arg(tr("Off the compute path (%1): not counted for the verdict")
                                .arg(pathRoleLabel(f.pathRole)));
        if (!f.snippet.isEmpty())
            tip += QStringLiteral("<pre>%1</pre>").arg(f.snippet.toHtmlEscaped());
        return tip;
    }
    }
    return {};
}

QVariant FindingsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case CategoryColumn:
        return tr("Category");
    case CodeColumn:
        return tr("Code");
    case TitleColumn:
        return tr("Title");
    case LocationColumn:
        return tr("Location");
    case RecipeColumn:
        return tr("Recipe");
    case CostColumn:
        return tr("Cost bound");
    case MessageColumn:
        return tr("Message");
    }
    return {};
}

FindingsFilterModel::FindingsFilterModel(QObject* parent) : QSortFilterProxyModel(parent) {
    setSortRole(FindingsModel::SortRole);
}

void FindingsFilterModel::setCategoryVisible(Category c, bool visible) {
    const unsigned bit = 1u << unsigned(c);
    const unsigned next = visible ? (m_visible | bit) : (m_visible & ~bit);
    if (next == m_visible)
        return;
    m_visible = next;
    invalidateFilter();
}

void FindingsFilterModel::setText(const QString& text) {
    if (text == m_text)
        return;
    m_text = text;
    invalidateFilter();
}

void FindingsModel::setConfirmed(const QSet<QString>& keys) {
    if (keys == m_confirmed)
        return;
    m_confirmed = keys;
    if (!m_findings.isEmpty())
        emit dataChanged(index(0, 0), index(int(m_findings.size()) - 1, ColumnCount - 1));
}

void FindingsModel::setSiteCosts(const QList<cost::SiteCost>& costs) {
    QHash<SourceRange, cost::SiteCost> next;
    for (const cost::SiteCost& c : costs)
        next.insert(c.site, c);
    m_costs = std::move(next);
    if (!m_findings.isEmpty())
        emit dataChanged(index(0, CostColumn), index(int(m_findings.size()) - 1, CostColumn));
}

const cost::SiteCost* FindingsModel::siteCost(int row) const {
    if (m_costs.isEmpty() || row < 0 || row >= m_findings.size())
        return nullptr;
    const Finding& f = m_findings.at(row);
    if (f.category == Category::Info || !findingOnHotPath(f))
        return nullptr;
    const auto it = m_costs.constFind(findingSite(f));
    return it == m_costs.cend() ? nullptr : &*it;
}

bool FindingsModel::isConfirmed(int row) const {
    return !m_confirmed.isEmpty() && row >= 0 && row < m_findings.size() &&
           m_confirmed.contains(doctorFindingKey(m_findings.at(row)));
}

void FindingsFilterModel::setConfirmedOnly(bool on) {
    if (on == m_confirmedOnly)
        return;
    m_confirmedOnly = on;
    invalidateFilter();
}

bool FindingsFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex&) const {
    const auto* model = static_cast<const FindingsModel*>(sourceModel());
    const Finding& f = model->finding(sourceRow);
    if (m_confirmedOnly && !model->isConfirmed(sourceRow))
        return false;
    if (!isCategoryVisible(f.category))
        return false;
    const QString t = m_text.trimmed();
    if (t.isEmpty())
        return true;
    for (const QString& field :
         {f.code, FindingsModel::ruleTitle(f.code), f.range.toString(), f.function, f.message,
          FindingsModel::findingRecipe(f), categoryLabel(f.category)})
        if (field.contains(t, Qt::CaseInsensitive))
            return true;
    return false;
}

bool FindingsFilterModel::locationLess(const QModelIndex& left, const QModelIndex& right) const {
    const auto* model = static_cast<const FindingsModel*>(sourceModel());
    // Sorting 40,000 rows by path strings takes tens of milliseconds on the GUI thread; when
    // the rows are already in location order their numbers give the same order.
    if (model->rowsInLocationOrder())
        return left.row() < right.row();
    return findingLess(model->finding(left.row()), model->finding(right.row()));
}

bool FindingsFilterModel::lessThan(const QModelIndex& left, const QModelIndex& right) const {
    const auto* model = static_cast<const FindingsModel*>(sourceModel());
    switch (left.column()) {
    case FindingsModel::LocationColumn:
        return locationLess(left, right);
    case FindingsModel::CostColumn: {
        const double a = left.data(FindingsModel::SortRole).toDouble();
        const double b = right.data(FindingsModel::SortRole).toDouble();
        return a != b ? a < b : locationLess(left, right);
    }
    case FindingsModel::CategoryColumn: {
        const Category a = model->finding(left.row()).category;
        const Category b = model->finding(right.row()).category;
        return a != b ? int(a) < int(b) : locationLess(left, right);
    }
    default: {
        const int c = QString::localeAwareCompare(left.data(Qt::DisplayRole).toString(),
                                                  right.data(Qt::DisplayRole).toString());
        return c != 0 ? c < 0 : locationLess(left, right);
    }
    }
}

} // namespace cnready::ui
