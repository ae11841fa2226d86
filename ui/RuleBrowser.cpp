#include "RuleBrowser.h"

#include "FindingsModel.h"
#include "Theme.h"
#include "rules/Recipes.h"
#include "rules/RuleRegistry.h"

#include <QApplication>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QListWidget>
#include <QSplitter>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace cnready::ui {

namespace {
QString codeBlock(const QString& code) {
    const QString bg = QApplication::palette().color(QPalette::AlternateBase).name();
    return QStringLiteral("<table width='100%' cellpadding='6' style='background:%1'><tr><td>"
                          "<pre>%2</pre></td></tr></table>")
        .arg(bg, code.toHtmlEscaped());
}
} // namespace

RuleBrowser::RuleBrowser(QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Rules — cnready"));
    setObjectName(QStringLiteral("ruleBrowser"));
    resize(900, 600);
    auto* lay = new QVBoxLayout(this);
    auto* split = new QSplitter(this);
    auto* left = new QWidget(split);
    auto* leftLay = new QVBoxLayout(left);
    leftLay->setContentsMargins(0, 0, 0, 0);
    m_filter = new QLineEdit(left);
    m_filter->setPlaceholderText(tr("Filter rules…"));
    m_filter->setClearButtonEnabled(true);
    m_list = new QListWidget(left);
    leftLay->addWidget(m_filter);
    leftLay->addWidget(m_list);
    m_page = new QTextBrowser(split);
    m_page->setObjectName(QStringLiteral("rulePage"));
    m_page->setOpenLinks(false);
    split->addWidget(left);
    split->addWidget(m_page);
    split->setStretchFactor(1, 1);
    split->setSizes({340, 560});
    m_list->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_list->setTextElideMode(Qt::ElideRight);
    lay->addWidget(split);
    auto* box = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(box, &QDialogButtonBox::rejected, this, &QDialog::reject);
    lay->addWidget(box);

    for (const auto& rule : RuleRegistry::instance().rules()) {
        const RuleInfo& i = rule->info();
        auto* item = new QListWidgetItem(categoryIcon(i.category, palette()),
                                         QStringLiteral("%1  %2").arg(i.code, i.title), m_list);
        item->setData(Qt::UserRole, i.code);
        item->setToolTip(QStringLiteral("%1 — %2").arg(categoryLabel(i.category), i.title));
    }
    connect(m_list, &QListWidget::currentItemChanged, this, [this](QListWidgetItem* cur) {
        m_page->setHtml(cur ? ruleHtml(cur->data(Qt::UserRole).toString()) : QString());
    });
    connect(m_filter, &QLineEdit::textChanged, this, &RuleBrowser::applyFilter);
    if (m_list->count() > 0)
        m_list->setCurrentRow(0);
}

void RuleBrowser::applyFilter(const QString& text) {
    for (int i = 0; i < m_list->count(); ++i) {
        QListWidgetItem* item = m_list->item(i);
        const QString code = item->data(Qt::UserRole).toString();
        const Rule* r = RuleRegistry::instance().find(code);
        bool match = text.trimmed().isEmpty() || item->text().contains(text, Qt::CaseInsensitive);
        if (!match && r)
            match = r->info().whatItDoes.contains(text, Qt::CaseInsensitive) ||
                    r->info().recipe.contains(text, Qt::CaseInsensitive) ||
                    categoryLabel(r->info().category).contains(text, Qt::CaseInsensitive);
        item->setHidden(!match);
    }
}

bool RuleBrowser::showRule(const QString& code) {
    for (int i = 0; i < m_list->count(); ++i)
        if (m_list->item(i)->data(Qt::UserRole).toString().compare(code, Qt::CaseInsensitive) ==
            0) {
            m_filter->clear();
            m_list->setCurrentRow(i);
            return true;
        }
    return false;
}

QString RuleBrowser::ruleHtml(const QString& code) {
    const Rule* rule = RuleRegistry::instance().find(code);
    if (!rule)
        return tr("<p>Unknown rule %1.</p>").arg(code.toHtmlEscaped());
    const RuleInfo& i = rule->info();
    QString h = QStringLiteral("<h2>%1 — %2</h2>").arg(i.code, i.title.toHtmlEscaped());
    h += QStringLiteral("<p><b>%1</b> · <code>%2</code>%3</p>")
             .arg(categoryLabel(i.category), i.name.toHtmlEscaped(),
                  i.hotPathOnly ? tr(" · hot paths only") : QString());
    h += tr("<h3>What it finds</h3>") +
         QStringLiteral("<p>%1</p>").arg(FindingsModel::htmlMessage(i.whatItDoes));
    h += tr("<h3>Why it matters</h3>") +
         QStringLiteral("<p>%1</p>").arg(FindingsModel::htmlMessage(i.why));
    if (!i.example.isEmpty())
        h += tr("<h3>Example</h3>") + codeBlock(i.example);
    if (!i.useInstead.isEmpty())
        h += tr("<h3>Write instead</h3>") + codeBlock(i.useInstead);
    if (const Recipe* r = findRecipe(i.recipe)) {
        h += tr("<h3>Recipe %1: %2</h3>").arg(r->anchor.toHtmlEscaped(), r->title.toHtmlEscaped());
        h += QStringLiteral("<p>%1</p>").arg(FindingsModel::htmlMessage(r->summary));
        if (!r->before.isEmpty())
            h += tr("<p><i>Before</i></p>") + codeBlock(r->before);
        if (!r->after.isEmpty())
            h += tr("<p><i>After</i></p>") + codeBlock(r->after);
    }
    return h;
}

} // namespace cnready::ui
