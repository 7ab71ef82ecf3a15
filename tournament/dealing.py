"""Who deals and who sits out: dealing goes round the table in seat order from seat 1; at a table
of 5 the dealer sits out that game."""


def dealer_position(table_size: int, number: int) -> int:
    """The seat (1-based) that deals game `number`."""
    return (number - 1) % table_size + 1


def game_players(seat_entries: list, number: int) -> tuple:
    """(dealer, sitting out or None, the 4 players) of game `number` at a table seated in this order."""
    dealer = seat_entries[dealer_position(len(seat_entries), number) - 1]
    sitting_out = dealer if len(seat_entries) == 5 else None
    return dealer, sitting_out, [e for e in seat_entries if e != sitting_out]
