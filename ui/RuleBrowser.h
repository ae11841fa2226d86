#pragma once
// Help ▸ Rules: every rule code with what it finds, why it matters, an example and what to
// write instead, plus its recipe. Reads the rule registry, the single source of rule text.

#include <QDialog>

class QListWidget;
class QLineEdit;
class QTextBrowser;

namespace cnready::ui {

class RuleBrowser : public QDialog {
    Q_OBJECT
public:
    explicit RuleBrowser(QWidget* parent = nullptr);
    /// Selects `code` ("R104"); returns false when the code is unknown.
    bool showRule(const QString& code);
    /// The HTML page for one rule (also used for tests).
    static QString ruleHtml(const QString& code);

private:
    void applyFilter(const QString& text);
    QLineEdit* m_filter;
    QListWidget* m_list;
    QTextBrowser* m_page;
};

} // namespace cnready::ui
