#pragma once
// The main window's geometry, dock layout and table/detail split between sessions
// (QSettings "window/…"), and the first window's size on the screen it opens on.

class QMainWindow;

namespace cnready::ui {

/// Restores the saved geometry and dock state; without one (or with one saved on a larger
/// screen that no longer fits) sizes the window with fitToScreen().
void restoreWindowLayout(QMainWindow* window);
void saveWindowLayout(const QMainWindow* window);
/// The first window: sized to the available geometry of the screen it opens on (at most
/// 1500×950), centred, the docks in proportion (the verdict readable without scrolling at
/// 1366×768).
void fitToScreen(QMainWindow* window);

} // namespace cnready::ui
