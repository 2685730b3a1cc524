// The end of <body>: the game the page opens on (web/first-game.js) and the page's words in its
// language (web/first-words.js), both before it is shown.
pisheFirstGame.first();
pisheFirstWords.first();
