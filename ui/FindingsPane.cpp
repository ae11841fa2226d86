#include "FindingsPane.h"

#include "FindingsModel.h"
#include "Theme.h"
#include "rules/Recipes.h"
#include "rules/RuleRegistry.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLineEdit>
#include <QMenu>
#include <QSplitter>
#include <QStyle>
#include <QTableView>
#include <QTextBrowser>
#include <QToolButton>
#include <QVBoxLayout>

namespace cnready::ui {

FindingsPane::FindingsPane(QWidget* parent) : QWidget(parent) {
    auto* pane = this;
    auto* lay = new QVBoxLayout(pane);
    lay->setContentsMargins(4, 4, 4, 4);
    auto* bar = m_bar = new QHBoxLayout;
    for (Category c : {Category::Blocks, Category::Refactor, Category::Info, Category::Scales}) {
        auto* b = new QToolButton(pane);
        b->setObjectName(QStringLiteral("filter_") + categoryName(c));
        b->setCheckable(true);
        b->setChecked(true);
        b->setAutoRaise(true);
        b->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        b->setIcon(categoryIcon(c, palette()));
        b->setText(categoryLabel(c));
        b->setProperty("category", int(c));
        b->setToolTip(tr("Show or hide %1 findings").arg(categoryLabel(c)));
        connect(b, &QToolButton::toggled, this,
                [this, c](bool on) { m_filter->setCategoryVisible(c, on); });
        bar->addWidget(b);
        m_categoryButtons.append(b);
    }
    m_filterEdit = new QLineEdit(pane);
    m_filterEdit->setObjectName(QStringLiteral("findingsFilter"));
    m_filterEdit->setPlaceholderText(tr("Filter by code, title, file, function or message"));
    m_filterEdit->setClearButtonEnabled(true);
    connect(m_filterEdit, &QLineEdit::textChanged, this,
            [this](const QString& t) { m_filter->setText(t); });
    bar->addWidget(m_filterEdit, 1);
    lay->addLayout(bar);

    m_findings = new FindingsModel(this);
    m_filter = new FindingsFilterModel(this);
    m_filter->setSourceModel(m_findings);
    m_view = new QTableView(pane);
    m_view->setObjectName(QStringLiteral("findingsView"));
    m_view->setModel(m_filter);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(FindingsModel::LocationColumn, Qt::AscendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    QHeaderView* h = m_view->horizontalHeader();
    h->setStretchLastSection(true);
    h->setSectionResizeMode(QHeaderView::Interactive);
    const QFontMetrics fm = m_view->fontMetrics();
    m_view->setColumnWidth(FindingsModel::CategoryColumn,
                           fm.horizontalAdvance(QStringLiteral("REFACTOR")) + 40);
    m_view->setColumnWidth(FindingsModel::CodeColumn,
                           fm.horizontalAdvance(QStringLiteral("R000")) + 24);
    m_view->setColumnWidth(FindingsModel::TitleColumn, fm.horizontalAdvance(QLatin1Char('m')) * 20);
    m_view->setColumnWidth(FindingsModel::LocationColumn,
                           fm.horizontalAdvance(QLatin1Char('m')) * 21);
    // The widest recipe anchor of the registry (not a sample name: fonts differ in which one
    // is widest), plus the item delegate's text margins and a little air.
    int recipeWidth = fm.horizontalAdvance(tr("Recipe")) + 24; // the header and its sort arrow
    for (const auto& rule : RuleRegistry::instance().rules())
        recipeWidth = qMax(recipeWidth, fm.horizontalAdvance(rule->info().recipe));
    const int textMargin =
        m_view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, m_view) + 1;
    m_view->setColumnWidth(FindingsModel::RecipeColumn, recipeWidth + 2 * textMargin + 8);
    // The widest abridged bound in common use (cost::formatBoundShort(): a bound per pass
    // with the 65,536 passes it ranks as), so that the unit shows.
    m_view->setColumnWidth(FindingsModel::CostColumn,
                           fm.horizontalAdvance(QStringLiteral("≥ 40 µs/pass, 2.6 s ×65,536")) +
                               2 * textMargin + 8);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_view, &QTableView::clicked, this, &FindingsPane::findingActivated);
    connect(m_view, &QTableView::activated, this, &FindingsPane::findingActivated);
    connect(m_view, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        const QModelIndex idx = m_view->indexAt(pos);
        if (!idx.isValid())
            return;
        const QString code = idx.data(FindingsModel::CodeRole).toString();
        QMenu menu(this);
        menu.addAction(
            tr("Go to %1")
                .arg(idx.siblingAtColumn(FindingsModel::LocationColumn).data().toString()),
            this, [this, idx] { emit findingActivated(idx); });
        menu.addAction(tr("Explain rule %1").arg(code), this,
                       [this, code] { emit ruleRequested(code); });
        menu.exec(m_view->viewport()->mapToGlobal(pos));
    });
    m_detail = new QTextBrowser(pane);
    m_detail->setObjectName(QStringLiteral("findingDetail"));
    m_detail->setOpenLinks(false);
    m_detail->setPlaceholderText(tr("Select a finding to read it in full: its message, the "
                                    "recipe that fixes it and a before/after example."));
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { showFindingDetail(current); });
    auto* split = new QSplitter(Qt::Horizontal, pane);
    split->setObjectName(QStringLiteral("findingsSplitter"));
    split->setChildrenCollapsible(false);
    split->addWidget(m_view);
    split->addWidget(m_detail);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 1);
    lay->addWidget(split);
}

namespace {
// A finding message's `code` spans as <code>, the rest escaped.
QString messageHtml(const QString& message) {
    const QStringList parts = message.split(QLatin1Char('`'));
    QString out;
    for (qsizetype i = 0; i < parts.size(); ++i)
        out += i % 2 ? QStringLiteral("<code>%1</code>").arg(parts[i].toHtmlEscaped())
                     : parts[i].toHtmlEscaped();
    return out;
}
} // namespace

void FindingsPane::showFindingDetail(const QModelIndex& proxyIndex) {
    if (!proxyIndex.isValid()) {
        m_detail->clear();
        return;
    }
    const QModelIndex src = m_filter->mapToSource(proxyIndex);
    if (!src.isValid() || src.row() >= m_findings->rowCount()) {
        m_detail->clear();
        return;
    }
    const Finding& f = m_findings->finding(src.row());
    const Rule* rule = RuleRegistry::instance().find(f.code);
    const QString color = categoryColor(f.category, palette()).name();
    QString html = QStringLiteral("<p><b style='color:%1'>%2</b> <b>%3</b> — %4</p>")
                       .arg(color, categoryLabel(f.category), f.code.toHtmlEscaped(),
                            FindingsModel::ruleTitle(f.code).toHtmlEscaped());
    // Its first line as the table prints it ("nb.ipynb:cell 5:3" in a notebook).
    SourceRange start = f.range;
    start.endLine = start.line;
    QString where = QStringLiteral("<code>%1</code>").arg(start.toString().toHtmlEscaped());
    if (!f.function.isEmpty())
        where += tr(" in <code>%1</code>").arg(f.function.toHtmlEscaped());
    if (f.hot)
        where += tr(" (hot path)");
    html += QStringLiteral("<p>%1</p>").arg(where);
    html += QStringLiteral("<p>%1</p>").arg(messageHtml(f.message));
    if (!f.snippet.isEmpty())
        html += QStringLiteral("<pre>%1</pre>").arg(f.snippet.toHtmlEscaped());
    if (const Recipe* r = findRecipe(FindingsModel::findingRecipe(f))) {
        html += QStringLiteral("<h4>%1</h4><p>%2</p>")
                    .arg(tr("Fix: %1 (%2)").arg(r->title.toHtmlEscaped(), r->anchor),
                         messageHtml(r->summary));
        if (!r->before.isEmpty())
            html += QStringLiteral("<p><b>%1</b></p><pre>%2</pre>")
                        .arg(tr("Before"), r->before.toHtmlEscaped());
        if (!r->after.isEmpty())
            html += QStringLiteral("<p><b>%1</b></p><pre>%2</pre>")
                        .arg(tr("After"), r->after.toHtmlEscaped());
        if (!r->why.isEmpty())
            html += QStringLiteral("<p><i>%1</i></p>").arg(messageHtml(r->why));
    } else if (rule && !rule->info().why.isEmpty()) {
        html += QStringLiteral("<p><i>%1</i></p>").arg(rule->info().why.toHtmlEscaped());
    }
    m_detail->setHtml(html);
}

void FindingsPane::stepFinding(int delta) {
    const int rows = m_filter->rowCount();
    if (rows == 0)
        return;
    const QModelIndex cur = m_view->currentIndex();
    int row = cur.isValid() ? cur.row() + delta : (delta > 0 ? 0 : rows - 1);
    row = (row % rows + rows) % rows;
    const QModelIndex idx = m_filter->index(row, 0);
    m_view->setCurrentIndex(idx);
    m_view->scrollTo(idx);
    emit findingActivated(idx);
}

void FindingsPane::updateCategoryButtons() {
    m_categoryCounts = {};
    for (const Finding& f : m_findings->findings())
        ++m_categoryCounts[size_t(f.category)];
    showCategoryCounts();
}

void FindingsPane::showCategoryCounts() {
    for (QToolButton* b : m_categoryButtons) {
        const auto c = Category(b->property("category").toInt());
        b->setText(QStringLiteral("%1 %2").arg(categoryLabel(c)).arg(m_categoryCounts[size_t(c)]));
    }
}

QList<Finding> FindingsPane::findingsForFile(const QString& path) const {
    QList<Finding> out;
    for (const Finding& f : m_findings->findings())
        if (f.range.path == path)
            out.append(f);
    return out;
}

void FindingsPane::addFilterButton(QToolButton* button) {
    m_bar->addWidget(button);
}

void FindingsPane::countFindings(const QList<Finding>& added) {
    for (const Finding& f : added)
        ++m_categoryCounts[size_t(f.category)];
    showCategoryCounts();
}

void FindingsPane::refreshColors(const QPalette& palette) {
    m_findings->setPalette(palette);
    for (QToolButton* b : m_categoryButtons)
        b->setIcon(categoryIcon(Category(b->property("category").toInt()), palette));
}

} // namespace cnready::ui
