"""Languages: the chrome's words in each language a site is written in, and CLDR's plural
rules (through Babel) that choose the form of every count, in the chrome and in the
command line's English."""
