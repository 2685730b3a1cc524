"""What every game shares: the game interface, the match, the fair deck, the protocol between pages."""
