#define NCURSES_WIDECHAR 1
#define _XOPEN_SOURCE_EXTENDED 1
#define _DEFAULT_SOURCE 1

#include "CNcurses.h"

#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <wchar.h>
#include <ncursesw/curses.h>

// Key codes given to the bracketed-paste markers with define_key: past every ncurses key.
#define PASTE_START_CODE (KEY_MAX + 1)
#define PASTE_END_CODE (KEY_MAX + 2)

static SCREEN *screen = NULL;
static attr_t style_attributes[CN_STYLE_COUNT];
static short style_pairs[CN_STYLE_COUNT];

static volatile sig_atomic_t pending_signal = 0;

static int codeset_is_utf8(void) {
    const char *codeset = nl_langinfo(CODESET);
    return codeset != NULL && (strcasecmp(codeset, "UTF-8") == 0 || strcasecmp(codeset, "UTF8") == 0);
}

int cn_setup_locale(void) {
    setlocale(LC_ALL, "");
    if (codeset_is_utf8()) return 1;
    setlocale(LC_CTYPE, "C.UTF-8");
    return codeset_is_utf8();
}

static void record_signal(int number) { pending_signal = number; }

void cn_install_signal_handlers(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = record_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0; // no SA_RESTART: a read waiting for a key returns at once
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGHUP, &action, NULL);
    // SIGPIPE is what a socket whose far end went away raises on a write (Linux has no
    // SO_NOSIGPIPE): a dropped connection to the server, which the game rides out offline. Its
    // network library ignores it for that reason, and so does the game, whose terminal going
    // away is SIGHUP.
    signal(SIGPIPE, SIG_IGN);
}

int cn_take_signal(void) {
    int number = pending_signal;
    pending_signal = 0;
    return number;
}

static void write_all(const char *text) {
    size_t left = strlen(text);
    while (left > 0) {
        ssize_t written = write(STDOUT_FILENO, text, left);
        if (written <= 0) return; // a terminal that hung up: nothing more to restore
        text += written;
        left -= (size_t)written;
    }
}

int cn_open(void) {
    if (screen != NULL) return 0;
    // newterm, unlike initscr, returns NULL for an unknown terminal instead of exiting.
    screen = newterm(NULL, stdout, stdin);
    if (screen == NULL) return -1;
    set_term(screen);
    // A terminal that cannot place the cursor (TERM=dumb) would show nothing of the game.
    char *cursor_address = tigetstr("cup");
    if (cursor_address == NULL || cursor_address == (char *)-1) {
        endwin();
        delscreen(screen);
        screen = NULL;
        return -2;
    }
    raw(); // Ctrl-C, Ctrl-Z, Ctrl-S arrive as keys
    noecho();
    nonl();
    intrflush(stdscr, FALSE);
    keypad(stdscr, TRUE);
    curs_set(0);
    set_escdelay(25); // Esc alone is a key here, so answer it at once
    define_key("\033[200~", PASTE_START_CODE);
    define_key("\033[201~", PASTE_END_CODE);
    fflush(stdout);
    write_all("\033[?2004h");
    return 0;
}

void cn_close(void) {
    if (screen == NULL) return;
    curs_set(1);
    endwin();
    write_all("\033[?2004l");
    delscreen(screen);
    screen = NULL;
}

void cn_suspend(void) {
    if (screen == NULL) return;
    struct sigaction stop, previous;
    sigaction(SIGTSTP, NULL, &previous);
    // Ignored when the shell has no job control: nothing could resume a stopped game.
    if (previous.sa_handler == SIG_IGN) return;
    endwin();
    write_all("\033[?2004l");
    // Stopped by the default action, not by the handler ncurses may have installed (it would
    // leave curses a second time), and with the whole process group, as Ctrl-Z stops a job.
    memset(&stop, 0, sizeof stop);
    stop.sa_handler = SIG_DFL;
    sigemptyset(&stop.sa_mask);
    sigaction(SIGTSTP, &stop, NULL);
    sigset_t suspend_signal;
    sigemptyset(&suspend_signal);
    sigaddset(&suspend_signal, SIGTSTP);
    sigprocmask(SIG_UNBLOCK, &suspend_signal, NULL);
    kill(0, SIGTSTP);
    // Here again after SIGCONT (`fg`): back into curses, every cell redrawn.
    sigaction(SIGTSTP, &previous, NULL);
    write_all("\033[?2004h");
    clearok(curscr, TRUE);
    doupdate();
}

int cn_start_colors(void) {
    if (!has_colors()) return 0;
    start_color();
    use_default_colors();
    return 1;
}

int cn_enable_mouse(void) {
    // No click interval: a press counts at once instead of waiting to see whether it is a click.
    mouseinterval(0);
    mmask_t wanted = BUTTON1_PRESSED | BUTTON1_CLICKED;
    return mousemask(wanted, NULL) != 0;
}

void cn_define_style(int index, int use_color, int foreground, int background, int attributes) {
    if (index < 0 || index >= CN_STYLE_COUNT) return;
    attr_t curses_attributes = A_NORMAL;
    if (attributes & CN_ATTR_BOLD) curses_attributes |= A_BOLD;
    if (attributes & CN_ATTR_REVERSE) curses_attributes |= A_REVERSE;
    if (attributes & CN_ATTR_DIM) curses_attributes |= A_DIM;
    style_attributes[index] = curses_attributes;
    style_pairs[index] = 0;
    if (use_color && index + 1 < COLOR_PAIRS) {
        init_pair((short)(index + 1), (short)foreground, (short)background);
        style_pairs[index] = (short)(index + 1);
    }
}

void cn_size(int *columns, int *rows) {
    int y, x;
    getmaxyx(stdscr, y, x);
    *columns = x;
    *rows = y;
}

void cn_set_read_timeout(int milliseconds) { wtimeout(stdscr, milliseconds); }

static int key_kind(wint_t code) {
    switch (code) {
    case KEY_UP: return CN_KEY_UP;
    case KEY_DOWN: return CN_KEY_DOWN;
    case KEY_LEFT: return CN_KEY_LEFT;
    case KEY_RIGHT: return CN_KEY_RIGHT;
    case KEY_PPAGE: return CN_KEY_PAGE_UP;
    case KEY_NPAGE: return CN_KEY_PAGE_DOWN;
    case KEY_HOME: return CN_KEY_HOME;
    case KEY_END: return CN_KEY_END;
    case KEY_F(1): return CN_KEY_F1;
    case KEY_F(2): return CN_KEY_F2;
    case KEY_BACKSPACE: return CN_KEY_BACKSPACE;
    case KEY_ENTER: return CN_KEY_ENTER;
    case KEY_RESIZE: return CN_KEY_RESIZE;
    case KEY_MOUSE: return CN_KEY_MOUSE;
    case PASTE_START_CODE: return CN_KEY_PASTE_START;
    case PASTE_END_CODE: return CN_KEY_PASTE_END;
    default: return CN_KEY_OTHER;
    }
}

int cn_read(uint32_t *value) {
    wint_t input = 0;
    switch (wget_wch(stdscr, &input)) {
    case OK:
        *value = (uint32_t)input;
        return CN_READ_CHARACTER;
    case KEY_CODE_YES:
        *value = (uint32_t)key_kind(input);
        return CN_READ_KEY;
    default:
        return CN_READ_NONE;
    }
}

int cn_take_click(int *column, int *row) {
    MEVENT event;
    if (getmouse(&event) != OK) return 0;
    if (!(event.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED))) return 0;
    *column = event.x;
    *row = event.y;
    return 1;
}

void cn_put_cell(int column, int row, const uint32_t *scalars, int count, int style) {
    wchar_t text[CCHARW_MAX + 1];
    int length = 0;
    for (; length < count && length < CCHARW_MAX; length++) text[length] = (wchar_t)scalars[length];
    text[length] = L'\0';
    if (style < 0 || style >= CN_STYLE_COUNT) style = 0;
    cchar_t cell;
    if (setcchar(&cell, text, style_attributes[style], style_pairs[style], NULL) != OK) {
        setcchar(&cell, L"?", style_attributes[style], style_pairs[style], NULL);
    }
    // The bottom-right cell cannot advance the cursor and reports ERR, yet is written: ignore it.
    mvwadd_wch(stdscr, row, column, &cell);
}

void cn_clear(void) {
    werase(stdscr);
    clearok(curscr, TRUE);
}

void cn_refresh(void) {
    wnoutrefresh(stdscr);
    doupdate();
}

void cn_beep(void) { beep(); }
