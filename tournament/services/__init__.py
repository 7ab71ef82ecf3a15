"""Functions that write. Each takes keyword-only arguments, runs in one transaction, and raises
`tournament.errors.UserError` for anything a person should read."""
