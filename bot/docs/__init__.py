"""Pages of the documentation site made from the code (docs/ is the site; mkdocs.yml)."""
