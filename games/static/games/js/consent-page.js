// Pages that show the research question without starting a game (the full wording, My games).

import { setUpConsentChoice } from "./consent.js";

setUpConsentChoice();
