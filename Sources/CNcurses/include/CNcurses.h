#ifndef CNCURSES_H
#define CNCURSES_H

// The part of ncurses (and of signal handling) the terminal adapter uses, as plain C functions.
// curses.h itself stays inside shim.c: its macros (`timeout`, `clear`, `move`, …) and varargs
// functions cannot be called from Swift, and would collide with Swift names if imported.

#include <stdint.h>

/// Sets the locale from the environment; when its character set is not UTF-8, tries `C.UTF-8`
/// for LC_CTYPE so that Hangul can be read and drawn. Returns 1 when the character set is UTF-8.
int cn_setup_locale(void);

/// Installs handlers for SIGINT, SIGTERM and SIGHUP that only record the signal (no SA_RESTART,
/// so a blocking read returns), and ignores SIGPIPE (a socket's far end gone: the game plays on
/// offline). Call before `cn_open`, so that ncurses keeps its hands off them.
void cn_install_signal_handlers(void);
/// The last signal received since the previous call (SIGINT, SIGTERM or SIGHUP), or 0; clears it.
int cn_take_signal(void);

/// Starts curses on stdin/stdout: raw mode, no echo, keypad, hidden cursor, 25 ms Esc delay,
/// bracketed paste. Returns 0; -1 when the terminal type is unknown, -2 when the terminal cannot
/// place the cursor (TERM=dumb). Never exits the process.
int cn_open(void);
/// Leaves curses: bracketed paste off, cursor visible, terminal modes restored. Safe to call twice.
void cn_close(void);
/// Ctrl-Z: leaves curses as `cn_close` does and stops the process group, as the terminal would
/// for Ctrl-Z outside raw mode; once continued (`fg`), comes back and redraws every cell.
/// Does nothing when SIGTSTP is ignored (a shell without job control could never resume it).
void cn_suspend(void);

/// Whether the terminal can show colors; if so starts them with the terminal's default colors.
int cn_start_colors(void);
/// Turns on reporting of button-1 presses and clicks. Returns 1 when the terminal supports a mouse.
int cn_enable_mouse(void);

enum {
    CN_ATTR_BOLD = 1,
    CN_ATTR_REVERSE = 2,
    CN_ATTR_DIM = 4,
};

enum {
    CN_COLOR_DEFAULT = -1,
    CN_COLOR_BLACK = 0,
    CN_COLOR_RED = 1,
    CN_COLOR_GREEN = 2,
    CN_COLOR_YELLOW = 3,
    CN_COLOR_BLUE = 4,
    CN_COLOR_MAGENTA = 5,
    CN_COLOR_CYAN = 6,
    CN_COLOR_WHITE = 7,
};

/// How many styles `cn_define_style` accepts.
enum { CN_STYLE_COUNT = 32 };
/// Defines style `index` (0 ..< CN_STYLE_COUNT): `attributes` from CN_ATTR_*; colors only when
/// `use_color` (after `cn_start_colors` said yes).
void cn_define_style(int index, int use_color, int foreground, int background, int attributes);

/// The terminal size ncurses knows now.
void cn_size(int *columns, int *rows);

/// Sets how long `cn_read` waits: 0 = don't wait, > 0 milliseconds, < 0 forever.
void cn_set_read_timeout(int milliseconds);

enum {
    CN_READ_NONE = 0,      // nothing arrived in time
    CN_READ_CHARACTER = 1, // *value is a Unicode scalar (control characters included)
    CN_READ_KEY = 2,       // *value is one of CN_KEY_*
};

enum {
    CN_KEY_OTHER = 0,
    CN_KEY_UP, CN_KEY_DOWN, CN_KEY_LEFT, CN_KEY_RIGHT,
    CN_KEY_PAGE_UP, CN_KEY_PAGE_DOWN, CN_KEY_HOME, CN_KEY_END,
    CN_KEY_F1, CN_KEY_F2,
    CN_KEY_BACKSPACE, CN_KEY_ENTER,
    CN_KEY_RESIZE,
    CN_KEY_MOUSE,
    CN_KEY_PASTE_START, CN_KEY_PASTE_END,
};

/// Reads one input: a character, a key, or nothing within the read timeout.
int cn_read(uint32_t *value);
/// After CN_KEY_MOUSE: the cell of a button-1 press or click. Returns 0 for any other mouse event.
int cn_take_click(int *column, int *row);

/// Writes one cell at (column, row): `count` scalars (a spacing character and any combining ones)
/// in style `style`. A wide character covers this cell and the next.
void cn_put_cell(int column, int row, const uint32_t *scalars, int count, int style);
/// Forgets what the screen shows, so that the next refresh redraws every cell (after a resize).
void cn_clear(void);
/// Sends everything written since the last refresh to the terminal, in one write.
void cn_refresh(void);
void cn_beep(void);

#endif
