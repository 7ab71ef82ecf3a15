"""Printouts as PDF: score sheets, seating plans, standings.

- `documents.py` reads the database and fills the templates under templates/print/: one HTML
  string per printed document (a sheet per table, a seating plan, standings).
- `render.py` turns HTML into PDF with WeasyPrint. Every PDF is cached on disk under the hash of its
  HTML, so an unchanged sheet is never laid out twice; a round's sheets are rendered per table (the
  missing ones in a process pool) and merged into one PDF.
- `jobs.py` builds the large PDFs in the background (django-tasks) and keeps their progress.

This package's `__init__` stays free of Django imports: the pool's worker processes import
`render.py` only, and need neither settings nor database.
"""
