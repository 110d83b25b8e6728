// The play page's entry module (loaded by games/play.html): the controller in
// play-page.js wires the board and the controls to the modules that send moves,
// look back in time, replay a finished game and keep the move list with its notes.

import { PlayPage } from "./play-page.js";

const page = new PlayPage();
page.start();
