"""The games of the table, one package each, found by scanning this folder: a package
that exposes ``GAMES`` (its variants) is registered (see :mod:`pishe.table.game`)."""
