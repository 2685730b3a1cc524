// The end of <body>: the page's words in its language before it is shown (web/first-words.js).
pisheFirstWords.first();
