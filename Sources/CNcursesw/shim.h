#ifndef CNCURSESW_SHIM_H
#define CNCURSESW_SHIM_H
/* SwiftPM drops pkg-config's -D flags; without this the wide-character API is invisible. */
#define NCURSES_WIDECHAR 1
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>
#include <ncursesw/ncurses.h>
#include <ncursesw/term.h>

/* Accessors for C globals and function-like macros, which Swift 6 cannot use directly. */
static inline WINDOW *CNcursesw_stdscr(void) { return stdscr; }
static inline int CNcursesw_lines(void) { return LINES; }
static inline int CNcursesw_cols(void) { return COLS; }
static inline int CNcursesw_colors(void) { return COLORS; }
static inline int CNcursesw_color_pairs(void) { return COLOR_PAIRS; }
static inline FILE *CNcursesw_stdin(void) { return stdin; }
static inline FILE *CNcursesw_stdout(void) { return stdout; }
static inline attr_t CNcursesw_A_BOLD(void) { return A_BOLD; }
static inline attr_t CNcursesw_A_DIM(void) { return A_DIM; }
static inline attr_t CNcursesw_A_UNDERLINE(void) { return A_UNDERLINE; }
static inline attr_t CNcursesw_A_REVERSE(void) { return A_REVERSE; }
static inline attr_t CNcursesw_A_ITALIC(void) { return A_ITALIC; }

/* Mouse: clicks of the first button and the wheel (buttons 4 and 5), reported at once. */
static inline void CNcursesw_enable_mouse(void) {
    mousemask(BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
    mouseinterval(0);
}

/* The pending mouse event: 1 click, 2 wheel up, 3 wheel down, 0 anything else or none. */
static inline int CNcursesw_mouse_event(int *x, int *y) {
    MEVENT event;
    if (getmouse(&event) != OK) return 0;
    *x = event.x;
    *y = event.y;
    if (event.bstate & BUTTON1_PRESSED) return 1;
    if (event.bstate & BUTTON4_PRESSED) return 2;
    if (event.bstate & BUTTON5_PRESSED) return 3;
    return 0;
}

/* Whether the locale's character set is UTF-8 (call after setlocale). */
static inline int CNcursesw_codeset_is_utf8(void) {
    const char *cs = nl_langinfo(CODESET);
    return cs != NULL && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);
}

/* Checks TERM without touching the screen: 1 usable, 0 unknown, -1 no cursor addressing.
   Uses setupterm (which, given an error pointer, prints nothing) and frees what it loaded. */
static inline int CNcursesw_check_terminal(void) {
    int err = 0;
    if (setupterm(NULL, STDOUT_FILENO, &err) != OK) return 0;
    const char *cup = tigetstr("cup");
    int usable = (cup != NULL && cup != (char *)-1) ? 1 : -1;
    del_curterm(cur_term);
    return usable;
}

/* Installs a handler with sigaction, saving the previous action in *old. A signal the process
   ignores (nohup, a background job) stays ignored when keep_ignored is set. Returns 0 when
   installed, 1 when left ignored, -1 on error. */
static inline int CNcursesw_install_handler(int sig, void (*handler)(int), int keep_ignored, struct sigaction *old) {
    if (sigaction(sig, NULL, old) != 0) return -1;
    if (keep_ignored && old->sa_handler == SIG_IGN) return 1;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND; /* a second signal takes the default action */
    return sigaction(sig, &sa, NULL) == 0 ? 0 : -1;
}

/* Puts back a saved action. */
static inline int CNcursesw_restore_handler(int sig, const struct sigaction *old) {
    return sigaction(sig, old, NULL);
}

/* Takes the default action for a signal: reset, unblock, raise. For use in a handler. */
static inline void CNcursesw_reraise(int sig) {
    signal(sig, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    raise(sig);
}
#endif
