#include "CNcurses.h"
int cncurses_placeholder(void) { return 0; }
