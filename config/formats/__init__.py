"""The site's own date and number formats per language (settings.FORMAT_MODULE_PATH); a language
without a module here keeps Django's (German: "28.11.2026", "13:29")."""
