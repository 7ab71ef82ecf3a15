"""The Django app: tournaments, rounds, tables, players, results."""
