#pragma once
// The findings table: a QAbstractTableModel over the project's findings (the view never owns
// data) and a QSortFilterProxyModel that filters by category and text and sorts by location.
// The Cost bound column shows the cost model's bound of the finding's site, abridged with its
// unit (cost::formatBoundShort(): "≥ 841 µs/step"; the tooltip has it in words), set with
// setSiteCosts(), and sorts by what the site is ranked by (SiteCost::rankSeconds).

#include "cost/CostModel.h"
#include "model/Finding.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QPalette>
#include <QSet>
#include <QSortFilterProxyModel>

namespace cnready::ui {

class FindingsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        CategoryColumn,
        CodeColumn,
        TitleColumn,
        LocationColumn,
        CostColumn,
        RecipeColumn,
        MessageColumn,
        ColumnCount
    };
    enum Role {
        PathRole = Qt::UserRole + 1, ///< QString, relative path
        LineRole,                    ///< int, 1-based
        CategoryRole,                ///< int (Category)
        CodeRole,                    ///< QString
        SortRole,                    ///< value used for sorting this column
        ConfirmedRole,               ///< bool, confirmed at run time by an imported Doctor report
    };

    explicit FindingsModel(QObject* parent = nullptr);

    /// Replaces all findings (the merged project's).
    void setFindings(const QList<Finding>& findings);
    /// Appends findings while results stream in.
    void appendFindings(const QList<Finding>& findings);
    void clear();
    const QList<Finding>& findings() const { return m_findings; }
    const Finding& finding(int row) const { return m_findings.at(row); }
    /// True when the rows are in findingLess() order (as the assessment lists them): the
    /// filter model then compares locations by row number instead of by path strings.
    bool rowsInLocationOrder() const { return m_locationOrder; }
    void setPalette(const QPalette& palette);
    /// Marks the findings whose doctorFindingKey() (doctor/DoctorMatch.h) is in `keys` as
    /// confirmed at run time (a check mark in the Code column); an empty set clears the marks.
    void setConfirmed(const QSet<QString>& keys);
    bool isConfirmed(int row) const;
    /// The cost model's sites (estimateSites()): each finding of a costed site shows its
    /// site's bound in the Cost bound column ("size unknown" when the model has no size);
    /// other findings (INFO, cold, test modules) show nothing.
    void setSiteCosts(const QList<cost::SiteCost>& costs);
    /// The site cost of row `row`, or null when its site has none.
    const cost::SiteCost* siteCost(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    /// The rule title and recipe anchor of a code, from the rule registry (cached).
    static QString ruleTitle(const QString& code);
    static QString ruleRecipe(const QString& code);
    /// The recipe anchor for one finding: the rule's alternative for this site when it has
    /// one (an R106 reversal: RR-flip), else ruleRecipe(f.code).
    static QString findingRecipe(const Finding& f);
    /// A finding message without its Markdown backticks (table cells).
    static QString plainMessage(const QString& message);
    /// A finding message as HTML, backticked code as <code> (tooltips).
    static QString htmlMessage(const QString& message);

private:
    QList<Finding> m_findings;
    QPalette m_palette;
    bool m_locationOrder = true;
    QSet<QString> m_confirmed;
    QHash<SourceRange, cost::SiteCost> m_costs; ///< by findingSite()
};

class FindingsFilterModel : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit FindingsFilterModel(QObject* parent = nullptr);
    /// Shows or hides one category.
    void setCategoryVisible(Category c, bool visible);
    bool isCategoryVisible(Category c) const { return m_visible & (1u << unsigned(c)); }
    /// Case-insensitive text filter over code, title, path, function, message and recipe.
    void setText(const QString& text);
    /// Shows only the findings an imported Doctor report confirmed (FindingsModel::setConfirmed).
    void setConfirmedOnly(bool on);
    bool confirmedOnly() const { return m_confirmedOnly; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

private:
    bool locationLess(const QModelIndex& left, const QModelIndex& right) const;
    unsigned m_visible = 0xF;
    bool m_confirmedOnly = false;
    QString m_text;
};

} // namespace cnready::ui
