#include "ReportView.h"

#include "ReportLinks.h"

#include <QAbstractTextDocumentLayout>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QGuiApplication>
#include <QKeyEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QScrollBar>
#include <QTextDocument>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>

#include <cstdlib>
#include <memory>
#include <utility>

namespace cnready::ui {

QByteArray markdownToHtml(const QByteArray& markdown) {
    // Registering the core extensions is idempotent and guarded by cmark-gfm itself; do it
    // once anyway, before any thread parses.
    static const bool registered = [] {
        cmark_gfm_core_extensions_ensure_registered();
        return true;
    }();
    Q_UNUSED(registered);
    cmark_parser* parser = cmark_parser_new(CMARK_OPT_DEFAULT);
    if (cmark_syntax_extension* table = cmark_find_syntax_extension("table"))
        cmark_parser_attach_syntax_extension(parser, table);
    if (cmark_syntax_extension* strike = cmark_find_syntax_extension("strikethrough"))
        cmark_parser_attach_syntax_extension(parser, strike);
    cmark_parser_feed(parser, markdown.constData(), size_t(markdown.size()));
    cmark_node* root = cmark_parser_finish(parser);
    char* html =
        cmark_render_html(root, CMARK_OPT_DEFAULT, cmark_parser_get_syntax_extensions(parser));
    QByteArray out(html);
    std::free(html);
    cmark_node_free(root);
    cmark_parser_free(parser);
    return out;
}

namespace {
// Grid lines and padding for the tables: QTextDocument draws none by default.
QString styled(const QByteArray& html, bool dark) {
    const QString border = dark ? QStringLiteral("#5a5a5a") : QStringLiteral("#b8b8b8");
    const QString head = dark ? QStringLiteral("#3a3a3a") : QStringLiteral("#eeeeee");
    QString body = QString::fromUtf8(html);
    body.replace(QStringLiteral("<table>"),
                 QStringLiteral("<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\" "
                                "style=\"border-collapse: collapse; border-color: %1;\">")
                     .arg(border));
    body.replace(QStringLiteral("<th>"), QStringLiteral("<th bgcolor=\"%1\">").arg(head));
    body.replace(QStringLiteral("<th align="),
                 QStringLiteral("<th bgcolor=\"%1\" align=").arg(head));
    return linkSourceLocations(body);
}
} // namespace

ReportView::ReportView(QThreadPool* pool, QWidget* parent)
    : QAbstractScrollArea(parent), m_pool(pool) {
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOn); // a fixed width: no relayout for it
    viewport()->setBackgroundRole(QPalette::Base);
    viewport()->setAutoFillBackground(true);
    viewport()->setMouseTracking(true); // the hand over links
    setFocusPolicy(Qt::StrongFocus);    // Ctrl+C, Ctrl+A
    m_relayout.setSingleShot(true);
    m_relayout.setInterval(150);
    connect(&m_relayout, &QTimer::timeout, this, [this] {
        if (m_source && viewport()->width() != m_laidOutWidth)
            startRender();
    });
}

ReportView::~ReportView() {
    // Renders still running deliver to nobody: wait for them and free what they built.
    for (QFutureWatcher<QTextDocument*>* w : std::as_const(m_pending)) {
        w->disconnect(this);
        w->waitForFinished();
        if (w->future().resultCount() > 0)
            delete w->result();
    }
    delete m_doc;
}

void ReportView::setSource(Source source) {
    m_source = std::move(source);
    startRender();
}

void ReportView::showMessage(const QString& markdown) {
    ++m_generation;
    m_source = nullptr;
    m_building = false;
    auto* doc = new QTextDocument;
    doc->setDefaultFont(font());
    doc->setHtml(QString::fromUtf8(markdownToHtml(markdown.toUtf8())));
    doc->setTextWidth(viewport()->width());
    install(doc, m_generation);
}

QString ReportView::toPlainText() const {
    return m_doc ? m_doc->toPlainText() : QString();
}

void ReportView::startRender() {
    const int generation = ++m_generation;
    const int width = qMax(200, viewport()->width());
    if (!m_building) {
        m_building = true;
        viewport()->update();
    }
    auto* watcher = new QFutureWatcher<QTextDocument*>(this);
    m_pending.append(watcher);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation] {
        m_pending.removeOne(watcher);
        watcher->deleteLater();
        std::unique_ptr<QTextDocument> doc(watcher->result());
        if (generation == m_generation)
            install(doc.release(), generation);
    });
    watcher->setFuture(QtConcurrent::run(
        m_pool,
        [source = m_source, width, font = font(),
         dark = palette().color(QPalette::Base).lightness() < 128,
         gui = thread()]() -> QTextDocument* {
            auto* doc = new QTextDocument;
            doc->setDefaultFont(font);
            doc->setHtml(styled(markdownToHtml(source()), dark));
            doc->setTextWidth(width);
            doc->documentLayout()->documentSize(); // the whole layout, here on the worker
            doc->moveToThread(gui);
            return doc;
        }));
}

void ReportView::install(QTextDocument* doc, int generation) {
    Q_UNUSED(generation);
    const int scroll = verticalScrollBar()->value();
    m_selection = QTextCursor(); // it points into the document deleted next
    m_pressedLink.clear();
    m_selecting = false;
    delete m_doc;
    m_doc = doc;
    m_doc->setParent(nullptr);
    m_laidOutWidth = int(doc->textWidth());
    m_building = false;
    updateScrollBars();
    verticalScrollBar()->setValue(scroll);
    viewport()->update();
    emit rendered();
    if (m_source && viewport()->width() != m_laidOutWidth)
        m_relayout.start();
}

void ReportView::updateScrollBars() {
    const QSizeF size = m_doc ? m_doc->size() : QSizeF();
    verticalScrollBar()->setPageStep(viewport()->height());
    verticalScrollBar()->setSingleStep(fontMetrics().height() * 3);
    verticalScrollBar()->setRange(0, qMax(0, int(size.height()) - viewport()->height()));
    horizontalScrollBar()->setPageStep(viewport()->width());
    horizontalScrollBar()->setRange(0, qMax(0, int(size.width()) - viewport()->width()));
}

void ReportView::paintEvent(QPaintEvent* event) {
    QPainter p(viewport());
    const QRect clip = event->rect();
    if (m_doc) {
        const QPoint offset(horizontalScrollBar()->value(), verticalScrollBar()->value());
        p.translate(-offset);
        QAbstractTextDocumentLayout::PaintContext ctx;
        ctx.clip = QRectF(clip.translated(offset));
        ctx.palette = palette();
        ctx.palette.setColor(QPalette::Text, palette().color(QPalette::Text));
        if (m_selection.hasSelection()) {
            QAbstractTextDocumentLayout::Selection sel;
            sel.cursor = m_selection;
            sel.format.setBackground(palette().brush(QPalette::Highlight));
            sel.format.setForeground(palette().brush(QPalette::HighlightedText));
            ctx.selections.append(sel);
        }
        p.setClipRect(ctx.clip);
        m_doc->documentLayout()->draw(&p, ctx); // paints only what meets the clip
        p.resetTransform();
    }
    if (m_building) {
        // Said over the old document (or the empty page) until the new one is laid out.
        const QString text = tr("Building the preview…");
        QFont f = font();
        f.setBold(true);
        p.setFont(f);
        const QRect box = p.fontMetrics().boundingRect(text).adjusted(-12, -6, 12, 6);
        const QRect at(viewport()->width() - box.width() - 12, 8, box.width(), box.height());
        p.setClipping(false);
        p.fillRect(at, palette().color(QPalette::ToolTipBase));
        p.setPen(palette().color(QPalette::ToolTipText));
        p.drawRect(at.adjusted(0, 0, -1, -1));
        p.drawText(at, Qt::AlignCenter, text);
    }
}

void ReportView::resizeEvent(QResizeEvent* event) {
    QAbstractScrollArea::resizeEvent(event);
    updateScrollBars();
    if (m_source && viewport()->width() != m_laidOutWidth)
        m_relayout.start();
}

void ReportView::scrollContentsBy(int, int) {
    viewport()->update();
}

void ReportView::changeEvent(QEvent* event) {
    QAbstractScrollArea::changeEvent(event);
    if ((event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange) && m_source)
        startRender();
}

int ReportView::positionAt(const QPoint& pos) const {
    if (!m_doc)
        return -1;
    const QPointF at = pos + QPointF(horizontalScrollBar()->value(), verticalScrollBar()->value());
    return m_doc->documentLayout()->hitTest(at, Qt::FuzzyHit);
}

QString ReportView::linkAt(const QPoint& pos) const {
    if (!m_doc)
        return {};
    const QPointF at = pos + QPointF(horizontalScrollBar()->value(), verticalScrollBar()->value());
    return m_doc->documentLayout()->anchorAt(at);
}

QString ReportView::selectedText() const {
    // QTextCursor separates paragraphs with U+2029 and table cells with other controls.
    QString text = m_selection.selectedText();
    for (QChar& c : text)
        if (c == QChar::ParagraphSeparator || c == QChar::LineSeparator || c == QChar(0xFDD0) ||
            c == QChar(0xFDD1))
            c = QLatin1Char('\n');
    return text;
}

void ReportView::selectAll() {
    if (!m_doc)
        return;
    m_selection = QTextCursor(m_doc);
    m_selection.select(QTextCursor::Document);
    viewport()->update();
}

void ReportView::copy() const {
    if (m_selection.hasSelection())
        QGuiApplication::clipboard()->setText(selectedText());
}

void ReportView::mousePressEvent(QMouseEvent* event) {
    const int pos = positionAt(event->position().toPoint());
    if (event->button() != Qt::LeftButton || pos < 0)
        return QAbstractScrollArea::mousePressEvent(event);
    m_pressedLink = linkAt(event->position().toPoint());
    if (event->modifiers() & Qt::ShiftModifier && !m_selection.isNull()) {
        m_selection.setPosition(pos, QTextCursor::KeepAnchor);
    } else {
        m_selection = QTextCursor(m_doc);
        m_selection.setPosition(pos);
    }
    m_selecting = true;
    viewport()->update();
}

void ReportView::mouseMoveEvent(QMouseEvent* event) {
    const QPoint at = event->position().toPoint();
    if (m_selecting && (event->buttons() & Qt::LeftButton)) {
        const int pos = positionAt(at);
        if (pos >= 0 && pos != m_selection.position()) {
            m_selection.setPosition(pos, QTextCursor::KeepAnchor);
            m_pressedLink.clear(); // a drag selects, it does not follow the link
            viewport()->update();
        }
    }
    viewport()->setCursor(linkAt(at).isEmpty() ? Qt::IBeamCursor : Qt::PointingHandCursor);
}

void ReportView::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton)
        return QAbstractScrollArea::mouseReleaseEvent(event);
    m_selecting = false;
    const QString link = std::exchange(m_pressedLink, QString());
    if (link.isEmpty() || link != linkAt(event->position().toPoint()))
        return;
    const SourceLink at = parseSourceLink(link);
    if (!at.path.isEmpty())
        emit sourceLinkActivated(at.path, at.cell, at.line);
}

void ReportView::mouseDoubleClickEvent(QMouseEvent* event) {
    const int pos = positionAt(event->position().toPoint());
    if (event->button() != Qt::LeftButton || pos < 0)
        return QAbstractScrollArea::mouseDoubleClickEvent(event);
    m_selection = QTextCursor(m_doc);
    m_selection.setPosition(pos);
    m_selection.select(QTextCursor::WordUnderCursor);
    viewport()->update();
}

void ReportView::keyPressEvent(QKeyEvent* event) {
    if (event->matches(QKeySequence::Copy))
        return copy();
    if (event->matches(QKeySequence::SelectAll))
        return selectAll();
    QAbstractScrollArea::keyPressEvent(event);
}

void ReportView::contextMenuEvent(QContextMenuEvent* event) {
    QMenu menu(this);
    QAction* copyAct = menu.addAction(tr("&Copy"), this, &ReportView::copy);
    copyAct->setShortcut(QKeySequence::Copy);
    copyAct->setEnabled(m_selection.hasSelection());
    QAction* all = menu.addAction(tr("Select &All"), this, &ReportView::selectAll);
    all->setShortcut(QKeySequence::SelectAll);
    all->setEnabled(m_doc != nullptr);
    menu.exec(event->globalPos());
}

} // namespace cnready::ui
