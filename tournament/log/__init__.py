"""The change log: every write recorded with who, when and what it was before.

- `audit`: recording a change (`audit.recording(...)` around a service's writes: one `DataChange`
  per change, django-simple-history's records linked to it), the actions' names, `Actor`
- `changelog`: reading it back for people: the Protokoll page, a change in words, restoring
"""
