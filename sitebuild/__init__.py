"""The site's build, one job a module (``python build.py`` runs it: build.py).

    common     the repository's paths, the build's error, the cache, the programs, Node
    pins       what is downloaded (npm, PyPI), pinned by sha256, and what is taken from it
    wheel      the page's pishe wheel: stripped, its catalogs apart, compiled by Pyodide
    friends    the modules and scripts only a friends' table runs, apart
    games      each game's modules and scripts but the first game's, apart
    stdlib     the standard library's trace, and its split in three zips
    icons      the app's icons
    minify     our scripts and style sheets, minified by esbuild
    compress   the precompressed copies (brotli, gzip)
    markup     every game's markup in index.html (catalogs.py reads it too)
    words      the words the build writes: the page's, the manifest's, the loading line's
    site       the assembly of dist/ (its layout and the build info are described there)
    serve      the local server
    programs/  the Python and JavaScript the build runs in Pyodide or Node, read as text

Standard library and Babel (catalogs.py compiles the gettext catalogs into the wheel); pip,
npm and Node are used as command-line tools (Node runs the downloaded Pyodide once, to compile
micropip to bytecode, and esbuild). Everything downloaded is pinned by sha256 (pins), kept in
a cache outside the repository (~/.cache/pishe, or $PISHE_CACHE) and verified after every
download and on every cache hit."""
