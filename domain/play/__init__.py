"""Play: the dice, resolving an action, the turns, exchanges, markers, the GM's calls and
changes, corrections, and the table's records (``play.table``)."""
