#ifndef CNCURSES_H
#define CNCURSES_H
// Placeholder until the terminal work lands.
int cncurses_placeholder(void);
#endif
