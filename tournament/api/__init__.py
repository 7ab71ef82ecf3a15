"""The open read API under /api/v1/ (docs/api.md): what a visitor may see of every organisation's
public tournaments and Ranglisten, as JSON, described by OpenAPI 3 (django-ninja).

- `routes`: the endpoints (thin: each reads through the selectors and the public pages' helpers);
- `schemas`: the answers' shapes, from which the OpenAPI description is made;
- `answers`: what every endpoint shares: the visitor's view, JSON errors in the reader's language,
  the rate limit, pagination and the ETags;
- `reading`: the public rows of each endpoint, made from the selectors' results;
- `public_file`: the tournament file (the exchange format) as the public may see it.
"""
