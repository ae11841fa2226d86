#include "WelcomePage.h"

#include "AppIcon.h"

#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace cnready::ui {

WelcomePage::WelcomePage(QWidget* parent) : QWidget(parent) {
    auto* page = this;
    page->setObjectName(QStringLiteral("welcomePage"));
    auto* outer = new QVBoxLayout(page);
    auto* box = new QWidget(page);
    box->setMaximumWidth(560);
    auto* lay = new QVBoxLayout(box);
    auto* icon = new QLabel(box);
    icon->setPixmap(appIcon().pixmap(64, 64));
    auto* title = new QLabel(tr("<h1>cnready Studio</h1>"), box);
    auto* intro = new QLabel(
        tr("Will this NumPy code scale on GPUs with cuPyNumeric? Open a project folder: cnready "
           "reads the Python files (it never runs or changes them), marks the idioms that scale, "
           "block or need a refactor, walks six decision gates and gives one verdict you can "
           "export as a report."),
        box);
    intro->setWordWrap(true);
    auto* openBtn = new QPushButton(tr("Open Folder…"), box);
    openBtn->setObjectName(QStringLiteral("welcomeOpen"));
    connect(openBtn, &QPushButton::clicked, this, &WelcomePage::openFolderRequested);
    m_example = new QPushButton(tr("Open the Example Project"), box);
    m_example->setObjectName(QStringLiteral("welcomeExample"));
    m_example->setDefault(true);
    m_example->setToolTip(tr("Three small NumPy programs (a heat stencil, particle forces "
                             "and a signal filter) that show every kind of finding"));
    connect(m_example, &QPushButton::clicked, this, &WelcomePage::openExampleRequested);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_example);
    buttons->addWidget(openBtn);
    buttons->addStretch(1);
    auto* hint = new QLabel(tr("You can also drop a folder onto this window, or start "
                               "<tt>cnready-studio PATH</tt>."),
                            box);
    hint->setWordWrap(true);
    auto* recentLabel = new QLabel(tr("<b>Recent projects</b>"), box);
    m_recent = new QListWidget(box);
    m_recent->setObjectName(QStringLiteral("welcomeRecent"));
    m_recent->setMaximumHeight(160);
    connect(m_recent, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
        emit projectChosen(item->data(Qt::UserRole).toString());
    });
    connect(m_recent, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) {
        emit projectChosen(item->data(Qt::UserRole).toString());
    });
    lay->addWidget(icon);
    lay->addWidget(title);
    lay->addWidget(intro);
    lay->addSpacing(12);
    lay->addLayout(buttons);
    lay->addWidget(hint);
    lay->addSpacing(12);
    lay->addWidget(recentLabel);
    lay->addWidget(m_recent);
    outer->addStretch(1);
    auto* row = new QHBoxLayout;
    row->addStretch(1);
    row->addWidget(box, 3);
    row->addStretch(1);
    outer->addLayout(row);
    outer->addStretch(2);
}

void WelcomePage::setRecent(const QStringList& list) {
    m_recent->clear();
    for (const QString& p : list) {
        auto* item = new QListWidgetItem(
            QStringLiteral("%1  —  %2").arg(QFileInfo(p).fileName(), QDir::toNativeSeparators(p)),
            m_recent);
        item->setData(Qt::UserRole, p);
    }
    if (list.isEmpty())
        new QListWidgetItem(tr("(none yet)"), m_recent);
}

void WelcomePage::setExampleAvailable(bool available) {
    m_example->setEnabled(available);
}

} // namespace cnready::ui
