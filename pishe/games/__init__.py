"""The games of the table, one package each (reached by id: :func:`pishe.table.game.get_game`)."""
