/**
@module The alternate-screen sequences the full-screen views write (`less` style): the user's main
screen and scrollback stay untouched underneath and come back as they were.
*/
import {controlSequence} from '../src/layout/terminal/terminal-sink.js';

/** DEC private mode 1049: save the cursor and switch to the alternate screen, cursor home. */
export const ENTER_ALTERNATE_SCREEN = controlSequence('\u001B[?1049h\u001B[H');
/** Back to the main screen and the saved cursor. */
export const LEAVE_ALTERNATE_SCREEN = controlSequence('\u001B[?1049l');
/**
Back on the alternate screen after a program that took the terminal ($EDITOR): an editor that used
the alternate screen itself leaves it on exit, which puts the terminal on the main screen. Written
straight to the terminal — not through Ink's `write`, which first erases its last frame's rows,
and those would be the main screen's.
*/
export const REENTER_ALTERNATE_SCREEN = controlSequence('\u001B[?1049h');
/** Then through Ink's `write`: a cleared screen, the cursor home and hidden again (the editor showed it), and Ink redraws its whole last frame below. */
export const REDRAW_SCREEN = controlSequence('\u001B[H\u001B[2J\u001B[?25l');
