"""Printouts as PDF: score sheets, seating plans, standings, the prize list.

- `documents`: what goes on paper, read from the database: the HTML of each printout (templates under
  templates/print/), and for a score sheet its texts for `sheet_pdf`
- `sheet_pdf`: a score sheet drawn straight onto the PDF page with ReportLab (no HTML)
- `posters`: the registration's A4 poster with its QR codes (HTML for WeasyPrint)
- `render`: every PDF cached on disk under the hash of what it prints; the other printouts laid out
  by WeasyPrint; a round's sheets drawn 25 to a file (the missing ones in a process pool), merged
- `jobs`: the large PDFs built in the background (django-tasks), with their progress

This package's `__init__` stays free of Django imports: the pool's worker processes import
`render.py` only, and need neither settings nor database.
"""
